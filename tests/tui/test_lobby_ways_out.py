"""A game chosen in the server's lobby (``minefield lobby``, the first screen over both SSH
routes): every way out of it ends the game's app, so that the lobby comes back; the menu
(Practice, Hot-seat...) never shows on the way."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.screen import Screen

from minefield.cli.lobby import choice_argv
from minefield.cli.parser import build_parser
from minefield.rules.game import Game, Seat
from minefield.rules.settings import RuleSettings
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.screens.dialogs import ConfirmScreen
from minefield.tui.screens.menu import MenuScreen
from minefield.tui.screens.result import ResultScreen
from minefield.tui.screens.standings import StandingsScreen
from tests.tui.conftest import settle, stand_in
from tests.tui.test_match import LOSER, WINNER, deal, prepared_match, ron_on_the_first_discards
from tests.tui.test_snapshots import ron_game
from tests.tui.test_ux_result import practice


def lobby_game_app() -> MinefieldApp:
    """The game app as the lobby runs it."""
    return MinefieldApp(lobby=True, think_seconds=0, bot_factory=stand_in,
                        preferences=Preferences(hint="off"), catch_errors=False)


def screens_shown(app: MinefieldApp) -> list[str]:
    """The names of the screens shown from now on (the app running)."""
    shown: list[str] = []

    def became_current(screen: Screen[object]) -> None:
        shown.append(type(screen).__name__)

    app.screen_change_signal.subscribe(app, became_current, immediate=True)
    return shown


async def ended(pilot: Pilot[Any], app: MinefieldApp, shown: list[str]) -> None:
    """The app ended by itself (the lobby's loop shows the lobby next), never via the menu."""
    await pilot.pause()
    assert app.return_code == 0 and app._exit, shown
    assert "MenuScreen" not in shown and not isinstance(app.screen, MenuScreen)


async def test_escape_and_m_on_the_result_screen_go_back_to_the_lobby() -> None:
    for key in ("escape", "m"):
        app = lobby_game_app()
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            await app.play(practice(ron_game(), Seat.WEST))
            await settle(pilot)
            assert isinstance(app.screen, ResultScreen)
            shown = screens_shown(app)
            await pilot.press(key)
            await ended(pilot, app, shown)


async def test_leaving_a_game_being_played_goes_back_to_the_lobby() -> None:
    """Escape (the menu's key) then yes, and ctrl+q then yes: the lobby, not the menu."""
    for key in ("escape", "ctrl+q"):
        app = lobby_game_app()
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            await app.play(practice(Game(3), Seat.EAST))
            await settle(pilot)
            shown = screens_shown(app)
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen), key
            await pilot.press("y")
            await ended(pilot, app, shown)


async def test_the_final_standings_go_back_to_the_lobby() -> None:
    """A finished match's keys (R30): ``n`` shows the standings, whose Escape is the lobby."""
    app = lobby_game_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await app.play(prepared_match(deal(LOSER, WINNER),
                                      settings=RuleSettings.preset("match", hands=1)))
        await pilot.pause()
        await ron_on_the_first_discards(pilot, east_wins=False)
        assert isinstance(app.screen, ResultScreen)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, StandingsScreen)
        shown = screens_shown(app)
        await pilot.press("escape")
        await ended(pilot, app, shown)


async def test_outside_the_lobby_escape_still_shows_the_menu() -> None:
    app = MinefieldApp(think_seconds=0, bot_factory=stand_in,
                       preferences=Preferences(hint="off"), catch_errors=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await app.play(practice(ron_game(), Seat.WEST))
        await settle(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen) and not app._exit


def test_the_lobby_runs_its_games_as_the_lobbys() -> None:
    """Every game the lobby starts is told so (a watch ends by itself: nothing to tell)."""
    parser = build_parser()
    for action, code, bot, game in (("join", "K7Q3PX", None, None), ("host", None, None, None),
                                    ("host", None, "normal", None),
                                    ("resume", None, None, "20261201T120000.000Z-network-ab")):
        args = parser.parse_args(choice_argv(action, code, bot, "ann", None, game))
        assert args.from_lobby is True, action
    assert "--from-lobby" not in choice_argv("watch", None, None, "ann", None, "g1")
    assert parser.parse_args(["join", "K7Q3PX"]).from_lobby is False
