"""Ctrl+Q asks first while a game is on, as Esc does; with no game on it quits at once."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Markdown

from minefield.protocol.messages import PlayerInfo
from minefield.rules.game import Seat
from minefield.session import LocalSession
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.screens.builder import HandBuilderScreen
from minefield.tui.screens.dialogs import ConfirmScreen, CurtainScreen
from minefield.tui.screens.help import HelpScreen
from minefield.tui.screens.menu import MenuScreen
from minefield.tui.screens.result import ResultScreen
from tests.tui.conftest import StandInBot, make_app, screen_text, settle, stand_in
from tests.tui.test_snapshots import ron_game


async def test_ctrl_q_in_a_practice_game_asks_first() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        session = app.session
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen) and "Quit" in screen_text(app)
        await pilot.press("n")
        await pilot.pause()
        assert app.return_code is None and app.session is session
        assert isinstance(app.screen, HandBuilderScreen)
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert app.return_code == 0


async def test_ctrl_q_on_the_quit_question_quits() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen) and app.return_code is None
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.return_code == 0


async def test_ctrl_q_in_hot_seat_asks_first_even_behind_the_curtain() -> None:
    app = make_app("hotseat")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, CurtainScreen)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen) and app.return_code is None
        await pilot.press("escape")  # Escape answers no, as it does for leaving
        await pilot.pause()
        assert isinstance(app.screen, CurtainScreen) and app.return_code is None


async def test_ctrl_q_at_the_menu_quits_at_once() -> None:
    app = MinefieldApp(think_seconds=0, bot_factory=stand_in, preferences=Preferences(hint="off"),
                       catch_errors=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.return_code == 0


async def test_ctrl_q_on_the_result_screen_quits_at_once() -> None:
    """A practice game over (a ron on the first discards, R16), its result on screen: Ctrl+Q
    quits without a question."""
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        players = {seat: PlayerInfo(name=seat.value.title()) for seat in Seat}
        session = LocalSession(ron_game(), "practice", (Seat.EAST,), players, bot=StandInBot(),
                               think_seconds=0)
        await app.play(session)
        await settle(pilot)
        assert isinstance(app.screen, ResultScreen) and session.view(Seat.EAST).phase == "ended"
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.return_code == 0


async def test_the_quit_key_is_declared_once_for_keys_and_help() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert [b for b in MinefieldApp.BINDINGS if getattr(b, "key", "") == "ctrl+q"]
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        markdown = app.screen.query_one("#help-text", Markdown).source
        key = app.get_key_display(Binding("ctrl+q", "quit"))
        rows = [line for line in markdown.splitlines() if f"`{key}`" in line]
        assert rows == [f"| `{key}` | Quit (asks first during a game) |"]  # one, not stale
