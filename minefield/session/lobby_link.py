"""The client of the daemon's lobby: who is connected, the public tables, the games.

>>> import asyncio
>>> asyncio.run(LobbyLink.open(socket="/nonexistent/minefield.sock"))
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
minefield.session.daemon_socket.RemoteError: no game server at /nonexistent/minefield.sock: ...
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

from minefield.protocol.address import socket_path
from minefield.protocol.lobby import (
    Invitation,
    LobbyState,
    Matching,
    Motd,
    Seated,
    TournamentRound,
)
from minefield.protocol.messages import PROTOCOL_VERSION
from minefield.protocol.profiles import AskGames, Games, Profile, ProfileGame, RecordPart
from minefield.protocol.server_lines import parse_server_line
from minefield.protocol.wire import Hello, WireError, WireProblem
from minefield.session.daemon_socket import RemoteError
from minefield.session.link import LineLink

#: What the lobby sends: its state, an invitation as it stands, a quick match as it stands,
#: a room made for you, a tournament's round, the message of the day, a profile or a part of a
#: kept game's record (the profile screen's answers), or a request refused (one line, not
#: fatal).
LobbyEvent = (LobbyState | Invitation | Matching | Seated | TournamentRound | Motd | Profile
              | RecordPart | WireError)
#: How long :func:`refusal` waits for the server's first answer.
ADMISSION_SECONDS = 5.0
#: How long :func:`own_games` waits for the list (a safety net: the server reads its index).
ANSWER_SECONDS = 30.0

class LobbyLink(LineLink):
    """A connection in the lobby: :meth:`states` gives each new state until it closes.

    :meth:`~LineLink.send` sends a lobby request (:class:`~minefield.protocol.lobby.Invite`,
    ``answer``, ``quick_match``, ``cancel``, ``ask_profile``, ``ask_record``);
    :meth:`~LineLink.close` leaves the lobby."""

    @classmethod
    async def open(cls, *, socket: str | Path | None = None, player: str | None = None,
                   key: str | None = None) -> LobbyLink:
        """Connect and say hello (``key``: the fingerprint of the player's SSH key, when
        known); :class:`RemoteError` (one line) when the server refuses."""
        return cls(*await cls.connect(
            socket_path(socket), Hello(version=PROTOCOL_VERSION, action="lobby", player=player,
                                       key=key)))

    async def states(self) -> AsyncIterator[LobbyEvent]:
        """Each lobby state and event as it comes; :class:`RemoteError` if the server refuses
        (a fatal error)."""
        async for line in self.lines():
            try:
                message = parse_server_line(line)
            except WireProblem:
                continue
            if isinstance(message, WireError) and message.fatal:
                raise RemoteError(message.message, message.code)
            if isinstance(message, LobbyState | Invitation | Matching | Seated | TournamentRound
                          | Motd | Profile | RecordPart | WireError):
                yield message


async def refusal(socket: str | Path | None, player: str | None,
                  key: str | None = None) -> str | None:
    """Why the game server at ``socket`` would not let ``player`` (logged in with the SSH key
    ``key``, when known) in: a banned player's or key's one line, asked with a lobby hello
    before anything is run; None when it lets them in, or cannot be asked (the command that
    follows says why then; a server older than keys in the hello is asked without one)."""
    try:
        link = await asyncio.wait_for(LobbyLink.open(socket=socket, player=player, key=key),
                                      ADMISSION_SECONDS)
    except (RemoteError, TimeoutError):
        return None
    try:
        async with asyncio.timeout(ADMISSION_SECONDS):
            async for _event in link.states():
                return None  # its first state: the player is in
    except RemoteError as error:
        if error.code == "bad_message" and key is not None:  # older than keys: ask again
            return await refusal(socket, player)
        return str(error) if error.code == "not_allowed" else None
    except TimeoutError:
        return None
    finally:
        await link.close()
    return None


async def own_games(socket: str | Path | None, player: str | None, limit: int,
                    key: str | None = None) -> list[ProfileGame]:
    """The finished network games of ``player`` that the game server at ``socket`` keeps,
    newest first (at most ``limit``); :class:`RemoteError` (one line) when it cannot say."""
    link = await asyncio.wait_for(LobbyLink.open(socket=socket, player=player, key=key),
                                  ADMISSION_SECONDS)
    try:
        async with asyncio.timeout(ANSWER_SECONDS):
            link.send(AskGames(limit=limit))
            async for line in link.lines():  # the lobby's state comes first: passed over
                try:
                    event = parse_server_line(line)
                except WireProblem:
                    continue
                if isinstance(event, Games):
                    if event.refused is not None:
                        raise RemoteError(event.refused, "not_allowed")
                    return event.games
                if isinstance(event, WireError):
                    if event.fatal or event.code != "bad_message":
                        raise RemoteError(event.message, event.code)
                    raise RemoteError("this game server does not list your games: it is "
                                      "older than this command", event.code)
    except TimeoutError:
        raise RemoteError("the game server did not answer: try again later",
                          "server") from None
    finally:
        await link.close()
    raise RemoteError("the game server closed the connection", "server")


__all__ = ["ADMISSION_SECONDS", "ANSWER_SECONDS", "LobbyEvent", "LobbyLink", "own_games",
           "refusal"]
