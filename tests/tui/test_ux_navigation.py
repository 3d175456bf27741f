"""Moving the cursor: Up and Down reach the tile drawn above or below, in every tile style."""

from __future__ import annotations

import pytest

from minefield.tui.config import Preferences
from minefield.tui.render import TILE_STYLES, TileStyle
from minefield.tui.screens.builder import HandBuilderScreen
from minefield.tui.widgets.tiles import TileRow
from tests.tui.conftest import make_app
from tests.tui.test_input_typing import builder, play_screen


def assert_below(row: TileRow, upper: int, lower: int) -> None:
    """The place ``lower`` is drawn right under the place ``upper`` (same column)."""
    top, bottom = row.places[upper].region, row.places[lower].region
    assert bottom.x == top.x and bottom.y > top.y, (upper, lower, top, bottom)


@pytest.mark.parametrize("style", TILE_STYLES)
async def test_down_and_up_in_the_rack_follow_the_layout(style: TileStyle) -> None:
    app = make_app(preferences=Preferences(hint="off", tile_style=style))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await builder(pilot)
        rack = screen.query_one("#rack", TileRow)
        assert screen.cursor == 0
        await pilot.press("down")
        await pilot.pause()
        assert screen.cursor > 0 and rack.cursor == screen.cursor
        assert_below(rack, 0, screen.cursor)
        await pilot.press("up", "right", "down")
        await pilot.pause()
        assert_below(rack, 1, screen.cursor)
        await pilot.press("up")
        await pilot.pause()
        assert screen.cursor == 1
        assert isinstance(app.screen, HandBuilderScreen)


@pytest.mark.parametrize("style", TILE_STYLES)
async def test_down_in_the_pool_follows_the_layout(style: TileStyle) -> None:
    app = make_app(preferences=Preferences(hint="off", tile_style=style))
    async with app.run_test(size=(80, 24)) as pilot:
        play = await play_screen(pilot)
        pool = play.query_one("#pool", TileRow)
        assert play.cursor == 0
        await pilot.press("down")
        await pilot.pause()
        assert play.cursor > 0 and pool.cursor == play.cursor
        assert_below(pool, 0, play.cursor)
        await pilot.press("up")
        await pilot.pause()
        assert play.cursor == 0
