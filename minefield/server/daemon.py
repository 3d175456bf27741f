"""The game daemon's life and its front desk: start (restore), the hello, the rooms, stop.

``Daemon(config).run()`` takes up every unfinished game (:func:`~minefield.server.restore.
restore_rooms`), listens on the socket and serves until SIGTERM or SIGINT. Each connection
(:mod:`~minefield.server.connection`) first sends a :class:`~minefield.protocol.wire.Hello`
(host, join or resume): the daemon finds its room and seat here (:meth:`Daemon._place`),
then the connection's lines go to that room. The peer's Unix user (``SO_PEERCRED``) is the
player. Nothing a client sends can crash the daemon or touch another game.

Logs go to stderr and never hold hidden information: a seat's failures are logged by kind,
never with their text.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import math
import os
import signal
import sqlite3
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from minefield.errors import MinefieldError
from minefield.protocol.codes import new_code
from minefield.protocol.messages import MAX_LINE_BYTES
from minefield.protocol.wire import ErrorCode, Hello, WireProblem, parse_hello
from minefield.records.header import TableKind
from minefield.rules.game import Seat
from minefield.rules.settings import CLOCK_SETTINGS, RuleSettings, SettingsError
from minefield.server.admission import Admission, admit
from minefield.server.audience import serve_watcher
from minefield.server.bots import BotPool
from minefield.server.config import ServerConfig
from minefield.server.connection import (
    LISTEN_BACKLOG,
    Connection,
    ServeError,
    dispatch,
    prepare_socket_folder,
    read_line,
    sweep,
)
from minefield.server.identity import (
    Identity,
    IdentityError,
    identify,
    peer_credentials,
    user_name,
)
from minefield.server.invites import PairRefused
from minefield.server.kept_games import KeptGames
from minefield.server.limits import ConnectionCaps, LogThrottle, TokenBucket
from minefield.server.lobby_profiles import own_games
from minefield.server.lobby_state import Lobby, RatingsOf
from minefield.server.rating import RateGame, schedule
from minefield.server.restore import restore_rooms
from minefield.server.room import Room
from minefield.server.tournaments import Tournaments

log = logging.getLogger("minefield.server")

_T = TypeVar("_T")
#: A placed hello, as the log says it.
_DONE = {"host": "opened", "join": "joined", "resume": "resumed"}
#: Retired codes are remembered this long (to say "expired" or "used" rather than "unknown").
RETIRED_CODE_SECONDS = 3600.0


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


def _log_failure(what: str) -> Callable[[asyncio.Future[Any]], None]:
    """A done callback that logs a failed task by kind (it never stops the daemon)."""
    def done(task: asyncio.Future[Any]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("%s failed (%s)", what, type(task.exception()).__name__)
    return done


class Refusal(MinefieldError):
    """A hello the daemon will not serve; sent to the client as a fatal :class:`WireError`."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code



