"""The game in play at a room: moves applied, recorded and paced; the clocks' alarm; the bot.

:class:`Play` is the part of a :class:`~minefield.server.room.Room` that keeps its game
moving once it started: a command is submitted to the series' table under the room's lock,
its record line appended and fsynced in a record thread (:class:`HeldRecorder`), a discard's
answer paced (protocol 8), and only then are the messages sent to each seat (R26). The alarm
plays R25's automatic moves when a clock runs out (after the player's grace, R25b), expires
room codes and closes rooms nobody goes on with; a bot seat's moves are computed in a worker
process. The records of the room's series are made here too (each game's under its id) and
moved to ``finished/`` once the series is over. Where games *start* is the room's
(:meth:`Room._begin <minefield.server.room.Room._begin>`).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from minefield.protocol.messages import (
    Notice,
    PlayerInfo,
    Presence,
    Rejected,
    ServerMessageType,
)
from minefield.protocol.wire import RoomState
from minefield.records.format import MatchHeader, Players, RecordHeader, TableHeader
from minefield.records.writer import RECORD_SUFFIX, ensure_folder, new_record_path
from minefield.rules.game import ChooseHand, Discard, Game, Seat
from minefield.rules.match import Match, Settlement
from minefield.rules.seed import derive_int
from minefield.server.bots import BotPool
from minefield.server.config import ServerConfig
from minefield.server.durable import FINISHED_FOLDER, HeldRecorder
from minefield.server.seats import RETURN_SECONDS, Seated, clocks_out, next_wake
from minefield.table.game_table import GameTable, Recorder
from minefield.table.series import Series

if TYPE_CHECKING:
    from minefield.server.audience import Audience
    from minefield.server.room import Room

log = logging.getLogger("minefield.server.room")

_T = TypeVar("_T")


class Services(Protocol):
    """What a room needs from the daemon."""

    config: ServerConfig
    bots: BotPool

    def now(self) -> float:
        """The event loop's clock."""
        ...

    def run_io(self, function: Callable[..., _T], *args: Any) -> Awaitable[_T]:
        """Run ``function`` (which may fsync) in the record threads."""
        ...

    def room_closed(self, room: Room) -> None:
        """Forget ``room`` (its code, its id, its players' entries)."""
        ...

    def room_renamed(self, room: Room, old_id: str) -> None:
        """``room`` plays a new game under a new id (a next game, a rematch)."""
        ...

    def game_ended(self, room: Room) -> None:
        """``room``'s game has ended (its result recorded): keep it, rate it if ratings are
        kept."""
        ...


