"""The menu of an SSH session (``ssh -t HOST`` with no command): host a room, join one by its
code (asked in the menu), resume your game, against a real daemon in this test's loop; and its
80x24 snapshot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Input, Static

from minefield.session.remote_start import host
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.screens.builder import HandBuilderScreen
from minefield.tui.screens.menu import MenuScreen
from minefield.tui.screens.rooms import CodeScreen, ServerAddress
from tests.server.conftest import (
    make_config,
    short_dir,  # noqa: F401  (a fixture)
    start_daemon,
)
from tests.tui.conftest import screen_text
from tests.waiting import until


def room_app(socket: Path, player: str) -> MinefieldApp:
    return MinefieldApp(server=ServerAddress(socket=socket, player=player), catch_errors=False,
                        preferences=Preferences(hint="off"))


async def test_the_ssh_menu_hosts_a_room_and_shows_what_the_friend_types(
        short_dir: Path, monkeypatch: Any) -> None:  # noqa: F811
    monkeypatch.setenv("SSH_CONNECTION", "192.0.2.1 50000 192.0.2.2 22")
    daemon = await start_daemon(short_dir)
    try:
        app = room_app(make_config(short_dir).socket, "alice")
        async with app.run_test(size=(80, 24)) as pilot:
            assert isinstance(app.screen, MenuScreen)
            text = screen_text(app)
            for entry in ("Host a room", "Join a friend's room", "Resume my game", "Practice"):
                assert entry in text
            await pilot.press("o")
            await until(pilot, lambda: isinstance(app.screen, HandBuilderScreen), "the room")
            header = screen_text(app).splitlines()[0]
            code = getattr(app.session, "code", None)
            assert code and f"Room {code}" in header
            # alice is a player of a shared account: the friend logs in to it too.
            assert "to join: ssh -t " in header and "@" in header and f" join {code}" in header
            assert "minefield join" not in header
    finally:
        await daemon.stop()


async def test_the_ssh_menu_joins_by_a_typed_code_and_resumes(
        short_dir: Path) -> None:  # noqa: F811
    daemon = await start_daemon(short_dir)
    try:
        socket = make_config(short_dir).socket
        ann = await host(socket=socket, player="ann")
        await ann.open()
        app = room_app(socket, "bob")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("r")  # nothing to resume yet: one line, the menu stays
            await until(pilot, lambda: any("no unfinished game" in str(n.message)
                                           for n in app._notifications), "the refusal")
            assert isinstance(app.screen, MenuScreen)
            await pilot.press("j")
            await until(pilot, lambda: isinstance(app.screen, CodeScreen), "the code question")
            await pilot.press(*"0OIL1", "enter")  # not a code: said under the field
            problem = app.screen.query_one("#code-problem", Static)
            assert "is not a room code" in str(problem.render())
            app.screen.query_one(Input).value = ""
            await pilot.press(*(ann.code or "").lower(), "enter")
            await until(pilot, lambda: isinstance(app.screen, HandBuilderScreen), "the game")
            assert "opponent ann" in screen_text(app)
        again = room_app(socket, "bob")
        async with again.run_test(size=(80, 24)) as pilot:
            await pilot.press("r")
            await until(pilot, lambda: isinstance(again.screen, HandBuilderScreen), "resumed")
            assert "opponent ann" in screen_text(again)
        await ann.close()
    finally:
        await daemon.stop()


def test_the_ssh_menu_80x24(snap_compare: Any, short_dir: Path) -> None:  # noqa: F811
    app = room_app(short_dir / "none.sock", "alice")
    assert snap_compare(app, terminal_size=(80, 24))
