"""Hot-seat through the curtain, and privacy: nothing of the other player is ever rendered."""

from __future__ import annotations

import gc
import re
from collections import Counter
from typing import Any

import pytest
from rich.pretty import pretty_repr
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static

from minefield.rules.auto import auto_command
from minefield.rules.game import Seat
from minefield.rules.tiles import parse_tiles
from minefield.session import LocalSession
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.games import GameRequest
from minefield.tui.screens.builder import HandBuilderScreen
from minefield.tui.screens.dialogs import ConfirmScreen, CurtainScreen
from minefield.tui.screens.play import PlayScreen
from minefield.tui.screens.result import ResultScreen
from minefield.tui.widgets.panels import WaitPanel
from minefield.tui.widgets.scoreboard import Scoreboard
from minefield.tui.widgets.tiles import TileRow, TileWidget
from tests.tui.conftest import make_app, screen_text, settle

TILE = re.compile(r"[0-9][mpsz]")


def rendered_tiles(app: MinefieldApp) -> list[str]:
    """Every face-up tile in every screen of the app (mounted widgets, covered or not)."""
    return [str(w.tile) for screen in app.screen_stack for w in screen.query(TileWidget)
            if w.tile is not None and not w.face_down and not w.has_class("-dora-indicator")]


def assert_curtain_hides_everything(app: MinefieldApp, seat: Seat) -> None:
    """R26 in hot-seat: while the curtain is up no private tile exists on any screen: none in
    the stack, and the play screens kept for the players' next turns show the public discards
    only (no hand, pool, waits, furiten or log)."""
    assert isinstance(app.screen, CurtainScreen)
    text = screen_text(app)
    assert f"Pass to {seat.value.title()}" in text and "press Enter when ready" in text
    assert not TILE.search(text), text
    assert rendered_tiles(app) == []
    assert not any(isinstance(s, HandBuilderScreen | PlayScreen) for s in app.screen_stack)
    assert app.table is not None and isinstance(app.session, LocalSession)
    public = Counter(t for row in app.session.view(seat).discards.values() for t in row)
    for kept in app.table.kept_screens:
        assert isinstance(kept, PlayScreen) and kept not in app.screen_stack
        shown = Counter(str(w.tile) for w in kept.query(TileWidget) if w.tile is not None
                        and not w.face_down and not w.has_class("-dora-indicator"))
        assert shown <= public, shown - public
        for private in ("#hand", "#pool"):
            assert not kept.query_one(private, TileRow).tiles
        assert str(kept.query_one("#log-text", Static).content) == ""
        assert kept.query_one(WaitPanel).parts == []


def assert_no_hidden_tiles_in_reprs(app: MinefieldApp) -> None:
    """A crash report prints locals: the session, the app and the screens must not show tiles."""
    assert app.session is not None
    for thing in (app.session, app, app.screen, *app.screen_stack):
        assert not TILE.search(repr(thing)), repr(thing)
    assert not TILE.search(pretty_repr(app.session))


def assert_shows_only_own_tiles(app: MinefieldApp, seat: Seat) -> None:
    """After the curtain, exactly this seat's own tiles and the public discards are rendered
    (as multisets): nothing of the other player's hand or pool (R26)."""
    screen = app.screen
    assert isinstance(screen, PlayScreen | HandBuilderScreen)
    assert screen.seat is seat
    session = app.session
    assert isinstance(session, LocalSession)
    view = session.view(seat)
    shown = Counter(rendered_tiles(app))
    if isinstance(screen, HandBuilderScreen):
        chosen = [str(t) for t in screen.chosen_tiles]
        assert shown == Counter(_tiles(view.own_tiles)) + Counter(chosen)
    else:
        public = [t for row in view.discards.values() for t in row]
        assert shown == Counter(_tiles(view.own_hand or "") + _tiles(view.own_pool) + public)


def _tiles(text: str) -> list[str]:
    return [str(t) for t in parse_tiles(text)]


async def test_hotseat_game_through_the_curtain() -> None:
    app = make_app("hotseat", seed=2, preferences=Preferences(hint="always"))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert_curtain_hides_everything(app, Seat.EAST)
        assert "Hot-seat" in app.sub_title

        for seat in (Seat.EAST, Seat.WEST):
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, HandBuilderScreen)
            assert_shows_only_own_tiles(app, seat)
            await settle(pilot)  # the hint, computed in a thread
            await pilot.press("i", "enter")  # take the hint's 13 tiles and confirm
            await pilot.pause()
            if isinstance(app.screen, ConfirmScreen):
                await pilot.press("y")
                await pilot.pause()
            assert_curtain_hides_everything(app, seat.other if seat is Seat.WEST else Seat.WEST)
            assert_no_hidden_tiles_in_reprs(app)

        seat = Seat.EAST
        for number in range(1, 5):  # four discards, two curtains each way (test time)
            await pilot.press("enter")  # the curtain: ready
            await pilot.pause()
            assert isinstance(app.screen, PlayScreen)
            assert_shows_only_own_tiles(app, seat)
            assert "Your turn" in screen_text(app)
            await pilot.press("enter")  # discard
            await pilot.pause()
            if isinstance(app.screen, ResultScreen):
                break
            assert "Press Enter to pass the keyboard" in screen_text(app)
            assert app.screen.view.discards_made == number
            await pilot.press("enter")  # pass the keyboard
            await pilot.pause()
            seat = seat.other
            assert_curtain_hides_everything(app, seat)
            assert_no_hidden_tiles_in_reprs(app)
        assert isinstance(app.screen, CurtainScreen) and isinstance(app.session, LocalSession)
        assert app.session.view(Seat.EAST).discards_made == 4