class Play:
    """The game in play at a room (see the module); :class:`~minefield.server.room.Room`
    is the whole room."""

    services: Services
    config: ServerConfig
    id: str
    seats: dict[Seat, Seated]
    series: Series | None
    recorder: HeldRecorder | None
    record_paths: list[Path]
    code_expires: float | None
    ended_at: float | None
    closed: bool
    lock: asyncio.Lock
    rules_name: str  # the rules preset chosen (the records' ``preset``)
    #: The room's watchers (:mod:`~minefield.server.audience`), once someone watches.
    audience: Audience | None
    _timer: asyncio.TimerHandle | None
    _bot_task: asyncio.Task[None] | None
    _tasks: set[asyncio.Task[None]]

    async def _close(self, reason: str, abandoned: bool = False) -> None:
        """Close the room (the room's)."""
        raise NotImplementedError

    @property
    def game(self) -> Game:
        """The game on the table (the room's)."""
        raise NotImplementedError

    # -- what the room is --------------------------------------------------------------------------

    @property
    def table(self) -> GameTable | None:
        """The table of the game being played (None while the room waits)."""
        return self.series.table if self.series is not None else None

    @property
    def ended(self) -> bool:
        """True once the current game has ended."""
        return self.game.phase == "ended"

    @property
    def between_games(self) -> bool:
        """True when a game of a match has ended and the match goes on (a next game)."""
        return self.series is not None and self.ended and not self.series.over

    # -- what seats see ----------------------------------------------------------------------------

    def _now(self) -> float:
        return self.services.now()

    def _infos(self, now: float) -> dict[Seat, PlayerInfo]:
        return {seat: seated.info(now) for seat, seated in self.seats.items()}

    def _presence(self, seat: Seat, now: float) -> list[ServerMessageType]:
        if self.table is None:
            infos = self._infos(now)
            return [Presence(seat=s, players=infos) for s in Seat]
        info = self.seats[seat].info(now)
        return self.table.set_presence(seat, info.present, info.grace_left, now)

    def _sync_clock(self, seat: Seat, now: float, returned: bool = False) -> None:
        """R25b: ``seat``'s clock stops while its player is away with grace, and runs again
        when they are back (``returned``: at least :data:`RETURN_SECONDS`) or their grace is
        spent (what was left: their moves are played as each falls due)."""
        table, seated = self.table, self.seats[seat]
        if table is None or self.ended or seated.is_bot:
            return
        if seated.client is None and seated.grace_until is not None:
            table.stop_clock(seat, now)
        else:
            table.run_clock(seat, now, RETURN_SECONDS if returned else 0.0)

    def _send(self, messages: Sequence[ServerMessageType | RoomState]) -> None:
        for message in messages:
            client = self.seats[message.seat].client
            if client is not None:
                client.send(message)
        if self.audience is not None:  # what both players were just told, and no more
            self.audience.heard(self.id, messages)

    def _tell(self, text: str,
              severity: Literal["information", "warning", "error"] = "information") -> None:
        self._send([Notice(seat=s, text=text, severity=severity) for s in Seat])

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

    def table_header(self) -> TableHeader:
        """What the records say of the room's table (the room's)."""
        raise NotImplementedError

    def game_record(self, game: Game, seats: Mapping[Seat, str]) -> Recorder | None:
        """The record of a single game this room starts (the series' recorder factory)."""
        return self._new_record(RecordHeader.for_game(
            game, "network", Players(east=seats[Seat.EAST], west=seats[Seat.WEST]),
            table=self.table_header(), preset=self.rules_name))

    def match_record(self, game: Game, match: Match) -> Recorder | None:
        """The record of a game of this room's match (the series' recorder factory)."""
        players = Players(east=match.seats[Seat.EAST], west=match.seats[Seat.WEST])
        return self._new_record(RecordHeader.for_game(game, "network", players,
                                                      match=MatchHeader.of_match(match),
                                                      table=self.table_header(),
                                                      preset=self.rules_name))


    # -- inside: a move ----------------------------------------------------------------------------

    async def _apply(self, seat: Seat, command_id: str | None, command: ChooseHand | Discard,
                     received: float) -> None:
        """Submit to the table, record (in a record thread), pace discards, send (lock held)."""
        assert self.table is not None
        table = self.table
        try:
            messages = table.submit(seat, command_id, command, self._now())
        except Exception as error:  # a bug: never lose the game or the daemon
            log.error("game %s: a command of %s failed (%s)", self.id, seat,
                      type(error).__name__)
            now = self._now()
            messages = [table.snapshot(s, now) for s in Seat]
            messages.extend(Notice(seat=s, severity="error", text="The server had a problem "
                                   "with the last move; the table was sent again.") for s in Seat)
        messages.extend(await self._flush())
        if isinstance(command, Discard):
            await self._pace(received)
        self._send(messages)
        self._after_change()

    async def refuse(self, seat: Seat, command_id: str, reason: str, received: float,
                     discard: bool) -> None:
        """Answer ``seat``'s command ``command_id`` with a ``rejected`` (a malformed command:
        the game is unchanged); a discard's answer is paced as every discard's is."""
        async with self.lock:
            await self._refuse(seat, command_id, reason, received, discard)

    async def _refuse(self, seat: Seat, command_id: str, reason: str, received: float,
                      discard: bool) -> None:
        if discard:
            await self._pace(received)
        client = self.seats[seat].client
        if client is not None and not self.closed:
            client.send(Rejected(seat=seat, command_id=command_id, reason=reason))

    async def _flush(self) -> list[ServerMessageType]:
        """Append and fsync the record's new lines (in a record thread; lock held); the
        notices to send if the record failed (the game goes on without it)."""
        recorder = self.recorder
        if recorder is None or not recorder.pending:
            return []
        try:
            await self.services.run_io(recorder.flush)
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
        delay = received + self.config.discard_pace - self._now()
        if delay > 0:
            await asyncio.sleep(delay)

    def wake(self) -> None:
        """Start the clocks and the bot of a restored game (once the daemon runs)."""
        self._after_change()

    def _after_change(self) -> None:
        """After anything: note the end, let a bot move, set the room's alarm."""
        if self.closed:
            return
        if self.ended and self.ended_at is None and self.series is not None:
            self.ended_at = self._now()
            log.info("game %s: ended", self.id)
            self.services.game_ended(self)  # type: ignore[arg-type]  # a Play is a Room
            if self.series.over:
                view = self.series.view()
                if view is not None:
                    log.info("match %s: over", view.id)
                self._finish_records()
        self._maybe_bot()
        self._reschedule()

    def _finish_records(self) -> None:
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

        task = asyncio.ensure_future(self.services.run_io(move))
        task.add_done_callback(_ignore_errors)

    # -- inside: the bot ---------------------------------------------------------------------------

    def _maybe_bot(self) -> None:
        if self.table is None or self.ended:
            return
        if self._bot_task is not None and not self._bot_task.done():
            return
        for seat, seated in self.seats.items():
            if seated.is_bot and self.table.must_act(seat):
                self._bot_task = asyncio.create_task(self._bot_turn(seat, self.table.seq))
                return

    async def _bot_turn(self, seat: Seat, seq: int) -> None:
        """The bot computes in a worker process, waits a moment before a discard, plays."""
        assert self.table is not None
        table = self.table  # a rematch or a match's next game brings another table
        level = self.seats[seat].level or "easy"
        view = table.game.view(seat)
        started = self._now()
        command, problem = await self.services.bots.act(
            level, derive_int(table.game.seed, "server bot", seat.value), view)
        if problem is not None:
            log.warning("game %s: the bot failed (%s)", self.id, problem)
            self._tell(f"The bot failed ({problem}); the automatic move was played for it.",
                       "warning")
        if view.phase == "discarding":
            await asyncio.sleep(max(0.0, self.config.bot_think - (self._now() - started)))
        async with self.lock:
            self._bot_task = None
            if self.closed or self.table is not table or table.seq != seq:
                self._after_change()
                return
            await self._apply(seat, None, command, self._now())

    # -- inside: time ------------------------------------------------------------------------------

    def _reschedule(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.closed:
            return
        if self.table is None:
            wake = self.code_expires
        elif self.ended:
            wake = None if self.ended_at is None else self.ended_at + self.config.rematch_seconds
        else:
            wake = next_wake(self.seats, self.table)
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
            now = self._now()
            if self.table is None:
                if self.code_expires is not None and self.code_expires <= now:
                    minutes = round(self.config.code_seconds / 60)
                    await self._close(f"No one joined within {minutes} minutes: the room code "
                                      "has expired.")
                    return
            elif self.ended and self.ended_at is not None and (
                    self.ended_at + self.config.rematch_seconds <= now):
                await self._close("Nobody asked for the next game in time: the room is closed "
                                  "and the match is left unfinished." if self.between_games
                                  else "The room is closed.")
                return
            for seat, seated in self.seats.items():
                if seated.grace_spent(now):
                    self._sync_clock(seat, now)  # it runs again: the automatic moves follow
                    self._send(self._presence(seat, now))
            if self.table is not None and not self.ended and clocks_out(self.table, now):
                await self._expire(now)
                return
            self._after_change()

    async def _expire(self, now: float) -> None:
        assert self.table is not None
        discarding = self.game.phase == "discarding"
        messages = self.table.expire(now)
        messages.extend(await self._flush())
        if discarding:
            await self._pace(now)
        self._send(messages)
        self._after_change()


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



__all__ = ["Play", "Services", "new_game_id", "weakly"]
