"""The game in play at a room: moves applied, recorded and paced; the clocks' alarm; the bot.

A :class:`~minefield.server.room.Room` holds a :class:`Play`: what keeps its game moving once
it started. The play reaches its room only through :class:`Stage` (the seats, the code's
expiry, sending, the table's header, the end of a game, closing), and the daemon only through
:class:`Engine` (the clock, the record threads, the bots). A command is submitted to the
series' table under the room's lock, its record line appended and fsynced in a record thread
(:class:`HeldRecorder`), a discard's answer paced (protocol 8), and only then are the
messages sent to each seat (R26). The alarm plays R25's automatic moves when a clock runs out
(after the player's grace, R25b), expires room codes and closes rooms nobody goes on with; a
bot seat's moves are computed in a worker process. The records of the room's series are made
here too (each game's under its id) and moved to ``finished/`` once the series is over. Where
games *start* is the room's (:meth:`Room.begin <minefield.server.room.Room.begin>`), which
gives its play the series.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar

from minefield.protocol.messages import (
    Notice,
    PlayerInfo,
    Presence,
    Rejected,
    ServerMessageType,
)
from minefield.protocol.wire import RoomState
from minefield.records.header import MatchHeader, Players, RecordHeader, TableHeader
from minefield.records.writer import (
    RECORD_SUFFIX,
    RecordWriter,
    ensure_folder,
    new_record_path,
)
from minefield.rules.game import ChooseHand, Discard, Game, Seat
from minefield.rules.match import Match, Settlement
from minefield.rules.seed import derive_int
from minefield.server.bots import BotPool
from minefield.server.config import ServerConfig
from minefield.server.durable import FINISHED_FOLDER, HeldRecorder
from minefield.server.seats import RETURN_SECONDS, RoomMatch, Seated, clocks_out, next_wake
from minefield.table.game_table import GameTable, Recorder
from minefield.table.series import Series, SingleGame

log = logging.getLogger("minefield.server.room")

_T = TypeVar("_T")


class Engine(Protocol):
    """What a play needs from the daemon."""

    config: ServerConfig
    bots: BotPool

    def now(self) -> float:
        """The event loop's clock."""
        ...

    def run_io(self, function: Callable[..., _T], *args: Any) -> Awaitable[_T]:
        """Run ``function`` (which may fsync) in the record threads."""
        ...


class Stage(Protocol):
    """What a play needs from its room (held weakly: a room and its play make no cycle)."""

    @property
    def seats(self) -> Mapping[Seat, Seated]:
        """Who sits where (a rematch or a match's next game may swap them, R31)."""
        ...

    @property
    def code_expires(self) -> float | None:
        """When the room's code expires while it waits for its second player."""
        ...

    def send(self, messages: Sequence[ServerMessageType | RoomState]) -> None:
        """Send each message to its seat's player (and what both heard to the watchers)."""
        ...

    def table_header(self) -> TableHeader:
        """What the records say of the room's table."""
        ...

    @property
    def rules_name(self) -> str:
        """The rules preset the room was hosted with (the records' ``preset``)."""
        ...

    def game_ended(self) -> None:
        """The game has ended, its result recorded (the daemon keeps it, rates it)."""
        ...

    async def close_locked(self, reason: str, abandoned: bool = False) -> None:
        """Close the room, each seat told ``reason`` (the room's lock held)."""
        ...