def hotseat_match() -> MinefieldApp:
    """A hot-seat match on seed 2 (the scoreboard is part of the table)."""
    return MinefieldApp(GameRequest("hotseat", seed=2, match=True), think_seconds=0,
                        preferences=Preferences(hint="off"), catch_errors=False)


async def hands_chosen(app: MinefieldApp, pilot: Pilot[Any]) -> None:
    """Both hands chosen through the session: the curtain of East's first discard."""
    await pilot.pause()
    session = app.session
    assert isinstance(session, LocalSession)
    for seat in Seat:
        await session.send(seat, auto_command(session.view(seat)))
    await settle(pilot)


async def test_the_curtain_goes_straight_to_the_next_table() -> None:
    """Enter on the curtain shows the next player's table at once, scoreboard and all: no menu
    and no table without its scoreboard in between; passing the keyboard shows the curtain at
    once. Every screen that becomes current is recorded (the time is measured by
    benchmarks/bench_handover.py, not here)."""
    app = hotseat_match()
    shown: list[tuple[str, bool]] = []

    def became_current(screen: Screen[object]) -> None:
        table = getattr(screen, "table", None)  # the scoreboard's match, given before showing
        shown.append((type(screen).__name__, table is not None and table.match is not None))

    async with app.run_test(size=(80, 24)) as pilot:
        await hands_chosen(app, pilot)
        app.screen_change_signal.subscribe(app, became_current, immediate=True)
        seat = Seat.EAST
        for turn in range(4):  # each player's table built once, then kept for the next turns
            assert app.table is not None
            await app.table.prebuilt()
            # From the first turn on, the table is built behind the curtain, out of the stack,
            # with the public tiles only (checked here: no hand, pool, waits or log).
            assert_curtain_hides_everything(app, seat)
            behind = [s for s in app.table.kept_screens if s.seat is seat]
            assert len(behind) == 1 and behind[0].is_mounted, turn
            shown.clear()
            await pilot.press("enter")  # ready
            await pilot.pause()
            assert shown == [("PlayScreen", True)], turn
            assert app.screen is behind[0]
            assert isinstance(app.screen, PlayScreen) and app.screen.seat is seat
            assert app.screen.query_one(Scoreboard).display
            assert_shows_only_own_tiles(app, seat)
            await pilot.press("enter", "enter")  # discard, pass the keyboard
            await pilot.pause()
            assert shown == [("PlayScreen", True), ("CurtainScreen", False)], turn
            seat = seat.other
        assert len(app.table.kept_screens) == 2 if app.table is not None else False


async def test_no_garbage_collection_falls_inside_a_hand_over(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The garbage collector runs a full collection behind each curtain of the play (the
    player is passing the keyboard), is off from Enter on the curtain to the table's first
    frame, and is back on after it (a full collection of a grown app takes 100 ms and more:
    it would double a hand-over; the time is measured by benchmarks/bench_handover.py)."""
    app = hotseat_match()
    collector_on_when_shown: list[bool] = []
    collected_on: list[str] = []  # the current screen at each full collection asked for
    real_collect = gc.collect

    def collect(generation: int = 2) -> int:
        collected_on.append(type(app.screen).__name__)
        return real_collect(generation)

    monkeypatch.setattr(gc, "collect", collect)

    def became_current(screen: Screen[object]) -> None:
        if isinstance(screen, PlayScreen):
            collector_on_when_shown.append(gc.isenabled())

    async with app.run_test(size=(80, 24)) as pilot:
        await hands_chosen(app, pilot)
        app.screen_change_signal.subscribe(app, became_current, immediate=True)
        for turn in range(3):
            assert isinstance(app.screen, CurtainScreen) and app.table is not None
            await app.table.prebuilt()
            assert collected_on == ["CurtainScreen"] * (turn + 1), turn  # behind the curtain
            assert gc.isenabled()
            await pilot.press("enter")  # ready
            await pilot.pause()
            assert isinstance(app.screen, PlayScreen)
            assert collector_on_when_shown == [False] * (turn + 1)  # off for the hand-over
            assert gc.isenabled(), turn  # and on again once the table is drawn
            await pilot.press("enter", "enter")  # discard, pass the keyboard
            await pilot.pause()
