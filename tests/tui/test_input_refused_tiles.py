"""Enter never discards a tile the player did not choose (R10: the discard is the player's
choice): after a refused typed tile (not in the pool, no tile at all, a group, half typed, out
of turn) nothing stays selected and Enter discards nothing until a tile is chosen again. The
same play screen serves practice, hot-seat and network play: each is tried."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static

from minefield.rules.game import Seat
from minefield.rules.tiles import Tile
from minefield.session.remote_start import host
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.screens.builder import HandBuilderScreen
from minefield.tui.screens.dialogs import ConfirmScreen
from minefield.tui.screens.play import PlayScreen
from minefield.tui.widgets.tiles import TileRow
from tests.server.conftest import make_config, short_dir, start_daemon  # noqa: F401
from tests.tui.conftest import make_app, settle
from tests.tui.test_hotseat import hands_chosen
from tests.tui.test_input_typing import play_screen
from tests.waiting import until

#: Every key sequence that types no tile of the pool: refused, each followed by Enter.
BAD_TYPING = (("8", "z"), ("2", "3", "p"), ("5",), ("g",), ("²", "m"))


def absent_tile(play: PlayScreen) -> Tile:
    """A tile kind (a number tile: typed as digit and suit) that is not in the pool."""
    return next(tile for tile in (Tile.parse(f"{d}{s}") for s in "mps" for d in "123456789")
                if tile not in play._pool)


def status(play: PlayScreen) -> str:
    """The play screen's status line."""
    return str(play.query_one("#status", Static).content)


async def refused_then_enter(pilot: Pilot[Any], play: PlayScreen, keys: tuple[str, ...]) -> None:
    """Type ``keys`` (refused), press Enter: nothing is discarded, nothing is selected."""
    made = play.view.discards_made
    await pilot.press(*keys)
    await pilot.pause()
    assert not play.selected and play.query_one("#pool", TileRow).cursor is None, keys
    await pilot.press("enter")
    await settle(pilot)
    assert play.view.discards_made == made and play.view.my_turn, keys
    assert pilot.app.screen is play
    assert status(play).startswith("No tile is selected"), (keys, status(play))


async def test_enter_after_a_refused_typed_tile_discards_nothing_in_practice() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        play = await play_screen(pilot)
        missing = absent_tile(play)
        await refused_then_enter(pilot, play, tuple(str(missing)))
        assert f"no {missing}" not in status(play)  # the Enter's answer replaced it
        for keys in BAD_TYPING:
            await pilot.press("right")  # a tile selected again, then a refused one
            await pilot.pause()
            assert play.selected
            await refused_then_enter(pilot, play, keys)
        # A tile chosen again (typed): Enter discards that one.
        wanted = play._pool[-1]
        await pilot.press(*str(wanted), "enter")
        await settle(pilot)
        assert play.view.discards[play.seat][0] == str(wanted)


async def test_a_refused_tile_disarms_a_discard_waiting_for_its_confirmation() -> None:
    app = make_app(preferences=Preferences(hint="off", confirm_discards=True))
    async with app.run_test(size=(100, 32)) as pilot:
        play = await play_screen(pilot)
        await pilot.press("enter")  # armed: the second Enter would discard
        await pilot.pause()
        assert play.armed is not None
        await refused_then_enter(pilot, play, tuple(str(absent_tile(play))))
        assert play.armed is None
        await pilot.press("enter")  # still nothing
        await settle(pilot)
        assert play.view.discards_made == 0


async def test_a_click_after_a_refused_tile_selects_before_it_discards() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        play = await play_screen(pilot)
        cursor = play.cursor
        await pilot.press(*str(absent_tile(play)))
        await pilot.pause()
        row = play.query_one("#pool", TileRow)
        play.on_tile_row_selected(TileRow.Selected(row, cursor))  # the old place, clicked
        await settle(pilot)
        assert play.view.discards_made == 0 and play.selected and play.cursor == cursor


async def test_enter_after_a_refused_typed_tile_discards_nothing_in_hotseat() -> None:
    app = make_app("hotseat", seed=2)
    async with app.run_test(size=(100, 32)) as pilot:
        await hands_chosen(app, pilot)
        await pilot.press("enter")  # the curtain: East is ready
        await pilot.pause()
        play = app.screen
        assert isinstance(play, PlayScreen) and play.seat is Seat.EAST and play.view.my_turn
        await refused_then_enter(pilot, play, tuple(str(absent_tile(play))))
        await refused_then_enter(pilot, play, ("2", "3", "p"))


async def test_enter_after_a_refused_typed_tile_discards_nothing_over_the_network(
        short_dir: Path) -> None:  # noqa: F811
    daemon = await start_daemon(short_dir)
    try:
        session = await host(socket=make_config(short_dir).socket, player="alice", bot="easy",
                             seed="7")
        app = MinefieldApp(session=session, preferences=Preferences(hint="off"),
                           catch_errors=False)
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, HandBuilderScreen), "the builder")
            for _ in range(13):
                await pilot.press("space", "right")
            await pilot.press("enter")
            await pilot.pause()
            if isinstance(app.screen, ConfirmScreen):
                await pilot.press("y")
            await until(pilot, lambda: isinstance(app.screen, PlayScreen), "the play screen")
            play = app.screen
            assert isinstance(play, PlayScreen)
            await until(pilot, lambda: play.view.my_turn, "my turn")
            mine = len(play.view.discards[play.seat])
            await refused_then_enter(pilot, play, tuple(str(absent_tile(play))))
            await refused_then_enter(pilot, play, ("8", "z"))
            # Commands go in order: had either Enter sent a discard, it would be the first.
            wanted = play._pool[-1]
            await pilot.press(*str(wanted), "enter")
            await until(pilot, lambda: len(play.view.discards[play.seat]) > mine, "my discard")
            assert play.view.discards[play.seat][mine:] == [str(wanted)]
    finally:
        await daemon.stop()
