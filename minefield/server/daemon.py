"""The game daemon: a Unix socket, its connections, the rooms and their codes.

``Daemon(config).run()`` restores every unfinished game from its record (and every match that
is not over from the records of its games), listens on the socket and serves until SIGTERM or
SIGINT. Each connection is read line by line: the first
line is the :class:`~minefield.server.wire.Hello` (host, join or resume), then session
messages. The peer's Unix user (``SO_PEERCRED``) is the player. Nothing a client sends can
crash the daemon or touch another game: every line is validated before it reaches a room, a
line over 64 KiB closes the connection, a connection that sends too fast is answered
``rate_limited`` and closed if it goes on, and idle or silent connections are closed on a timer.

Logs go to stderr and never hold hidden information: a seat's failures are logged by kind,
never with their text.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import grp
import json
import logging
import math
import os
import signal
import socket
import stat
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from minefield.records.reader import ReadRecord, RecordError, read_record
from minefield.records.writer import RECORD_SUFFIX, ensure_folder
from minefield.rules.game import Seat
from minefield.rules.settings import CLOCK_SETTINGS, RuleSettings, SettingsError
from minefield.server.bots import BotPool
from minefield.server.codes import new_code
from minefield.server.config import ServerConfig
from minefield.server.identity import Identity, IdentityError, identify, peer_credentials
from minefield.server.limits import TokenBucket
from minefield.server.room import FINISHED_FOLDER, MatchOver, Room
from minefield.server.wire import (
    AskNextGame,
    AskRematch,
    ErrorCode,
    Hello,
    Ping,
    Pong,
    WireError,
    WireProblem,
    encode,
    error_text,
    parse_hello,
    parse_in_game,
)
from minefield.session.protocol import (
    MAX_LINE_BYTES,
    Closed,
    Draft,
    Leave,
    Rejected,
    SendCommand,
)

log = logging.getLogger("minefield.server")

_T = TypeVar("_T")
#: Retired codes are remembered this long (to say "expired" or "used" rather than "unknown").
RETIRED_CODE_SECONDS = 3600.0
#: Connections waiting to be accepted (many players arrive at once after a restart).
LISTEN_BACKLOG = 4096
#: A connection being closed that still has not flushed after this long is cut.
CLOSE_GRACE_SECONDS = 5.0


#: The garbage collector's thresholds in the daemon's process. A full collection visits every
#: object of every open game (some 400 per game): about 0.3 s with a thousand games, during
#: which no game moves. Python's default (one every 10 middle-generation collections) runs
#: one every few seconds under load; this runs one every few minutes. Finished games are freed
#: by reference counting (see :class:`_Outbox`), so little waits for a full collection.
GC_THRESHOLDS = (700, 10, 1000)


def tune_gc() -> None:
    """For the daemon's process, once started: fewer full collections (:data:`GC_THRESHOLDS`),
    and the objects that live as long as the process (modules, restored games) set aside."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


