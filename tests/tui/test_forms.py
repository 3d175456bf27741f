"""The app's forms as a new player finds them: every value shown at 80x24 and
120x40, the dialog in the middle, a checkbox that reads ticked or not by its mark, the focus on
the first field, Tab that moves the focus even when typed fast, and the game's first screen
straight after the form.

Snapshots: regenerate with ``pytest tests/tui/test_forms.py --snapshot-update`` only after
looking at the new SVGs.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Select

from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.screens.bot_watch import WatchSetupScreen
from minefield.tui.screens.dialogs import CurtainScreen
from minefield.tui.screens.drills import DrillsScreen, store_recorder
from minefield.tui.screens.menu import MenuScreen
from minefield.tui.screens.new_game import NewGameScreen
from minefield.tui.screens.rules import RulesScreen
from minefield.tui.screens.settings import SettingsScreen
from tests.tui.conftest import screen_text, settle, stand_in

SIZES = [(80, 24), (120, 40)]


def menu_app(preferences: Preferences | None = None) -> MinefieldApp:
    """The app at the menu, with a stand-in bot."""
    return MinefieldApp(think_seconds=0, bot_factory=stand_in, catch_errors=False,
                        preferences=preferences or Preferences(hint="off"))


async def open_form(pilot: Pilot[Any], *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await pilot.pause()


# -- the watch form shows its values, in the middle ---------------------------------------


@pytest.mark.parametrize("size", SIZES)
async def test_the_watch_form_shows_every_value_in_the_middle(size: tuple[int, int]) -> None:
    app = menu_app()
    async with app.run_test(size=size) as pilot:
        await open_form(pilot, "w")
        form = app.screen
        assert isinstance(form, WatchSetupScreen)
        text = screen_text(app)
        for value in ("strong", "normal", "1 s per move", "hidden until the end", "standard"):
            assert value in text, text
        form.query_one("#west", Select).value = "easy"
        await pilot.pause()
        assert "easy" in screen_text(app)
        box = form.query_one("#new-game-box").region
        width, height = size
        assert abs(box.x - (width - box.right)) <= 1, box  # centred across
        assert abs(box.y - (height - box.bottom)) <= 1, box  # and down


# -- the checkbox -----------------------------------------------------------------------------


async def test_the_trainer_aids_checkbox_shows_its_mark_only_when_ticked() -> None:
    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_form(pilot, "h")
        box = app.screen.query_one("#aids", Checkbox)
        assert not box.value
        assert "▐ ▌ Trainer aids" in screen_text(app)
        box.focus()
        await pilot.press("space")
        await pilot.pause()
        assert box.value and "▐X▌ Trainer aids" in screen_text(app)


# -- focus ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("key", "first"), [("p", "#name"), ("h", "#east"), ("w", "#east")])
async def test_a_form_opens_with_the_focus_on_its_first_field(key: str, first: str) -> None:
    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_form(pilot, key)
        focused = app.focused
        assert focused is not None and focused.id == first[1:], focused


async def test_tab_tab_enter_on_the_practice_form_starts_no_game() -> None:
    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_form(pilot, "p")
        await pilot.press("tab", "tab", "enter")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen) and app.session is None


def burst(app: MinefieldApp, keys: list[str]) -> None:
    """Keys arriving together, as a terminal hands a quick typist's keys to the app: each is
    posted before any is handled."""
    for key in keys:
        character = "\t" if key == "tab" else key
        app.post_message(events.Key(key, character))


async def test_names_typed_fast_with_tab_between_go_to_both_fields() -> None:
    """Ann, Tab, Bob arriving together: Bob goes to West, every time (it went to East with
    Ann, "AnnBob", when Tab moved the focus only after the keys behind it were handed out)."""
    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for attempt in range(12):
            await open_form(pilot, "h")
            form = app.screen
            assert isinstance(form, NewGameScreen)
            form.query_one("#east", Input).focus()
            await pilot.pause()
            burst(app, [*"Ann", "tab", *"Bob"])
            await pilot.pause()
            await pilot.pause()
            names = (form.query_one("#east", Input).value, form.query_one("#west", Input).value)
            assert names == ("Ann", "Bob"), (attempt, names)
            await pilot.press("escape")
            await pilot.pause()


# -- the form to the game, with nothing in between --------------------------------------------


@pytest.mark.parametrize(("key", "first"), [("h", CurtainScreen), ("p", None)])
async def test_the_games_first_screen_follows_the_form_directly(
        key: str, first: type | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """From Start to the game's first screen (the curtain in hot-seat) the menu never shows
    (it showed for 0.08-0.19 s)."""
    resumed: list[str] = []

    def watched(self: MenuScreen) -> None:
        resumed.append("menu")  # Textual calls the screen's own handlers as well

    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_form(pilot, key)
        monkeypatch.setattr(MenuScreen, "on_screen_resume", watched, raising=False)
        form = app.screen
        assert isinstance(form, NewGameScreen)
        form.query_one("#start").focus()
        await pilot.press("enter")
        await settle(pilot)
        assert app.session is not None
        assert not isinstance(app.screen, NewGameScreen | MenuScreen)
        if first is not None:
            assert isinstance(app.screen, first)
        assert form not in app.screen_stack
        assert resumed == []


# -- the practice form remembers the level ----------------------------------------------------


async def test_the_bot_level_chosen_last_is_the_next_forms() -> None:
    app = menu_app(Preferences(hint="off", bot_level="normal"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_form(pilot, "p")
        form = app.screen
        assert isinstance(form, NewGameScreen)
        form.query_one("#level", Select).value = "strong"
        form.query_one("#start").focus()
        await pilot.press("enter")
        await settle(pilot)
        assert app.session is not None
        assert app.preferences.bot_level == "strong"
        await app.action_menu()
        await settle(pilot)
        if not isinstance(app.screen, MenuScreen):
            await pilot.press("y")  # leave the game
            await settle(pilot)
        await open_form(pilot, "p")
        assert app.screen.query_one("#level", Select).value == "strong"
    again = MinefieldApp(think_seconds=0, bot_factory=stand_in, catch_errors=False)
    async with again.run_test(size=(80, 24)) as pilot:  # the saved preferences
        await open_form(pilot, "p")
        assert again.screen.query_one("#level", Select).value == "strong"


# -- snapshots of every form (looked at: every value shows, nothing cut) ----------------------


async def _drill_ready(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, MinefieldApp)
    store = app.trainer.progress(lambda problem: None)
    screen = DrillsScreen(store_recorder(store.record_drill), store.drill_history, seed=1)
    await app.push_screen(screen)
    screen.query_one("#drill-kind", Select).value = "read_wait"
    for _ in range(100):
        await asyncio.gather(*(w.wait() for w in list(screen.workers)), return_exceptions=True)
        await pilot.pause()
        if screen.drill is not None and screen.drill.kind == "read_wait":
            break


FORMS = {
    "practice": ("p",),
    "hotseat": ("h",),
    "watch": ("w",),
    "settings": ("s",),
    "rules_editor": ("p", "ctrl+r"),
}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("form", [*FORMS, "drills"])
def test_form_snapshot(form: str, size: tuple[int, int], snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        if form == "drills":
            await _drill_ready(pilot)
        else:
            await open_form(pilot, *FORMS[form])
            expected = {"settings": SettingsScreen, "rules_editor": RulesScreen,
                        "watch": WatchSetupScreen}.get(form, NewGameScreen)
            assert isinstance(pilot.app.screen, expected)
        for field in pilot.app.screen.query(Input):
            field.cursor_blink = False  # the focused name field's cursor, steady for the SVG
        await pilot.pause()

    assert snap_compare(menu_app(), terminal_size=size, run_before=run_before)


# -- watching bots: the footer at the end -----------------------------------------------------


async def test_when_the_watched_game_ends_the_footer_offers_another_not_pause() -> None:
    from tests.tui.test_watch import step, watch_app

    app = watch_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await step(pilot, 2)
        footer = screen_text(app).splitlines()[-1]
        assert "Pause" in footer and "Step" in footer and "Another game" not in footer
        await step(pilot, 12)  # to the ron at discard 10
        assert screen.watched.over
        footer = screen_text(app).splitlines()[-1]
        assert "a Another game" in footer, footer
        assert "Pause" not in footer and "Step" not in footer and "Faster" not in footer
