"""The connection layer of the daemon: the socket, one client's stream, what its lines ask.

A :class:`Connection` is one client: its stream, the player it is (once the hello named
them), its room and seat, its rate limits (:mod:`minefield.server.limits`). Lines are read
with :func:`read_line` (at most :data:`~minefield.protocol.messages.MAX_LINE_BYTES`), and
each line after the hello goes through :func:`dispatch`: validated (:mod:`minefield.protocol.wire`)
and rate limited before it reaches the room. :func:`sweep` closes silent connections;
:func:`prepare_socket_folder` makes the socket's place safe before the daemon listens.
The hello itself (who may play, which room) is the daemon's (:mod:`minefield.server.daemon`).
"""

from __future__ import annotations

import asyncio
import grp
import json
import logging
import os
import socket
import stat
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel

from minefield.errors import MinefieldError
from minefield.protocol.messages import (
    MAX_LINE_BYTES,
    Closed,
    Draft,
    Leave,
    Rejected,
    SendCommand,
)
from minefield.protocol.wire import (
    AskNextGame,
    AskRematch,
    ErrorCode,
    Ping,
    Pong,
    WireError,
    WireProblem,
    encode,
    error_text,
    parse_in_game,
)
from minefield.rules.game import Seat
from minefield.server.between_games import ask_next_game, ask_rematch
from minefield.server.config import ServerConfig
from minefield.server.identity import Identity
from minefield.server.limits import TokenBucket
from minefield.server.room import BOT_LEFT, Room

log = logging.getLogger("minefield.server")

#: Connections waiting to be accepted (many players arrive at once after a restart).
LISTEN_BACKLOG = 4096
#: A connection being closed that still has not flushed after this long is cut.
CLOSE_GRACE_SECONDS = 5.0


class ServeError(MinefieldError):
    """The daemon cannot start (socket in use, bad folder, unknown group): one line."""


class _Outbox:
    """A connection's messages waiting for the end of the event loop's step.

    Writing from a loop callback rather than from the code that sent (a room's methods) also
    keeps a failed write's traceback, which asyncio keeps on the stream, from holding the
    room's frames: otherwise every game with a client gone ends as a reference cycle (room,
    game, connections) that only the full garbage collections free, and those stall the
    loop for hundreds of milliseconds once a thousand games are open. Holds no connection.
    """

    __slots__ = ("chunks", "size", "transport")

    def __init__(self, transport: asyncio.WriteTransport) -> None:
        self.transport = transport
        self.chunks: list[bytes] = []
        self.size = 0

    def write_out(self) -> None:
        """Write every waiting message (one system call for all of them)."""
        chunks, self.chunks, self.size = self.chunks, [], 0
        if chunks and not self.transport.is_closing():
            self.transport.write(b"".join(chunks))

    def close(self) -> None:
        """Write what waits, then close (the transport flushes its buffer first)."""
        self.write_out()
        self.transport.close()