class Refusal(Exception):
    """A hello the daemon will not serve; sent to the client as a fatal :class:`WireError`."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code


class ServeError(Exception):
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
        self.room: Room | None = None
        self.seat: Seat | None = None
        self.left = False
        self.outbox = _Outbox(writer.transport)

    def __repr__(self) -> str:
        who = self.identity.key if self.identity else "?"
        return f"Connection({who}, seat={self.seat})"

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
            log.warning("%r does not read its messages: disconnected", self)
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
        self.send(WireError(code=code, message=error_text(message), fatal=True))
        self.close()


class Daemon:
    """The game server. ``await daemon.start()`` then ``await daemon.wait_closed()``; or
    :meth:`run` for the whole life, with signals."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.bots = BotPool(config.bot_workers)
        self.rooms: dict[str, Room] = {}
        self.codes: dict[str, Room] = {}
        self.retired_codes: OrderedDict[str, tuple[str, float]] = OrderedDict()
        self.by_player: dict[str, set[Room]] = {}
        self.code_failures: dict[str, TokenBucket] = {}
        self.connections: set[Connection] = set()
        self._io = ThreadPoolExecutor(config.io_threads, thread_name_prefix="record")
        self._server: asyncio.AbstractServer | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._stopped = asyncio.Event()
        self._handlers: set[asyncio.Task[Any]] = set()

    # -- Services (for rooms) ----------------------------------------------------------------------

    def now(self) -> float:
        """The event loop's clock."""
        return asyncio.get_running_loop().time()

    def run_io(self, function: Callable[..., _T], *args: Any) -> Awaitable[_T]:
        """Run ``function`` in a record thread (it may fsync)."""
        return asyncio.get_running_loop().run_in_executor(self._io, function, *args)

    def room_closed(self, room: Room) -> None:
        """Forget a closed room."""
        self.rooms.pop(room.id, None)
        if room.code is not None and self.codes.get(room.code) is room:
            del self.codes[room.code]
            self._retire(room.code, "expired")
        for seated in room.seats.values():
            if seated.identity is not None:
                rooms = self.by_player.get(seated.identity.key)
                if rooms is not None:
                    rooms.discard(room)
                    if not rooms:
                        del self.by_player[seated.identity.key]

    def room_renamed(self, room: Room, old_id: str) -> None:
        """A rematch: the room plays a new game under a new id."""
        self.rooms.pop(old_id, None)
        self.rooms[room.id] = room

    # -- life ----------------------------------------------------------------------------------

    def restore(self) -> int:
        """Take up every unfinished game in the records folder; how many."""
        folder = ensure_folder(self.config.games_dir)
        for private in (self.config.data, folder):  # players must not read records
            os.chmod(private, 0o700)
        restored = 0
        matches: dict[str, list[Path]] = {}
        for path in sorted(folder.glob(f"*{RECORD_SUFFIX}")):
            match = _match_of(path)
            if match is not None:  # the games of a match go on together, below
                matches.setdefault(match, []).append(path)
                continue
            try:
                room = Room.restore(self, path)
            except RecordError:  # its text may quote a command's tiles: not in the log
                if _ended(path):  # ended before it could be moved aside
                    finished = ensure_folder(folder / FINISHED_FOLDER)
                    path.rename(finished / path.name)
                    continue
                log.warning("record %s cannot go on (ended, damaged or not a network game): "
                            "left as it is", path.name)
                continue
            except OSError as error:
                log.warning("record %s not resumed (%s)", path.name, type(error).__name__)
                continue
            self._register(room)
            restored += 1
        for match_id, paths in matches.items():
            restored += self._restore_match(folder, match_id, paths)
        return restored

    def _restore_match(self, folder: Path, match_id: str, paths: list[Path]) -> int:
        """Take up the match ``match_id`` whose records in ``folder`` are ``paths``: 1 if it
        goes on, else 0 (a match that is over has its records moved to ``finished/``).

        When they do not replay by themselves (a daemon killed while it moved a match's
        records aside), the match's records in ``finished/`` are added and it is tried again.
        """
        records: list[ReadRecord] = []
        for path in paths:
            try:
                records.append(read_record(path))
            except RecordError:
                log.warning("record %s of a match cannot be read: the match is left as it is",
                            path.name)
                return 0
        finished = folder / FINISHED_FOLDER
        for attempt in range(2):
            try:
                room = Room.restore_match(self, records)
            except MatchOver:
                ensure_folder(finished)
                for path in paths:
                    path.rename(finished / path.name)
                return 0
            except RecordError:  # its text may quote a command's tiles: not in the log
                more = _match_records_in(finished, match_id) if attempt == 0 else []
                if more:
                    records += more
                    continue
                log.warning("the match of record %s cannot go on (damaged or not a network "
                            "game): left as it is", paths[-1].name)
                return 0
            except OSError as error:
                log.warning("the match of record %s not resumed (%s)", paths[-1].name,
                            type(error).__name__)
                return 0
            self._register(room)
            return 1
        return 0  # pragma: no cover - the loop returns

    async def start(self) -> None:
        """Restore the games, listen on the socket, start the timers."""
        try:
            restored = self.restore()
        except OSError as error:
            raise ServeError(f"cannot use the data folder {self.config.data}: "
                             f"{(error.strerror or str(error)).lower()}") from None
        for room in list(self.rooms.values()):
            room.wake()  # the clocks and bots of restored games
        path = self.config.socket
        gid = _prepare_socket_folder(path, self.config.group)
        self._server = await asyncio.start_unix_server(self._handle, path=str(path),
                                                       limit=MAX_LINE_BYTES + 2,
                                                       backlog=LISTEN_BACKLOG)
        os.chmod(path, 0o660 if gid is not None else 0o600)
        if gid is not None:
            os.chown(path, -1, gid)
        self._sweeper = asyncio.create_task(self._sweep())
        log.info("listening on %s (%d unfinished games resumed)", path, restored)

    async def stop(self) -> None:
        """Stop serving: connections are cut (clients reconnect to the next daemon), games stay
        in their records."""
        if self._server is not None:
            self._server.close()
        if self._sweeper is not None:
            self._sweeper.cancel()
        for room in list(self.rooms.values()):
            room.shutdown()
        for conn in list(self.connections):
            conn.writer.transport.abort()
        if self._handlers:
            await asyncio.wait(list(self._handlers), timeout=5.0)
        self.bots.close()
        self._io.shutdown(wait=True)
        with contextlib.suppress(OSError):
            self.config.socket.unlink()
        self._stopped.set()

    async def wait_closed(self) -> None:
        """Until :meth:`stop` has run."""
        await self._stopped.wait()

    async def run(self) -> None:
        """Start, serve until SIGTERM or SIGINT, stop."""
        await self.start()
        tune_gc()
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for number in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(number, stop.set)
        await stop.wait()
        log.info("stopping")
        await self.stop()

    # -- connections -------------------------------------------------------------------------------

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Connection(reader, writer, self.config, self.now())
        self.connections.add(conn)
        task = asyncio.current_task()
        if task is not None:
            self._handlers.add(task)
            task.add_done_callback(self._handlers.discard)
        try:
            await self._serve(conn)
        except Exception as error:  # never let one connection take the daemon down
            log.error("%r failed (%s)", conn, type(error).__name__)
        finally:
            self.connections.discard(conn)
            if conn.room is not None and conn.seat is not None:
                if conn.identity is not None:  # the seat may have changed (R31)
                    conn.seat = conn.room.seat_of(conn.identity) or conn.seat
                try:
                    await conn.room.detach(conn.seat, conn, conn.left)
                except Exception as error:
                    log.error("%r: detaching failed (%s)", conn, type(error).__name__)
            conn.close()

    async def _read_line(self, conn: Connection) -> bytes | None:
        """The next line, or None at the end (EOF, a broken link, a line too long)."""
        try:
            line = await conn.reader.readline()
        except ValueError:  # the StreamReader's limit: no newline within 64 KiB
            conn.fail("too_long", f"a line is longer than {MAX_LINE_BYTES} bytes: closing")
            return None
        except (ConnectionError, OSError):
            return None
        if not line.endswith(b"\n"):
            return None  # EOF, perhaps in the middle of a line
        if len(line) > MAX_LINE_BYTES + 1:
            conn.fail("too_long", f"a line is longer than {MAX_LINE_BYTES} bytes: closing")
            return None
        conn.last_seen = self.now()
        return line

    async def _serve(self, conn: Connection) -> None:
        try:
            peer = peer_credentials(conn.writer.get_extra_info("socket"))
        except (IdentityError, OSError) as error:
            conn.fail("not_allowed", f"cannot tell who connected: {error}")
            return
        line = await self._read_line(conn)
        if line is None:
            return
        try:
            hello = parse_hello(line)
            identity = identify(peer, hello.player, self.config.shared_account)
        except WireProblem as problem:
            conn.fail(problem.code, str(problem))
            return
        except IdentityError as error:
            conn.fail("not_allowed", str(error))
            return
        if sum(1 for c in self.connections
               if c.identity is not None and c.identity.key == identity.key
               ) >= self.config.max_connections_per_player:
            conn.fail("not_allowed", "too many connections for one player")
            return
        conn.identity = identity
        try:
            room, seat, resumed = self._place(identity, hello)
        except Refusal as refusal:
            log.debug("%s: %s refused (%s)", identity.key, hello.action, refusal.code)
            conn.fail(refusal.code, str(refusal))
            return
        conn.room, conn.seat = room, seat
        log.debug("%s: %s game %s as %s", identity.key, hello.action, room.id, seat)
        await room.attach(seat, conn, resumed)
        while (line := await self._read_line(conn)) is not None:
            # The seat of a player changes with a rematch or a match's next game (R31).
            seat = room.seat_of(identity) or seat
            conn.seat = seat
            await self._message(conn, room, seat, line)
            if conn.closing_since is not None:
                return
            if conn.room is not room:  # pragma: no cover - rooms never move a connection
                return

    async def _message(self, conn: Connection, room: Room, seat: Seat, line: bytes) -> None:
        """One line after the handshake."""
        received = self.now()
        if not conn.bucket.take(received):
            if not conn.abuse.take(received):
                log.warning("%r: too many messages: disconnected", conn)
                conn.fail("rate_limited", "too many messages: disconnected")
                return
            text = (f"too many messages: at most {self.config.rate:g} a second "
                    f"(bursts of {self.config.burst}); this one was dropped")
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
            log.debug("%r: a bad message (%s)", conn, problem.code)
            conn.send(WireError(code=problem.code, message=str(problem)))
            return
        if isinstance(message, SendCommand):
            await room.command(seat, message.command_id, message.command, received)
        elif isinstance(message, Draft):
            room.draft(seat, message.tiles)
        elif isinstance(message, Ping):
            conn.send(Pong())
        elif isinstance(message, AskRematch):
            await room.rematch(seat)
        elif isinstance(message, AskNextGame):
            await room.next_game(seat)
        elif isinstance(message, Leave):
            conn.left = True
            conn.send(Closed(seat=seat, reason="You left the table; the game goes on under "
                             "the clocks (resume to come back)."))
            conn.close()

    # -- rooms -------------------------------------------------------------------------------------

    def _register(self, room: Room) -> None:
        self.rooms[room.id] = room
        for seated in room.seats.values():
            if seated.identity is not None:
                self.by_player.setdefault(seated.identity.key, set()).add(room)

    def _open_games(self, identity: Identity) -> int:
        return sum(1 for room in self.by_player.get(identity.key, ()) if room.going_on)

    def _retire(self, code: str, why: str) -> None:
        now = self.now()
        self.retired_codes[code] = (why, now)
        while self.retired_codes:
            oldest = next(iter(self.retired_codes.values()))
            if oldest[1] + RETIRED_CODE_SECONDS > now and len(self.retired_codes) < 100_000:
                break
            self.retired_codes.popitem(last=False)

    def _place(self, identity: Identity, hello: Hello) -> tuple[Room, Seat, bool]:
        """The room and seat a hello asks for, or :class:`Refusal`."""
        if hello.seed is not None and not self.config.test_seeds:
            raise Refusal("not_allowed", "this server does not accept chosen seeds")
        if hello.action == "host":
            return self._host(identity, hello)
        if hello.action == "join":
            return self._join(identity, hello)
        return self._resume(identity, hello)

    def _host(self, identity: Identity, hello: Hello) -> tuple[Room, Seat, bool]:
        if self._open_games(identity) >= self.config.max_games_per_player:
            raise Refusal("not_allowed", f"you already have {self.config.max_games_per_player} "
                          "open games: finish one first (minefield resume)")
        try:
            default = "match" if hello.wants_match else "standard"
            if CLOCK_SETTINGS & hello.rule.keys():
                raise SettingsError("the clocks of a network game are the server's (R25): "
                                    "leave hand_seconds and discard_seconds out")
            settings = RuleSettings.preset(hello.rules or default,
                                           **{**hello.rule,
                                              "hand_seconds": self.config.hand_seconds,
                                              "discard_seconds": self.config.discard_seconds})
        except SettingsError as error:
            raise Refusal("bad_message", str(error)) from None
        room = Room.host(self, identity, settings, bot=hello.bot, seed=hello.seed,
                         match=hello.wants_match)
        if hello.bot is None:
            room.code = new_code(self.codes.keys() | self.retired_codes.keys())
            room.code_expires = self.now() + self.config.code_seconds
            self.codes[room.code] = room
        self._register(room)
        seat = room.seat_of(identity)
        assert seat is not None
        return room, seat, False

    def _join(self, identity: Identity, hello: Hello) -> tuple[Room, Seat, bool]:
        if hello.code is None:
            raise Refusal("bad_message", "join needs the room code (6 letters and digits)")
        now = self.now()
        failures = self.code_failures.setdefault(identity.key, TokenBucket(
            self.config.code_attempts, 1.0 / self.config.code_retry_seconds, now))
        if not failures.available(now):
            raise Refusal("rate_limited", "too many wrong room codes: try again in "
                          f"{math.ceil(failures.wait(now))} s")
        room = self.codes.get(hello.code)
        if room is None or room.closed:
            failures.take(now)
            retired = self.retired_codes.get(hello.code)
            if retired is not None and retired[0] == "expired":
                raise Refusal("bad_code", f"the room code {hello.code} has expired (codes last "
                              f"{round(self.config.code_seconds / 60)} minutes): ask for a new "
                              "one")
            if retired is not None:
                raise Refusal("bad_code", f"the room code {hello.code} has already been used")
            raise Refusal("bad_code", f"no room has the code {hello.code}: check it")
        seat = room.seat_of(identity)
        if seat is not None:  # the host, from another terminal
            return room, seat, True
        free = room.free_seat()
        if free is None:  # pragma: no cover - a code is retired when its seat is taken
            raise Refusal("bad_code", f"the room {hello.code} is full")
        if self._open_games(identity) >= self.config.max_games_per_player:
            raise Refusal("not_allowed", f"you already have {self.config.max_games_per_player} "
                          "open games: finish one first (minefield resume)")
        code = hello.code
        room.claim(free, identity)
        del self.codes[code]
        self._retire(code, "used")
        self._register(room)
        return room, free, False

    def _resume(self, identity: Identity, hello: Hello) -> tuple[Room, Seat, bool]:
        rooms = [room for room in self.by_player.get(identity.key, ()) if not room.closed]
        if hello.game is not None:
            rooms = [room for room in rooms if hello.game in room.game_ids]
            if not rooms:
                raise Refusal("no_game", "that game is over or no longer on this server")
        if not rooms:
            raise Refusal("no_game", "you have no unfinished game on this server: host one "
                          "(minefield host) or join one (minefield join CODE)")
        # An unfinished game first, then the newest (ids start with their time).
        room = max(rooms, key=lambda r: (r.going_on, not r.waiting, r.id))
        seat = room.seat_of(identity)
        assert seat is not None
        return room, seat, True

    # -- timers --------------------------------------------------------------------------------

    async def _sweep(self) -> None:
        """Close connections that never said hello, went silent, or will not close."""
        period = max(0.05, min(2.0, self.config.idle_seconds / 4, self.config.hello_seconds / 4))
        while True:
            await asyncio.sleep(period)
            now = self.now()
            for conn in list(self.connections):
                if conn.closing_since is not None:
                    if now - conn.closing_since > CLOSE_GRACE_SECONDS:
                        conn.writer.transport.abort()
                elif conn.identity is None and now - conn.opened > self.config.hello_seconds:
                    conn.fail("handshake", "no hello in time: closing")
                elif now - conn.last_seen > self.config.idle_seconds:
                    log.debug("%r: idle: disconnected", conn)
                    conn.fail("idle", f"nothing received for {self.config.idle_seconds:g} s "
                              "(clients ping every 10 s): closing")


def _match_of(path: Path) -> str | None:
    """The public id of the match the record at ``path`` belongs to (its header's
    ``match.id``), None for a single game or a header that cannot be read."""
    try:
        with path.open("rb") as file:
            line = file.readline(MAX_LINE_BYTES + 1)
        header = json.loads(line)
    except (OSError, ValueError):
        return None
    match = header.get("match") if isinstance(header, dict) else None
    ident = match.get("id") if isinstance(match, dict) else None
    return ident if isinstance(ident, str) else None


def _match_records_in(folder: Path, match_id: str) -> list[ReadRecord]:
    """The readable records of the match ``match_id`` in ``folder`` (none if it cannot be
    listed)."""
    records = []
    try:
        paths = sorted(folder.glob(f"*{RECORD_SUFFIX}"))
    except OSError:
        return []
    for path in paths:
        if _match_of(path) == match_id:
            with contextlib.suppress(RecordError):
                records.append(read_record(path))
    return records


def _ended(path: Path) -> bool:
    """True when the record at ``path`` has its result line."""
    try:
        return read_record(path).ended
    except RecordError:
        return False


def _prepare_socket_folder(path: Path, group: str | None) -> int | None:
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


__all__ = ["Connection", "Daemon", "Refusal", "ServeError"]
