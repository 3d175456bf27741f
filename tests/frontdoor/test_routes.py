"""The front door's hall: every command has one route, ``who`` prints the daemon's lobby
models as it always did, and the embedded daemon is asked across its thread through
:class:`~minefield.frontdoor.embedded_daemon.DaemonHandle`."""

from __future__ import annotations

import asyncio
import json
import os
from typing import get_args

from minefield.frontdoor.commands import APP_ACTIONS, Action
from minefield.frontdoor.embedded_daemon import DaemonHandle
from minefield.frontdoor.ratings import ThreadRaters
from minefield.frontdoor.reports import who
from minefield.frontdoor.routes import ROUTES, Client
from minefield.protocol.lobby import LobbyPlayer, LobbyState, LobbyTable
from minefield.protocol.messages import PROTOCOL_VERSION
from minefield.server.config import ServerConfig
from minefield.server.identity import user_name
from tests.e2e.harness import short_folder


def test_every_command_has_one_route() -> None:
    assert set(ROUTES) == set(get_args(Action))


def test_the_games_commands_are_routed_to_a_client_in_a_terminal() -> None:
    # A game without a terminal is refused before anything starts.
    assert {action for action, route in ROUTES.items()
            if isinstance(route, Client) and route.terminal} == APP_ACTIONS
    # history answers from the kept games, as games does: no client at all.
    assert {action for action, route in ROUTES.items()
            if isinstance(route, Client) and not route.terminal} == set()


LOBBY = LobbyState(
    online=[LobbyPlayer(name="Ann", status="hosting", rating=1600),
            LobbyPlayer(name="Bob", status="playing")],
    tables=[LobbyTable(code="K7QP3X", host="Ann", rules="classic", public=True,
                       players=["Ann"]),
            LobbyTable(game="g-1", host="Bob", rules="classic", public=False,
                       players=["Bob", "Cat"], watchers=2, rated=False)])


def test_who_says_the_daemons_players_first_then_this_doors_sessions() -> None:
    text = who(False, LOBBY, [("Ann", "lobby"), ("Dan", "history")])
    assert text.splitlines() == [
        "Online (3): Ann (hosting), Bob (playing), Dan (history)",
        "join K7QP3X: Ann's rated table (classic), players Ann",
        "game g-1: Bob's casual table (classic), players Bob, Cat, 2 watching (watch g-1)"]


def test_who_json_lists_the_tables_as_the_wire_has_them() -> None:
    data = json.loads(who(True, LOBBY))
    assert data["online"] == [{"name": "Ann", "status": "hosting"},
                              {"name": "Bob", "status": "playing"}]
    assert data["tables"] == [
        {"code": "K7QP3X", "host": "Ann", "rules": "classic", "public": True,
         "players": ["Ann"], "watchers": 0, "rated": True},
        {"game": "g-1", "host": "Bob", "rules": "classic", "public": False,
         "players": ["Bob", "Cat"], "watchers": 2, "rated": False}]


def test_who_without_a_daemon_in_this_process_says_its_own_sessions() -> None:
    assert who(False, None) == "Online (0): nobody\nNo open tables."


async def _in_the_lobby(socket: str, handle: DaemonHandle) -> LobbyState | None:
    """The lobby the handle reads while this process's user sits in it."""
    reader, writer = await asyncio.open_unix_connection(socket)
    try:
        hello = {"type": "hello", "version": PROTOCOL_VERSION, "action": "lobby"}
        writer.write(json.dumps(hello).encode() + b"\n")
        first = json.loads(await reader.readline())
        assert first["type"] == "lobby"
        return await handle.lobby()
    finally:
        writer.close()


def test_the_embedded_daemon_is_asked_in_its_own_thread() -> None:
    with short_folder() as folder:
        config = ServerConfig(socket=folder / "d.sock", data=folder / "server",
                              bot_workers=1)
        handle = DaemonHandle(config, ThreadRaters(folder / "players.sqlite",
                                                   config.games_dir, "nobody"))
        assert asyncio.run(handle.lobby()) is None  # not started: nothing to ask
        handle.start()
        try:
            state = asyncio.run(_in_the_lobby(str(config.socket), handle))
        finally:
            handle.stop()
        assert asyncio.run(handle.lobby()) is None  # stopped
    assert isinstance(state, LobbyState)
    assert [(p.name, p.status) for p in state.online] == [(user_name(os.getuid()), "lobby")]
    assert state.tables == []
