"""The new-game form's presets, clock and "Rules..." editor (RULES.md "Rule presets"; R25,
R32-R35): every setting with its rule number, the chosen rules reach the game, a bad value is
named in one line and nothing starts."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, Select

from minefield.rules.settings import RuleSettings, rule_names, rule_text, rule_words
from minefield.session import LocalSession
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences, load_preferences
from minefield.tui.screens.builder import HandBuilderScreen
from minefield.tui.screens.dialogs import CurtainScreen
from minefield.tui.screens.new_game import NewGameScreen
from minefield.tui.screens.rules import RulesScreen
from tests.tui.conftest import on_top, screen_text, settle, stand_in


def menu_app() -> MinefieldApp:
    return MinefieldApp(think_seconds=0, bot_factory=stand_in, catch_errors=False,
                        preferences=Preferences(hint="off"))


async def open_form(pilot: Pilot[Any], key: str) -> NewGameScreen:
    await pilot.pause()
    await pilot.press(key)
    await pilot.pause()
    form = pilot.app.screen
    assert isinstance(form, NewGameScreen)
    return form


async def open_editor(pilot: Pilot[Any]) -> RulesScreen:
    await pilot.press("ctrl+r")  # from any field of the form (r types in its name field)
    await pilot.pause()
    editor = pilot.app.screen
    assert isinstance(editor, RulesScreen)
    return editor


async def test_the_editor_lists_every_setting_with_its_rule_number() -> None:
    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_form(pilot, "h")
        editor = await open_editor(pilot)
        for name in rule_names():
            number, _, explanation = rule_text(name).partition(": ")
            assert editor.query_one(f"#rule-{name}")  # an editor for each setting
            # The setting in words; its name (what --rule takes) beside the explanation.
            labels = [str(w.render()) for w in editor.query(".rule-name")]
            assert f"{number:<4} {rule_words(name)}" in labels, name
            assert all("_" not in label for label in labels)
            notes = [str(w.render()) for w in editor.query(".rule-note")]
            assert f"{explanation} · {name}" in notes


async def test_club_with_a_change_in_the_editor_plays_a_match_under_those_rules() -> None:
    """The club's preset is a match (R30); the editor's changes go over it (R32, R35)."""
    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        form = await open_form(pilot, "h")
        form.query_one("#rules", Select).value = "club"
        await pilot.pause()
        assert form.query_one("#kind", Select).value == "match"
        note = str(form.query_one("#preset-note").render())
        assert "ryanshi on (R34), paarenchan on (R35)" in note
        editor = await open_editor(pilot)
        editor.query_one("#rule-paarenchan", Select).value = "off"
        editor.query_one("#rule-honba_points", Input).value = "300"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is form and form.rule == ("honba_points=300", "paarenchan=off")
        assert "Changed: honba_points=300, paarenchan=off" in str(
            form.query_one("#preset-note").render())
        await pilot.press("ctrl+s")
        await settle(pilot)
        session = app.session
        assert isinstance(session, LocalSession) and session.match is not None
        assert session.settings == RuleSettings.preset("club", honba_points=300,
                                                       paarenchan=False)
        assert isinstance(app.screen, CurtainScreen)


async def test_a_bad_value_in_the_editor_is_named_and_changes_nothing() -> None:
    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        form = await open_form(pilot, "p")
        editor = await open_editor(pilot)
        editor.query_one("#rule-hands", Input).value = "40"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is editor  # still open, the value named
        assert ("setting 'hands' (hands in a match): 40 is too large: give at most 16"
                in screen_text(app))
        await pilot.press("escape")
        await pilot.pause()
        assert on_top(app) is form and form.rule == ()
        assert app.session is None


async def test_r25_a_clock_from_the_form_runs_in_the_header() -> None:
    """60+10 on the form: the hand clock runs, shown in the header as in network play."""
    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        form = await open_form(pilot, "p")
        form.query_one("#clock", Select).value = "60+10"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await settle(pilot)
        session = app.session
        assert session is not None
        assert (session.settings.hand_seconds, session.settings.discard_seconds) == (60, 10)
        assert isinstance(app.screen, HandBuilderScreen)
        assert "You 1:00" in screen_text(app) or "You 0:5" in screen_text(app)


async def test_r25_a_bad_custom_clock_is_named_and_nothing_starts() -> None:
    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        form = await open_form(pilot, "h")
        form.query_one("#clock", Select).value = "custom"
        await pilot.pause()
        custom = form.query_one("#custom-clock", Input)
        assert not custom.disabled and custom.has_focus
        await pilot.press("9", "0", "enter")  # no discard clock
        await pilot.pause()
        assert app.screen is form and app.session is None
        assert "clock '90': write HAND+DISCARD" in screen_text(app)
        await pilot.press("+", "5", "enter")
        await settle(pilot)
        session = app.session
        assert session is not None
        assert (session.settings.hand_seconds, session.settings.discard_seconds) == (90, 5)


async def test_the_editor_shows_the_forms_clock_and_its_change_comes_back() -> None:
    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        form = await open_form(pilot, "p")
        form.query_one("#clock", Select).value = "180+15"
        await pilot.pause()
        editor = await open_editor(pilot)
        assert editor.query_one("#rule-hand_seconds", Input).value == "180"
        editor.query_one("#rule-discard_seconds", Input).value = "20"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert form.query_one("#clock", Select).value == "custom"
        assert form.query_one("#custom-clock", Input).value == "180+20"
        assert form.rule == ()  # the clock is the form's own setting


def test_new_game_form_80x24(snap_compare: Any) -> None:
    """The form: presets, the Rules... button and the clock."""

    async def to_the_form(pilot: Pilot[Any]) -> None:
        form = await open_form(pilot, "p")
        form.query_one("#rules", Select).value = "club"
        form.query_one("#clock", Select).value = "60+10"
        for field in form.query(Input):
            field.cursor_blink = False  # the focused name field's cursor, steady for the SVG
        await pilot.pause()

    assert snap_compare(menu_app(), terminal_size=(80, 24), run_before=to_the_form)


def test_rules_editor_80x24(snap_compare: Any) -> None:
    """The editor over the club preset: each setting, its rule number and explanation."""

    async def to_the_editor(pilot: Pilot[Any]) -> None:
        form = await open_form(pilot, "h")
        form.query_one("#rules", Select).value = "club"
        await pilot.pause()
        await open_editor(pilot)

    assert snap_compare(menu_app(), terminal_size=(80, 24), run_before=to_the_editor)


async def test_the_clock_and_the_changes_are_remembered_for_the_next_form() -> None:
    """R25, R35: a game started with a clock and a change in the editor saves both in the
    preferences (the changes under their preset); a second form, in a new app reading the
    saved file, opens with them, and another preset with none."""
    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        form = await open_form(pilot, "h")
        form.query_one("#rules", Select).value = "club"
        form.query_one("#clock", Select).value = "60+10"
        await pilot.pause()
        editor = await open_editor(pilot)
        editor.query_one("#rule-paarenchan", Select).value = "off"
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.session is not None
        assert app.session.settings.discard_seconds == 10 and not app.session.settings.paarenchan
    assert load_preferences() == (Preferences(hint="off", clock="60+10",
                                              rule_changes={"club": ("paarenchan=off",)}), None)

    again = MinefieldApp(think_seconds=0, bot_factory=stand_in, catch_errors=False)
    async with again.run_test(size=(80, 24)) as pilot:
        form = await open_form(pilot, "p")
        assert form.query_one("#clock", Select).value == "60+10"
        assert not form.rule  # the changes were over the club's preset
        form.query_one("#rules", Select).value = "club"
        await pilot.pause()
        assert form.rule == ("paarenchan=off",)
        assert "Changed: paarenchan=off" in str(form.query_one("#preset-note").render())
        form.query_one("#clock", Select).value = "custom"
        await pilot.pause()
        form.query_one("#custom-clock", Input).value = "90+5"
        form.query_one("#rules", Select).value = "standard"
        await pilot.pause()
        await pilot.press("enter")  # in the custom clock: starts the game
        await settle(pilot)
        assert again.session is not None and again.session.settings.hand_seconds == 90
    saved, problem = load_preferences()
    assert problem is None and saved.clock == "90+5"
    assert saved.rule_changes == {"club": ("paarenchan=off",)}

    third = MinefieldApp(think_seconds=0, bot_factory=stand_in, catch_errors=False)
    async with third.run_test(size=(80, 24)) as pilot:
        form = await open_form(pilot, "h")
        assert form.query_one("#clock", Select).value == "custom"
        custom = form.query_one("#custom-clock", Input)
        assert custom.value == "90+5" and not custom.disabled
