"""The engine in this process: hot-seat, and practice against a bot, a single game or a match.

The session pushes: the bot is a task that reacts to the table and thinks in a thread, clocks
(R25) run when the settings ask for them, and everything reaches the screen as
:mod:`~minefield.protocol.messages` messages from :meth:`LocalSession.updates`, exactly as a
network game's would. A match (R30-R35) runs whole in one session: its games follow one
another on a :class:`~minefield.table.match_table.MatchTable`, the next one starting when
:meth:`LocalSession.next_game` is called.

>>> import asyncio
>>> from minefield.rules.auto import auto_command
>>> class StandIn:
...     level = "easy"
...     def act(self, view): return auto_command(view)
>>> async def first_two():
...     session = LocalSession.practice(seed=1, bot=StandIn(), human=Seat.EAST, think_seconds=0)
...     await session.open()
...     updates = session.updates()
...     kinds = [(await anext(updates)).type, (await anext(updates)).type]
...     await session.close()
...     return kinds
>>> asyncio.run(first_two())  # the table, then the bot's hand
['snapshot', 'applied']
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from minefield.bots.base import Bot, bot_name
from minefield.protocol.messages import (
    Closed,
    MatchView,
    Notice,
    PlayerInfo,
    Rejected,
    ServerMessageType,
)
from minefield.records.header import MatchHeader, Players
from minefield.records.writer import RecordWriter
from minefield.rules.auto import auto_command
from minefield.rules.game import ChooseHand, Discard, Game, IllegalCommand, PlayerView, Seat
from minefield.rules.match import Match, Settlement
from minefield.rules.settings import RuleSettings
from minefield.session.base import SeatFailed, SessionMode, SessionTraits
from minefield.table.game_table import GameTable, Recorder
from minefield.table.match_table import MatchTable
from minefield.table.series import Series, SingleGame

#: The pause before a bot's discard, so that a player can follow the game.
DEFAULT_THINK_SECONDS = 0.7
#: The two players of a hot-seat match (seats change with the deal, so not "East"/"West").
HOTSEAT_MATCH_NAMES = ("Player 1", "Player 2")

log = logging.getLogger(__name__)

FailureHandler = Callable[[SeatFailed], None]


class LocalRecord:
    """The record of one game played in this process. For a game of a match, its header holds
    the match before the game and its result line the game's settlement (R31-R33), which the
    match made before the record hears of the end (:class:`MatchTable`). The ids of local
    commands are not kept (nothing resends them); automatic moves are marked (R25)."""

    def __init__(self, writer: RecordWriter,
                 settlement: Callable[[], Settlement | None] | None = None) -> None:
        self.writer = writer
        self._settlement = settlement

    def command(self, seq: int, seat: Seat, command: ChooseHand | Discard, *,
                command_id: str | None = None, automatic: bool = False) -> None:
        """Append one accepted command."""
        self.writer.command(seq, seat, command, automatic=automatic)

    def result(self, game: Game) -> None:
        """Append the result line (with the game's settlement in a match)."""
        self.writer.result(game, self._settlement() if self._settlement is not None else None)

    def __repr__(self) -> str:
        return f"LocalRecord({self.writer!r})"


def start_record(game: Game, mode: SessionMode, players: dict[Seat, PlayerInfo],
                 folder: Path | None, match: Match | None = None, preset: str | None = None
                 ) -> tuple[RecordWriter | None, str | None]:
    """A record for ``game`` in ``folder`` (None: no record), or why it cannot be written.
    ``match``: the game is the next game of this match (the header's match object);
    ``preset``: the rules preset chosen (the header's)."""
    if folder is None:
        return None, None
    names = Players(east=players[Seat.EAST].name, west=players[Seat.WEST].name)
    header = MatchHeader.of_match(match) if match is not None else None
    try:
        return RecordWriter.start(game, mode, names, folder, match=header,
                                  preset=preset), None
    except OSError as error:
        return None, (f"This game will not be saved: the record could not be created in "
                      f"{folder} ({error.strerror or error}).")


class LocalSession:
    """A session over a :class:`Game` or a :class:`Match` held in this process (practice or
    hot-seat).

    Build one with :meth:`practice` or :meth:`hotseat`, then :meth:`open` it and read
    :meth:`updates`. The game has one writer, the event loop: the bot computes in a thread and
    its command is applied on the loop. ``record_to`` is the folder where each game's record is
    written (None: not recorded). A failing bot is replaced by the automatic move (R25); the
    failure goes to ``on_failure`` reduced to its type and place (its text may name tiles).
    ``preset`` is the rules preset the player chose (the settings are the game's), shown and
    recorded as chosen; None when nobody said (it is guessed from the settings then).

    With a :class:`Match`, ``local_seats`` and ``players`` are its first game's (the players'
    names are the match's): the local players keep their names from game to game while their
    seats follow the dealer (R31), and :meth:`next_game` starts the next game. A
    :class:`MatchTable` may be given instead of a :class:`Match` (its records are its own).
    """

    def __init__(self, game: Game | Match | MatchTable, mode: SessionMode,
                 local_seats: tuple[Seat, ...], players: dict[Seat, PlayerInfo],
                 bot: Bot | None = None,
                 think_seconds: float = DEFAULT_THINK_SECONDS,
                 record_to: Path | None = None,
                 on_failure: FailureHandler | None = None, *,
                 preset: str | None = None) -> None:
        if mode == "practice" and (bot is None or len(local_seats) != 1):
            raise ValueError("practice needs a bot and exactly one local seat")
        if mode == "hotseat" and (bot is not None or len(local_seats) != 2):
            raise ValueError("hot-seat has two local seats and no bot")
        self._mode: SessionMode = mode
        self._local_seats = tuple(sorted(local_seats, key=lambda s: s is not Seat.EAST))
        self._bot = bot
        self.think_seconds = think_seconds
        self._record_to = record_to
        self._record_problem: str | None = None
        self._preset = preset
        self._local_names = tuple(players[seat].name for seat in self._local_seats)
        #: What this terminal plays: one game, or a match.
        self._series: Series
        if isinstance(game, MatchTable):  # made already (prepared deals: tests, puzzles)
            self._series = game
        elif isinstance(game, Match):
            infos = {info.name: info for info in players.values()}
            self._series = MatchTable(game, infos, recorders=self._match_record,
                                      one_keyboard=mode == "hotseat")
        else:
            self._series = SingleGame(game, players, recorders=self._game_record,
                                      one_keyboard=mode == "hotseat")
        self._on_failure = on_failure
        self._queue: asyncio.Queue[ServerMessageType] = asyncio.Queue()
        self._ids = itertools.count(1)
        self._bot_task: asyncio.Task[None] | None = None
        self._clock_task: asyncio.Task[None] | None = None
        self._open = False
        self._closed = False
        self.trainer_aids = False  # hot-seat: both players agreed to the trainer's aids

    @classmethod
    def practice(cls, seed: int | str, bot: Bot, human: Seat | None = None,
                 settings: RuleSettings | None = None,
                 think_seconds: float = DEFAULT_THINK_SECONDS, name: str = "You",
                 record_to: Path | None = None,
                 on_failure: FailureHandler | None = None,
                 match: bool = False, preset: str | None = None) -> LocalSession:
        """A game against ``bot``. The human's seat is drawn from the seed unless given (R6).

        ``match``: a whole match (R30) from ``seed`` with ``settings`` (default: the ``match``
        preset); its first dealer is drawn from the seed, so ``human`` is not used.
        """
        bot_called = bot_name(bot.level)
        if match:
            whole = Match(seed, (name, bot_called), settings)
            players = {seat: PlayerInfo(name=player, kind="human" if player == name else "bot")
                       for seat, player in whole.seats.items()}
            return cls(whole, "practice", (whole.seat_of(name),), players, bot, think_seconds,
                       record_to, on_failure, preset=preset)
        game = Game(seed, settings)
        if human is None:
            human = Seat.EAST if game.deal.east_player == 0 else Seat.WEST
        players = {human: PlayerInfo(name=name),
                   human.other: PlayerInfo(name=bot_called, kind="bot")}
        return cls(game, "practice", (human,), players, bot, think_seconds, record_to,
                   on_failure, preset=preset)

    @classmethod
    def hotseat(cls, seed: int | str, settings: RuleSettings | None = None,
                names: dict[Seat, str] | None = None,
                record_to: Path | None = None, trainer_aids: bool = False,
                match: bool = False, preset: str | None = None) -> LocalSession:
        """A game for two players at one terminal; ``trainer_aids`` when both agreed to the
        defense trainer's aids.

        ``match``: a whole match (R30) from ``seed`` with ``settings`` (default: the ``match``
        preset) between ``Player 1`` and ``Player 2`` (or the two ``names``), who change seats
        as the deal passes (R31).
        """
        game: Game | Match
        if match:
            first, second = ((names[Seat.EAST], names[Seat.WEST]) if names
                             else HOTSEAT_MATCH_NAMES)
            game = Match(seed, (first, second), settings)
            players = {seat: PlayerInfo(name=player) for seat, player in game.seats.items()}
        else:
            names = names or {seat: seat.value.title() for seat in Seat}
            players = {seat: PlayerInfo(name=names[seat]) for seat in Seat}
            game = Game(seed, settings)
        session = cls(game, "hotseat", (Seat.EAST, Seat.WEST), players, record_to=record_to,
                      preset=preset)
        session.trainer_aids = trainer_aids
        return session

    # -- the Session protocol --------------------------------------------------------------------

    @property
    def traits(self) -> SessionTraits:
        """Hot-seat shares the screen; practice allows hints and the trainer's aids (hot-seat
        only when both agreed); neither is resumable."""
        return SessionTraits(mode=self._mode, shared_screen=self._mode == "hotseat",
                             hints_allowed=self._mode == "practice", resumable=False,
                             trainer_aids=self._mode == "practice" or self.trainer_aids,
                             bot_level=self._bot.level if self._bot is not None else None)

    def _game_record(self, game: Game, seats: Mapping[Seat, str]) -> Recorder | None:
        """The record of a single game (a problem is told when the game starts)."""
        players = {seat: PlayerInfo(name=name) for seat, name in seats.items()}
        writer, self._record_problem = start_record(game, self._mode, players,
                                                    self._record_to, preset=self._preset)
        return LocalRecord(writer) if writer is not None else None

    def _match_record(self, game: Game, match: Match) -> Recorder | None:
        """The record of one game of the match (a problem is told when the game starts)."""
        players = {seat: PlayerInfo(name=name) for seat, name in match.seats.items()}
        writer, self._record_problem = start_record(game, self._mode, players,
                                                    self._record_to, match, self._preset)
        if writer is None:
            return None
        return LocalRecord(writer, lambda: self._series.settlement)

    @property
    def local_seats(self) -> tuple[Seat, ...]:
        """The seats played at this terminal, East first (in a practice match the player's
        seat changes when the deal passes, R31)."""
        if self._series.kind == "single":
            return self._local_seats
        seats = (self._series.seat_of(name) for name in self._local_names)
        return tuple(sorted(seats, key=lambda s: s is not Seat.EAST))

    @property
    def _table(self) -> GameTable:
        """The table of the game being played (in a match, its current game)."""
        return self._series.table

    @property
    def match(self) -> MatchView | None:
        """The match's public state (None: a single game)."""
        return self._series.view()

    async def next_game(self) -> None:
        """Start the match's next game after the end of one (at one terminal nobody else has
        to agree): a snapshot of it for each local seat, which may have changed (R31).
        Raises :class:`~minefield.rules.match.MatchError` during a game, after the match and
        in a single game (:meth:`Series.next_game <minefield.table.series.Series.next_game>`,
        where every next game starts)."""
        if self._closed:
            return
        now = self._now()
        messages = self._series.next_game(now)
        self._table.start_clocks(now)
        self._push(messages)
        self._tell_record_problem()
        self._react()

    @property
    def settings(self) -> RuleSettings:
        """The rules of this game."""
        return self._table.game.settings

    @property
    def preset(self) -> str | None:
        """The rules preset the player chose (None: not said; it is guessed from the
        settings then)."""
        return self._preset

    async def open(self) -> None:
        """Start: a snapshot for each local seat; the bot and the clocks begin."""
        if self._open:
            return
        self._open = True
        now = self._now()
        self._table.start_clocks(now)
        self._push([self._table.snapshot(seat, now) for seat in self.local_seats])
        self._tell_record_problem()
        self._react()

    def _tell_record_problem(self) -> None:
        if self._record_problem:
            self._push([Notice(seat=seat, text=self._record_problem, severity="warning")
                        for seat in self.local_seats])
            self._record_problem = None

    async def updates(self) -> AsyncIterator[ServerMessageType]:
        """Every message for the local seats, in order, until the session closes."""
        closed: set[Seat] = set()
        while len(closed) < len(self.local_seats):
            message = await self._queue.get()
            if isinstance(message, Closed):
                closed.add(message.seat)
            yield message

    async def send(self, seat: Seat, command: ChooseHand | Discard,
                   command_id: str | None = None) -> str:
        """Play a local seat's command; the outcome arrives as an update. Returns its id."""
        command_id = command_id or f"local-{next(self._ids)}"
        if seat not in self.local_seats:
            raise IllegalCommand(f"{seat} is not played at this terminal")
        self._submit(seat, command_id, command)
        return command_id

    async def at_keyboard(self, seat: Seat) -> None:
        """Hot-seat: ``seat``'s player has lifted the curtain; their clock starts now (R25: the
        hand-over does not count against either player)."""
        if seat in self.local_seats and not self._closed:
            self._push(self._table.at_keyboard(seat, self._now()))
            self._react()

    async def draft(self, seat: Seat, tiles: str) -> None:
        """The hand builder's current tiles: R25's automatic hand keeps them."""
        if seat in self.local_seats:
            self._table.draft(seat, tiles)

    async def close(self) -> None:
        """Stop the bot and the clocks; the updates end."""
        if self._closed:
            return
        self._closed = True
        for task in (self._bot_task, self._clock_task):
            if task is not None:
                task.cancel()
        self._push([Closed(seat=seat, reason="left") for seat in self.local_seats])

    async def settled(self) -> None:
        """Return once the bot has nothing left to do now and every update has been read
        (tests and tools wait on it; a clock may still run)."""
        while True:
            task = self._bot_task
            if task is not None and not task.done():
                await asyncio.wait([task])
            elif not self._queue.empty():
                await asyncio.sleep(0.005)
            else:
                return

    # -- inside ----------------------------------------------------------------------------------

    def view(self, seat: Seat) -> PlayerView:
        """What a local ``seat`` may see now (R26): for tests and tools, screens use updates."""
        if seat not in self.local_seats and self._table.game.phase != "ended":
            raise IllegalCommand(f"{seat} is not played at this terminal")
        return self._table.game.view(seat)

    @property
    def bot_seat(self) -> Seat | None:
        """The bot's seat in practice, else None."""
        return self.local_seats[0].other if self._bot is not None else None

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    def _push(self, messages: list[ServerMessageType]) -> None:
        for message in messages:
            if message.seat in self.local_seats:
                self._queue.put_nowait(message)

    def _submit(self, seat: Seat, command_id: str | None, command: ChooseHand | Discard
                ) -> list[ServerMessageType]:
        if self._closed:
            return []
        messages = self._table.submit(seat, command_id, command, self._now())
        self._push(messages)
        self._react()
        return messages

    def _react(self) -> None:
        """After any change: let the bot move if it must, and set the clock's alarm."""
        if self._closed:
            return
        seat = self.bot_seat
        if (seat is not None and self._table.must_act(seat)
                and (self._bot_task is None or self._bot_task.done())):
            self._bot_task = asyncio.create_task(self._bot_move(seat, self._table.seq))
        if self._clock_task is not None:
            self._clock_task.cancel()
            self._clock_task = None
        deadline = self._table.next_deadline()
        if deadline is not None:
            self._clock_task = asyncio.create_task(self._alarm(deadline[0]))

    async def _alarm(self, when: float) -> None:
        await asyncio.sleep(max(0.0, when - self._now()))
        self._clock_task = None
        self._push(self._table.expire(self._now()))
        self._react()

    async def _bot_move(self, seat: Seat, seq: int) -> None:
        """The bot thinks in a thread, pauses before a discard, then plays (if still its move).

        Its hand it starts building only after the pause: the player's first screen of the game
        is drawn meanwhile, not slowed by the search (the player takes longer than that).
        """
        assert self._bot is not None
        table = self._table
        view = table.game.view(seat)
        if view.phase == "choosing" and self.think_seconds:
            await asyncio.sleep(self.think_seconds)
            if self._table is not table or self._closed or not table.must_act(seat):
                return  # a new game began, or the clock played for it meanwhile
            seq, view = table.seq, table.game.view(seat)  # the player may have chosen meanwhile
        started = self._now()
        try:
            command = await asyncio.to_thread(self._bot.act, view)
        except Exception as error:
            self._bot_failed(SeatFailed.of(seat, error))
            command = auto_command(view)
        if view.phase == "discarding":
            await asyncio.sleep(max(0.0, self.think_seconds - (self._now() - started)))
        self._bot_task = None
        if self._table is not table or table.seq != seq or self._closed:
            return  # the clock played for it meanwhile (or a new game began)
        if any(isinstance(m, Rejected) for m in self._submit(seat, None, command)):
            # The rejection's reason names the bot's tile: it is not shown (R26).
            self._bot_failed(SeatFailed(seat, "an illegal command"))
            self._submit(seat, None, auto_command(self._table.game.view(seat)))

    def _bot_failed(self, failure: SeatFailed) -> None:
        """Tell the player (the type only: the text may name the bot's tiles) and log it."""
        if self._on_failure is not None:
            self._on_failure(failure)
        else:
            log.warning("%s", failure)
        self._push([Notice(seat=s, severity="warning",
                           text=f"The bot failed ({failure.kind}); the automatic move was "
                           "played for it (R25).") for s in self.local_seats])

    # -- hidden information stays hidden ---------------------------------------------------------

    def __repr__(self) -> str:
        return (f"LocalSession(mode={self._mode}, phase={self._table.game.phase}, "
                f"discards={self._table.game.discard_count}, <tiles hidden>)")

    def __rich_repr__(self) -> Iterator[Any]:
        yield "mode", self._mode
        yield "phase", self._table.game.phase
        yield "tiles", "<hidden>"
