"""Typing tiles: only ASCII digits are tile digits, and the suit letter may be upper case."""

from __future__ import annotations

from textual.pilot import Pilot

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
        assert app.is_running and app.errors == [] and screen.chosen == []
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
        assert app.errors == [] and app.screen is play and play.cursor == cursor


async def test_an_upper_case_suit_types_the_tile_in_the_builder() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await builder(pilot)
        tile = screen.own_tiles[-1]
        digit, suit = str(tile)
        await pilot.press(digit, suit.upper())
        await pilot.pause()
        assert screen.chosen_tiles == [tile]


async def test_an_upper_case_suit_selects_the_tile_on_the_play_screen() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        play = await play_screen(pilot)
        pool = play._pool
        index = next(i for i, t in enumerate(pool) if t != pool[play.cursor])
        digit, suit = str(pool[index])
        await pilot.press(digit, suit.upper())
        await pilot.pause()
        assert play._pool[play.cursor] == Tile.parse(digit + suit)
        assert app.screen is play