class Connection:
    """One client connection: its stream, its player and seat, its rate limits."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 config: ServerConfig, now: float) -> None:
        self.reader = reader
        self.writer = writer
        self.config = config
        self.opened = now
        self.last_seen = now
        self.closing_since: float | None = None
        self.bucket = TokenBucket(config.burst, config.rate, now)
        self.abuse = TokenBucket(config.abuse, 1.0, now)
        self.identity: Identity | None = None
        #: The peer's Unix account, once known (the caps count connections by it).
        self.account: str | None = None
        #: Why the connection ended (the first cause), for the log.
        self.why: str | None = None
        self.room: Room | None = None
        self.seat: Seat | None = None
        #: The game this connection watches (no seat), if it is a watcher's.
        self.watching: str | None = None
        self.left = False
        self.outbox = _Outbox(writer.transport)

    def __repr__(self) -> str:
        who = self.identity.key if self.identity else self.account or "?"
        return f"Connection({who}, seat={self.seat})"

    def ended_because(self, why: str) -> None:
        """Note why the connection ends (only the first cause is kept)."""
        if self.why is None:
            self.why = why

    def send(self, message: BaseModel) -> None:
        """Queue one message; a client whose unread output passes the limit is cut off.

        The messages queued while the event loop runs one step go out together, in one write
        at the end of that step (:class:`_Outbox`).
        """
        if self.closing_since is not None:
            return
        transport = self.writer.transport
        if transport.is_closing():
            return
        outbox = self.outbox
        if not outbox.chunks:
            asyncio.get_running_loop().call_soon(outbox.write_out)
        data = encode(message)
        outbox.chunks.append(data)
        outbox.size += len(data)
        if outbox.size + transport.get_write_buffer_size() > self.config.max_write_buffer:
            log.warning("%s does not read its messages: disconnected", repr(self))
            outbox.chunks.clear()
            transport.abort()

    def close(self) -> None:
        """Close after the queued messages are written."""
        if self.closing_since is None:
            loop = asyncio.get_running_loop()
            self.closing_since = loop.time()
            loop.call_soon(self.outbox.close)  # after the write already scheduled

    def fail(self, code: ErrorCode, message: str) -> None:
        """Send a fatal error and close."""
        self.ended_because(f"error {code}")
        self.send(WireError(code=code, message=error_text(message), fatal=True))
        self.close()


async def read_line(conn: Connection, clock: Callable[[], float]) -> bytes | None:
    """The next line, or None at the end (EOF, a broken link, a line too long)."""
    try:
        line = await conn.reader.readline()
    except ValueError:  # the StreamReader's limit: no newline within 64 KiB
        conn.fail("too_long", f"a line is longer than {MAX_LINE_BYTES} bytes: closing")
        return None
    except (ConnectionError, OSError) as error:
        conn.ended_because(f"the link broke: {type(error).__name__}")
        return None
    if not line.endswith(b"\n"):
        conn.ended_because("the client closed the connection")
        return None  # EOF, perhaps in the middle of a line
    if len(line) > MAX_LINE_BYTES + 1:
        conn.fail("too_long", f"a line is longer than {MAX_LINE_BYTES} bytes: closing")
        return None
    conn.last_seen = clock()
    return line


async def dispatch(conn: Connection, room: Room, seat: Seat, line: bytes, received: float
                   ) -> None:
    """One line after the handshake, received at ``received``: to the room, or answered."""
    config = conn.config
    if not conn.bucket.take(received):
        if not conn.abuse.take(received):
            log.info("%s: too many messages: disconnected", repr(conn))
            conn.fail("rate_limited", "too many messages: disconnected")
            return
        text = (f"too many messages: at most {config.rate:g} a second "
                f"(bursts of {config.burst}); this one was dropped")
        try:
            message = parse_in_game(line)
        except WireProblem:
            message = None
        if isinstance(message, SendCommand):
            conn.send(Rejected(seat=seat, command_id=message.command_id, reason=text))
        else:
            conn.send(WireError(code="rate_limited", message=text))
        return
    try:
        message = parse_in_game(line)
    except WireProblem as problem:
        log.debug("%s: a bad message (%s)", repr(conn), problem.code)
        if problem.fatal:
            conn.fail(problem.code, str(problem))
        elif problem.command_id is not None:  # every command is applied or rejected
            await room.refuse(seat, problem.command_id, f"malformed command: {problem}",
                              received, discard=_names_discard(line))
        else:
            conn.send(WireError(code=problem.code, message=str(problem)))
        return
    if isinstance(message, SendCommand):
        await room.command(seat, message.command_id, message.command, received)
    elif isinstance(message, Draft):
        room.draft(seat, message.tiles)
    elif isinstance(message, Ping):
        conn.send(Pong())
    elif isinstance(message, AskRematch):
        await ask_rematch(room, seat)
    elif isinstance(message, AskNextGame):
        await ask_next_game(room, seat)
    elif isinstance(message, Leave):
        conn.left = True
        conn.ended_because("left the table")
        conn.send(Closed(seat=seat, reason=BOT_LEFT if room.against_bot else (
            "You left the table; the game goes on under the clocks (resume to come back).")))
        conn.close()


def _names_discard(line: bytes) -> bool:
    """True when a malformed command line asks for a discard (it is paced as discards are)."""
    try:
        value = json.loads(line)
    except ValueError:
        return False
    command = value.get("command") if isinstance(value, dict) else None
    return isinstance(command, dict) and command.get("type") == "discard"


async def sweep(connections: set[Connection], config: ServerConfig,
                clock: Callable[[], float]) -> None:
    """For ever: close connections that never said hello, went silent, or will not close."""
    period = max(0.05, min(2.0, config.idle_seconds / 4, config.hello_seconds / 4))
    while True:
        await asyncio.sleep(period)
        now = clock()
        for conn in list(connections):
            if conn.closing_since is not None:
                if now - conn.closing_since > CLOSE_GRACE_SECONDS:
                    conn.writer.transport.abort()
            elif conn.identity is None and now - conn.opened > config.hello_seconds:
                conn.fail("handshake", "no hello in time: closing")
            elif now - conn.last_seen > config.idle_seconds:
                log.info("%s: idle for %g s: closing", repr(conn), config.idle_seconds)
                conn.fail("idle", f"nothing received for {config.idle_seconds:g} s "
                          "(clients ping every 10 s): closing")


def prepare_socket_folder(path: Path, group: str | None) -> int | None:
    """Create the socket's folder (0700, or 0750 of ``group``), clear a stale socket; the
    group's id. :class:`ServeError` when another daemon listens there or the place is unsafe."""
    gid = None
    if group is not None:
        try:
            gid = grp.getgrnam(group).gr_gid
        except KeyError:
            raise ServeError(f"no group named {group!r}") from None
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        info = os.lstat(folder)
        if not stat.S_ISDIR(info.st_mode):
            raise ServeError(f"{folder} is not a folder")
        if info.st_uid != os.getuid():
            raise ServeError(f"{folder} belongs to another user: choose another --socket")
        if gid is not None:
            os.chown(folder, -1, gid)
        os.chmod(folder, 0o750 if gid is not None else 0o700)
    except OSError as error:
        raise ServeError(f"cannot prepare {folder}: "
                         f"{(error.strerror or str(error)).lower()}") from None
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return gid
    if not stat.S_ISSOCK(info.st_mode):
        raise ServeError(f"{path} exists and is not a socket")
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.settimeout(1.0)
        probe.connect(str(path))
    except OSError:
        path.unlink()  # stale: its daemon is gone
    else:
        raise ServeError(f"a game server is already running at {path}")
    finally:
        probe.close()
    return gid


__all__ = ["CLOSE_GRACE_SECONDS", "LISTEN_BACKLOG", "Connection", "ServeError", "dispatch",
           "prepare_socket_folder", "read_line", "sweep"]
