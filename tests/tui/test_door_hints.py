"""The commands the client suggests name the way its player came in: behind ``minefield
ssh-server`` (which gives its own command in the session's environment, ``MINEFIELD_DOOR``)
``ssh -t -p PORT HOST join CODE`` and ``... host``; behind OpenSSH the host and its port; on
this machine ``minefield``. And the front door's first line never says ``0.0.0.0``."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest

from minefield.cli.ssh_server import connect_hint
from minefield.protocol.address import DOOR_ENV
from minefield.session.daemon_socket import RemoteError
from minefield.session.remote_start import host, resume
from minefield.tui.app import MinefieldApp
from minefield.tui.screens.builder import HandBuilderScreen
from tests.server.conftest import make_config, short_dir, start_daemon  # noqa: F401
from tests.tui.conftest import screen_text
from tests.waiting import until

DOOR = "ssh -t -p 2222 box.example"


async def test_behind_ssh_server_the_room_says_the_ssh_command_to_join(
        short_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setenv(DOOR_ENV, DOOR)
    daemon = await start_daemon(short_dir)
    try:
        session = await host(socket=make_config(short_dir).socket, player="alice")
        app = MinefieldApp(session=session, catch_errors=False)
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, HandBuilderScreen), "the room")
            header = screen_text(app).splitlines()[0]
            assert f"to join: {DOOR} join {session.code}" in header, header
            assert "minefield join" not in header
    finally:
        await daemon.stop()


@pytest.mark.parametrize(("environ", "command"), [
    ({DOOR_ENV: DOOR}, DOOR),
    ({"SSH_CONNECTION": "192.0.2.1 50000 192.0.2.2 2200"}, "ssh -t -p 2200 "),
    ({}, "minefield"),
])
async def test_resume_with_nothing_to_resume_says_how_to_host_as_the_player_came_in(
        short_dir: Path, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
        environ: dict[str, str], command: str) -> None:
    for name in (DOOR_ENV, "SSH_CONNECTION"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    daemon = await start_daemon(short_dir)
    try:
        with pytest.raises(RemoteError) as refused:
            await resume(socket=make_config(short_dir).socket, player="alice")
        text = str(refused.value)
        assert "no unfinished game" in text and refused.value.code == "no_game"
        assert f"({command}" in text and " host)" in text and " join CODE)" in text, text
        if command != "minefield":
            assert "minefield host" not in text and "minefield join" not in text
        assert text.count("host one") == 1
    finally:
        await daemon.stop()


def test_listening_on_every_address_the_hint_names_the_host(monkeypatch: Any) -> None:
    for anywhere in ("0.0.0.0", "::"):
        hint = connect_hint(anywhere, 2222)
        assert hint.startswith(f"ssh -p 2222 {socket.gethostname()}"), hint
        assert "0.0.0.0" not in hint and " :: " not in hint
    assert connect_hint("192.0.2.7", 2222) == "ssh -p 2222 192.0.2.7"
