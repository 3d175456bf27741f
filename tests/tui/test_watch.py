"""Watching two bots: the form, the pace and its keys, hands
hidden (nothing private on screen) or shown with the danger overlay of the seat to discard,
and what the estimate said of a discard that dealt in.

Regenerate the snapshot with ``pytest tests/tui/test_watch.py --snapshot-update`` only after
looking at it.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import Select, Static

from minefield.bots.base import Bot
from minefield.bots.levels import make_bot
from minefield.defense.estimate import percent
from minefield.rules.game import Discard, Seat
from minefield.rules.tiles import tiles_to_str
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.screens.bot_watch import (
    WatchChoice,
    WatchScreen,
    WatchSetupScreen,
    make_bots,
)
from minefield.tui.screens.menu import MenuScreen
from minefield.tui.widgets.danger import DANGER_CLASSES
from minefield.tui.widgets.replay import SeatTiles
from minefield.tui.widgets.tiles import TileRow
from tests.tui.conftest import screen_text

#: Easy bots: East wins on West's red dragon at discard 10 (tests/bots/test_bot_match.py).
RON_SEED = 6


def recording_factory(levels: list[str]) -> Any:
    """Real bots; the levels asked for are noted."""
    def factory(level: str, seed: int) -> Bot:
        levels.append(level)
        return make_bot(level, seed)
    return factory


def watch_app(choice: WatchChoice | None = None, seed: int = RON_SEED,
              paused: bool = True) -> MinefieldApp:
    """The app showing a watched game (paused: n plays each move)."""
    app = MinefieldApp(think_seconds=0, catch_errors=False,
                       preferences=Preferences(hint="off"))
    wanted = choice or WatchChoice(east="easy", west="easy")

    async def on_mount() -> None:
        await app.push_screen(WatchScreen(wanted, make_bots(wanted, seed, make_bot), seed,
                                          paused=paused))
    app.call_later(on_mount)
    return app


async def step(pilot: Pilot[Any], moves: int = 1) -> WatchScreen:
    """Play ``moves`` moves with n, each to its end."""
    screen = pilot.app.screen
    assert isinstance(screen, WatchScreen)
    for _ in range(moves):
        await pilot.press("n")
        await pilot.pause()
        await screen.workers.wait_for_complete()
        await pilot.pause()
    return screen


def pool_of(screen: WatchScreen, panel: str) -> TileRow:
    return screen.query_one(panel, SeatTiles).query_one(".replay-pool", TileRow)


async def test_the_menu_form_chooses_levels_pace_and_hands() -> None:
    levels: list[str] = []
    app = MinefieldApp(think_seconds=0, catch_errors=False, bot_factory=recording_factory(levels),
                       preferences=Preferences(hint="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("w")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, WatchSetupScreen)
        form.query_one("#east", Select).value = "easy"
        form.query_one("#west", Select).value = "normal"
        form.query_one("#pace", Select).value = 0.25
        form.query_one("#shown", Select).value = True
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, WatchScreen)
        assert levels == ["easy", "normal"] and screen.pace == 0.25 and screen.shown
        assert "Bot (easy), East v Bot (normal), West" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_pause_step_and_pace() -> None:
    app = watch_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await step(pilot, 0)
        assert screen.watched.moves == [] and "paused" in screen_text(app)
        await step(pilot, 3)  # two hands chosen, then East's first discard
        assert len(screen.watched.moves) == 3
        assert isinstance(screen.watched.moves[-1].command, Discard)
        await pilot.press("minus", "minus", "minus", "minus")  # 1 s -> 2 -> 4, then no slower
        await pilot.pause()
        assert screen.pace == 4.0
        for _ in range(6):
            await pilot.press("plus")
        await pilot.pause()
        assert screen.pace == 0.25 and screen.check_action("pace", (-1,)) is None
        await pilot.press("space")  # play on at 0.25 s per move
        await pilot.pause()
        assert not screen.paused and screen.check_action("step", ()) is None
        await pilot.press("space")
        await pilot.pause()
        assert screen.paused


async def test_hidden_hands_show_nothing_private_until_the_end() -> None:
    app = watch_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await step(pilot, 8)  # hands chosen, six discards
        for panel in ("#watch-mover", "#watch-other"):
            rows = screen.query_one(panel, SeatTiles).query(TileRow)
            assert all(row.tiles == [] for row in rows)
        text = " ".join(screen_text(app).split())
        assert text.count("face down") == 2 and "its pool is hidden" in text
        assert "safest" not in text  # no pool tile is named before it is discarded
        await step(pilot, 6)  # to the ron at discard 10
        assert screen.watched.over
        hands = [row.tiles for panel in ("#watch-mover", "#watch-other")
                 for row in screen.query_one(panel, SeatTiles).query(TileRow) if row.tiles]
        assert hands  # the end reveals both hands (R26)


async def test_shown_hands_carry_the_danger_overlay_of_the_seat_to_discard() -> None:
    app = watch_app(WatchChoice(east="easy", west="easy", shown=True))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await step(pilot, 3)  # West to discard
        mover = screen.watched.to_act()
        assert mover is Seat.WEST
        view = screen.watched.view(mover)
        hand = screen.query_one("#watch-mover", SeatTiles).query_one(".replay-hand", TileRow)
        assert tiles_to_str(hand.tiles) == view.own_hand
        pool = pool_of(screen, "#watch-mover")
        shaded = [i for i in range(len(pool.tiles))
                  if any(c in pool.places[i].classes for c in DANGER_CLASSES)]
        assert len(shaded) == len(pool.tiles) > 0
        other = pool_of(screen, "#watch-other")
        assert not any(c in place.classes for place in other.places for c in DANGER_CLASSES)
        report = screen.watched.report()
        assert report is not None
        safest = min(report.tiles, key=lambda t: (t.danger, t.loss))
        assert "West (Bot (easy)) to discard" in screen_text(app)
        assert f"{percent(safest.danger)}" in screen_text(app)
        await pilot.press("h")  # hidden again: the pools go face down
        await pilot.pause()
        assert pool_of(screen, "#watch-mover").tiles == []


async def test_another_game_from_the_menu_keeps_the_pace_and_the_hands_as_they_are_now() -> None:
    app = MinefieldApp(think_seconds=0, catch_errors=False, preferences=Preferences(hint="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("w")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, WatchSetupScreen)
        form.query_one("#pace", Select).value = 0.25
        form.query_one("#shown", Select).value = True
        await pilot.press("s")
        await pilot.pause()
        first = app.screen
        assert isinstance(first, WatchScreen) and first.shown
        await pilot.press("h")  # the hands hidden now: the next game keeps them hidden
        while not first.watched.over:
            await pilot.pause(0.05)
        await first.workers.wait_for_complete()
        await pilot.press("a")
        await pilot.pause()
        second = app.screen
        assert isinstance(second, WatchScreen) and second is not first
        assert second.pace == 0.25 and not second.shown and not second.watched.over
        assert first not in app.screen_stack and len(app.screen_stack) == 3  # default, menu
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_a_deal_in_shows_what_the_estimate_said() -> None:
    app = watch_app(WatchChoice(east="easy", west="easy", shown=True), paused=False)
    async with app.run_test(size=(80, 40)) as pilot:
        screen = app.screen
        for _ in range(200):  # at 1 s per move the game takes a while: speed it up
            if isinstance(screen, WatchScreen):
                break
            await pilot.pause()
            screen = app.screen
        assert isinstance(screen, WatchScreen)
        await pilot.press(*["plus"] * 4)
        while not screen.watched.over:
            await pilot.pause(0.05)
        await screen.workers.wait_for_complete()
        await pilot.pause()
        dealt = next(m for m in screen.watched.moves if m.dealt_in)
        assert dealt.seat is Seat.WEST and dealt.danger is not None
        text = str(screen.query_one("#watch-end", Static).render())
        assert "Ron!" in text and "West (Bot (easy)) dealt in with Rd" in text
        assert f"its estimate gave it {percent(dealt.danger)}" in text
        assert "ron!" in screen_text(app)  # marked in the log too
        assert screen.check_action("again", ()) is True


def test_watch_80x24(snap_compare: Any) -> None:
    async def seven_moves(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        await step(pilot, 7)

    assert snap_compare(watch_app(WatchChoice(east="easy", west="easy", shown=True)),
                        terminal_size=(80, 24), run_before=seven_moves)
