"""A room on the daemon: two seats, the series of games they play, and what keeps it moving.

A room is created by ``host``: the first game is dealt at once (the host's seat follows from
the seed, R6, and the host may build a hand while waiting) and, without a bot, the room waits
for ``join`` with its code. What the room plays is a
:class:`~minefield.table.series.Series` (what one table plays, game after game): a
:class:`~minefield.table.series.SingleGame` or a match
(:class:`~minefield.server.seats.RoomMatch`, R30-R35).

**Where a game starts: :meth:`Room._begin`, the one start path.** The first game (both seats
taken), a match's next game (both players asked, R30; a bot always has) and a rematch (a
new series, linked to the old by id: seats swapped, or a new match) all begin there: a new
game id, the record created (in a record thread, before anyone hears of the game), the
seats as the series gives them (R31), then a welcome and a snapshot for each player.

Every change goes through the series' :class:`~minefield.table.game_table.GameTable` under the
room's lock (one writer per game), on the event loop; its record line is appended and fsynced
in a record thread (:class:`~minefield.server.durable.HeldRecorder`) and only then are its
messages sent: the record has a command before anyone hears of it. Each seat
is sent the messages GameTable built for that seat alone (R26). That part, the game in play
(moves, records, the clocks' alarm, the bot), is :class:`~minefield.server.play.Play`, which
a room is; presence and grace (R25b) are :mod:`~minefield.server.seats`'s; restoring a room
after a restart is :mod:`~minefield.server.restore`'s. The records of a series stay among the
unfinished ones until it is over (a match's until the match is over), then go to
``finished/``.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from minefield.bots.base import bot_name
from minefield.protocol.messages import (
    WAITING_NAME,
    Closed,
    MatchView,
    Notice,
    PlayerInfo,
    Rated,
    RulesChosen,
    SeatClock,
    Snapshot,
    TableView,
)
from minefield.protocol.wire import RoomState, Welcome, WireError
from minefield.records.format import TableHeader, TableKind
from minefield.records.writer import RecordWriter
from minefield.rules.game import ChooseHand, Discard, Game, Seat
from minefield.rules.match import Match
from minefield.rules.seed import random_seed
from minefield.rules.settings import RuleSettings
from minefield.server.durable import HeldRecorder
from minefield.server.identity import Identity
from minefield.server.play import Play, Services, new_game_id, weakly
from minefield.server.rating import rated_for
from minefield.server.seats import Client, RoomMatch, Seated
from minefield.table.series import Series, SingleGame

log = logging.getLogger(__name__)

#: How a game begins (:meth:`Room._begin`).
Beginning = Literal["first", "next", "rematch"]
#: What a player who leaves a game against a bot is told (the game is closed).
BOT_LEFT = "You left the game against the bot: it is closed (it cannot be resumed)."


@dataclass(frozen=True, slots=True)
class Plan:
    """What a waiting room will play once both seats are taken: the seed, the rules, whether
    it is a match, the host's seat, and the first game as it will be dealt (shown to the host
    while waiting)."""

    seed: str
    settings: RuleSettings
    match: bool
    host_seat: Seat
    preview: Game

    def __repr__(self) -> str:
        return f"Plan(match={self.match}, host={self.host_seat}, <seed and tiles hidden>)"


class Room(Play):
    """One room: its seats, its series of games and everything that keeps them moving."""

    def __init__(self, services: Services, game_id: str, seats: dict[Seat, Seated], *,
                 plan: Plan | None = None) -> None:
        self.services = services
        self.config = services.config
        self.id = game_id
        self.seats = seats
        self.plan = plan
        self.series: Series | None = None
        self.recorder: HeldRecorder | None = None
        #: The ids of the series' earlier games (a resume may name them), and its records
        #: still among the unfinished ones.
        self.earlier_ids: list[str] = []
        self.record_paths: list[Path] = []
        self.code: str | None = None
        self.code_expires: float | None = None
        #: Listed in the lobby for anyone to join (``host`` with ``public``); the preset asked.
        self.public = False
        self.rules_name = "standard"
        #: Where the room's games are played and whether they are rated (R36): a private
        #: room's (a code) and rated until the daemon says otherwise; in every record header.
        self.kind: TableKind = "private"
        self.rated_games = True
        self.tournament: str | None = None
        self.ended_at: float | None = None
        #: The ratings of the room's finished game, when rated (:mod:`~minefield.server.rating`).
        self.rated: Rated | None = None
        self.rematch_asks: set[Seat] = set()
        self.closed = False
        self.lock = asyncio.Lock()
        self.audience = None
        self._drafts: dict[Seat, str] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def __repr__(self) -> str:
        return f"Room({self.id!r}, phase={self.game.phase}, <tiles hidden>)"

    @classmethod
    def host(cls, services: Services, identity: Identity, settings: RuleSettings,
             bot: str | None = None, seed: str | None = None, match: bool = False) -> Room:
        """A new room with ``identity`` in the seat the seed gives the host (R6); with
        ``match``, a match (R30) from the seed, the host being its first player (the first
        dealer is drawn from the seed)."""
        seed = seed or random_seed()
        if match:
            guest = bot_name(bot) if bot is not None else WAITING_NAME
            provisional = Match(seed, (identity.key, guest), settings)
            seat, preview = provisional.seat_of(identity.key), provisional.new_game()
        else:
            preview = Game(seed, settings)
            seat = Seat.EAST if preview.deal.east_player == 0 else Seat.WEST
        grace = services.config.grace_seconds
        seats = {seat: Seated(identity=identity, grace_budget=grace),
                 seat.other: Seated(level=bot, grace_budget=grace)}
        return cls(services, new_game_id(services.config), seats,
                   plan=Plan(seed, settings, match, seat, preview))

    # -- what the room is --------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The game on the table (while waiting: the first game as it will be dealt)."""
        if self.series is not None:
            return self.series.table.game
        assert self.plan is not None
        return self.plan.preview

    @property
    def waiting(self) -> bool:
        """True while the room waits for its second player."""
        return self.series is None

    @property
    def is_match(self) -> bool:
        """True for a room that plays a match (R30)."""
        if self.series is not None:
            return self.series.kind == "match"
        return self.plan is not None and self.plan.match

    @property
    def going_on(self) -> bool:
        """True while the game goes on, or the match it belongs to does."""
        return not self.ended or self.between_games

    @property
    def game_ids(self) -> set[str]:
        """The ids a ``resume`` may name for this room: its game, and a match's earlier ones."""
        return {self.id, *self.earlier_ids}

    def table_header(self) -> TableHeader:
        """What the records of this room's games say of its table (never rated against
        the server's bot, R36)."""
        kind: TableKind = "bot" if self.against_bot else self.kind
        return TableHeader(kind=kind, rated=self.rated_games and kind != "bot",
                           tournament=self.tournament)

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

    def _snapshot(self, seat: Seat, now: float) -> Snapshot:
        if self.table is not None:
            return self.table.snapshot(seat, now)
        table = TableView(view=self.game.view(seat), seq=0, players=self._infos(now),
                          clocks={s: SeatClock() for s in Seat}, match=self._waiting_match())
        return Snapshot(seat=seat, table=table)

    def _waiting_match(self) -> MatchView | None:
        """A match room waiting for its second player: the match as it will start."""
        plan = self.plan
        if plan is None or not plan.match:
            return None
        players = (self.seats[plan.host_seat].record_name,
                   self.seats[plan.host_seat.other].record_name)
        match = Match(plan.seed, players, plan.settings)
        return RoomMatch(match, {name: PlayerInfo(name="?") for name in players}).view()

    def _welcome(self, seat: Seat, resumed: bool) -> Welcome:
        identity = self.seats[seat].identity
        return Welcome(seat=seat, game=self.id, code=self.code, resumed=resumed,
                       player=identity.name if identity is not None else "?")

    def _not_allowed(self, seat: Seat, text: str) -> None:
        client = self.seats[seat].client
        if client is not None:
            client.send(WireError(code="not_allowed", message=text))

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
            returned = seated.client is None
            seated.arrive(client, now)
            self._sync_clock(seat, now, returned)
            client.send(self._welcome(seat, resumed))
            client.send(RulesChosen(seat=seat, preset=self.rules_name))  # kept for rematches
            if self.series is None and all(s.taken for s in self.seats.values()):
                await self._begin("first")
                return
            client.send(self._snapshot(seat, now))
            if self.ended and self.rematch_asks:
                client.send(RoomState(seat=seat, rematch=sorted(self.rematch_asks)))
            rated = rated_for(self, seat)
            if rated is not None:
                client.send(rated)
            self._send(self._presence(seat, now))
            self._after_change()

    def claim(self, seat: Seat, identity: Identity) -> None:
        """``identity`` takes the free ``seat`` (a join with the room's code)."""
        self.seats[seat] = Seated(identity=identity, grace_budget=self.config.grace_seconds)
        self.code = None
        self.code_expires = None

    @property
    def against_bot(self) -> bool:
        """True when a bot holds a seat (leaving such a game on purpose closes it)."""
        return any(seated.is_bot for seated in self.seats.values())

    async def detach(self, seat: Seat, client: Client, left: bool) -> None:
        """``client`` of ``seat`` is gone (``left``: on purpose, so without grace)."""
        async with self.lock:
            seated = self.seats[seat]
            if seated.client is not client or self.closed:
                return
            now = self._now()
            if left and self.against_bot:
                # Nobody waits for a bot game: leaving on purpose ends it (not resumable).
                seated.client = None
                await self._close(BOT_LEFT, abandoned=True)
                return
            if self.series is None:
                seated.client = None
                if left:
                    await self._close("The host left: the room is closed.")
                return
            if self.between_games:  # the match goes on: a player may come back for it
                seated.client = None
                if seated.record_name in self.series.next_asked:
                    self.series.next_asked.discard(seated.record_name)
                    self._send([self.series.table.snapshot(s, now) for s in Seat])
            elif self.ended:
                seated.client = None
                if not any(s.client is not None for s in self.seats.values()):
                    await self._close("Both players left.")
                    return
                self.rematch_asks.discard(seat)
            else:
                seated.leave(now, left)
                self._sync_clock(seat, now)
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
                await self._refuse(seat, command_id, "The game starts when the other player "
                                   f"joins (room code {self.code}).", received,
                                   isinstance(command, Discard))
                return
            await self._apply(seat, command_id, command, received)

    def draft(self, seat: Seat, tiles: str) -> None:
        """Remember ``seat``'s hand-builder choice (R25's automatic hand keeps it)."""
        if self.table is not None:
            self.table.draft(seat, tiles)
        else:
            self._drafts[seat] = tiles

    async def rematch(self, seat: Seat) -> None:
        """``seat`` asks for (or accepts) a rematch; both asked: a new series (a new game
        with the seats swapped; in a match room, once the match is over, a new match, R30)."""
        async with self.lock:
            if self.closed:
                return
            if self.between_games or (self.is_match and not self.ended):
                self._not_allowed(seat, "This room plays a match: ask for its next game "
                                  "(next_game) once a game is over; a rematch (a new match) "
                                  "once the match is over.")
                return
            if not self.ended:
                self._not_allowed(seat, "A rematch can be asked for once the game is over.")
                return
            self.rematch_asks.add(seat)
            for other, seated in self.seats.items():
                if seated.is_bot:
                    self.rematch_asks.add(other)
            if self.rematch_asks == set(Seat):
                await self._begin("rematch")
                return
            self._send([RoomState(seat=s, rematch=sorted(self.rematch_asks)) for s in Seat])
            name = self.seats[seat].info(self._now()).name
            self._send([Notice(seat=seat.other, text=f"{name} asks for a rematch.")])

    async def next_game(self, seat: Seat) -> None:
        """In a match, ``seat`` is ready for the next game; once both players are (a bot
        always is) it starts (:meth:`_begin`). A request that cannot be served now (a single
        game, a game still going on, the match over) gets a ``not_allowed`` error and changes
        nothing."""
        async with self.lock:
            if self.closed:
                return
            series = self.series
            problem = None
            if not self.is_match:
                problem = ("This room plays a single game: there is no next game (ask for a "
                           "rematch once it is over).")
            elif series is not None and series.over:
                problem = "The match is over: there is no next game."
            elif series is None or not self.ended:
                problem = "The next game of the match can be asked for once this game is over."
            if problem is not None or series is None:
                self._not_allowed(seat, problem or "")
                return
            series.next_asked.add(self.seats[seat].record_name)
            for seated in self.seats.values():
                if seated.is_bot:
                    series.next_asked.add(seated.record_name)
            if series.next_asked == set(series.players):
                await self._begin("next")
                return
            now = self._now()
            self._send([series.table.snapshot(s, now) for s in Seat])
            shown = self.seats[seat].info(now).name
            other = self.seats[seat.other].info(now).name
            self._send([Notice(seat=seat.other, text=f"{shown} is ready for the next game of "
                               "the match."),
                        Notice(seat=seat, text=f"The next game starts when {other} is ready "
                               "too.")])

    # -- the one start path ------------------------------------------------------------------------

    async def _begin(self, how: Beginning) -> None:
        """Start a game (lock held): the room's ``first`` (both seats taken), a match's
        ``next`` (both players asked) or a ``rematch`` (a new series, linked to the old).

        Every game a room plays starts here: a new game id (but the first, which keeps the
        room's), the game dealt by the series (:meth:`Series.next_game
        <minefield.table.series.Series.next_game>` or a new series), its record created in
        a record thread before anyone hears of it, the seats as the series gives them (R31)
        with a fresh grace budget each (R25b), then a welcome and a snapshot for each player.
        """
        if how != "first":
            old_id, self.id = self.id, new_game_id(self.config)
            self.earlier_ids = [*self.earlier_ids, old_id] if how == "next" else []
            self.services.room_renamed(self, old_id)
        if how == "first":
            self.series = self._first_series()
            self.plan = None
        elif how == "next":
            assert self.series is not None
            self.series.next_game(self._now())  # its messages are rebuilt below
        else:
            assert self.series is not None
            self.series = self.series.rematch(random_seed())
        series = self.series
        by_name = {seated.record_name: seated for seated in self.seats.values()}
        self.seats = {seat: by_name[name] for seat, name in series.seats.items()}
        problem = await self._flush()  # the record's header: the game exists on disk
        now = self._now()
        for seated in self.seats.values():
            seated.new_game(self.config.grace_seconds, now)
        table = series.table
        table.players = self._infos(now)
        for seat, tiles in self._drafts.items():
            table.draft(seat, tiles)
        self._drafts.clear()
        table.start_clocks(now)
        for seat in Seat:
            self._sync_clock(seat, now)  # a player away starts with a stopped clock (R25b)
        self.ended_at = None
        self.rematch_asks = set()
        if how != "first":
            for seat, seated in self.seats.items():
                if seated.client is not None:
                    seated.client.send(self._welcome(seat, resumed=False))
        self._send([table.snapshot(seat, now) for seat in Seat])
        self._send(problem)
        view = series.view()
        if view is None:
            log.info("game %s: started (%s)", self.id, how)
        else:  # the match by its public id (never its seed)
            log.info("game %s: match %s, game %d started (%s)", self.id, view.id, view.game, how)
        self._after_change()

    def _first_series(self) -> Series:
        """The series a waiting room plays once both seats are taken."""
        plan = self.plan
        assert plan is not None
        now = self._now()
        if plan.match:
            host, guest = self.seats[plan.host_seat], self.seats[plan.host_seat.other]
            match = Match(plan.seed, (host.record_name, guest.record_name), plan.settings)
            infos = {seated.record_name: seated.info(now) for seated in self.seats.values()}
            return RoomMatch(match, infos, recorders=weakly(self.match_record))
        names = {seat: seated.record_name for seat, seated in self.seats.items()}
        return SingleGame(plan.preview, self._infos(now), names=names,
                          recorders=weakly(self.game_record))

    def adopt(self, series: Series, writer: RecordWriter | None, earlier_ids: list[str],
              record_paths: list[Path]) -> None:
        """Take up ``series`` where its records left it (:mod:`~minefield.server.restore`):
        its game is on the table and goes on writing with ``writer`` (None: its record has
        its result), its next games and rematches are recorded by this room."""
        recorder = (None if writer is None
                    else HeldRecorder(writer, settlement=weakly(self.settlement)))
        series.table.recorder = recorder
        if isinstance(series, RoomMatch):
            series.recorders = weakly(self.match_record)
        elif isinstance(series, SingleGame):
            series.recorders = weakly(self.game_record)
        self.series, self.plan = series, None
        self.recorder = recorder
        self.earlier_ids, self.record_paths = earlier_ids, record_paths
        now = self._now()
        series.table.players = self._infos(now)
        series.table.start_clocks(now)
        for seat in Seat:
            self._sync_clock(seat, now)  # everyone is away until they resume (R25b)

    # -- closing -----------------------------------------------------------------------------------

    async def _close(self, reason: str, abandoned: bool = False) -> None:
        """Close the room: every connection is told and closed; the daemon forgets it. The
        records of its series go to ``finished/`` as they are (a match left between games,
        a game ``abandoned`` for good): a restart does not take them up again."""
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
        if self.recorder is not None:
            self.recorder.close()
        if self.audience is not None:
            self.audience.closed(reason)
        self._finish_records()
        self.services.room_closed(self)
        log.info("room %s: closed%s", self.id, " (abandoned)" if abandoned else "")

    async def close_for_good(self, reason: str) -> None:
        """Close the room for good (a tournament game lost by forfeit, R37), each seat told
        ``reason``; its records go to ``finished/`` as they are."""
        async with self.lock:
            if not self.closed:
                await self._close(reason, abandoned=True)

    def shutdown(self) -> None:
        """The daemon stops: stop the alarms and the bot; the record stays (it goes on later)."""
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
        if self._bot_task is not None:
            self._bot_task.cancel()
        if self.recorder is not None:
            self.recorder.close()



__all__ = ["BOT_LEFT", "Beginning", "Plan", "Room"]
