"""``ssh HOST wire`` on ``minefield ssh-server``: a program plays through the SSH channel.

The channel carries the daemon's JSON-lines protocol (``assets/protocol.md``) both ways,
without a terminal: the session opens a connection of its own to the game daemon's socket
(as the spawned client does: this process's user is the daemon's shared account), checks the
program's first line (:func:`~minefield.protocol.program_hello.own_hello`: a ``hello`` whose
``player`` is the key's name or absent), sends it on with the key's name, and from then on
passes the bytes through unread both ways. The daemon does the rest as for any client: its
caps, its rate limits, its line limit, its one error line for a malformed message.

Flow control holds both ways: while the SSH channel cannot take more (its window is full),
nothing more is read from the daemon (which cuts off a client that reads nothing for long,
as it would a slow socket), and while the daemon's socket has a backlog, nothing more is read
from the channel.

The key's player is marked as a program (:mod:`.programs`) once its hello is accepted.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from minefield.frontdoor.commands import FrontCommand, parse_command
from minefield.frontdoor.grammar import Refused
from minefield.frontdoor.programs import mark_program
from minefield.protocol.messages import MAX_LINE_BYTES
from minefield.protocol.program_hello import fatal_line, first_line, own_hello
from minefield.protocol.wire import ErrorCode, WireProblem

if TYPE_CHECKING:
    from minefield.frontdoor.ssh_session import DoorSession

log = logging.getLogger("minefield.frontdoor")

#: Bytes waiting for the daemon's socket past which the channel is no longer read.
SOCKET_BACKLOG = 256 * 1024
#: What one read from the daemon's socket takes at most.
READ_SIZE = 64 * 1024


def asks_for_wire(raw: str | None) -> bool:
    """True when what was typed after the host is ``wire`` (decided as the channel opens, so
    that no byte the program sends before its session starts is lost)."""
    if raw is None:
        return False
    try:
        return parse_command(raw).action == "wire"
    except Refused:
        return False


class WireLink:
    """The bridge of one ``wire`` session: what the program sends (:meth:`feed`,
    :meth:`eof`), the channel's flow control (:meth:`writing`), and :meth:`run`."""

    def __init__(self, session: DoorSession) -> None:
        self.session = session
        #: What the program sent before its hello went to the daemon.
        self._pending = bytearray()
        self._arrived = asyncio.Event()
        self._eof = False
        self._writer: asyncio.StreamWriter | None = None
        self._can_write = asyncio.Event()
        self._can_write.set()
        self._paused = False
        self._draining: asyncio.Task[None] | None = None

    # -- from the channel ----------------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        """Bytes from the program: to the daemon, or kept until its hello has gone."""
        writer = self._writer
        if writer is None:
            self._pending += data
            self._arrived.set()
            if len(self._pending) > 2 * MAX_LINE_BYTES:  # the hello is read first
                self._pause_reading()
            return
        if writer.is_closing():
            return
        writer.write(data)
        if writer.transport.get_write_buffer_size() > SOCKET_BACKLOG:
            self._pause_reading()
            if self._draining is None:
                self._draining = asyncio.ensure_future(self._drain(writer))

    def eof(self) -> None:
        """The program has sent everything (its stdin closed)."""
        self._eof = True
        self._arrived.set()
        if self._writer is not None and self._writer.can_write_eof():
            with contextlib.suppress(OSError, RuntimeError):
                self._writer.write_eof()

    def writing(self, allowed: bool) -> None:
        """The channel can take more output (``allowed``) or not."""
        if allowed:
            self._can_write.set()
        else:
            self._can_write.clear()

    def _pause_reading(self) -> None:
        chan = self.session.chan
        if chan is not None and not self._paused:
            self._paused = True
            chan.pause_reading()

    def _resume_reading(self) -> None:
        chan = self.session.chan
        if chan is not None and self._paused:
            self._paused = False
            chan.resume_reading()

    async def _drain(self, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, ConnectionError):
            await writer.drain()
        self._draining = None
        self._resume_reading()

    # -- the session ---------------------------------------------------------------------------

    def refuse(self, code: ErrorCode, text: str, status: int = 2) -> None:
        """One fatal ``error`` line to the program, and the session ends with ``status``."""
        session = self.session
        if session.chan is not None and not session.ended:
            session.chan.write(fatal_line(code, text))
        session.finish(status)

    async def run(self, command: FrontCommand) -> None:
        """The session for the key's player (a named key): connect to the daemon, send the
        program's hello on once it is checked, then pass everything through until either
        side ends."""
        session, door = self.session, self.session.door
        account = session.account
        assert account is not None
        try:
            reader, writer = await asyncio.open_unix_connection(str(door.socket),
                                                                limit=READ_SIZE)
        except OSError as error:
            log.error("wire session of %s: the game server at %s (%s)", account.name,
                      door.socket, type(error).__name__)
            self.refuse("server", "the game server is not running: try again later", 1)
            return
        log.info("wire session of %s (%s) from %s", account.name, session.fingerprint,
                 session.connection.address)
        from_daemon = asyncio.ensure_future(self._from_daemon(reader))
        try:
            hello_sent = await self._send_hello(writer, account.id, account.name, from_daemon)
            if hello_sent:
                await from_daemon
            if not session.ended:
                session.finish(0)
        finally:
            from_daemon.cancel()
            if self._draining is not None:
                self._draining.cancel()
            writer.close()

    async def _send_hello(self, writer: asyncio.StreamWriter, account_id: int, name: str,
                          from_daemon: asyncio.Future[None]) -> bool:
        """Wait for the program's first line, check it, send it on (True); False when the
        session ended first (refused, the program gone, the daemon closed)."""
        split = None
        while True:
            try:
                split = first_line(bytes(self._pending))
            except WireProblem as problem:
                self.refuse(problem.code, str(problem))
                return False
            if split is not None or self._eof:
                break
            self._arrived.clear()
            arrived: asyncio.Future[None] = asyncio.ensure_future(self._wait_arrived())
            await asyncio.wait([arrived, from_daemon], return_when=asyncio.FIRST_COMPLETED)
            arrived.cancel()
            if from_daemon.done():  # the daemon closed first (its hello timer, a cap)
                return False
        if split is None:  # the program left before its hello: the daemon is told so
            if writer.can_write_eof():
                writer.write_eof()
            return True
        line, rest = split
        try:
            hello = own_hello(line, name, name)
        except WireProblem as problem:
            log.info("wire session of %s: hello refused (%s)", name, problem.code)
            self.refuse(problem.code, str(problem))
            return False
        mark_program(self.session.door.accounts, account_id)
        writer.write(hello + rest)
        self._pending.clear()
        self._writer = writer
        self._resume_reading()
        if self._eof and writer.can_write_eof():
            writer.write_eof()
        return True

    async def _wait_arrived(self) -> None:
        await self._arrived.wait()

    async def _from_daemon(self, reader: asyncio.StreamReader) -> None:
        """What the daemon sends, to the channel, as fast as the channel takes it."""
        session = self.session
        while True:
            await self._can_write.wait()
            try:
                data = await reader.read(READ_SIZE)
            except (OSError, ConnectionError):
                return
            if not data or session.chan is None or session.ended:
                return
            session.chan.write(data)


async def wire_route(session: DoorSession, command: FrontCommand) -> None:
    """``wire``: the protocol on the channel as the key's player (a key with a name)."""
    link = session.wire
    if link is None:  # pragma: no cover - made as the channel asked for wire
        session.refuse("the session could not start: try again", 1)
        return
    if session.account is None:
        link.refuse("not_allowed", "this key has no name yet: choose one first (ssh -t to "
                    "this server, or: name NEW)")
        return
    await link.run(command)


__all__ = ["WireLink", "asks_for_wire", "wire_route"]
