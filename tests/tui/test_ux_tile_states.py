"""The cursor on a chosen tile looks unlike both the cursor alone and a chosen tile alone, in
every tile style, and without relying on colour (NO_COLOR)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App

from minefield.tui.config import Preferences
from minefield.tui.render import TILE_STYLES, TileStyle
from minefield.tui.textual_private import screen_lines
from minefield.tui.widgets.tiles import TileRow
from tests.tui.conftest import make_app
from tests.tui.test_input_typing import builder

Look = tuple[tuple[str, bool, bool, bool], ...]


def look(app: App[Any], row: TileRow, index: int) -> Look:
    """What a place shows, cell by cell, without colours: the character and its bold,
    underline and reverse attributes."""
    region = row.places[index].region
    lines = screen_lines(app.screen)
    cells = []
    for y in range(region.y, region.bottom):
        for x in range(region.x, region.right):
            style = app.screen.get_style_at(x, y)
            cells.append((lines[y][x], bool(style.bold), bool(style.underline),
                          bool(style.reverse)))
    return tuple(cells)


@pytest.mark.parametrize("style", TILE_STYLES)
async def test_cursor_on_a_chosen_tile_is_distinct(style: TileStyle) -> None:
    app = make_app(preferences=Preferences(hint="off", tile_style=style))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await builder(pilot)
        rack = screen.query_one("#rack", TileRow)
        first, second = screen.own_tiles[:2]
        assert first == second  # seed 1: 1m 1m, so both places show the same label
        await pilot.press("space")  # choose the first; the cursor stays on it
        await pilot.pause()
        cursor_and_chosen = look(app, rack, 0)
        await pilot.press("right")
        await pilot.pause()
        chosen, cursor = look(app, rack, 0), look(app, rack, 1)
        assert len({cursor_and_chosen, chosen, cursor}) == 3
