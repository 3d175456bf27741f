"""The menu at 80 columns: its footer shows "F1 Help" whole beside the keys of the
games, saved games and watching, and the saved games are an entry of their own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.screens.games import GamesScreen
from minefield.tui.screens.menu import MenuScreen
from tests.tui.conftest import screen_text


def menu_app(folder: Path) -> MinefieldApp:
    """The app at its menu."""
    return MinefieldApp(think_seconds=0, catch_errors=False, record_folder=folder,
                        preferences=Preferences(hint="off"))


async def test_the_footer_shows_f1_help_whole_at_80_columns(tmp_path: Path) -> None:
    app = menu_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        footer = screen_text(app).splitlines()[-1]
        assert "F1 Help" in footer and "f▏" not in footer
        assert "p Practice" in footer and "g Games" in footer and "w Watch" in footer
        assert "q Quit" in footer
        for key, screen in (("d", "DrillsScreen"), ("t", "StatsScreen")):
            await pilot.press(key)  # keys left out of the footer still work
            await pilot.pause()
            assert type(app.screen).__name__ == screen
            await pilot.press("escape")
            await pilot.pause()


async def test_the_games_entry_opens_the_saved_games(tmp_path: Path) -> None:
    app = menu_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("down", "down", "enter")  # practice, hot-seat, saved games
        await pilot.pause()
        assert isinstance(app.screen, GamesScreen)
        await app.screen.workers.wait_for_complete()
        await pilot.pause()
        assert "No saved games yet" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


def test_menu_80x24(tmp_path: Path, snap_compare: Any) -> None:
    async def settle(pilot: Pilot[Any]) -> None:
        await pilot.pause()

    assert snap_compare(menu_app(tmp_path), terminal_size=(80, 24), run_before=settle)
