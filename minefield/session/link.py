"""A connection to the daemon that only listens and pings: the lobby's and a watcher's.

Both read the server's lines until the link closes and ping it so that the server does not
close a quiet connection; what each makes of a line is its own (:mod:`.lobby_link`,
:mod:`.watch_link`). A player's connection (:mod:`.remote`) does more: it reconnects and resends.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from pydantic import BaseModel

from minefield.protocol.wire import Hello, Ping, encode
from minefield.session.daemon_socket import PING_SECONDS, open_socket


class LineLink:
    """A listening connection: :meth:`lines` gives each whole line the server sends."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self._pinger: asyncio.Task[None] | None = None

    @staticmethod
    async def connect(path: Path, hello: Hello
                      ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """Connect to the daemon at ``path`` and say ``hello``; :class:`RemoteError` (one
        line) when it cannot be reached."""
        reader, writer = await open_socket(path)
        writer.write(encode(hello))
        return reader, writer

    def send(self, message: BaseModel) -> None:
        """Send one message; a link already gone drops it."""
        with contextlib.suppress(OSError, RuntimeError):
            self.writer.write(encode(message))

    async def lines(self) -> AsyncIterator[bytes]:
        """Each whole line as it comes (pinging meanwhile), until the link closes."""
        if self._pinger is None:
            self._pinger = asyncio.create_task(self._ping())
        while True:
            try:
                line = await self.reader.readline()
            except (ValueError, OSError):
                return
            if not line.endswith(b"\n"):
                return
            yield line

    async def _ping(self) -> None:
        while True:
            await asyncio.sleep(PING_SECONDS)
            self.send(Ping())

    async def close(self) -> None:
        """Close the connection."""
        if self._pinger is not None:
            self._pinger.cancel()
        self.writer.close()
        with contextlib.suppress(OSError, ConnectionError):
            await self.writer.wait_closed()


__all__ = ["LineLink"]
