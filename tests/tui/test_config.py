"""Preferences: saved as a validated model in the user config folder; a broken file is replaced."""

from __future__ import annotations

import contextlib
import json
import os
import threading
from pathlib import Path

import pytest
from pydantic import ValidationError
from textual.widget import Widget
from textual.widgets import Select

from minefield.paths import settings_path
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences, load_preferences, save_preferences
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


# -- a settings file that is not what it should be never stops the start -------------------------


def write_settings(config_dir: Path, data: bytes) -> Path:
    """Put ``data`` in the settings file of the test folder."""
    config_dir.mkdir(parents=True, exist_ok=True)
    path = config_dir / "settings.json"
    path.write_bytes(data)
    return path


def load_in_a_thread(limit: float = 30.0) -> tuple[Preferences, str | None]:
    """``load_preferences`` in a thread, so that a loader that blocks fails the test instead of
    hanging it (the limit is a guard, not a measurement)."""
    results: list[tuple[Preferences, str | None]] = []
    errors: list[BaseException] = []

    def load() -> None:
        try:
            results.append(load_preferences())
        except BaseException as error:
            errors.append(error)

    thread = threading.Thread(target=load, daemon=True)
    thread.start()
    thread.join(limit)
    if thread.is_alive():
        # Unblock the stuck open() so that the thread ends: a writer that closes at once.
        with contextlib.suppress(OSError):
            os.close(os.open(settings_path(), os.O_WRONLY | os.O_NONBLOCK))
        thread.join()
        pytest.fail("loading the settings blocked")
    if errors:
        raise errors[0]
    return results[0]


def test_invalid_utf8_is_reported_and_set_aside(config_dir: Path) -> None:
    path = write_settings(config_dir, b'{"tile_style": "text\xff"}')
    preferences, problem = load_preferences()
    assert preferences == Preferences()
    assert problem is not None and "UTF-8" in problem and str(path) in problem
    assert (config_dir / "settings.json.broken").read_bytes() == b'{"tile_style": "text\xff"}'
    assert load_preferences() == (Preferences(), None)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_named_settings_json_is_not_waited_for(config_dir: Path) -> None:
    config_dir.mkdir(parents=True)
    os.mkfifo(config_dir / "settings.json")
    preferences, problem = load_in_a_thread()
    assert preferences == Preferences()
    assert problem is not None and "not a regular file" in problem
    assert str(settings_path()) in problem
    assert load_preferences() == (Preferences(), None)  # a regular file replaced it


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_a_link_to_an_endless_device_is_not_read(config_dir: Path) -> None:
    config_dir.mkdir(parents=True)
    (config_dir / "settings.json").symlink_to("/dev/zero")
    preferences, problem = load_in_a_thread()
    assert preferences == Preferences()
    assert problem is not None and "not a regular file" in problem
    assert (config_dir / "settings.json.broken").is_symlink()  # the link, not the device, moved
    assert load_preferences() == (Preferences(), None)


def test_a_byte_order_mark_is_accepted(config_dir: Path) -> None:
    wanted = Preferences(tile_style="text", theme="nord", hint="off", bot_level="strong",
                         rules="beginner")
    write_settings(config_dir, b"\xef\xbb\xbf" + wanted.model_dump_json().encode())
    assert load_preferences() == (wanted, None)
    assert not (config_dir / "settings.json.broken").exists()


def test_an_oversized_file_is_reported_without_reading_it(config_dir: Path) -> None:
    config_dir.mkdir(parents=True)
    path = config_dir / "settings.json"
    with path.open("wb") as out:  # 300 MB, sparse: nothing is written to the disk
        out.write(b'{"theme": "')
        out.truncate(300 * 1024 * 1024)
    preferences, problem = load_preferences()
    assert preferences == Preferences()
    assert problem is not None and "larger than 64 KiB" in problem and str(path) in problem
    assert (config_dir / "settings.json.broken").stat().st_size == 300 * 1024 * 1024
    assert load_preferences() == (Preferences(), None)


def test_a_long_name_is_not_accepted(config_dir: Path) -> None:
    write_settings(config_dir, json.dumps({"theme": "x" * 10_000, "hint": "off"}).encode())
    preferences, problem = load_preferences()
    assert preferences == Preferences(hint="off")
    assert problem is not None and "theme" in problem and len(problem) < 1000
    with pytest.raises(ValidationError):
        Preferences(rules="standard" * 100)


def test_one_bad_value_resets_that_setting_only(config_dir: Path) -> None:
    write_settings(config_dir, json.dumps({"tile_style": "hexagons", "theme": "nord",
                                           "hint": "always", "bot_level": "strong"}).encode())
    preferences, problem = load_preferences()
    assert preferences == Preferences(theme="nord", hint="always", bot_level="strong")
    assert problem is not None and "tile_style" in problem and "theme" not in problem
    assert load_preferences() == (preferences, None)  # the kept settings were written back


