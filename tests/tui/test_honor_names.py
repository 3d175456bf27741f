"""Honors by name: the "Honor names" setting on every screen, typing any name of a
tile in the builder and in play, and mpsz unchanged in records.

Seed 1, East: the 34 tiles hold S W N Wh Gr Gr Rd Rd Rd and no East
(``1123447899m124456889p234459s234566777z``).
Regenerate the snapshot with ``pytest tests/tui/test_honor_names.py --snapshot-update`` only
after looking at it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Select

from minefield.rules.names import KANJI, LETTERS, HonorNames
from minefield.rules.tiles import Tile
from minefield.tui.config import Preferences, load_preferences
from minefield.tui.screens.settings import SettingsScreen
from tests.tui.conftest import make_app, screen_text
from tests.tui.test_input_typing import builder, play_screen

SOUTH, WEST, WHITE, GREEN, RED = (Tile.parse(t) for t in ("2z", "3z", "5z", "6z", "7z"))


async def test_every_name_of_a_tile_chooses_it_in_the_builder() -> None:
    app = make_app(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await builder(pilot)
        for keys in (["s"], ["S"], ["2", "z"], ["2", "Z"]):
            await pilot.press(*keys)
            await pilot.pause()
            assert screen.chosen_tiles == [SOUTH], keys
            await pilot.press("backspace")
        await pilot.press("w")
        await pilot.pause()
        assert screen.chosen_tiles == [WEST]  # W alone is West, at once
        await pilot.press("h")  # ... and Wh is White: West is put back
        await pilot.pause()
        assert screen.chosen_tiles == [WHITE]
        await pilot.press("G", "r", "r", "D")
        await pilot.pause()
        assert screen.chosen_tiles == [WHITE, GREEN, RED]
        assert "Added Rd." in screen_text(app)
        await pilot.press("e")  # no East among these 34 tiles
        await pilot.pause()
        assert "You have no E." in screen_text(app)
        assert screen.chosen_tiles == [WHITE, GREEN, RED]


async def test_names_select_a_pool_tile_in_play_and_keep_their_keys() -> None:
    app = make_app(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        play = await play_screen(pilot)
        await pilot.press("w")
        await pilot.pause()
        assert play._pool[play.cursor] == WEST
        await pilot.press("h")
        await pilot.pause()
        assert play._pool[play.cursor] == WHITE
        await pilot.press("r", "d")  # d alone is the danger overlay; after r it is Rd
        await pilot.pause()
        assert play._pool[play.cursor] == RED and app.trainer.overlay is False
        assert "Selected Rd: Enter discards it" in screen_text(app)
        await pilot.press("d")
        await pilot.pause()
        assert app.trainer.overlay is True  # the key itself still works
        await pilot.press("7", "z")
        await pilot.pause()
        assert play._pool[play.cursor] == RED


async def test_kanji_and_numbers_are_used_on_the_table() -> None:
    app = make_app(seed=1, preferences=Preferences(hint="off", honor_names="kanji"))
    async with app.run_test(size=(80, 24)) as pilot:
        await play_screen(pilot)
        text = screen_text(app)
        assert "白" in text and "中" in text and "5z" not in text
        assert "Wh" not in text.replace("such as 5p or Wh", "")  # typing Wh still works
    app = make_app(seed=1, preferences=Preferences(hint="off", honor_names="numbers"))
    async with app.run_test(size=(80, 24)) as pilot:
        await play_screen(pilot)
        text = screen_text(app)
        assert "5z" in text and not any(kanji in text for kanji in KANJI)


async def test_the_setting_is_saved_and_renames_the_tiles_at_once(config_dir: Path) -> None:
    app = make_app(seed=1)
    async with app.run_test(size=(100, 32)) as pilot:
        await play_screen(pilot)
        assert "Wh" in screen_text(app)
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        app.screen.query_one("#honor_names", Select).value = "kanji"
        await pilot.pause()
        assert load_preferences()[0].honor_names == "kanji"
        await pilot.press("escape")
        await pilot.pause()
        assert "白" in screen_text(app)
        assert "Wh" not in screen_text(app).replace("such as 5p or Wh", "")


async def test_records_keep_mpsz_whatever_the_names(tmp_path: Path) -> None:
    app = make_app(seed=1, preferences=Preferences(hint="off", honor_names="kanji"),
                   record_folder=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        play = await play_screen(pilot)
        await pilot.press("r", "d", "enter")  # discard the red dragon by name
        await pilot.pause()
        assert play.view.discards[play.seat][-1] == "7z"
    text = "".join(path.read_text() for path in tmp_path.glob("*.jsonl"))
    assert '"7z"' in text and not any(kanji in text for kanji in KANJI)


async def _kanji_table(pilot: Pilot[Any]) -> None:
    await play_screen(pilot)
    await pilot.press("w", "h")
    await pilot.pause()


def test_kanji_table_80x24(snap_compare: Any) -> None:
    """Kanji honors (two cells each, as 5z) in boxes at 80 columns, White selected."""
    assert snap_compare(make_app(seed=1, preferences=Preferences(hint="off",
                                                                 honor_names="kanji")),
                        terminal_size=(80, 24), run_before=_kanji_table)


def test_beside_a_tile_picture_the_name_not_5z() -> None:
    from rich.cells import cell_len

    from minefield.tui.render import tile_label

    for kind in range(27, 34):
        tile = Tile(kind)
        cases: tuple[tuple[HonorNames, str], ...] = (
            ("letters", LETTERS[kind - 27]), ("kanji", KANJI[kind - 27]),
            ("numbers", f"{kind - 26}z"))
        for names, expected in cases:
            label = tile_label(tile, "unicode", names)
            assert label.rstrip().endswith(expected) and cell_len(label) == 4
            assert tile_label(tile, "box", names) == expected
    assert tile_label(Tile.parse("5z"), "unicode") == "🀆 Wh"
