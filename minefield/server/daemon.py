"""The game daemon's life: start (restore), the connections and their hello, the rooms, stop.

``Daemon(config).run()`` takes up every unfinished game (:func:`~minefield.server.restore.
restore_rooms`), listens on the socket and serves until SIGTERM or SIGINT. Each connection
(:mod:`~minefield.server.connection`) first sends a :class:`~minefield.protocol.wire.Hello`
(host, join or resume): the front desk finds its room and seat
(:meth:`~minefield.server.front_desk.FrontDesk.place`), then the connection's lines go to
that room. The peer's Unix user (``SO_PEERCRED``) is the
player. Nothing a client sends can crash the daemon or touch another game.

Logs go to stderr and never hold hidden information: a seat's failures are logged by kind,
never with their text.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import signal
import sqlite3
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from minefield.protocol.messages import MAX_LINE_BYTES
from minefield.protocol.wire import WireProblem, parse_hello
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
from minefield.server.front_desk import FrontDesk, Refusal
from minefield.server.identity import (
    IdentityError,
    identify,
    peer_credentials,
    user_name,
)
from minefield.server.kept_games import KeptGames
from minefield.server.limits import ConnectionCaps, LogThrottle
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


class Daemon:
    """The game server. ``await daemon.start()`` then ``await daemon.wait_closed()``; or
    :meth:`run` for the whole life, with signals."""

    def __init__(self, config: ServerConfig, rate_game: RateGame | None = None,
                 ratings_of: RatingsOf | None = None) -> None:
        """``rate_game`` and ``ratings_of``: how whoever keeps ratings (the SSH front door)
        rates a finished game and tells the lobby the players' ratings; None: no ratings."""
        self.config = config
        self.bots = BotPool(config.bot_workers)
        #: The open rooms by their key (:attr:`Room.key <minefield.server.room.Room.key>`,
        #: which a room keeps while it plays game after game).
        self.rooms: dict[str, Room] = {}
        self.by_player: dict[str, set[Room]] = {}
        #: Which room and seat each hello gets, and the room codes
        #: (:mod:`~minefield.server.front_desk`).
        self.desk = FrontDesk(self, self.by_player, self._register)
        self.connections: set[Connection] = set()
        self.lobby = Lobby(self.rooms, self.connections, self.desk.pair, self.run_io,
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
        self.rooms.pop(room.key, None)
        self.desk.room_closed(room)
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
            room, seat, resumed = self.desk.place(identity, hello)
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
        self.rooms[room.key] = room
        for seated in room.seats.values():
            if seated.identity is not None:
                self.by_player.setdefault(seated.identity.key, set()).add(room)


__all__ = ["Connection", "Daemon", "ServeError"]
