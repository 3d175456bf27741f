"""How long from a tile toggle in the hand builder to the updated analysis panel (goal: 50 ms).

Runs the real app headless (Textual's test driver) and toggles the 13th tile in and out on
several seeds, so that the analysis of a full 13-tile hand is what gets measured. Prints the
median and the 95th percentile of three timings:

- analysis: the pure computation (``analyze_choice``), no Textual;
- handler: the screen's toggle handler (marks, hand row, analysis, panel text);
- handled: a key event posted to the app until the handler has computed the new analysis;
- to screen: a space key event posted to the app (as the terminal driver does) to the first
  frame written to the driver that shows the new analysis: Textual's message loop, bindings,
  the handler, layout and rendering.

Usage: ``python benchmarks/bench_tui.py [--seeds N] [--toggles N]``. Not a test: it only prints.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from typing import Any

os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")
os.environ.setdefault("MINEFIELD_CONFIG_DIR", tempfile.mkdtemp(prefix="minefield-bench-"))
os.environ.setdefault("MINEFIELD_CACHE_DIR", tempfile.mkdtemp(prefix="minefield-bench-"))

from textual import events

from minefield.rules.auto import auto_command
from minefield.rules.game import ChooseHand, Discard, PlayerView, Seat
from minefield.tui.analysis import analyze_choice
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.games import GameRequest
from minefield.tui.screens.builder import HandBuilderScreen

GOAL_MS = 50.0
HANDLED: list[float] = []


class _Bot:
    level = "easy"

    def act(self, view: PlayerView) -> ChooseHand | Discard:
        return auto_command(view)


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"median {statistics.median(ordered) * 1000:6.2f} ms   p95 {p95 * 1000:6.2f} ms"


def _record_frames(app: MinefieldApp) -> list[float]:
    """Time stamps of every frame the app renders for display (the headless driver then
    skips the terminal write, a few hundred microseconds of output)."""
    frames: list[float] = []
    display = app._display

    def timed_display(screen: Any, renderable: Any) -> None:
        if renderable is not None:
            frames.append(time.perf_counter())
        display(screen, renderable)

    app._display = timed_display  # type: ignore[method-assign]
    return frames


async def _key_to_frame(app: MinefieldApp, screen: HandBuilderScreen,
                        frames: list[float]) -> float:
    """Post a space key and wait for the first frame written after the analysis changed."""
    before = screen.analysis
    start = time.perf_counter()
    app.post_message(events.Key("space", " "))
    changed_at = None
    while True:
        await asyncio.sleep(0.0005)
        if changed_at is None and screen.analysis is not before:
            changed_at = len(frames)
            HANDLED.append(time.perf_counter() - start)
        if changed_at is not None and len(frames) > changed_at:
            return frames[changed_at] - start
        if time.perf_counter() - start > 5:
            raise TimeoutError("no frame after the toggle")


async def _measure(seed: int, toggles: int) -> tuple[list[float], list[float], list[float]]:
    app = MinefieldApp(GameRequest("practice", seed=seed, seat=Seat.EAST), think_seconds=0,
                       bot_factory=lambda level, s: _Bot(), preferences=Preferences(hint="off"))
    analysis: list[float] = []
    handler: list[float] = []
    to_screen: list[float] = []
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HandBuilderScreen)
        frames = _record_frames(app)
        for _ in range(12):
            await pilot.press("space", "right")
        await pilot.pause()
        for _ in range(toggles):
            start = time.perf_counter()
            chosen = [*screen.chosen_tiles, screen.own_tiles[screen.cursor]]
            analyze_choice(screen.own_tiles, chosen, screen.seat, screen.own_tiles[0])
            analysis.append(time.perf_counter() - start)

            start = time.perf_counter()
            screen.toggle(screen.cursor)
            handler.append(time.perf_counter() - start)
            screen.toggle(screen.cursor)

            to_screen.append(await _key_to_frame(app, screen, frames))
            await pilot.press("space")
            await pilot.pause()
            await pilot.press("right")
    return analysis, handler, to_screen


def main() -> None:
    """Run the benchmark and print the timings."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--toggles", type=int, default=15)
    args = parser.parse_args()
    totals: tuple[list[float], list[float], list[float]] = ([], [], [])
    for seed in range(1, args.seeds + 1):
        for total, part in zip(totals, asyncio.run(_measure(seed, args.toggles)), strict=True):
            total.extend(part)
    count = len(totals[0])
    print(f"tile toggle -> analysis panel, {count} toggles of a 13th tile, "
          f"{args.seeds} seeds (goal {GOAL_MS:.0f} ms)")
    print(f"  analysis   {_ms(totals[0])}")
    print(f"  handler    {_ms(totals[1])}")
    print(f"  to screen  {_ms(totals[2])}")
    print(f"  handled    {_ms(HANDLED)}   (key posted -> analysis computed)")
    print(f"  ratio of goal (to screen, median): "
          f"{statistics.median(totals[2]) * 1000 / GOAL_MS:.2f}")


if __name__ == "__main__":
    main()
