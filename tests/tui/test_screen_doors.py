"""The defense trainer's doors belong to the screens that own them: the menu opens the drills
and the progress, the play screen switches the feedback, the result screen opens the review
(and, between games, the drills and the progress). Each is given the trainer's doors and the
preferences when it is made; the app keeps only the app-wide keys, and the command palette
offers a door only where its screen is, run by that screen."""

from __future__ import annotations

import inspect
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Static

from minefield.rules.game import Seat
from minefield.session.base import SessionTraits
from minefield.tui.app import MinefieldApp
from minefield.tui.command_palette import ScreenActions
from minefield.tui.config import Preferences
from minefield.tui.screens.drills import DrillsScreen
from minefield.tui.screens.menu import MenuScreen
from minefield.tui.screens.play import PlayScreen
from minefield.tui.screens.result import ResultScreen
from minefield.tui.screens.review import ReviewScreen
from minefield.tui.screens.stats import StatsScreen
from minefield.tui.trainer import Trainer
from minefield.tui.trainer_actions import TrainerDoors
from tests.tui.conftest import on_top, settle
from tests.tui.test_trainer import fast_app, practice, prepared, text_of

TRAINER_COMMANDS = ("Defense stats", "Defense drills")


def palette_titles(app: MinefieldApp) -> list[str]:
    """Every command the palette offers on the screen shown now: the screen's keys (as the
    footer lists them), then the app's and the screen's own commands."""
    screen = app.screen
    keys = [name for name, _, _ in ScreenActions(screen)._actions()]
    return keys + [command.title for command in app.get_system_commands(screen)]


async def run_from_palette(pilot: Pilot[Any], title: str) -> None:
    """Run the palette's command ``title`` on the screen shown now, as choosing it does."""
    app = pilot.app
    assert isinstance(app, MinefieldApp)
    screen = app.screen
    commands = {name: command for name, _, command in ScreenActions(screen)._actions()}
    commands |= {c.title: c.callback for c in app.get_system_commands(screen)}
    result = commands[title]()
    if inspect.isawaitable(result):
        await result
    await settle(pilot)


async def test_the_app_holds_no_trainer_actions() -> None:
    """The trainer's keys are the screens': none is an app action any more."""
    for action in ("action_stats", "action_drills", "action_review_game",
                   "action_toggle_feedback"):
        assert not hasattr(MinefieldApp, action), action
    assert not hasattr(MinefieldApp, "feedback_notes")
    for screen_class, action in ((PlayScreen, "toggle_feedback"), (ResultScreen, "review_game")):
        assert action in {getattr(b, "action", "") for b in screen_class.BINDINGS}


async def test_the_menus_palette_opens_the_drills_and_the_progress_and_only_there() -> None:
    app = fast_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        titles = palette_titles(app)
        assert all(title in titles for title in TRAINER_COMMANDS)
        assert "Settings" in titles and "Screenshot" not in titles
        await run_from_palette(pilot, "Defense stats")
        assert isinstance(on_top(app), StatsScreen)
        # On the progress itself it is not offered again (it would do nothing), nor the drills.
        assert not any(title in palette_titles(app) for title in TRAINER_COMMANDS)
        await pilot.press("escape")
        await pilot.pause()
        await run_from_palette(pilot, "Defense drills")
        assert isinstance(on_top(app), DrillsScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(on_top(app), MenuScreen)
        await pilot.press("t")  # the menu's own key opens the same door
        await pilot.pause()
        assert isinstance(on_top(app), StatsScreen)


async def test_the_play_screens_palette_switches_feedback_and_opens_no_trainer_screen() -> None:
    app = fast_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await app.play(practice(prepared()))
        await settle(pilot)
        await pilot.press("enter")  # a discard: its feedback line is kept, shown when on
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen) and "%" not in text_of(app, "#log-text")
        titles = palette_titles(app)
        assert "Feedback" in titles and "Danger" in titles and "Settings" in titles
        # In the middle of a game the trainer's other screens are the menu's and the result's.
        assert not any(title in titles for title in TRAINER_COMMANDS)
        assert "Review defense" not in titles
        await run_from_palette(pilot, "Feedback")
        assert app.preferences.discard_feedback and "%" in text_of(app, "#log-text")
        await run_from_palette(pilot, "Feedback")
        assert not app.preferences.discard_feedback and "%" not in text_of(app, "#log-text")


