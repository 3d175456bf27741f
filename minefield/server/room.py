"""A room on the daemon: two seats, the series of games they play, and what keeps it moving.

A room is created by ``host``: the first game is dealt at once (the host's seat follows from
the seed, R6, and the host may build a hand while waiting) and, without a bot, the room waits
for ``join`` with its code. What the room plays is a
:class:`~minefield.table.series.Series` (what one table plays, game after game): a
:class:`~minefield.table.series.SingleGame` or a match
(:class:`~minefield.server.seats.RoomMatch`, R30-R35).

**Where a game starts: :meth:`Room.begin`, the one start path.** The first game (both seats
taken), a match's next game (both players asked, R30; a bot always has) and a rematch (a
new series, linked to the old by id: seats swapped, or a new match) all begin there: a new
game id, the record created (in a record thread, before anyone hears of the game) with the
id of the game it follows in its header (``follows``), the seats as the series gives them
(R31), then a welcome and a snapshot for each player.

**A room is not its game.** The room keeps its :attr:`Room.key` (the id of the first game it
played, or after a restart the oldest its records name) for its whole life: the daemon (and
a tournament's pairing) knows it by that.
Each game it plays has an id of its own (:attr:`Room.id`, the name of its record) linked to
the last; every earlier id of the room's games still reaches the room (``resume``, ``watch``),
and its watchers are moved to each new game.

Every change goes through the series' :class:`~minefield.table.game_table.GameTable` under the
room's lock (one writer per game), on the event loop; its record line is appended and fsynced
in a record thread (:class:`~minefield.server.durable.HeldRecorder`) and only then are its
messages sent: the record has a command before anyone hears of it. Each seat is sent the
messages GameTable built for that seat alone (R26). That part, the game in play (moves,
records, the clocks' alarm, the bot), is the room's :class:`~minefield.server.play.Play`
(``room.play``), which reaches the room only through :class:`~minefield.server.play.Stage`.
What a waiting room will play is its :class:`~minefield.server.plan.Plan`; the requests
between games are :mod:`~minefield.server.between_games`'s; presence and grace (R25b) are
:mod:`~minefield.server.seats`'s; restoring a room after a restart is
:mod:`~minefield.server.restore`'s. The records of a series stay among the unfinished ones
until it is over (a match's until the match is over), then go to ``finished/``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

from minefield.protocol.messages import (
    Closed,
    Rated,
    RulesChosen,
    SeatClock,
    ServerMessageType,
    Snapshot,
    TableView,
)
from minefield.protocol.wire import RoomState, Welcome, WireError
from minefield.records.header import TableHeader, TableKind
from minefield.records.writer import RecordWriter
from minefield.rules.game import ChooseHand, Discard, Game, Seat
from minefield.rules.seed import random_seed
from minefield.rules.settings import RuleSettings
from minefield.server.identity import Identity
from minefield.server.plan import Plan
from minefield.server.play import Engine, Play, new_game_id, weakly
from minefield.server.rating import rated_for
from minefield.server.seats import Client, Seated
from minefield.table.game_table import GameTable
from minefield.table.series import Series

if TYPE_CHECKING:
    from minefield.server.audience import Audience

log = logging.getLogger(__name__)

#: How a game begins (:meth:`Room.begin`).
Beginning = Literal["first", "next", "rematch"]
#: What a player who leaves a game against a bot is told (the game is closed).
BOT_LEFT = "You left the game against the bot: it is closed (it cannot be resumed)."


class Services(Engine, Protocol):
    """What a room needs from the daemon: its play's :class:`~minefield.server.play.Engine`,
    and to be told when the room closes or a game ends."""

    def room_closed(self, room: Room) -> None:
        """Forget ``room`` (its code, its key, its players' entries)."""
        ...

    def game_ended(self, room: Room) -> None:
        """``room``'s game has ended (its result recorded): keep it, rate it if ratings are
        kept."""
        ...


class Room:
    """One room: its seats, its series of games and everything that keeps them moving."""

    def __init__(self, services: Services, game_id: str, seats: dict[Seat, Seated], *,
                 plan: Plan | None = None) -> None:
        self.services = services
        self.config = services.config
        self.seats = seats
        self.plan = plan
        self.lock = asyncio.Lock()
        #: The game in play (its series once both seats are taken), under the room's lock.
        self.play = Play(services, self, game_id, self.lock)
        #: The room's own name, for its whole life (the daemon's key): its first game's id.
        self.key = game_id
        #: The ids of the room's earlier games, oldest first: a match's, and those before a
        #: rematch (a resume or a watch may name them).
        self.earlier_ids: list[str] = []
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
        #: The ratings of the room's finished game, when rated (:mod:`~minefield.server.rating`).
        self.rated: Rated | None = None
        self.rematch_asks: set[Seat] = set()
        #: The room's watchers (:mod:`~minefield.server.audience`), once someone watches.
        self.audience: Audience | None = None
        self._drafts: dict[Seat, str] = {}

    def __repr__(self) -> str:
        return f"Room({self.id!r}, phase={self.game.phase}, <tiles hidden>)"

    @classmethod
    def host(cls, services: Services, identity: Identity, settings: RuleSettings,
             bot: str | None = None, seed: str | None = None, match: bool = False) -> Room:
        """A new room with ``identity`` in the seat the seed gives the host (R6); with
        ``match``, a match (R30) from the seed, the host being its first player (the first
        dealer is drawn from the seed)."""
        plan = Plan.hosted(identity, settings, bot, seed or random_seed(), match)
        grace = services.config.grace_seconds
        seats = {plan.host_seat: Seated(identity=identity, grace_budget=grace),
                 plan.host_seat.other: Seated(level=bot, grace_budget=grace)}
        return cls(services, new_game_id(services.config), seats, plan=plan)

    # -- what the room is --------------------------------------------------------------------------

    @property
    def id(self) -> str:
        """The id of the game on the table (the name of its record)."""
        return self.play.id

    @property
    def series(self) -> Series | None:
        """What the room plays (None while it waits for its second player)."""
        return self.play.series

    @property
    def table(self) -> GameTable | None:
        """The table of the game being played (None while the room waits)."""
        return self.play.table

    @property
    def closed(self) -> bool:
        """True once the room is closed (or the daemon stops)."""
        return self.play.closed

    @property
    def ended(self) -> bool:
        """True once the current game has ended."""
        return self.play.ended

    @property
    def between_games(self) -> bool:
        """True when a game of a match has ended and the match goes on (a next game)."""
        return self.play.between_games

    @property
    def game(self) -> Game:
        """The game on the table (while waiting: the first game as it will be dealt)."""
        if self.play.series is not None:
            return self.play.series.table.game
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
        """The ids a ``resume`` or a ``watch`` may name for this room: its game, and every
        earlier game it played (a match's, before a rematch)."""
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
        assert self.plan is not None
        table = TableView(view=self.game.view(seat), seq=0, players=self.play.infos(now),
                          clocks={s: SeatClock() for s in Seat},
                          match=self.plan.waiting_match(self.seats))
        return Snapshot(seat=seat, table=table)

    def _welcome(self, seat: Seat, resumed: bool) -> Welcome:
        identity = self.seats[seat].identity
        return Welcome(seat=seat, game=self.id, code=self.code, resumed=resumed,
                       player=identity.name if identity is not None else "?")

    def send(self, messages: Sequence[ServerMessageType | RoomState]) -> None:
        """Send each message to its seat's player; the watchers hear what both were told."""
        for message in messages:
            client = self.seats[message.seat].client
            if client is not None:
                client.send(message)
        if self.audience is not None:  # what both players were just told, and no more
            self.audience.heard(self.id, messages)

    def game_ended(self) -> None:
        """The game on the table has ended, its result recorded: the daemon is told."""
        self.services.game_ended(self)

    def wake(self) -> None:
        """Start the clocks and the bot of a restored game (once the daemon runs)."""
        self.play.wake()

    def not_allowed(self, seat: Seat, text: str) -> None:
        """Tell ``seat``'s player their request cannot be served now (nothing changes)."""
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
            now = self.play.now()
            returned = seated.client is None
            seated.arrive(client, now)
            self.play.sync_clock(seat, now, returned)
            client.send(self._welcome(seat, resumed))
            client.send(RulesChosen(seat=seat, preset=self.rules_name))  # kept for rematches
            if self.series is None and all(s.taken for s in self.seats.values()):
                await self.begin("first")
                return
            client.send(self._snapshot(seat, now))
            if self.ended and self.rematch_asks:
                client.send(RoomState(seat=seat, rematch=sorted(self.rematch_asks)))
            rated = rated_for(self, seat)
            if rated is not None:
                client.send(rated)
            self.send(self.play.presence(seat, now))
            self.play.after_change()

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
            now = self.play.now()
            if left and self.against_bot:
                # Nobody waits for a bot game: leaving on purpose ends it (not resumable).
                seated.client = None
                await self.close_locked(BOT_LEFT, abandoned=True)
                return
            if self.series is None:
                seated.client = None
                if left:
                    await self.close_locked("The host left: the room is closed.")
                return
            if self.between_games:  # the match goes on: a player may come back for it
                seated.client = None
                if seated.record_name in self.series.next_asked:
                    self.series.next_asked.discard(seated.record_name)
                    self.send([self.series.table.snapshot(s, now) for s in Seat])
            elif self.ended:
                seated.client = None
                if not any(s.client is not None for s in self.seats.values()):
                    await self.close_locked("Both players left.")
                    return
                self.rematch_asks.discard(seat)
            else:
                seated.leave(now, left)
                self.play.sync_clock(seat, now)
            self.send(self.play.presence(seat, now))
            self.play.after_change()

    # -- what seats do -----------------------------------------------------------------------------

    async def command(self, seat: Seat, command_id: str, command: ChooseHand | Discard,
                      received: float) -> None:
        """Apply ``seat``'s command (its outcome goes out as messages)."""
        async with self.lock:
            if self.closed:
                return
            if self.table is None:
                await self.play.refuse_locked(
                    seat, command_id, f"The game starts when the other player joins (room "
                    f"code {self.code}).", received, isinstance(command, Discard))
                return
            await self.play.apply(seat, command_id, command, received)

    async def refuse(self, seat: Seat, command_id: str, reason: str, received: float,
                     discard: bool) -> None:
        """Answer ``seat``'s malformed command ``command_id`` with a ``rejected`` (the game
        is unchanged); a discard's answer is paced as every discard's is (protocol 8)."""
        await self.play.refuse(seat, command_id, reason, received, discard)

    def draft(self, seat: Seat, tiles: str) -> None:
        """Remember ``seat``'s hand-builder choice (R25's automatic hand keeps it)."""
        if self.table is not None:
            self.table.draft(seat, tiles)
        else:
            self._drafts[seat] = tiles

    # -- the one start path ------------------------------------------------------------------------

    async def begin(self, how: Beginning) -> None:
        """Start a game (lock held): the room's ``first`` (both seats taken), a match's
        ``next`` (both players asked) or a ``rematch`` (a new series, linked to the old).

        Every game a room plays starts here: a new game id (but the first, which is the
        room's key), the game dealt by the series (:meth:`Series.next_game
        <minefield.table.series.Series.next_game>` or a new series), its record created in
        a record thread before anyone hears of it (its header ``follows`` the last game's
        id), the seats as the series gives them (R31) with a fresh grace budget each (R25b),
        then a welcome and a snapshot for each player. The room keeps its key and every
        earlier id (a resume may name any of them).
        """
        play = self.play
        if how != "first":
            old_id, play.id = play.id, new_game_id(self.config)
            play.follows = old_id
            self.earlier_ids = [*self.earlier_ids, old_id]
        if how == "first":
            assert self.plan is not None
            play.series = self.plan.first_series(
                self.seats, play.now(), match_records=weakly(play.match_record),
                game_records=weakly(play.game_record))
            self.plan = None
        elif how == "next":
            assert play.series is not None
            play.series.next_game(play.now())  # its messages are rebuilt below
        else:
            assert play.series is not None
            play.series = play.series.rematch(random_seed())
        series = play.series
        by_name = {seated.record_name: seated for seated in self.seats.values()}
        self.seats = {seat: by_name[name] for seat, name in series.seats.items()}
        problem = await play.flush()  # the record's header: the game exists on disk
        now = play.now()
        for seated in self.seats.values():
            seated.new_game(self.config.grace_seconds, now)
        table = series.table
        table.players = play.infos(now)
        for seat, tiles in self._drafts.items():
            table.draft(seat, tiles)
        self._drafts.clear()
        table.start_clocks(now)
        for seat in Seat:
            play.sync_clock(seat, now)  # a player away starts with a stopped clock (R25b)
        play.ended_at = None
        self.rematch_asks = set()
        if how != "first":
            for seat, seated in self.seats.items():
                if seated.client is not None:
                    seated.client.send(self._welcome(seat, resumed=False))
        self.send([table.snapshot(seat, now) for seat in Seat])
        self.send(problem)
        view = series.view()
        if view is None:
            log.info("game %s: started (%s)", self.id, how)
        else:  # the match by its public id (never its seed)
            log.info("game %s: match %s, game %d started (%s)", self.id, view.id, view.game, how)
        play.after_change()

    def adopt(self, series: Series, writer: RecordWriter | None, earlier_ids: list[str],
              record_paths: list[Path]) -> None:
        """Take up ``series`` where its records left it (:mod:`~minefield.server.restore`):
        its game is on the table and goes on writing with ``writer`` (None: its record has
        its result), its next games and rematches are recorded by this room; ``earlier_ids``
        (oldest first) and ``record_paths``: the series' earlier games (a match's, the game
        before a rematch) and records. The room's key is the oldest of its games' ids, as it
        was before the restart."""
        self.plan, self.earlier_ids = None, [i for i in earlier_ids if i != self.id]
        self.key = self.earlier_ids[0] if self.earlier_ids else self.id
        self.play.adopt(series, writer, record_paths)

    # -- closing -----------------------------------------------------------------------------------

    async def close_locked(self, reason: str, abandoned: bool = False) -> None:
        """Close the room (its lock held): every connection is told and closed; the daemon
        forgets it. The records of its series go to ``finished/`` as they are (a match left
        between games, a game ``abandoned`` for good): a restart does not take them up again."""
        self.play.stop()
        for seat, seated in self.seats.items():
            if seated.client is not None:
                seated.client.send(Closed(seat=seat, reason=reason))
                seated.client.close()
                seated.client = None
        if self.audience is not None:
            self.audience.closed(reason)
        self.play.finish_records()
        self.services.room_closed(self)
        log.info("room %s: closed%s", self.id, " (abandoned)" if abandoned else "")

    async def close_for_good(self, reason: str) -> None:
        """Close the room for good (a tournament game lost by forfeit, R37), each seat told
        ``reason``; its records go to ``finished/`` as they are."""
        async with self.lock:
            if not self.closed:
                await self.close_locked(reason, abandoned=True)

    def shutdown(self) -> None:
        """The daemon stops: stop the alarms and the bot; the record stays (it goes on later)."""
        self.play.stop()


__all__ = ["BOT_LEFT", "Beginning", "Room", "Services"]
