"""The client of the daemon's lobby: who is connected, the public tables, the games.

>>> import asyncio
>>> asyncio.run(LobbyLink.open(socket="/nonexistent/minefield.sock"))
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
minefield.session.remote.RemoteError: no game server at /nonexistent/minefield.sock: ...
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from pydantic import BaseModel

from minefield.session.address import socket_path
from minefield.session.protocol import PROTOCOL_VERSION
from minefield.session.remote import RemoteError, open_socket
from minefield.session.wire import (
    Hello,
    Invitation,
    LobbyState,
    Matching,
    Ping,
    Seated,
    WireError,
    WireProblem,
    encode,
    parse_server_line,
)

#: What the lobby sends: its state, an invitation as it stands, a quick match as it stands,
#: a room made for you, or a request refused (one line, not fatal).
LobbyEvent = LobbyState | Invitation | Matching | Seated | WireError

#: A ping this often keeps the connection (the server closes silent ones).
PING_SECONDS = 10.0


class LobbyLink:
    """A connection in the lobby: :meth:`states` gives each new state until it closes."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self._pinger: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, *, socket: str | Path | None = None, player: str | None = None
                   ) -> LobbyLink:
        """Connect and say hello; :class:`RemoteError` (one line) when the server refuses."""
        path = socket_path(socket)
        reader, writer = await open_socket(path)
        writer.write(encode(Hello(version=PROTOCOL_VERSION, action="lobby", player=player)))
        return cls(reader, writer)

    def send(self, message: BaseModel) -> None:
        """Send a lobby request (:class:`~minefield.session.wire.Invite`, ``answer``,
        ``quick_match``, ``cancel``); a link already gone drops it."""
        with contextlib.suppress(OSError, RuntimeError):
            self.writer.write(encode(message))

    async def states(self) -> AsyncIterator[LobbyEvent]:
        """Each lobby state and event as it comes; :class:`RemoteError` if the server refuses
        (a fatal error)."""
        if self._pinger is None:
            self._pinger = asyncio.create_task(self._ping())
        while True:
            try:
                line = await self.reader.readline()
            except (ValueError, OSError):
                return
            if not line.endswith(b"\n"):
                return
            try:
                message = parse_server_line(line)
            except WireProblem:
                continue
            if isinstance(message, WireError) and message.fatal:
                raise RemoteError(message.message, message.code)
            if isinstance(message, LobbyState | Invitation | Matching | Seated | WireError):
                yield message

    async def _ping(self) -> None:
        while True:
            await asyncio.sleep(PING_SECONDS)
            with contextlib.suppress(OSError, RuntimeError):
                self.writer.write(encode(Ping()))

    async def close(self) -> None:
        """Leave the lobby."""
        if self._pinger is not None:
            self._pinger.cancel()
        self.writer.close()
        with contextlib.suppress(OSError, ConnectionError):
            await self.writer.wait_closed()


__all__ = ["LobbyEvent", "LobbyLink"]