async def test_the_result_screen_opens_the_review_and_between_games_the_progress() -> None:
    app = fast_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await app.play(practice(prepared()))
        await settle(pilot)
        for keys in (("1", "z", "enter"), ("2", "z", "enter")):  # safe, then the deal-in
            await pilot.press(*keys)
            await settle(pilot)
        result = app.screen
        assert isinstance(result, ResultScreen)
        titles = palette_titles(app)
        assert "Review defense" in titles
        assert all(title in titles for title in TRAINER_COMMANDS)
        await run_from_palette(pilot, "Defense stats")
        stats = on_top(app)
        assert isinstance(stats, StatsScreen) and stats.summary.games == 1
        await pilot.press("escape")
        await pilot.pause()
        assert on_top(app) is result
        await run_from_palette(pilot, "Review defense")
        review = on_top(app)
        assert isinstance(review, ReviewScreen)
        # The review has its own keys: the trainer's other doors are not offered over it.
        assert not any(title in palette_titles(app) for title in TRAINER_COMMANDS)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("v")  # the result screen's own key opens the same review
        await settle(pilot)
        assert isinstance(on_top(app), ReviewScreen)


class KeptPreferences:
    """Preferences kept in memory (a :class:`~minefield.tui.host.PreferencesKeeper`)."""

    def __init__(self, preferences: Preferences) -> None:
        self.preferences = preferences
        self.applied: list[Preferences] = []

    def apply(self, preferences: Preferences, save: bool = True) -> None:
        """Use ``preferences`` from now on."""
        self.preferences = preferences
        self.applied.append(preferences)


class BareApp(App[None]):
    """A Textual app that is not Minefield's: it has no trainer and no preferences of its
    own, only what it gives the play screen (East to discard on the prepared deal)."""

    def __init__(self, preferences: Preferences) -> None:
        super().__init__()
        self.kept = KeptPreferences(preferences)
        self.trainer = Trainer()
        self.trainer.new_game(SessionTraits("practice", shared_screen=False, hints_allowed=False,
                                            resumable=False, trainer_aids=True,
                                            bot_level="easy"), (Seat.EAST,))
        self.doors = TrainerDoors(self, self.trainer, self.kept)

    async def on_mount(self) -> None:
        names = {Seat.EAST: "You", Seat.WEST: "Bot (easy)"}
        await self.push_screen(PlayScreen(prepared().view(Seat.EAST), names,
                                          trainer=self.doors, prefs=self.kept))


async def test_a_play_screen_works_from_the_trainer_and_preferences_it_is_given() -> None:
    """No key of the play screen asks its app for anything: in an app that is not the game's,
    the danger key shades the pool with the trainer given, the feedback key changes the
    preferences given, and "confirm discards" is read from them as they are now."""
    app = BareApp(Preferences(hint="off"))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PlayScreen) and not screen.has_class("-danger")
        await pilot.press("d")
        await pilot.pause()
        assert app.trainer.overlay and screen.has_class("-danger")
        await pilot.press("f")
        await pilot.pause()
        assert [p.discard_feedback for p in app.kept.applied] == [True]
        app.kept.preferences = app.kept.preferences.model_copy(
            update={"confirm_discards": True})
        await pilot.press("enter")  # with "confirm discards" on: armed, not discarded
        await pilot.pause()
        assert screen.armed == screen.cursor
        assert "again discards it" in str(screen.query_one("#status", Static).render())
