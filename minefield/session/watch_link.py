"""A watcher's client: the connection that asks the daemon to watch a game and gives each
public table it is sent (:mod:`minefield.protocol.watching` says what a watcher is sent).

>>> import asyncio
>>> asyncio.run(WatchLink.open("20250102T030405.678Z-network-1f2e3d4c",
...                            socket="/nonexistent/minefield.sock"))
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
from minefield.protocol.messages import PROTOCOL_VERSION
from minefield.protocol.watching import WatchClosed, WatchState, WatchTable, parse_watcher_line
from minefield.protocol.wire import Hello, WireError, WireProblem
from minefield.session.daemon_socket import RemoteError
from minefield.session.link import LineLink


class WatchLink(LineLink):
    """A watcher's connection: :meth:`states` gives each new table until it closes;
    :meth:`~LineLink.close` stops watching."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        super().__init__(reader, writer)
        #: Why the server closed the connection (a ``closed`` reason), once it has.
        self.closed_reason: str | None = None

    @classmethod
    async def open(cls, game: str, *, socket: str | Path | None = None,
                   player: str | None = None) -> WatchLink:
        """Connect and ask to watch ``game``; :class:`RemoteError` (one line) when the server
        cannot be reached."""
        return cls(*await cls.connect(socket_path(socket), Hello(
            version=PROTOCOL_VERSION, action="watch", game=game, player=player)))

    async def first(self) -> WatchTable:
        """The first table; :class:`RemoteError` with the server's reason if it refuses."""
        async for table in self.states():
            return table
        raise RemoteError(self.closed_reason or "the game server closed the connection",
                          "closed")

    async def states(self) -> AsyncIterator[WatchTable]:
        """Each table as it comes; :class:`RemoteError` if the server refuses."""
        async for line in self.lines():
            try:
                message = parse_watcher_line(line)
            except WireProblem:
                continue
            if isinstance(message, WatchState):
                yield message.table
            elif isinstance(message, WatchClosed):
                self.closed_reason = message.reason
                return
            elif isinstance(message, WireError) and message.fatal:
                raise RemoteError(message.message, message.code)


__all__ = ["WatchLink"]
