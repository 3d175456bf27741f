"""The result screen of a network game gives the game's link when the client was reached
through a server with a browser door (``ssh-server --web`` sets :data:`WEB_ENV`): the link
that opens the finished game (R11's end, its record kept by id) in a browser. Without a
browser door, no link."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.widgets import Static

from minefield.protocol.address import WEB_ENV
from minefield.session.remote_start import host, join
from minefield.tui.app import MinefieldApp
from minefield.tui.screens.result import ResultScreen
from tests.server.conftest import (
    autoplay,
    make_config,
    short_dir,  # noqa: F401  (a fixture)
    start_daemon,
)
from tests.tui.conftest import screen_text
from tests.tui.test_network import _play_app_seat
from tests.waiting import until


async def _result_of_a_network_game(folder: Path) -> tuple[str, str, bool | None]:
    """Play a network game to its end (alice in the app, bob scripted): the game's id, the
    result screen's text, and whether its link line shows (None when it has none)."""
    daemon = await start_daemon(folder)
    try:
        socket = make_config(folder).socket
        session = await host(socket=socket, player="alice", seed="7")
        bob = await join(session.code or "", socket=socket, player="bob")
        await bob.open()
        game = session.game_id
        app = MinefieldApp(session=session, catch_errors=False)
        async with app.run_test(size=(100, 32)) as pilot:
            bob_plays = asyncio.create_task(autoplay(bob))
            await _play_app_seat(pilot, app, game)
            await until(pilot, lambda: isinstance(app.screen, ResultScreen), "the result")
            await bob_plays
            await pilot.pause()
            shown = screen_text(app)
            found = app.screen.query("#result-link")
            line = found.first(Static).display if found else None
        await bob.close()
        return game, shown, line
    finally:
        await daemon.stop()


@pytest.mark.long
async def test_the_result_screen_gives_the_link_of_the_game_at_the_browser_door(
        short_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setenv("MINEFIELD_DATA_DIR", str(short_dir / "alice-data"))
    monkeypatch.setenv(WEB_ENV, "https://mahjong.example.org")
    game, shown, line = await _result_of_a_network_game(short_dir)
    assert line is True
    assert f"Link: https://mahjong.example.org/game/{game}" in shown


@pytest.mark.long
async def test_without_a_browser_door_the_result_screen_has_no_link(
        short_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setenv("MINEFIELD_DATA_DIR", str(short_dir / "alice-data"))
    monkeypatch.delenv(WEB_ENV, raising=False)
    _game, shown, line = await _result_of_a_network_game(short_dir)
    assert line is None and "Link:" not in shown
