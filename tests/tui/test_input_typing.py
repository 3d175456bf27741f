"""Typing tiles: only ASCII digits are tile digits, and the suit letter may be upper case."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Static

from minefield.rules.tiles import Tile
from minefield.tui.screens.builder import HandBuilderScreen
from minefield.tui.screens.dialogs import ConfirmScreen
from minefield.tui.screens.play import PlayScreen
from tests.tui.conftest import make_app, settle


async def builder(pilot: Pilot[int]) -> HandBuilderScreen:
    """The hand builder the game starts with."""
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, HandBuilderScreen)
    return screen


async def play_screen(pilot: Pilot[int]) -> PlayScreen:
    """Choose the first 13 tiles of the rack and confirm: East's turn on the play screen."""
    await builder(pilot)
    for _ in range(13):
        await pilot.press("space", "right")
    await pilot.press("enter")
    await pilot.pause()
    if isinstance(pilot.app.screen, ConfirmScreen):
        await pilot.press("y")
    await settle(pilot)
    await pilot.pause()
    play = pilot.app.screen
    assert isinstance(play, PlayScreen) and play.view.my_turn
    return play


async def test_a_superscript_two_in_the_builder_is_no_tile_and_no_error() -> None:
    app = make_app(catch_errors=True)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await builder(pilot)
        for _ in range(6):  # each was an error, and six ended the app
            await pilot.press("²", "m")
        await pilot.pause()
        assert app.is_running and app.crash.errors == [] and screen.chosen == []
        assert app.screen is screen
        tile = screen.own_tiles[0]
        await pilot.press(*str(tile))  # typing still works afterwards
        await pilot.pause()
        assert screen.chosen_tiles == [tile]


async def test_a_superscript_two_on_the_play_screen_is_no_tile_and_no_error() -> None:
    app = make_app(catch_errors=True)
    async with app.run_test(size=(100, 32)) as pilot:
        play = await play_screen(pilot)
        cursor = play.cursor
        await pilot.press("²", "m", "٣", "p")  # other Unicode digits neither
        await pilot.pause()
        assert app.crash.errors == [] and app.screen is play and play.cursor == cursor


async def test_an_upper_case_suit_types_the_tile_in_the_builder() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await builder(pilot)
        tile = screen.own_tiles[-1]
        digit, suit = tuple(str(tile))  # a tile's two characters, as in 5m
        await pilot.press(digit, suit.upper())
        await pilot.pause()
        assert screen.chosen_tiles == [tile]


async def test_an_upper_case_suit_selects_the_tile_on_the_play_screen() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        play = await play_screen(pilot)
        pool = play._pool
        index = next(i for i, t in enumerate(pool) if t != pool[play.cursor])
        digit, suit = tuple(str(pool[index]))
        await pilot.press(digit, suit.upper())
        await pilot.pause()
        assert play._pool[play.cursor] == Tile.parse(digit + suit)
        assert app.screen is play




async def test_a_typed_group_adds_each_of_its_tiles_in_the_builder() -> None:
    """``234p`` adds 2p 3p 4p; a group with a tile that cannot be added adds nothing and says
    which tile and why."""
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await builder(pilot)
        rack = [str(t) for t in screen.own_tiles]
        suit = next(s for s in "mps" if sum(t.endswith(s) for t in rack) >= 3)
        digits = sorted({t[0] for t in rack if t.endswith(suit) and t[0] != "0"})[:3]
        await pilot.press(*digits, suit)
        await pilot.pause()
        assert sorted(str(t) for t in screen.chosen_tiles) == [d + suit for d in digits]
        status = str(screen.query_one("#status", Static).content)
        assert status == "Added " + " ".join(d + suit for d in digits) + "."
        missing = next(f"{d}{suit}" for d in "123456789" if f"{d}{suit}" not in rack)
        await pilot.press(digits[0], missing[0], suit)  # one of them is not in the rack
        await pilot.pause()
        assert len(screen.chosen) == 3
        status = str(screen.query_one("#status", Static).content)
        assert status.endswith(f"nothing added, you have no {missing}."), status
        await pilot.press("1", "8", "z")
        await pilot.pause()
        assert str(screen.query_one("#status", Static).content) == "8z is not a tile (in 18z)."
        assert len(screen.chosen) == 3


async def test_the_play_screen_takes_one_typed_tile_at_a_time() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        play = await play_screen(pilot)
        cursor = play.cursor
        await pilot.press("2", "3", "p")
        await pilot.pause()
        assert play.cursor == cursor
        assert "type one tile at a time" in str(play.query_one("#status", Static).content)
