"""Preferences: saved as a validated model in the user config folder; a broken file is replaced."""

from __future__ import annotations

from pathlib import Path

from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences, load_preferences, save_preferences, settings_path
from minefield.tui.screens.settings import SettingsScreen
from tests.tui.conftest import make_app, screen_text


def test_the_config_folder_is_the_test_folder(config_dir: Path) -> None:
    assert settings_path() == config_dir / "settings.json"


def test_preferences_round_trip(config_dir: Path) -> None:
    assert load_preferences() == (Preferences(), None)
    wanted = Preferences(tile_style="text", theme="nord", hint="off", bot_level="strong",
                         rules="beginner")
    assert save_preferences(wanted) is None
    assert load_preferences() == (wanted, None)


def test_a_broken_settings_file_is_reported_and_replaced(config_dir: Path) -> None:
    config_dir.mkdir(parents=True)
    (config_dir / "settings.json").write_text('{"tile_style": "pictures", "rules": "chess"}')
    preferences, problem = load_preferences()
    assert preferences == Preferences()
    assert problem is not None and "tile_style" in problem and "rules" in problem
    assert (config_dir / "settings.json.broken").exists()
    assert load_preferences() == (Preferences(), None)  # defaults were written back


def test_a_file_that_is_not_json_is_no_crash(config_dir: Path) -> None:
    config_dir.mkdir(parents=True)
    (config_dir / "settings.json").write_text("tile_style = box\x00")
    preferences, problem = load_preferences()
    assert preferences == Preferences() and problem is not None


async def test_the_app_reports_a_broken_file_and_starts(config_dir: Path) -> None:
    config_dir.mkdir(parents=True)
    (config_dir / "settings.json").write_text("{not json")
    app = MinefieldApp(think_seconds=0, catch_errors=False)  # loads the file itself
    async with app.run_test(size=(100, 32), notifications=True) as pilot:
        await pilot.pause()
        assert any("not valid" in str(n.message) for n in app._notifications)
        assert app.preferences == Preferences()


async def test_settings_screen_changes_and_saves_the_tile_style(config_dir: Path) -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        await pilot.press("enter", "down", "enter")  # tile style: box -> text
        await pilot.pause()
        assert app.preferences.tile_style == "text"
        assert app.has_class("-tiles-text")
        assert load_preferences()[0].tile_style == "text"
        await pilot.press("escape")
        await pilot.pause()
        assert "Hand 0/13" in screen_text(app)


async def test_a_theme_chosen_anywhere_is_saved(config_dir: Path) -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        app.theme = "nord"  # as the palette's Theme command does
        await pilot.pause()
        assert load_preferences()[0].theme == "nord"
