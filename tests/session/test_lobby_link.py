"""The lobby's client: states as they come, a refusal as one line."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from minefield.protocol.lobby import LobbyState
from minefield.session.daemon_socket import RemoteError
from minefield.session.lobby_link import LobbyEvent, LobbyLink
from minefield.session.remote_start import host
from tests.server.conftest import start_daemon


async def next_state(states: AsyncIterator[LobbyEvent]) -> LobbyState:
    """The next event, which must be a lobby state (nothing else is asked here)."""
    state = await anext(states)
    assert isinstance(state, LobbyState), state
    return state


async def test_states_follow_the_server_and_close_ends_them() -> None:
    folder = Path(tempfile.mkdtemp(prefix="mf", dir="/tmp"))
    daemon = await start_daemon(folder)
    try:
        link = await LobbyLink.open(socket=daemon.config.socket, player="cat")
        states = link.states()
        first = await next_state(states)
        assert [p.name for p in first.online] == ["cat"] and first.tables == []
        table = await host(socket=daemon.config.socket, player="ann", public=True)
        for _ in range(20):
            state = await next_state(states)
            if state.tables:
                break
        assert state.tables[0].code == table.code and state.tables[0].host == "ann"
        await table.close()
        await link.close()
        assert [s async for s in states] == []
    finally:
        await daemon.stop()
        shutil.rmtree(folder, ignore_errors=True)


async def test_a_refused_lobby_is_one_line() -> None:
    folder = Path(tempfile.mkdtemp(prefix="mf", dir="/tmp"))
    daemon = await start_daemon(folder)  # this user is its shared account: a name is needed
    try:
        link = await LobbyLink.open(socket=daemon.config.socket)
        with pytest.raises(RemoteError, match="shared"):
            async for _state in link.states():
                pass
        await link.close()
    finally:
        await daemon.stop()
        shutil.rmtree(folder, ignore_errors=True)