class Daemon:
    """The game server. ``await daemon.start()`` then ``await daemon.wait_closed()``; or
    :meth:`run` for the whole life, with signals."""

    def __init__(self, config: ServerConfig, rate_game: RateGame | None = None,
                 ratings_of: RatingsOf | None = None) -> None:
        """``rate_game`` and ``ratings_of``: how whoever keeps ratings (the SSH front door)
        rates a finished game and tells the lobby the players' ratings; None: no ratings."""
        self.config = config
        self.bots = BotPool(config.bot_workers)
        self.rooms: dict[str, Room] = {}
        self.codes: dict[str, Room] = {}
        self.retired_codes: OrderedDict[str, tuple[str, float]] = OrderedDict()
        self.by_player: dict[str, set[Room]] = {}
        self.code_failures: dict[str, TokenBucket] = {}
        self.connections: set[Connection] = set()
        self.lobby = Lobby(self.rooms, self.connections, self.pair, self.run_io,
                           ratings_of)
        self._refusals = LogThrottle(60.0)  # refused connections: a line a minute per account
        self.caps = ConnectionCaps(config.max_connections, config.max_unnamed_per_account,
                                   config.max_connections_per_player, config.shared_account)
        self._io = ThreadPoolExecutor(config.io_threads, thread_name_prefix="record")
        self._server: asyncio.AbstractServer | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._stopped = asyncio.Event()
        self._handlers: set[asyncio.Task[Any]] = set()
        self._accounts: dict[int, str] = {}
        #: Rates a finished game between two people (given by whoever keeps ratings: the
        #: SSH front door); None: games are not rated (:mod:`~minefield.server.rating`).
        self.rate_game: RateGame | None = rate_game
        #: The finished games kept by id (:mod:`~minefield.server.kept_games`), once started.
        self.kept: KeptGames | None = None
        #: The tournaments (:mod:`~minefield.server.tournaments`), open once started.
        self.tournaments: Tournaments | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        #: Who may come in (given by whoever keeps bans: the SSH front door), asked at each
        #: hello (:mod:`~minefield.server.admission`); None: everyone.
        self.admission: Admission | None = None

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

    def game_ended(self, room: Room) -> None:
        """A room's game has ended: keep it by its id, rate it (when ratings are kept) and
        score it when it is a tournament's."""
        if self.kept is not None:
            task = asyncio.ensure_future(self.run_io(self.kept.keep, room.id))
            task.add_done_callback(_log_failure(f"game {room.id}: keeping it"))
        schedule(room, self.rate_game)
        if self.tournaments is not None:
            self.tournaments.game_ended(room)

    def keep(self, task: asyncio.Task[Any]) -> None:
        """Keep ``task`` until it is done (a failure is logged by kind)."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_log_failure("a tournament's work"))

    def room_renamed(self, room: Room, old_id: str) -> None:
        """A rematch: the room plays a new game under a new id."""
        self.rooms.pop(old_id, None)
        self.rooms[room.id] = room

    # -- life ----------------------------------------------------------------------------------

    async def start(self) -> None:
        """Restore the games, listen on the socket, start the timers."""
        try:
            rooms = restore_rooms(self)
        except OSError as error:
            raise ServeError(f"cannot use the data folder {self.config.data}: "
                             f"{(error.strerror or str(error)).lower()}") from None
        for room in rooms:
            self._register(room)
            room.wake()  # the clocks and bots of restored games
        try:
            self.kept = KeptGames(self.config.database_path, self.config.games_dir)
            self.tournaments = Tournaments(self)
        except sqlite3.Error as error:
            raise ServeError(f"cannot use the database {self.config.database_path}: "
                             f"{error}") from None
        # Games that ended while no daemon ran, or before games were kept.
        scan = asyncio.ensure_future(self.run_io(self.kept.scan))
        scan.add_done_callback(_log_failure("keeping the finished games"))
        self.lobby.profiles.games_of = own_games(self.kept)  # history, OpenSSH route
        self.lobby.on_join = self._lobby_joined
        self.lobby.tournaments_of = self.tournaments.running
        await self.tournaments.resume()
        path = self.config.socket
        gid = prepare_socket_folder(path, self.config.group)
        self._server = await asyncio.start_unix_server(self._handle, path=str(path),
                                                       limit=MAX_LINE_BYTES + 2,
                                                       backlog=LISTEN_BACKLOG)
        os.chmod(path, 0o660 if gid is not None else 0o600)
        if gid is not None:
            os.chown(path, -1, gid)
        self._sweeper = asyncio.create_task(sweep(self.connections, self.config, self.now))
        log.info("listening on %s (%d unfinished games resumed)", path, len(rooms))

    async def stop(self) -> None:
        """Stop serving: connections are cut (clients reconnect to the next daemon), games stay
        in their records."""
        if self._server is not None:
            self._server.close()
        if self._sweeper is not None:
            self._sweeper.cancel()
        for room in list(self.rooms.values()):
            room.shutdown()
        self.lobby.tournaments_of = None
        if self.tournaments is not None:
            self.tournaments.close()
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
            log.error("%s failed (%s)", repr(conn), type(error).__name__)
        finally:
            self.connections.discard(conn)
            if conn.account is not None:
                self.caps.remove(conn.account, conn.identity.key if conn.identity else None)
            log.info("%s: disconnected (%s)", repr(conn), conn.why or "closed by the server")
            if conn.room is not None and conn.seat is not None:
                if conn.identity is not None:  # the seat may have changed (R31)
                    conn.seat = conn.room.seat_of(conn.identity) or conn.seat
                try:
                    await conn.room.detach(conn.seat, conn, conn.left)
                except Exception as error:
                    log.error("%s: detaching failed (%s)", repr(conn), type(error).__name__)
            conn.close()

    async def _serve(self, conn: Connection) -> None:
        try:
            peer = peer_credentials(conn.writer.get_extra_info("socket"))
        except (IdentityError, OSError) as error:
            conn.fail("not_allowed", f"cannot tell who connected: {error}")
            return
        account = self._account(peer.uid)
        refused = self.caps.refuse_new(account)
        if refused is not None:
            held = self._refusals.allow(account, self.now())
            if held is not None:
                log.warning("a connection from the account %s refused: %s (%d more refused "
                            "since the last line; the next line in a minute at the earliest)",
                            account, refused, held)
            conn.fail("rate_limited", refused)  # retried with backoff, not final
            return
        self.caps.add(account)
        conn.account = account
        log.info("%s: connected", repr(conn))
        line = await read_line(conn, self.now)
        if line is None:
            return
        try:
            hello = parse_hello(line)
            identity = identify(peer, hello.player, self.config.shared_account)
            await admit(self.admission, identity, hello.key, self.run_io)  # banned: refused
        except WireProblem as problem:
            conn.fail(problem.code, str(problem))
            return
        except IdentityError as error:
            conn.fail("not_allowed", str(error))
            return
        refused = self.caps.refuse_named(account, identity.key)
        if refused is not None:
            log.warning("%s: hello refused: %s", repr(conn), refused)
            conn.fail("rate_limited", refused)  # retried with backoff, not final
            return
        self.caps.name(account, identity.key)
        conn.identity = identity
        log.info("%s: hello (%s)", repr(conn), hello.action)
        if hello.action == "lobby":
            await self.lobby.serve(conn, self.now)
            return
        if hello.action == "watch":
            await serve_watcher(list(self.rooms.values()), conn, hello, self.now)
            return
        try:
            room, seat, resumed = self._place(identity, hello)
        except Refusal as refusal:
            log.info("%s: %s refused (%s)", repr(conn), hello.action, refusal.code)
            conn.fail(refusal.code, str(refusal))
            return
        conn.room, conn.seat = room, seat
        log.info("%s: %s game %s as %s", repr(conn), _DONE[hello.action], room.id, seat)
        if self.tournaments is not None:
            self.tournaments.seated(room, identity)
        await room.attach(seat, conn, resumed)
        while (line := await read_line(conn, self.now)) is not None:
            # The seat of a player changes with a rematch or a match's next game (R31).
            seat = room.seat_of(identity) or seat
            conn.seat = seat
            await dispatch(conn, room, seat, line, self.now())
            if conn.closing_since is not None:
                return
            if conn.room is not room:  # pragma: no cover - rooms never move a connection
                return

    def _account(self, uid: int) -> str:
        """The name of the Unix account ``uid`` (looked up once)."""
        name = self._accounts.get(uid)
        if name is None:
            name = self._accounts[uid] = user_name(uid)
        return name

    # -- rooms -------------------------------------------------------------------------------------

    def _lobby_joined(self, conn: Connection) -> None:
        """A player came to the lobby: the tournament games waiting for them, again."""
        if self.tournaments is not None and conn.identity is not None:
            for notice in self.tournaments.waiting_for(conn.identity):
                conn.send(notice)

    def register(self, room: Room) -> None:
        """Serve a new room made outside a hello (a tournament's)."""
        self._register(room)

    def _register(self, room: Room) -> None:
        self.rooms[room.id] = room
        for seated in room.seats.values():
            if seated.identity is not None:
                self.by_player.setdefault(seated.identity.key, set()).add(room)

    def pair(self, first: Identity, second: Identity | None, bot: str | None,
             kind: TableKind = "invitation", rated: bool = False) -> str:
        """A private room of the lobby (``kind``: an invitation, a quick match) with both
        seats held: ``first`` and ``second``, or ``bot``; a standard single game, ``rated``
        or casual (R36). Its game id, or :class:`~minefield.server.invites.PairRefused` (too
        many open games)."""
        limit = self.config.max_games_per_player
        for who in (first, second):
            if who is not None and self._open_games(who) >= limit:
                raise PairRefused(f"{who.name} already has {limit} open games: finish one "
                                  "first (minefield resume)")
        settings = RuleSettings.preset("standard", hand_seconds=self.config.hand_seconds,
                                       discard_seconds=self.config.discard_seconds)
        room = Room.host(self, first, settings, bot=bot)
        room.kind, room.rated_games = kind, rated
        free = room.free_seat()
        if second is not None and free is not None:
            room.claim(free, second)
        self._register(room)
        return room.id

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
        room.public = hello.public and hello.bot is None
        room.kind = "public" if room.public else "private"
        room.rated_games = hello.rated is not False  # a host's table is rated unless casual
        room.rules_name = hello.rules or default
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
            # The client adds how to host or join as its player reaches this server.
            raise Refusal("no_game", "you have no unfinished game on this server")
        # An unfinished game first, then the newest (ids start with their time).
        room = max(rooms, key=lambda r: (r.going_on, not r.waiting, r.id))
        seat = room.seat_of(identity)
        assert seat is not None
        return room, seat, True


__all__ = ["Connection", "Daemon", "Refusal", "ServeError"]