class Play:
    """The game in play at a room (see the module): the series it plays, once both seats
    are taken, under the game id ``game_id``; ``lock`` is the room's (one writer per game)."""

    def __init__(self, engine: Engine, stage: Stage, game_id: str, lock: asyncio.Lock) -> None:
        self.engine = engine
        self.config = engine.config
        self.stage: Stage = weakref.proxy(stage)
        #: The id of the game on the table (the name of its record).
        self.id = game_id
        #: The id of the game this one follows at the room (a rematch's, a match's next
        #: game), written in its record's header; None for the room's first game.
        self.follows: str | None = None
        self.lock = lock
        #: What the room plays (None while it waits for its second player).
        self.series: Series | None = None
        self.recorder: HeldRecorder | None = None
        #: The records of the series still among the unfinished ones.
        self.record_paths: list[Path] = []
        #: When the game on the table ended (None while it goes on).
        self.ended_at: float | None = None
        self.closed = False
        self._timer: asyncio.TimerHandle | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    # -- what the game is --------------------------------------------------------------------------

    @property
    def table(self) -> GameTable | None:
        """The table of the game being played (None while the room waits)."""
        return self.series.table if self.series is not None else None

    @property
    def ended(self) -> bool:
        """True once the current game has ended."""
        return self.table is not None and self.table.game.phase == "ended"

    @property
    def between_games(self) -> bool:
        """True when a game of a match has ended and the match goes on (a next game)."""
        return self.series is not None and self.ended and not self.series.over

    # -- what seats see ----------------------------------------------------------------------------

    def now(self) -> float:
        """The event loop's clock."""
        return self.engine.now()

    def infos(self, now: float) -> dict[Seat, PlayerInfo]:
        """The players as both seats see them."""
        return {seat: seated.info(now) for seat, seated in self.stage.seats.items()}

    def presence(self, seat: Seat, now: float) -> list[ServerMessageType]:
        """What both seats are told of ``seat``'s player coming or going."""
        if self.table is None:
            infos = self.infos(now)
            return [Presence(seat=s, players=infos) for s in Seat]
        info = self.stage.seats[seat].info(now)
        return self.table.set_presence(seat, info.present, info.grace_left, now)

    def sync_clock(self, seat: Seat, now: float, returned: bool = False) -> None:
        """R25b: ``seat``'s clock stops while its player is away with grace, and runs again
        when they are back (``returned``: at least :data:`RETURN_SECONDS`) or their grace is
        spent (what was left: their moves are played as each falls due)."""
        table, seated = self.table, self.stage.seats[seat]
        if table is None or self.ended or seated.is_bot:
            return
        if seated.client is None and seated.grace_until is not None:
            table.stop_clock(seat, now)
        else:
            table.run_clock(seat, now, RETURN_SECONDS if returned else 0.0)

    def _tell(self, text: str,
              severity: Literal["information", "warning", "error"] = "information") -> None:
        self.stage.send([Notice(seat=s, text=text, severity=severity) for s in Seat])

    # -- the records of the series ---------------------------------------------------------------

    def _record_path(self) -> Path:
        return ensure_folder(self.config.games_dir) / f"{self.id}{RECORD_SUFFIX}"

    def _new_record(self, header: RecordHeader) -> HeldRecorder:
        """The record of the game about to start under this room's id: created by the next
        flush (a record thread); a match's result line gets the match's settlement."""
        path = self._record_path()
        self.recorder = HeldRecorder.new(path, header, settlement=weakly(self.settlement))
        self.record_paths.append(path)
        return self.recorder

    def settlement(self) -> Settlement | None:
        """What the match settled for its game that just ended (None in a single game)."""
        return self.series.settlement if self.series is not None else None

    def adopt(self, series: Series, writer: RecordWriter | None,
              record_paths: list[Path]) -> None:
        """Take up ``series`` where its records (``record_paths``) left it: its game goes on
        writing with ``writer`` (None: its record has its result), its next games and
        rematches are recorded by this play; the clocks start, stopped for everyone away
        until they resume (R25b)."""
        recorder = (None if writer is None
                    else HeldRecorder(writer, settlement=weakly(self.settlement)))
        series.table.recorder = recorder
        if isinstance(series, RoomMatch):
            series.recorders = weakly(self.match_record)
        elif isinstance(series, SingleGame):
            series.recorders = weakly(self.game_record)
        self.series, self.recorder, self.record_paths = series, recorder, record_paths
        now = self.now()
        series.table.players = self.infos(now)
        series.table.start_clocks(now)
        for seat in Seat:
            self.sync_clock(seat, now)

    def game_record(self, game: Game, seats: Mapping[Seat, str]) -> Recorder | None:
        """The record of a single game this room starts (the series' recorder factory)."""
        return self._new_record(RecordHeader.for_game(
            game, "network", Players(east=seats[Seat.EAST], west=seats[Seat.WEST]),
            table=self.stage.table_header(), preset=self.stage.rules_name,
            follows=self.follows))

    def match_record(self, game: Game, match: Match) -> Recorder | None:
        """The record of a game of this room's match (the series' recorder factory)."""
        players = Players(east=match.seats[Seat.EAST], west=match.seats[Seat.WEST])
        return self._new_record(RecordHeader.for_game(game, "network", players,
                                                      match=MatchHeader.of_match(match),
                                                      table=self.stage.table_header(),
                                                      preset=self.stage.rules_name,
                                                      follows=self.follows))

    # -- inside: a move ----------------------------------------------------------------------------

    async def apply(self, seat: Seat, command_id: str | None, command: ChooseHand | Discard,
                    received: float) -> None:
        """Submit to the table, record (in a record thread), pace discards, send (lock held)."""
        assert self.table is not None
        table = self.table
        try:
            messages = table.submit(seat, command_id, command, self.now())
        except Exception as error:  # a bug: never lose the game or the daemon
            log.error("game %s: a command of %s failed (%s)", self.id, seat,
                      type(error).__name__)
            now = self.now()
            messages = [table.snapshot(s, now) for s in Seat]
            messages.extend(Notice(seat=s, severity="error", text="The server had a problem "
                                   "with the last move; the table was sent again.") for s in Seat)
        messages.extend(await self.flush())
        if isinstance(command, Discard):
            await self._pace(received)
        self.stage.send(messages)
        self.after_change()

    async def refuse(self, seat: Seat, command_id: str, reason: str, received: float,
                     discard: bool) -> None:
        """Answer ``seat``'s command ``command_id`` with a ``rejected`` (a malformed command:
        the game is unchanged); a discard's answer is paced as every discard's is."""
        async with self.lock:
            await self.refuse_locked(seat, command_id, reason, received, discard)

    async def refuse_locked(self, seat: Seat, command_id: str, reason: str, received: float,
                            discard: bool) -> None:
        """:meth:`refuse`, the room's lock held."""
        if discard:
            await self._pace(received)
        client = self.stage.seats[seat].client
        if client is not None and not self.closed:
            client.send(Rejected(seat=seat, command_id=command_id, reason=reason))

    async def flush(self) -> list[ServerMessageType]:
        """Append and fsync the record's new lines (in a record thread; lock held); the
        notices to send if the record failed (the game goes on without it)."""
        recorder = self.recorder
        if recorder is None or not recorder.pending:
            return []
        try:
            await self.engine.run_io(recorder.flush)
        except Exception as error:  # the disk, or a bug: the game goes on without its record
            log.error("game %s: its record could not be written (%s)", self.id,
                      type(error).__name__)
            if self.table is not None and self.table.recorder is recorder:
                self.table.recorder = None
            recorder.close()
            why = error.strerror if isinstance(error, OSError) else type(error).__name__
            return [Notice(seat=s, severity="error", text=f"The game record could not be "
                           f"written ({why}); it is not saved.") for s in Seat]
        return []

    async def _pace(self, received: float) -> None:
        """Hold a discard's answer until ``discard_pace`` after it arrived, hit or miss,
        applied or rejected (protocol 8)."""
        delay = received + self.config.discard_pace - self.now()
        if delay > 0:
            await asyncio.sleep(delay)

    def wake(self) -> None:
        """Start the clocks and the bot of a restored game (once the daemon runs)."""
        self.after_change()

    def after_change(self) -> None:
        """After anything: note the end, let a bot move, set the room's alarm."""
        if self.closed:
            return
        if self.ended and self.ended_at is None and self.series is not None:
            self.ended_at = self.now()
            log.info("game %s: ended", self.id)
            self.stage.game_ended()
            if self.series.over:
                view = self.series.view()
                if view is not None:
                    log.info("match %s: over", view.id)
                self.finish_records()
        self._maybe_bot()
        self._reschedule()

    def finish_records(self) -> None:
        """Move the records of this room's series to ``finished/`` (it is over, or its room
        closed: a restart does not take it up again)."""
        paths, self.record_paths = self.record_paths, []
        if not paths:
            return
        folder = self.config.games_dir / FINISHED_FOLDER

        def move() -> None:
            ensure_folder(folder)
            for path in paths:
                if path.exists():
                    path.rename(folder / path.name)

        task = asyncio.ensure_future(self.engine.run_io(move))
        task.add_done_callback(_ignore_errors)

    def stop(self) -> None:
        """The room closes or the daemon stops: no alarm, no bot, the record closed (a
        restart takes it up again unless the room moved it to ``finished/``)."""
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._bot_task is not None:
            self._bot_task.cancel()
        if self.recorder is not None:
            self.recorder.close()

    # -- inside: the bot ---------------------------------------------------------------------------

    def _maybe_bot(self) -> None:
        if self.table is None or self.ended:
            return
        if self._bot_task is not None and not self._bot_task.done():
            return
        for seat, seated in self.stage.seats.items():
            if seated.is_bot and self.table.must_act(seat):
                self._bot_task = asyncio.create_task(self._bot_turn(seat, self.table.seq))
                return

    async def _bot_turn(self, seat: Seat, seq: int) -> None:
        """The bot computes in a worker process, waits a moment before a discard, plays."""
        assert self.table is not None
        table = self.table  # a rematch or a match's next game brings another table
        level = self.stage.seats[seat].level or "easy"
        view = table.game.view(seat)
        started = self.now()
        command, problem = await self.engine.bots.act(
            level, derive_int(table.game.seed, "server bot", seat.value), view)
        if problem is not None:
            log.warning("game %s: the bot failed (%s)", self.id, problem)
            self._tell(f"The bot failed ({problem}); the automatic move was played for it.",
                       "warning")
        if view.phase == "discarding":
            await asyncio.sleep(max(0.0, self.config.bot_think - (self.now() - started)))
        async with self.lock:
            self._bot_task = None
            if self.closed or self.table is not table or table.seq != seq:
                self.after_change()
                return
            await self.apply(seat, None, command, self.now())

    # -- inside: time ------------------------------------------------------------------------------

    def _reschedule(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.closed:
            return
        if self.table is None:
            wake = self.stage.code_expires
        elif self.ended:
            wake = None if self.ended_at is None else self.ended_at + self.config.rematch_seconds
        else:
            wake = next_wake(self.stage.seats, self.table)
        if wake is not None:
            self._timer = asyncio.get_running_loop().call_at(wake, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        task = asyncio.create_task(self._tick())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _tick(self) -> None:
        """The alarm: expire a code, close after the rematch window, end grace, play R25."""
        async with self.lock:
            if self.closed:
                return
            now = self.now()
            if self.table is None:
                expires = self.stage.code_expires
                if expires is not None and expires <= now:
                    minutes = round(self.config.code_seconds / 60)
                    await self.stage.close_locked(f"No one joined within {minutes} minutes: "
                                                  "the room code has expired.")
                    return
            elif self.ended and self.ended_at is not None and (
                    self.ended_at + self.config.rematch_seconds <= now):
                await self.stage.close_locked(
                    "Nobody asked for the next game in time: the room is closed and the match "
                    "is left unfinished." if self.between_games else "The room is closed.")
                return
            for seat, seated in self.stage.seats.items():
                if seated.grace_spent(now):
                    self.sync_clock(seat, now)  # it runs again: the automatic moves follow
                    self.stage.send(self.presence(seat, now))
            if self.table is not None and not self.ended and clocks_out(self.table, now):
                await self._expire(now)
                return
            self.after_change()

    async def _expire(self, now: float) -> None:
        assert self.table is not None
        discarding = self.table.game.phase == "discarding"
        messages = self.table.expire(now)
        messages.extend(await self.flush())
        if discarding:
            await self._pace(now)
        self.stage.send(messages)
        self.after_change()


def new_game_id(config: ServerConfig) -> str:
    """A fresh game id: the name its record will have (``<time>-network-<random>``)."""
    return new_record_path(config.games_dir, "network").name.removesuffix(RECORD_SUFFIX)


_R = TypeVar("_R")


def weakly(method: Callable[..., _R | None]) -> Callable[..., _R | None]:
    """``method`` of a room, called without holding the room (None once it is gone): the
    room's series and records call back into it, and a reference cycle would keep every
    finished game alive until a full garbage collection (see the daemon's ``tune_gc``)."""
    ref = weakref.WeakMethod(method)

    def call(*args: Any) -> _R | None:
        bound = ref()
        return bound(*args) if bound is not None else None

    return call


def _ignore_errors(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("a finished record could not be moved (%s)",
                    type(task.exception()).__name__)



__all__ = ["Engine", "Play", "Stage", "new_game_id", "weakly"]
