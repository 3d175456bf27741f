"""A room on the daemon: one game at a time between two seats, its record, clocks and bot.

A room is created by ``host``: the game is dealt at once (the host's seat follows from the
seed, R6) and, without a bot, the room waits for ``join`` with its code. The game starts when
both seats are taken: then its record is created and its clocks (R25) run. Every change goes
through :class:`~minefield.session.table.GameTable` under the room's lock (one writer per
game), on the event loop; its record line is appended and fsynced in a record thread
(:class:`~minefield.server.durable.HeldRecorder`) and only then are its messages sent: the
record has a command before anyone hears of it (ARCHITECTURE 6). Each seat is sent the
messages GameTable built for that seat alone (R26).

Presence: a player whose connection drops keeps their seat. Their moves wait for them during a
grace period (a budget per game, so leaving and coming back cannot stall a game for ever); then
their clock runs out as anyone's would and the server plays for them (R25). After the game,
both players may ask for a rematch in the same room: a new game with the seats swapped.

A match (R30-R35, ``host`` with ``match``) runs its games on a
:class:`~minefield.session.match_table.MatchTable`: each game has its own record and id (the
header carries the match, with its hidden seed; the result line the settlement), the players
change seats as the deal passes (R31), and the next game starts once both players asked for
it (a bot always does). The records of a match stay among the unfinished ones until the match
is over (or its room closes), so that a restarted daemon replays the finished games and the
unfinished one and the match goes on where it was (:meth:`Room.restore_match`). Match player
names are identity keys (as in the records); the table views show their display names.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar

from pydantic import BaseModel

from minefield.bots.base import bot_level, bot_name
from minefield.records.format import MatchHeader, Players, RecordHeader
from minefield.records.reader import ReadRecord, RecordError
from minefield.records.replay import replay_match, replay_record
from minefield.records.writer import RECORD_SUFFIX, RecordWriter, ensure_folder, new_record_path
from minefield.rules.game import ChooseHand, Discard, Game, Seat
from minefield.rules.match import Match, Settlement
from minefield.rules.seed import derive_int, random_seed
from minefield.rules.settings import RuleSettings
from minefield.server.bots import BotPool
from minefield.server.config import ServerConfig
from minefield.server.durable import HeldRecorder
from minefield.server.identity import Identity, display_name
from minefield.server.wire import RoomState, Welcome, WireError
from minefield.session.match_table import MatchTable, RecorderFactory
from minefield.session.protocol import (
    WAITING_NAME,
    Applied,
    Closed,
    MatchView,
    Notice,
    PlayerInfo,
    Presence,
    Rejected,
    SeatClock,
    ServerMessageType,
    Snapshot,
    StandingView,
    TableView,
)
from minefield.session.table import GameTable, Recorder

log = logging.getLogger(__name__)

_T = TypeVar("_T")
FINISHED_FOLDER = "finished"


class Client(Protocol):
    """A connection as a room sees it: messages go out, and it can be closed."""

    def send(self, message: BaseModel) -> None:
        """Queue one message (never blocks; a client that does not read is dropped)."""
        ...

    def close(self) -> None:
        """Close the connection (after the queued messages)."""
        ...


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
        """``room`` plays a new game under a new id (a rematch)."""
        ...


@dataclass(slots=True)
class Seated:
    """Who holds a seat: a person (``identity``), a bot (``level``) or nobody yet."""

    identity: Identity | None = None
    level: str | None = None
    client: Client | None = None
    #: Seconds of grace left in this game; and when the running grace period ends.
    grace_budget: float = 0.0
    grace_until: float | None = None

    @property
    def is_bot(self) -> bool:
        """True for a bot seat."""
        return self.level is not None

    @property
    def taken(self) -> bool:
        """True once a person or a bot holds the seat."""
        return self.identity is not None or self.level is not None

    @property
    def record_name(self) -> str:
        """The player as the record has it: an identity key or ``Bot (level)``."""
        if self.level is not None:
            return bot_name(self.level)
        return self.identity.key if self.identity is not None else WAITING_NAME

    def info(self, now: float) -> PlayerInfo:
        """The player as both seats see them."""
        if self.level is not None:
            return PlayerInfo(name=bot_name(self.level), kind="bot")
        if self.identity is None:
            return PlayerInfo(name=WAITING_NAME, present=False)
        grace = None
        if self.client is None and self.grace_until is not None:
            grace = round(max(0.0, self.grace_until - now), 3)
        return PlayerInfo(name=self.identity.name, present=self.client is not None,
                          grace_left=grace)


def _seated_from_record(name: str, grace: float, now: float) -> Seated:
    level = bot_level(name)
    if level is not None:
        return Seated(level=level)
    return Seated(identity=Identity(key=name, name=display_name(name)), grace_budget=grace,
                  grace_until=now + grace)


class MatchOver(RecordError):
    """The records of a match that is over: nothing to go on with (they go to ``finished/``)."""


def shown_names(players: Sequence[str]) -> dict[str, str]:
    """How the match's players (identity keys, bot names) are shown: their display names,
    kept distinct (and within a protocol name's 40 characters).

    >>> shown_names(["bob@games", "Bot (easy)"])
    {'bob@games': 'bob', 'Bot (easy)': 'Bot (easy)'}
    >>> shown_names(["bob@games", "bob"])
    {'bob@games': 'bob', 'bob': 'bob (2)'}
    """
    shown = {name: display_name(name) if bot_level(name) is None else name
             for name in players}
    if len(set(shown.values())) < len(shown):
        for number, name in enumerate(list(players)[1:], start=2):
            shown[name] = f"{shown[name][:34]} ({number})"
    return shown


class RoomMatch(MatchTable):
    """A :class:`MatchTable` whose views name the players as they are shown (identity keys
    stay in the match and its records, R26 views get display names)."""

    def __init__(self, match: Match, players: dict[str, PlayerInfo], *,
                 recorders: RecorderFactory | None = None, now: float | None = None) -> None:
        self.shown = shown_names(match.players)
        super().__init__(match, players, recorders=recorders, now=now)

    def view(self) -> MatchView:
        """The match's public state with the players' shown names (never the seed)."""
        view = super().view()
        shown = self.shown

        def name(key: str) -> str:
            return shown.get(key, key[:40])

        last = view.last
        if last is not None and any(key != name(key) for key in shown):
            lines = []
            for line in last.lines:
                for key in sorted(shown, key=len, reverse=True):
                    line = line.replace(key, name(key))
                lines.append(line)
            last = last.model_copy(update={"lines": lines})
        return view.model_copy(update={
            "players": {seat: name(key) for seat, key in view.players.items()},
            "scores": {name(key): points for key, points in view.scores.items()},
            "standings": None if view.standings is None else [
                StandingView(place=s.place, player=name(s.player), points=s.points)
                for s in view.standings],
            "next_asked": [name(key) for key in view.next_asked],
            "last": last})


class Room:
    """One room: its seats, its current game and everything that keeps the game moving."""

    def __init__(self, services: Services, game_id: str, game: Game,
                 seats: dict[Seat, Seated]) -> None:
        self.services = services
        self.config = services.config
        self.id = game_id
        self.game = game
        self.seats = seats
        self.table: GameTable | None = None
        self.code: str | None = None
        self.code_expires: float | None = None
        self.ended_at: float | None = None
        self.rematch_asks: set[Seat] = set()
        self.closed = False
        self.lock = asyncio.Lock()
        self._writer: HeldRecorder | None = None
        self._drafts: dict[Seat, str] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        #: A match: its seed (until it starts), the host's seat in game 1, its table, the ids
        #: of its earlier games and the records of its games still among the unfinished ones.
        self._match_seed: str | None = None
        self._host_seat: Seat | None = None
        self.match_table: RoomMatch | None = None
        self.match_ids: list[str] = []
        self._match_paths: list[Path] = []
        self._prepared: Recorder | None = None

    def __repr__(self) -> str:
        return f"Room({self.id!r}, phase={self.game.phase}, <tiles hidden>)"

    # -- creating ----------------------------------------------------------------------------------

    @classmethod
    def host(cls, services: Services, identity: Identity, settings: RuleSettings,
             bot: str | None = None, seed: str | None = None, match: bool = False) -> Room:
        """A new room with ``identity`` in the seat the seed gives the host (R6); with
        ``match``, a match (R30) from the seed, the host being its first player (the first
        dealer is drawn from the seed)."""
        config = services.config
        if match:
            guest = bot_name(bot) if bot is not None else WAITING_NAME
            provisional = Match(seed or random_seed(), (identity.key, guest), settings)
            seat = provisional.seat_of(identity.key)
            seats = {seat: Seated(identity=identity, grace_budget=config.grace_seconds),
                     seat.other: Seated(level=bot)}
            room = cls(services, _new_game_id(config), provisional.new_game(), seats)
            room._match_seed = provisional.seed
            room._host_seat = seat
            return room
        game = Game(seed or random_seed(), settings)
        seat = Seat.EAST if game.deal.east_player == 0 else Seat.WEST
        seats = {seat: Seated(identity=identity, grace_budget=config.grace_seconds),
                 seat.other: Seated(level=bot)}
        return cls(services, _new_game_id(config), game, seats)

    @classmethod
    def restore(cls, services: Services, path: Path) -> Room:
        """The unfinished game of the record at ``path``, going on (after a restart).

        Raises :class:`RecordError` for a record that cannot go on (ended, not a network
        game, or commands that do not replay).
        """
        writer, record = RecordWriter.resume(path)
        try:
            if record.header.mode != "network":
                raise RecordError(f"{path.name}: not a network game")
            replay = replay_record(record)
            if not replay.consistent or replay.applied != writer.seq:
                raise RecordError(f"{path.name}: its commands do not replay")
        except BaseException:
            writer.close()
            raise
        now = services.now()
        grace = services.config.grace_seconds
        players = record.header.players
        seats = {seat: _seated_from_record(players.of(seat), grace, now) for seat in Seat}
        room = cls(services, path.name.removesuffix(RECORD_SUFFIX), replay.game, seats)
        room._writer = HeldRecorder(writer)
        room.table = GameTable(replay.game, room._infos(now), recorder=room._writer, now=now)
        room.table.seq = replay.applied
        return room

    @classmethod
    def restore_match(cls, services: Services, records: Sequence[ReadRecord]) -> Room:
        """The match whose games' records are ``records`` (after a restart), going on: the
        finished games are replayed and settled (R31-R33), the last game is dealt again and
        its commands replayed; a game that ended without its result line gets it now.

        Raises :class:`MatchOver` when the match is over, :class:`RecordError` when its
        records do not replay (or are not a network match).
        """
        replay = replay_match(records)
        if not replay.consistent or replay.match is None or not replay.games:
            raise RecordError("the records of a match do not replay")
        if replay.over:
            raise MatchOver("the match is over")
        last = replay.games[-1]
        record, before = last.record, last.before
        if any(game.record.header.mode != "network" for game in replay.games):
            raise RecordError("not a network match")
        match = Match.replay(before.seed, before.match_players, record.header.rules,
                             [game.replay.game.result for game in replay.games[:-1]
                              if game.replay.game.result is not None])
        path = Path(record.name)
        writer = None if record.ended else RecordWriter.resume(path)[0]
        try:
            now = services.now()
            grace = services.config.grace_seconds
            players = record.header.players
            seats = {seat: _seated_from_record(players.of(seat), grace, now) for seat in Seat}
            room = cls(services, path.name.removesuffix(RECORD_SUFFIX), match.new_game(),
                       seats)
            room._writer = None if writer is None else room._held(writer)
            room._prepared = room._writer
            table = room._new_match_table(match, now)
            for line in record.commands:
                table.table.game.apply(line.seat, line.command)
            table.table.seq = len(record.commands)
            table.table.start_clocks(now)
            game = table.table.game
            if game.phase == "ended" and table.settlement is None and table.table.on_end:
                table.table.on_end(game)  # ended before its result line was written
                if writer is not None:
                    writer.result(game, table.settlement)
        except BaseException:
            if writer is not None:
                writer.close()
            raise
        room.match_ids = [Path(g.record.name).name.removesuffix(RECORD_SUFFIX)
                          for g in replay.games[:-1]]
        room._match_paths = [Path(g.record.name) for g in replay.games]
        return room

    @property
    def waiting(self) -> bool:
        """True while the room waits for its second player."""
        return self.table is None

    @property
    def ended(self) -> bool:
        """True once the current game has ended."""
        return self.game.phase == "ended"

    @property
    def is_match(self) -> bool:
        """True for a room that plays a match (R30)."""
        return self._match_seed is not None or self.match_table is not None

    @property
    def between_games(self) -> bool:
        """True when a game of a match has ended and the match goes on (a next game)."""
        return self.match_table is not None and self.ended and not self.match_table.over

    @property
    def going_on(self) -> bool:
        """True while the game goes on, or the match it belongs to does."""
        return not self.ended or self.between_games

    @property
    def game_ids(self) -> set[str]:
        """The ids a ``resume`` may name for this room: its game, and a match's earlier ones."""
        return {self.id, *self.match_ids}

    def seat_of(self, identity: Identity) -> Seat | None:
        """The seat ``identity`` holds here, or None."""
        for seat, seated in self.seats.items():
            if seated.identity is not None and seated.identity.key == identity.key:
                return seat
        return None

    def free_seat(self) -> Seat | None:
        """The seat nobody holds yet, or None."""
        for seat, seated in self.seats.items():
            if not seated.taken:
                return seat
        return None

    # -- what seats see ----------------------------------------------------------------------------

    def _now(self) -> float:
        return self.services.now()

    def _infos(self, now: float) -> dict[Seat, PlayerInfo]:
        return {seat: seated.info(now) for seat, seated in self.seats.items()}

    def _snapshot(self, seat: Seat, now: float) -> Snapshot:
        if self.table is not None:
            return self.table.snapshot(seat, now)
        table = TableView(view=self.game.view(seat), seq=0, players=self._infos(now),
                          clocks={s: SeatClock() for s in Seat}, match=self._waiting_match())
        return Snapshot(seat=seat, table=table)

    def _waiting_match(self) -> MatchView | None:
        """A match room waiting for its second player: the match as it will start."""
        if self._match_seed is None or self._host_seat is None:
            return None
        players = (self.seats[self._host_seat].record_name,
                   self.seats[self._host_seat.other].record_name)
        match = Match(self._match_seed, players, self.game.settings)
        return RoomMatch(match, {name: PlayerInfo(name="?") for name in players}).view()

    def _presence(self, seat: Seat, now: float) -> list[ServerMessageType]:
        seated = self.seats[seat]
        if self.table is None:
            infos = self._infos(now)
            return [Presence(seat=s, players=infos) for s in Seat]
        info = seated.info(now)
        return self.table.set_presence(seat, info.present, info.grace_left)

    def _send(self, messages: Sequence[ServerMessageType | RoomState]) -> None:
        for message in messages:
            client = self.seats[message.seat].client
            if client is not None:
                client.send(message)

    def _tell(self, text: str,
              severity: Literal["information", "warning", "error"] = "information") -> None:
        self._send([Notice(seat=s, text=text, severity=severity) for s in Seat])

    def _welcome(self, seat: Seat, resumed: bool) -> Welcome:
        identity = self.seats[seat].identity
        return Welcome(seat=seat, game=self.id, code=self.code, resumed=resumed,
                       player=identity.name if identity is not None else "?")

    # -- seats coming and going --------------------------------------------------------------------

    async def attach(self, seat: Seat, client: Client, resumed: bool) -> None:
        """``client`` plays ``seat`` from now on: welcome, snapshot, presence for everyone.

        An older connection of the same seat is told and closed (one terminal per seat).
        """
        async with self.lock:
            seated = self.seats[seat]
            old = seated.client
            if old is not None and old is not client:
                old.send(Closed(seat=seat, reason="This seat was taken over by a newer "
                                "connection."))
                old.close()
            now = self._now()
            if seated.grace_until is not None:
                seated.grace_budget = max(0.0, seated.grace_until - now)
                seated.grace_until = None
            seated.client = client
            client.send(self._welcome(seat, resumed))
            if self.table is None and all(s.taken for s in self.seats.values()):
                await self._start()
                return
            client.send(self._snapshot(seat, now))
            if self.ended and self.rematch_asks:
                client.send(RoomState(seat=seat, rematch=sorted(self.rematch_asks)))
            self._send(self._presence(seat, now))
            self._after_change()

    def claim(self, seat: Seat, identity: Identity) -> None:
        """``identity`` takes the free ``seat`` (a join with the room's code)."""
        self.seats[seat] = Seated(identity=identity, grace_budget=self.config.grace_seconds)
        self.code = None
        self.code_expires = None

    async def detach(self, seat: Seat, client: Client, left: bool) -> None:
        """``client`` of ``seat`` is gone (``left``: on purpose, so without grace)."""
        async with self.lock:
            seated = self.seats[seat]
            if seated.client is not client or self.closed:
                return
            seated.client = None
            now = self._now()
            if self.table is None:
                if left:
                    await self._close("The host left: the room is closed.")
                return
            if self.between_games:  # the match goes on: a player may come back for it
                assert self.match_table is not None
                asked = self.match_table.next_asked
                if seated.record_name in asked:
                    asked.discard(seated.record_name)
                    self._send([self.match_table.table.snapshot(s, now) for s in Seat])
            elif self.ended:
                if not any(s.client is not None for s in self.seats.values()):
                    await self._close("Both players left.")
                    return
                self.rematch_asks.discard(seat)
            elif left or seated.grace_budget <= 0:
                seated.grace_budget = 0.0
                seated.grace_until = None
            else:
                seated.grace_until = now + seated.grace_budget
            self._send(self._presence(seat, now))
            self._after_change()

    # -- what seats do -----------------------------------------------------------------------------

    async def command(self, seat: Seat, command_id: str, command: ChooseHand | Discard,
                      received: float) -> None:
        """Apply ``seat``'s command (its outcome goes out as messages)."""
        async with self.lock:
            if self.closed:
                return
            if self.table is None:
                client = self.seats[seat].client
                if client is not None:
                    client.send(Rejected(seat=seat, command_id=command_id, reason=(
                        f"The game starts when the other player joins (room code {self.code}).")))
                return
            await self._apply(seat, command_id, command, received)

    def draft(self, seat: Seat, tiles: str) -> None:
        """Remember ``seat``'s hand-builder choice (R25's automatic hand keeps it)."""
        if self.table is not None:
            self.table.draft(seat, tiles)
        else:
            self._drafts[seat] = tiles

    async def rematch(self, seat: Seat) -> None:
        """``seat`` asks for (or accepts) a rematch; both asked: a new game, seats swapped
        (in a match room, once the match is over: a new match, R30)."""
        async with self.lock:
            if self.closed:
                return
            client = self.seats[seat].client
            if self.between_games or (self.is_match and not self.ended):
                if client is not None:
                    client.send(WireError(code="not_allowed", message=(
                        "This room plays a match: ask for its next game (next_game) once a "
                        "game is over; a rematch (a new match) once the match is over.")))
                return
            if not self.ended:
                if client is not None:
                    client.send(WireError(code="not_allowed",
                                          message="A rematch can be asked for once the game is "
                                          "over."))
                return
            self.rematch_asks.add(seat)
            for other, seated in self.seats.items():
                if seated.is_bot:
                    self.rematch_asks.add(other)
            if self.rematch_asks == set(Seat):
                await (self._new_match() if self.match_table is not None else self._new_game())
                return
            self._send([RoomState(seat=s, rematch=sorted(self.rematch_asks)) for s in Seat])
            name = self.seats[seat].info(self._now()).name
            self._send([Notice(seat=seat.other, text=f"{name} asks for a rematch.")])

    async def next_game(self, seat: Seat) -> None:
        """In a match, ``seat`` is ready for the next game; once both players are (a bot
        always is) it starts: a new game id, the seats the match gives (R31). A request that
        cannot be served now (a single game, a game still going on, the match over) gets a
        ``not_allowed`` error and changes nothing."""
        async with self.lock:
            if self.closed:
                return
            client = self.seats[seat].client
            table = self.match_table
            problem = None
            if table is None:
                problem = ("This room plays a single game: there is no next game (ask for a "
                           "rematch once it is over).")
            elif table.over:
                problem = "The match is over: there is no next game."
            elif not self.ended:
                problem = "The next game of the match can be asked for once this game is over."
            if problem is not None or table is None:
                if client is not None:
                    client.send(WireError(code="not_allowed", message=problem or ""))
                return
            name = self.seats[seat].record_name
            table.next_asked.add(name)
            for seated in self.seats.values():
                if seated.is_bot:
                    table.next_asked.add(seated.record_name)
            if table.next_asked == set(table.match.players):
                await self._next_match_game()
                return
            now = self._now()
            self._send([table.table.snapshot(s, now) for s in Seat])
            shown = self.seats[seat].info(now).name
            other = self.seats[seat.other].info(now).name
            self._send([Notice(seat=seat.other, text=f"{shown} is ready for the next game of "
                               "the match."),
                        Notice(seat=seat, text=f"The next game starts when {other} is ready "
                               "too.")])

    # -- inside: the game --------------------------------------------------------------------------

    def _record_path(self) -> Path:
        return ensure_folder(self.config.games_dir) / f"{self.id}{RECORD_SUFFIX}"

    def _create_writer(self, players: Players) -> HeldRecorder:
        header = RecordHeader.for_game(self.game, "network", players)
        return HeldRecorder(RecordWriter(self._record_path(), header))

    async def _start(self) -> None:
        """Both seats are taken: create the record and the table, and tell both (lock held)."""
        if self._match_seed is not None:
            await self._start_match()
            return
        now = self._now()
        players = Players(east=self.seats[Seat.EAST].record_name,
                          west=self.seats[Seat.WEST].record_name)
        problem = None
        try:
            self._writer = await self.services.run_io(self._create_writer, players)
        except (OSError, ValueError) as error:
            log.error("game %s: its record cannot be created (%s)", self.id,
                      type(error).__name__)
            problem = "The game record could not be created: this game is not saved."
        now = self._now()
        self.table = GameTable(self.game, self._infos(now), recorder=self._writer, now=now)
        for seat, tiles in self._drafts.items():
            self.table.draft(seat, tiles)
        self._drafts.clear()
        self._send([self.table.snapshot(seat, now) for seat in Seat])
        if problem is not None:
            self._tell(problem, "error")
        log.info("game %s: started", self.id)
        self._after_change()

    # -- inside: a match ---------------------------------------------------------------------------

    def _held(self, writer: RecordWriter) -> HeldRecorder:
        """The held recorder of a game of this room's match: its result line gets the
        settlement the match made when the game ended."""
        def settlement() -> Settlement | None:
            table = self.match_table
            return table.settlement if table is not None else None
        return HeldRecorder(writer, settlement=settlement)

    def _take_prepared(self, game: Game, match: Match) -> Recorder | None:
        """The match table's recorder factory: the record made beforehand (in a record
        thread) for this game."""
        recorder, self._prepared = self._prepared, None
        return recorder

    def _new_match_table(self, match: Match, now: float) -> RoomMatch:
        """The match's table for its next game (the recorder prepared beforehand)."""
        infos = {seated.record_name: seated.info(now) for seated in self.seats.values()}
        table = RoomMatch(match, infos, recorders=self._take_prepared, now=now)
        self.match_table = table
        self.table = table.table
        self.game = table.table.game
        self.table.players = self._infos(now)
        return table

    def _create_match_writer(self, match: Match) -> HeldRecorder:
        """The record of ``match``'s next game, under this room's id (in a record thread)."""
        game = match.new_game()
        players = Players(east=match.seats[Seat.EAST], west=match.seats[Seat.WEST])
        header = RecordHeader.for_game(game, "network", players,
                                       match=MatchHeader.of_match(match))
        path = self._record_path()
        held = self._held(RecordWriter(path, header))
        self._match_paths.append(path)
        return held

    async def _prepare_record(self, match: Match) -> str | None:
        """Create the next game's record (lock held); a problem to tell, if it failed."""
        try:
            self._prepared = await self.services.run_io(self._create_match_writer, match)
        except (OSError, ValueError) as error:
            log.error("game %s: its record cannot be created (%s)", self.id,
                      type(error).__name__)
            self._prepared = self._writer = None
            return "The game record could not be created: this game is not saved."
        self._writer = self._prepared if isinstance(self._prepared, HeldRecorder) else None
        return None

    async def _start_match(self) -> None:
        """Both seats of a match room are taken: the match, game 1's record and table
        (lock held)."""
        assert self._match_seed is not None and self._host_seat is not None
        host, guest = self.seats[self._host_seat], self.seats[self._host_seat.other]
        match = Match(self._match_seed, (host.record_name, guest.record_name),
                      self.game.settings)
        self._match_seed = None
        problem = await self._prepare_record(match)
        now = self._now()
        table = self._new_match_table(match, now)
        for seat, tiles in self._drafts.items():
            table.table.draft(seat, tiles)
        self._drafts.clear()
        self._send([table.table.snapshot(seat, now) for seat in Seat])
        if problem is not None:
            self._tell(problem, "error")
        log.info("game %s: match %s, game 1 started", self.id, match.id)
        self._after_change()

    async def _next_match_game(self) -> None:
        """Both players are ready: the match's next game, under a new id (lock held)."""
        table = self.match_table
        assert table is not None
        old_id = self.id
        self.match_ids.append(old_id)
        self.id = _new_game_id(self.config)
        problem = await self._prepare_record(table.match)
        now = self._now()
        table.next_game(now)  # its messages are rebuilt below, for the seats as they now are
        by_name = {seated.record_name: seated for seated in self.seats.values()}
        self.seats = {seat: by_name[name] for seat, name in table.seats.items()}
        for seated in self.seats.values():
            seated.grace_budget = self.config.grace_seconds
            seated.grace_until = (now + seated.grace_budget
                                  if seated.client is None and seated.identity is not None
                                  else None)
        self.table = table.table
        self.game = table.table.game
        self.table.players = self._infos(now)
        self.ended_at = None
        self.services.room_renamed(self, old_id)
        for seat, seated in self.seats.items():
            if seated.client is not None:
                seated.client.send(self._welcome(seat, resumed=False))
        self._send([self.table.snapshot(seat, now) for seat in Seat])
        if problem is not None:
            self._tell(problem, "error")
        log.info("game %s: match %s, game %d started", self.id, table.match.id,
                 table.match.game_number)
        self._after_change()

    async def _new_match(self) -> None:
        """A rematch after a match: a new match between the same players, from a new seed
        (its first dealer drawn again, R30), under a new id (lock held)."""
        old = self.match_table
        assert old is not None
        old_id = self.id
        match = Match(random_seed(), old.match.players, old.match.settings)
        self.match_ids = []
        self.id = _new_game_id(self.config)
        self.rematch_asks = set()
        problem = await self._prepare_record(match)
        now = self._now()
        by_name = {seated.record_name: seated for seated in self.seats.values()}
        self.seats = {seat: by_name[name] for seat, name in match.seats.items()}
        for seated in self.seats.values():
            seated.grace_budget = self.config.grace_seconds
            seated.grace_until = (now + seated.grace_budget
                                  if seated.client is None and seated.identity is not None
                                  else None)
        table = self._new_match_table(match, now)
        self.ended_at = None
        self.services.room_renamed(self, old_id)
        for seat, seated in self.seats.items():
            if seated.client is not None:
                seated.client.send(self._welcome(seat, resumed=False))
        self._send([table.table.snapshot(seat, now) for seat in Seat])
        if problem is not None:
            self._tell(problem, "error")
        log.info("game %s: match %s, a rematch: game 1 started", self.id, match.id)
        self._after_change()

    def _finish_match_records(self) -> None:
        """Move the records of this room's match to ``finished/`` (the match is over, or its
        room closed: a restart does not take it up again)."""
        paths, self._match_paths = self._match_paths, []
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

    async def _new_game(self) -> None:
        """A rematch: a new game with the seats swapped, under a new id (lock held)."""
        old_id = self.id
        self.seats = {seat.other: seated for seat, seated in self.seats.items()}
        for seated in self.seats.values():
            seated.grace_budget = self.config.grace_seconds
            seated.grace_until = None
        self.game = Game(random_seed(), self.game.settings)
        self.id = _new_game_id(self.config)
        self.table = None
        self._writer = None
        self.ended_at = None
        self.rematch_asks = set()
        self.services.room_renamed(self, old_id)
        for seat, seated in self.seats.items():
            if seated.client is not None:
                seated.client.send(self._welcome(seat, resumed=False))
        await self._start()

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
            await self._pace(messages, received)
        self._send(messages)
        self._after_change()

    async def _flush(self) -> list[ServerMessageType]:
        """Append and fsync the table's new record lines (in a record thread; lock held);
        the notices to send if the record failed (the game goes on without it)."""
        recorder = self._writer
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

    async def _pace(self, messages: list[ServerMessageType], received: float) -> None:
        """Hold a discard's answer until ``discard_pace`` after it arrived, hit or miss."""
        if any(isinstance(m, Applied) for m in messages):
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
        if self.ended and self.ended_at is None and self.table is not None:
            self.ended_at = self._now()
            self._finish_record()
            log.info("game %s: ended", self.id)
        self._maybe_bot()
        self._reschedule()

    def _finish_record(self) -> None:
        """Move an ended game's record to ``finished/`` (a restart reads only unfinished ones)."""
        if self.match_table is not None:
            if self.match_table.over:
                log.info("match %s: over", self.match_table.match.id)
                self._finish_match_records()
            return  # the match goes on: its records stay with the unfinished ones
        writer = self._writer
        if writer is None or not writer.closed:
            return
        folder = self.config.games_dir / FINISHED_FOLDER

        path = writer.writer.path

        def move() -> None:
            ensure_folder(folder)
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
        view = self.table.game.view(seat)
        started = self._now()
        command, problem = await self.services.bots.act(
            level, derive_int(self.game.seed, "server bot", seat.value), view)
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

    def _in_grace(self, seat: Seat, now: float) -> bool:
        until = self.seats[seat].grace_until
        return until is not None and until > now

    def _next_wake(self, now: float) -> float | None:
        """When the room must next act: a clock, a grace period, a code or the rematch window."""
        times = [s.grace_until for s in self.seats.values() if s.grace_until is not None]
        if self.table is None:
            if self.code_expires is not None:
                times.append(self.code_expires)
        elif self.ended:
            if self.ended_at is not None:
                times.append(self.ended_at + self.config.rematch_seconds)
        else:
            deadlines = {seat: now + (clock.remaining or 0.0)
                         for seat, clock in self.table.clocks(now).items() if clock.running}
            blocked = any(when <= now and self._in_grace(seat, now)
                          for seat, when in deadlines.items())
            if not blocked:  # else the grace period's end is the next time to look
                times.extend(max(when, self.seats[seat].grace_until or 0.0)
                             for seat, when in deadlines.items())
        return min(times) if times else None

    def _reschedule(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.closed:
            return
        wake = self._next_wake(self._now())
        if wake is not None:
            loop = asyncio.get_running_loop()
            self._timer = loop.call_at(wake, self._on_timer)

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
                if seated.grace_until is not None and seated.grace_until <= now:
                    seated.grace_until = None
                    seated.grace_budget = 0.0
                    self._send(self._presence(seat, now))
            if self.table is not None and not self.ended:
                expired = [seat for seat, clock in self.table.clocks(now).items()
                           if clock.running and (clock.remaining or 0.0) <= 0.0]
                if expired and not any(self._in_grace(seat, now) for seat in expired):
                    await self._expire(now)
                    return
            self._after_change()

    async def _expire(self, now: float) -> None:
        assert self.table is not None
        discarding = self.game.phase == "discarding"
        messages = self.table.expire(now)
        messages.extend(await self._flush())
        if discarding:
            await self._pace(messages, now)
        self._send(messages)
        self._after_change()

    # -- closing -----------------------------------------------------------------------------------

    async def _close(self, reason: str) -> None:
        """Close the room: every connection is told and closed; the daemon forgets it."""
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._bot_task is not None:
            self._bot_task.cancel()
        for seat, seated in self.seats.items():
            if seated.client is not None:
                seated.client.send(Closed(seat=seat, reason=reason))
                seated.client.close()
                seated.client = None
        if self._writer is not None:
            self._writer.close()
        if self.match_table is not None:
            self._finish_match_records()  # an abandoned match is not taken up again
        self.services.room_closed(self)
        log.info("room %s: closed", self.id)

    def shutdown(self) -> None:
        """The daemon stops: stop the alarms and the bot; the record stays (it goes on later)."""
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
        if self._bot_task is not None:
            self._bot_task.cancel()
        if self._writer is not None:
            self._writer.close()


def _new_game_id(config: ServerConfig) -> str:
    """A fresh game id: the name its record will have (``<time>-network-<random>``)."""
    return new_record_path(config.games_dir, "network").name.removesuffix(RECORD_SUFFIX)


def _ignore_errors(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("a finished record could not be moved (%s)",
                    type(task.exception()).__name__)


__all__ = ["FINISHED_FOLDER", "Client", "MatchOver", "Room", "RoomMatch", "Seated", "Services",
           "shown_names"]