def test_a_bad_clock_or_rule_change_resets_that_setting_only(config_dir: Path) -> None:
    """The new-game form's remembered clock (R25) and changes over a preset are checked as the
    form checks them: a bad one is named and reset, the others kept."""
    for bad, named in (({"clock": "fast"}, "clock"),
                       ({"rule_changes": {"club": ["ryanshi=maybe"]}}, "ryanshi"),
                       ({"rule_changes": {"chess": ["ryanshi=on"]}}, "chess"),
                       ({"rule_changes": {"club": ["hand_seconds=60"]}}, "clock")):
        write_settings(config_dir, json.dumps({"hint": "off", **bad}).encode())
        preferences, problem = load_preferences()
        assert preferences == Preferences(hint="off"), bad
        assert problem is not None and named in problem, (bad, problem)
    write_settings(config_dir, json.dumps({"clock": "90+5", "rule_changes": {
        "club": ["paarenchan=off"]}}).encode())
    assert load_preferences() == (
        Preferences(clock="90+5", rule_changes={"club": ("paarenchan=off",)}), None)


def test_unknown_settings_are_dropped_with_a_report(config_dir: Path) -> None:
    write_settings(config_dir, json.dumps({"tile_style": "text", "sound": "loud"}).encode())
    preferences, problem = load_preferences()
    assert preferences == Preferences(tile_style="text")
    assert problem is not None and "unknown setting 'sound'" in problem
    assert load_preferences() == (preferences, None)


@pytest.mark.parametrize("text", ['["text"]', '"box"', "null", "[" * 100_000 + "]" * 100_000])
def test_json_that_is_not_an_object_gives_the_defaults(config_dir: Path, text: str) -> None:
    write_settings(config_dir, text.encode())
    preferences, problem = load_preferences()
    assert preferences == Preferences() and problem is not None
    assert load_preferences() == (Preferences(), None)


def test_every_broken_file_is_kept(config_dir: Path) -> None:
    for number in range(3):
        write_settings(config_dir, f"broken {number}".encode())
        assert load_preferences()[1] is not None
    kept = [(config_dir / name).read_text() for name in
            ("settings.json.broken", "settings.json.broken.1", "settings.json.broken.2")]
    assert kept == ["broken 0", "broken 1", "broken 2"]


async def test_a_theme_the_app_does_not_know_opens_the_settings(config_dir: Path) -> None:
    app = make_app(preferences=Preferences(hint="off", theme="no-such-theme"))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        assert app.screen.query_one("#theme", Select).value == app.theme == "textual-dark"


async def test_a_report_with_brackets_is_shown_as_written(config_dir: Path) -> None:
    write_settings(config_dir, json.dumps({"[/nope]": 1, "rules": "[b]x[/i]"}).encode())
    app = MinefieldApp(think_seconds=0, catch_errors=False)  # loads the file itself
    async with app.run_test(size=(100, 32), notifications=True) as pilot:
        toasts: list[Widget] = []
        for _ in range(20):  # the toast is mounted a few messages after the start
            await pilot.pause()
            toasts = list(app.screen.query("Toast"))
            if toasts:
                break
        shown = "".join(str(toast.render()) for toast in toasts)  # markup would raise here
        assert "unknown setting '[/nope]' dropped" in shown
        assert app.preferences == Preferences()


def test_saving_writes_through_a_link_to_a_regular_file(config_dir: Path, tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    (dotfiles / "minefield.json").write_text("{}")
    config_dir.mkdir(parents=True)
    (config_dir / "settings.json").symlink_to(dotfiles / "minefield.json")
    assert save_preferences(Preferences(tile_style="unicode")) is None
    assert (config_dir / "settings.json").is_symlink()
    assert load_preferences() == (Preferences(tile_style="unicode"), None)
    assert sorted(p.name for p in dotfiles.iterdir()) == ["minefield.json"]  # no leftovers


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_saving_replaces_a_fifo_instead_of_waiting_for_a_reader(config_dir: Path) -> None:
    config_dir.mkdir(parents=True)
    os.mkfifo(config_dir / "settings.json")
    results: list[str | None] = []
    thread = threading.Thread(target=lambda: results.append(save_preferences(Preferences())),
                              daemon=True)
    thread.start()
    thread.join(30.0)  # a guard: the save never waits
    if thread.is_alive():
        with contextlib.suppress(OSError):
            os.close(os.open(settings_path(), os.O_RDONLY | os.O_NONBLOCK))
        thread.join()
        pytest.fail("saving the settings blocked")
    assert results == [None]
    assert load_preferences() == (Preferences(), None)


async def test_every_setting_fits_at_80x24_and_an_open_list_says_what_it_sets(
        config_dir: Path) -> None:
    """Nothing runs past the bottom at 80x24; the label of the open list stands out and its
    choices name what they set (the open list lies over the next rows)."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        text = screen_text(app)
        for label in ("Tiles", "Theme", "Hint", "Bot level", "Rules", "Stakes", "Discards",
                      "Save games", "Changes are saved at once"):
            assert label in text, label
        rules = screen.query_one("#rules", Select)
        rules.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert screen.query_one("#label-rules").has_class("-open")
        assert not screen.query_one("#label-washizu").has_class("-open")
        assert "beginner rules" in screen_text(app)
        await pilot.press("down", "enter")
        await pilot.pause()
        assert not screen.query_one("#label-rules").has_class("-open")
        assert app.preferences.rules == "beginner"
        screen.query_one("#confirm_discards", Select).value = True
        await pilot.pause()
        assert load_preferences()[0].confirm_discards is True
