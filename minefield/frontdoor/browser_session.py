"""One browser's terminal: its websocket, the client process it drives, and the packets
between them (:class:`BrowserSession`).

The browser side is textual-serve's ``textual.js`` and its protocol (JSON text frames in,
the screen's bytes out); the app side is Textual's ``WebDriver`` in the client process, read
and written through the child's pseudo-terminal in raw mode (:mod:`.web_door` says why the
packets are read here and not by textual-serve's own server). :mod:`.web_door` checks the
request and the caps before a session starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from minefield.frontdoor.accounts import Account
from minefield.frontdoor.spawner import Child, SpawnError
from minefield.frontdoor.web_logins import WebSession

if TYPE_CHECKING:
    from minefield.frontdoor.web_door import WebDoor

log = logging.getLogger("minefield.frontdoor")

#: The largest websocket message a browser may send (a paste, a resize).
MAX_MESSAGE = 64 * 1024
#: How long an ended session's process is given to leave before it is killed.
LEAVE_SECONDS = 5.0
#: A browser's terminal: the most rows and columns taken from it.
MAX_CELLS = 1000


class BrowserSession:
    """One browser's websocket and the client process it drives."""

    def __init__(self, door: WebDoor, websocket: web.WebSocketResponse, account: Account,
                 session: WebSession, address: str, argv: list[str] | None = None) -> None:
        self.door = door
        #: The client's arguments (None: the lobby, as the player).
        self.argv = argv
        self.websocket = websocket
        self.account = account
        self.session = session
        self.address = address
        self.child: Child | None = None
        self.last_input = time.monotonic()
        self._writer: asyncio.StreamWriter | None = None
        self._transports: list[asyncio.BaseTransport] = []
        self._closing: asyncio.Future[bool] | None = None
        #: The browser's terminal size, once it has said (columns, rows).
        self.size: tuple[int, int] | None = None

    async def run(self, columns: int, rows: int) -> None:
        """Start the client, pass bytes both ways until either side ends, then end both."""
        door = self.door
        argv = self.argv or ["lobby", "--player", self.account.name, "--socket",
                             str(door.front.socket)]
        env = door.client_env(self.account, columns, rows)
        try:
            child = await door.front.spawn(argv, env, rows, columns, False)
            self.child = child
            pid = await child.started()
        except SpawnError as error:
            log.error("browser session of %s from %s: %s", self.account.name, self.address,
                      error)
            await self.websocket.close(code=1011, message=b"the game could not start")
            return
        log.info("browser session of %s (%s) from %s: %s, pid %d", self.account.name,
                 self.session.tag, self.address, argv[0], pid)
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=MAX_MESSAGE, loop=loop)
        read_file = os.fdopen(os.dup(child.master), "rb", buffering=0)
        transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader, loop=loop), read_file)
        self._transports.append(transport)
        write_file = os.fdopen(os.dup(child.master), "wb", buffering=0)
        write_transport, protocol = await loop.connect_write_pipe(
            lambda: asyncio.StreamReaderProtocol(asyncio.StreamReader(loop=loop), loop=loop),
            write_file)
        self._transports.append(write_transport)
        self._writer = asyncio.StreamWriter(write_transport, protocol, None, loop)
        tasks = [asyncio.create_task(_quietly(self._from_child(reader))),
                 asyncio.create_task(_quietly(self._from_browser())),
                 asyncio.create_task(child.exited()),
                 asyncio.create_task(self._idle_watch())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks[:2] + tasks[3:]:
                task.cancel()
            await self._end(tasks[2])

    async def _end(self, exited: asyncio.Task[int]) -> None:
        child = self.child
        assert child is not None
        if not exited.done():
            child.hang_up()
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(exited), LEAVE_SECONDS)
            if not exited.done():
                child.kill()
                exited.cancel()
        for transport in self._transports:
            transport.close()
        child.close()
        self.child = None
        if not self.websocket.closed:
            with contextlib.suppress(Exception):
                await self.websocket.close(code=1000, message=b"the session has ended")

    def end(self, reason: str) -> None:
        """End this session from outside (signed out, the server stopping)."""
        log.info("browser session of %s (%s): %s", self.account.name, self.session.tag, reason)
        if self.child is not None:
            self.child.hang_up()
        self._closing = asyncio.ensure_future(
            self.websocket.close(code=1000, message=reason.encode()[:120]))

    async def _from_child(self, reader: asyncio.StreamReader) -> None:
        """The app's packets: its screen to the browser, until the process is done (or says
        something that is not a packet). One client runs one app after another (the lobby,
        then a game in a child of its own, then the lobby again): each starts with its
        ``__GANGLION__`` line and ends with an ``exit`` meta packet."""
        while await self._next_app(reader):
            if self.size is not None:  # the browser's size now, not the one at the start
                await self._resize(*self.size)
            while True:
                kind = await reader.readexactly(1)
                size = int.from_bytes(await reader.readexactly(4), "big")
                if size > 16 * 1024 * 1024:
                    return
                payload = await reader.readexactly(size)
                if kind == b"D":
                    await self.websocket.send_bytes(payload)
                elif kind == b"M":
                    with contextlib.suppress(ValueError, AttributeError):
                        if json.loads(payload).get("type") == "exit":
                            break
                elif kind != b"P":
                    return

    @staticmethod
    async def _next_app(reader: asyncio.StreamReader) -> bool:
        """Read up to the next app's ``__GANGLION__`` line (a line or two the client prints
        between apps is passed over); False when the process is done first."""
        for _ in range(20):
            try:
                line = await reader.readline()
            except ValueError:  # a long run of bytes without a line: not this protocol
                return False
            if not line:
                return False
            if line == b"__GANGLION__\n":
                return True
        return False

    async def _resize(self, width: int, height: int) -> None:
        await self._to_child(b"M", json.dumps(
            {"type": "resize", "width": width, "height": height}).encode())

    async def _to_child(self, kind: bytes, payload: bytes) -> None:
        assert self._writer is not None
        self._writer.write(kind + len(payload).to_bytes(4, "big") + payload)
        await self._writer.drain()

    async def _from_browser(self) -> None:
        """The browser's messages: keys, sizes, focus to the app; pings answered."""
        async for message in self.websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
            except ValueError:
                continue
            if not isinstance(envelope, list) or not envelope:
                continue
            kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            if kind == "stdin" and isinstance(data, str):
                self.last_input = time.monotonic()
                await self._to_child(b"D", data.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(data, dict):
                width, height = _cells(data.get("width")), _cells(data.get("height"))
                if width and height:
                    self.size = (width, height)
                    await self._resize(width, height)
            elif kind == "ping" and isinstance(data, str | int | float) and len(str(data)) < 64:
                await self.websocket.send_json(["pong", data])
            elif kind in ("focus", "blur"):
                await self._to_child(b"M", json.dumps({"type": kind}).encode())

    async def _idle_watch(self) -> None:
        idle = self.door.front.config.limits.idle_seconds
        while True:
            left = self.last_input + idle - time.monotonic()
            if left <= 0:
                log.info("browser session of %s idle: closed", self.session.tag)
                return
            await asyncio.sleep(min(left, 60.0))


async def _quietly(work: Awaitable[None]) -> None:
    """``work`` until it ends, or its side of the connection does (nothing to report)."""
    with contextlib.suppress(asyncio.IncompleteReadError, OSError, RuntimeError):
        await work


def _cells(value: Any) -> int:
    """A terminal dimension from the browser, within 1 to :data:`MAX_CELLS` (0: not one)."""
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return min(value, MAX_CELLS)
    return 0


def query_cells(request: web.Request, name: str, default: int) -> int:
    """The terminal dimension ``name`` of the websocket's query (``default`` when it is not
    one)."""
    try:
        return _cells(int(request.query.get(name, default))) or default
    except ValueError:
        return default


__all__ = ["MAX_MESSAGE", "BrowserSession", "query_cells"]
