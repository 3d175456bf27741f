"""How long the hot-seat hand-over takes: Enter on the curtain to the next player's table
(goal: 100 ms), and which screens were shown on the way.

Runs the real app headless (Textual's test driver) at 80x24 on a hot-seat match (the
scoreboard is part of the table), both hands chosen through the session. Each sample is one
hand-over: Enter is posted on the curtain, and the clock stops at the first frame written to
the driver while the play screen is current, mounted and holds its table. Between samples the
player discards and passes the keyboard, so every sample is a real curtain of the game; before
each Enter it waits for the next seat's screen being built behind the curtain (a player takes
longer than that to sit down). The first hand-over of each seat in the game and the later ones
are reported apart.

Usage: ``python benchmarks/bench_handover.py [--seeds N] [--turns N]``. Not a test: it only
prints (the screens in between are checked by tests/tui/test_hotseat.py).
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
os.environ.setdefault("MINEFIELD_DATA_DIR", tempfile.mkdtemp(prefix="minefield-bench-"))
os.environ.setdefault("MINEFIELD_CACHE_DIR", tempfile.mkdtemp(prefix="minefield-bench-"))

from textual import events
from textual.screen import Screen

from minefield.rules.auto import auto_command
from minefield.rules.game import Seat
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.games import GameRequest
from minefield.tui.screens.dialogs import CurtainScreen
from minefield.tui.screens.play import PlayScreen

GOAL_MS = 100.0


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (f"median {statistics.median(ordered) * 1000:6.1f} ms   p95 {p95 * 1000:6.1f} ms   "
            f"max {ordered[-1] * 1000:6.1f} ms")


def _record_frames(app: MinefieldApp) -> list[tuple[float, Screen[Any]]]:
    """Time stamps (and the current screen) of every frame the app renders for display."""
    frames: list[tuple[float, Screen[Any]]] = []
    display = app._display

    def timed_display(screen: Any, renderable: Any) -> None:
        if renderable is not None:
            frames.append((time.perf_counter(), app.screen))
        display(screen, renderable)

    app._display = timed_display  # type: ignore[method-assign]
    return frames


async def _until(condition: Any, limit: float = 10.0) -> None:
    start = time.perf_counter()
    while not condition():
        await asyncio.sleep(0.0005)
        if time.perf_counter() - start > limit:
            raise TimeoutError("the app did not get there")


Sample = tuple[float, float, bool]  # wall and CPU seconds; the seat's first hand-over of the game


async def _measure(seed: int, turns: int) -> tuple[list[Sample], list[list[str]]]:
    app = MinefieldApp(GameRequest("hotseat", seed=seed, match=True),
                       preferences=Preferences(hint="off", save_records=False))
    samples: list[Sample] = []
    shown: list[list[str]] = []
    seats_seen: set[Seat] = set()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        session = app.session
        assert session is not None
        for seat in Seat:
            await session.send(seat, auto_command(session.view(seat)))
        await _until(lambda: isinstance(app.screen, CurtainScreen)
                     and app.screen.reason.startswith("Discard"))
        frames = _record_frames(app)
        screens: list[str] = []
        app.screen_change_signal.subscribe(app, lambda s: screens.append(type(s).__name__),
                                           immediate=True)
        for _ in range(turns):
            await _until(lambda: isinstance(app.screen, CurtainScreen))
            await pilot.pause()
            curtain = app.screen
            assert isinstance(curtain, CurtainScreen)
            assert app.table is not None
            await app.table.prebuilt()  # a player takes longer to sit down than this
            await pilot.pause()
            first_turn = curtain.seat not in seats_seen
            seats_seen.add(curtain.seat)
            screens.clear()
            first = len(frames)
            start, start_cpu = time.perf_counter(), time.process_time()
            app.post_message(events.Key("enter", "\r"))

            def table_drawn(first: int = first) -> bool:
                return any(isinstance(s, PlayScreen) and s.is_mounted and s.table is not None
                           for _, s in frames[first:])

            await _until(table_drawn)
            cpu = time.process_time() - start_cpu
            drawn = next(t for t, s in frames[first:] if isinstance(s, PlayScreen))
            samples.append((drawn - start, cpu, first_turn))
            shown.append(list(screens))
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            view = session.view(screen.seat)
            if view.phase != "discarding":
                break
            await session.send(screen.seat, auto_command(view))
            await _until(lambda: getattr(app.screen, "hold", False) or (
                session.view(Seat.EAST).phase == "ended"))
            if session.view(Seat.EAST).phase == "ended":
                break
            await pilot.press("enter")  # pass the keyboard: the curtain
    return samples, shown


def main() -> None:
    """Run the benchmark and print the timings."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--turns", type=int, default=10)
    args = parser.parse_args()
    samples: list[Sample] = []
    paths: set[tuple[str, ...]] = set()
    for seed in range(1, args.seeds + 1):
        part, shown = asyncio.run(_measure(seed, args.turns))
        samples.extend(part)
        paths.update(tuple(s) for s in shown)
    wall, cpu = [s[0] for s in samples], [s[1] for s in samples]
    print(f"hot-seat hand-over, Enter on the curtain -> first frame of the table, 80x24, "
          f"{len(samples)} hand-overs over {args.seeds} seeds (goal {GOAL_MS:.0f} ms)")
    print(f"  wall {_ms(wall)}   (the machine's load counts)")
    print(f"  CPU  {_ms(cpu)}   (this process's CPU time only)")
    for label, first in (("first of each seat in a game", True), ("later", False)):
        part = [s for s in samples if s[2] is first]
        if part:
            print(f"  {label} ({len(part)}): wall {_ms([s[0] for s in part])}")
            print(f"  {' ' * len(label)} {' ' * len(str(len(part)))}    "
                  f"CPU  {_ms([s[1] for s in part])}")
    for path in sorted(paths):
        print(f"  screens shown after Enter: {' -> '.join(path)}")
    print(f"  ratio of goal (median wall): {statistics.median(wall) * 1000 / GOAL_MS:.2f}   "
          f"(median CPU): {statistics.median(cpu) * 1000 / GOAL_MS:.2f}")


if __name__ == "__main__":
    main()
