"""Ctrl+Q asks first while a game is on, as Esc does; with no game on it quits at once."""

from __future__ import annotations

from textual.binding import Binding
from textual.pilot import Pilot
from textual.widgets import Markdown

from minefield.rules.auto import auto_command
from minefield.session import LocalSession
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.screens.builder import HandBuilderScreen
from minefield.tui.screens.dialogs import ConfirmScreen, CurtainScreen
from minefield.tui.screens.help import HelpScreen
from minefield.tui.screens.menu import MenuScreen
from minefield.tui.screens.result import ResultScreen
from tests.tui.conftest import make_app, screen_text, settle, stand_in


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


async def play_to_the_end(pilot: Pilot[int]) -> None:
    """Play the practice game out with the automatic move, then show the result."""
    app = pilot.app
    assert isinstance(app, MinefieldApp) and app.session is not None
    session, seat = app.session, app.session.local_seats[0]
    assert isinstance(session, LocalSession)
    for _ in range(40):  # a hand and 17 discards at most
        await settle(pilot)
        view = session.view(seat)
        if view.phase == "ended":
            break
        if view.own_hand is None or view.my_turn:
            await session.send(seat, auto_command(view))
    await settle(pilot)


async def test_ctrl_q_on_the_result_screen_quits_at_once() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await play_to_the_end(pilot)
        assert isinstance(app.screen, ResultScreen)
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
