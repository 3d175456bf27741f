"""One game of Minefield as a pure state machine (R6-R18, R26, R27).

``Game.apply(seat, command)`` takes a :class:`~minefield.rules.seats.Seat` and a typed command
(:mod:`minefield.rules.commands`: strings and dicts are parsed at the edges), changes the
state and returns the events it caused (:mod:`minefield.rules.events`); a command the rules do
not allow now raises :class:`IllegalCommand` and changes nothing. :meth:`Game.legal_discards`
says what a seat may discard. A game is rebuilt from its seed, settings and commands with
:meth:`Game.replay`.

>>> game = Game(seed=1)
>>> game.phase
'choosing'
>>> game.apply(Seat.EAST, Discard(tile="1m"))
Traceback (most recent call last):
...
minefield.rules.commands.IllegalCommand: east cannot discard now: both hands are not chosen yet
>>> game.legal_discards(Seat.EAST)
[]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from minefield.rules.commands import (
    COMMAND_ADAPTER,
    ChooseHand,
    Command,
    CommandError,
    Discard,
    IllegalCommand,
    InvalidCommand,
    parse_command,
    parse_seat,
)
from minefield.rules.events import (
    EVENT_ADAPTER,
    BecameFuriten,
    Discarded,
    DiscardsBegin,
    Event,
    FuritenCause,
    GameEnded,
    GameStarted,
    HandChosen,
    _Event,
)
from minefield.rules.hand import HAND_SIZE, Hand, waits
from minefield.rules.report import WaitReport
from minefield.rules.score import WinContext, score_win
from minefield.rules.seats import Seat
from minefield.rules.seed import parse_seed
from minefield.rules.settings import RuleSettings
from minefield.rules.terms import (
    DISCARDS_PER_SEAT,
    RYANSHI_YAKU_HAN,
    TOTAL_DISCARDS,
    GameTerms,
    first_discard_of,
    judge_wait,
    paarenchan_report,
    ron_context,
    yaku_han,
)
from minefield.rules.tiles import Tile, TileError, kind_str, parse_tiles, tiles_to_str
from minefield.rules.wall import DEAL_SIZE, Deal, tile_from_id

POOL_SIZE = DEAL_SIZE - HAND_SIZE  # R7: the 21 tiles not kept in the hand
NEVER_DISCARDED = POOL_SIZE - DISCARDS_PER_SEAT  # R10: four pool tiles stay


# ---------------------------------------------------------------------------------------------
# The view of one seat (R26)


class PlayerView(BaseModel):
    """Everything one seat may see, and nothing else (R26, R27)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    seat: Seat
    phase: Literal["choosing", "discarding", "ended"]
    settings: RuleSettings
    terms: GameTerms = GameTerms()
    dora_indicator: str
    own_tiles: str
    own_hand: str | None
    own_pool: str
    discards: dict[Seat, list[str]]
    turn: Seat | None
    opponent_ready: bool
    own_furiten: FuritenCause | None
    end: GameEnded | None = None

    @property
    def discards_made(self) -> int:
        """Discards made so far by both players (0 to 34)."""
        return sum(len(row) for row in self.discards.values())

    @property
    def my_turn(self) -> bool:
        """True when this seat must discard now."""
        return self.phase == "discarding" and self.turn is self.seat

    def __repr__(self) -> str:
        return (f"PlayerView(seat={self.seat.value}, phase={self.phase}, "
                f"discards={self.discards_made}, <tiles hidden>)")

    def __rich_repr__(self) -> Iterator[Any]:
        yield "seat", self.seat.value
        yield "phase", self.phase
        yield "tiles", "<hidden>"


def _redact(events: Sequence[_Event], viewer: Seat) -> list[_Event]:
    """``events`` as ``viewer`` may see them (R26, R27)."""
    shown = (event.for_seat(viewer) for event in events)
    return [event for event in shown if event is not None]


# ---------------------------------------------------------------------------------------------
# The game


class _SeatState:
    """One seat's private state. Its repr never shows tiles."""

    __slots__ = ("discards", "furiten", "hand", "hand_ids", "pool", "tile_ids", "waits")

    def __init__(self, tile_ids: Sequence[int]) -> None:
        self.tile_ids: tuple[int, ...] = tuple(sorted(tile_ids))
        self.hand: Hand | None = None
        self.hand_ids: tuple[int, ...] = ()
        self.pool: list[int] = []
        self.discards: list[int] = []
        self.waits: tuple[int, ...] = ()
        self.furiten: FuritenCause | None = None

    def __repr__(self) -> str:
        return "_SeatState(<hidden>)"


SeatEvents = dict[Seat, list[_Event]]
"""The events of one command, as each seat may see them."""


class Game:
    """A single game (R6-R18). ``Game(seed, settings)`` deals at once.

    ``seed`` is 32 hex digits or a small number (:mod:`minefield.rules.seed`). Illegal commands
    raise :class:`IllegalCommand` and leave the state unchanged. ``deal`` replaces the seeded
    deal with a prepared one (tests and puzzles; R2 holds for seeded games). ``terms`` are a
    match's (R23, R34, R35); a single game has none.
    """

    def __init__(self, seed: int | str, settings: RuleSettings | None = None,
                 deal: Deal | None = None, terms: GameTerms | None = None) -> None:
        self.settings = settings or RuleSettings()
        self.terms = terms or GameTerms()
        self.seed = parse_seed(seed)
        self.deal = deal if deal is not None else Deal.from_seed(self.seed)
        self._seats = {
            Seat.EAST: _SeatState(self.deal.east_tiles),
            Seat.WEST: _SeatState(self.deal.west_tiles),
        }
        self.phase: Literal["choosing", "discarding", "ended"] = "choosing"
        self.turn: Seat | None = None
        self.discard_count = 0
        self.commands: list[tuple[Seat, ChooseHand | Discard]] = []
        self._events: list[_Event] = []
        self.result: GameEnded | None = None
        self._emit([GameStarted(dora_indicator=str(self.dora_indicator), settings=self.settings,
                                terms=self.terms)])

    def __repr__(self) -> str:
        return (f"Game(seed=<hidden>, phase={self.phase}, discards={self.discard_count}, "
                "<tiles hidden>)")

    # -- public facts ---------------------------------------------------------------------------

    @property
    def dora_indicator(self) -> Tile:
        """The face-up indicator (R3)."""
        return self._tile(self.deal.dora_indicator_id)

    @property
    def ura_indicator(self) -> Tile:
        """The tile beneath it, revealed only at the end (R3, R18)."""
        return self._tile(self.deal.ura_indicator_id)

    def tiles_of(self, seat: Seat) -> list[Tile]:
        """The 34 tiles dealt to ``seat`` (hidden information: use views for players)."""
        return [self._tile(i) for i in self._seats[seat].tile_ids]

    def hand_of(self, seat: Seat) -> Hand | None:
        """The seat's fixed hand, or None before it is chosen (hidden information)."""
        return self._seats[seat].hand

    def waits_of(self, seat: Seat) -> tuple[int, ...]:
        """The kinds the seat's hand waits on (hidden information)."""
        return self._seats[seat].waits

    def furiten_of(self, seat: Seat) -> FuritenCause | None:
        """Why the seat is furiten, or None."""
        return self._seats[seat].furiten

    # -- commands -------------------------------------------------------------------------------

    def apply(self, seat: Seat, command: ChooseHand | Discard) -> SeatEvents:
        """Apply one seat's command; the events it caused, as each seat may see them.

        Raises :class:`IllegalCommand` with the reason when the rules do not allow it now,
        and :class:`InvalidCommand` when ``seat`` or ``command`` is not one (parse strings and
        dicts first: :func:`~minefield.rules.commands.parse_seat`,
        :func:`~minefield.rules.commands.parse_command`); the state is then unchanged.
        """
        if not isinstance(seat, Seat):
            raise InvalidCommand(f"{seat!r} is not a seat: use east or west")
        if isinstance(command, ChooseHand):
            events = self._choose(seat, command)
        elif isinstance(command, Discard):
            events = self._discard(seat, command)
        else:
            raise InvalidCommand(f"{type(command).__name__} is not a command: "
                                 "choose_hand or discard")
        self.commands.append((seat, command))
        self._emit(events)
        return {viewer: _redact(events, viewer) for viewer in Seat}

    def legal_discards(self, seat: Seat) -> list[Tile]:
        """The tiles ``seat`` may discard now, each once (a red five apart from a black
        one): the pool's, on the seat's turn of the discarding phase, else none (R10).

        >>> from minefield.rules.prepared import game_with_hands
        >>> game = game_with_hands("23m456m345p678s55s", "123m456p789s3332z",
        ...                        east_pool="1z1z2p6p9p")
        >>> [str(tile) for tile in game.legal_discards(Seat.EAST)][:4]
        ['2p', '6p', '9p', '1z']
        >>> game.legal_discards(Seat.WEST)
        []
        """
        if self.phase != "discarding" or seat is not self.turn:
            return []
        return sorted({self._tile(i) for i in self._seats[seat].pool})

    def _emit(self, events: list[_Event]) -> None:
        self._events.extend(events)

    def _choose(self, seat: Seat, command: ChooseHand) -> list[_Event]:
        state = self._seats[seat]
        if self.phase != "choosing":
            raise IllegalCommand(f"{seat} cannot choose a hand now: the game is {self.phase}")
        if state.hand is not None:
            raise IllegalCommand(f"{seat} has already chosen a hand; hands never change (R8)")
        wanted = parse_tiles(command.tiles)
        available = list(state.tile_ids)
        chosen: list[int] = []
        for tile in wanted:
            match = next((i for i in available if self._tile(i) == tile), None)
            if match is None:
                have = sum(1 for i in state.tile_ids if self._tile(i) == tile)
                raise IllegalCommand(
                    f"{seat} cannot keep {tile}: their 34 tiles hold {have} of it"
                    f" and the hand asks for {sum(1 for t in wanted if t == tile)}")
            available.remove(match)
            chosen.append(match)
        hand = Hand(self._tile(i) for i in chosen)
        state.hand = hand
        state.hand_ids = tuple(sorted(chosen))
        state.pool = sorted(available)
        state.waits = waits(hand.counts)
        events: list[_Event] = [HandChosen(seat=seat, hand=str(hand))]
        if all(s.hand is not None for s in self._seats.values()):
            self.phase = "discarding"
            self.turn = Seat.EAST
            events.append(DiscardsBegin())
        return events

    def _discard(self, seat: Seat, command: Discard) -> list[_Event]:
        if self.phase == "choosing":
            raise IllegalCommand(f"{seat} cannot discard now: both hands are not chosen yet")
        if self.phase == "ended":
            raise IllegalCommand(f"{seat} cannot discard now: the game has ended")
        if seat is not self.turn:
            raise IllegalCommand(f"{seat} cannot discard now: it is {self.turn}'s turn")
        state = self._seats[seat]
        tile = Tile.parse(command.tile)
        tile_id = next((i for i in state.pool if self._tile(i) == tile), None)
        if tile_id is None:
            where = "in their hand" if tile in [self._tile(i) for i in state.hand_ids] else (
                "already discarded" if tile in [self._tile(i) for i in state.discards]
                else "not among their tiles")
            raise IllegalCommand(f"{seat} cannot discard {tile}: it is {where}, not in their pool")

        state.pool.remove(tile_id)
        state.discards.append(tile_id)
        self.discard_count += 1
        number = self.discard_count
        events: list[_Event] = [Discarded(seat=seat, tile=str(tile), number=number)]

        if tile.kind in state.waits and state.furiten is None:  # R15a
            state.furiten = FuritenCause(
                kind="own_discard", tile=str(tile), discard_number=number,
                detail=f"you discarded {tile}, one of your own waits")
            events.append(BecameFuriten(seat=seat, cause=state.furiten))

        receiver = seat.other
        other = self._seats[receiver]
        if tile.kind in other.waits and other.furiten is None and other.hand is not None:
            ctx = self._context(receiver, number)
            value = score_win(other.hand, tile.kind, ctx, self.settings, win_red=tile.red)
            assert value is not None
            report, refusal = judge_wait(value, receiver, self.terms)
            if report is not None:  # R13: ron is automatic
                return [*events, self._end("ron", number, receiver, tile, report)]
            other.furiten = FuritenCause(  # R15b
                kind="passed_wait", tile=str(tile), discard_number=number,
                detail=f"{tile} was one of your waits but {refusal}")
            events.append(BecameFuriten(seat=receiver, cause=other.furiten))

        if number == TOTAL_DISCARDS:  # R11
            return [*events, self._end("draw", number, None, None, None)]
        self.turn = receiver
        return events

    def _context(self, winner: Seat, number: int) -> WinContext:
        return ron_context(winner, number, self.dora_indicator.kind, self.ura_indicator.kind,
                           dealer=self.terms.dealer_bonus and winner is Seat.EAST)  # R23

    def _end(self, result: Literal["ron", "draw"], number: int, winner: Seat | None,
             tile: Tile | None, report: WaitReport | None) -> GameEnded:
        self.phase = "ended"
        self.turn = None
        ended = GameEnded(
            result=result,
            winner=winner,
            win_tile=str(tile) if tile else None,
            discard_number=number,
            value=report,
            seed=self.seed,
            hands={s: str(st.hand) if st.hand else None for s, st in self._seats.items()},
            pools={s: self._str(st.pool + st.discards) for s, st in self._seats.items()},
            waits={s: [kind_str(k) for k in st.waits] for s, st in self._seats.items()},
            furiten={s: st.furiten for s, st in self._seats.items()},
            ura_indicator=str(self.ura_indicator),
        )
        self.result = ended
        return ended

    # -- views ----------------------------------------------------------------------------------

    def view(self, seat: Seat | str) -> PlayerView:
        """What ``seat`` may see now (R26)."""
        seat = Seat(seat)
        state = self._seats[seat]
        return PlayerView(
            seat=seat,
            phase=self.phase,
            settings=self.settings,
            terms=self.terms,
            dora_indicator=str(self.dora_indicator),
            own_tiles=self._str(state.tile_ids),
            own_hand=str(state.hand) if state.hand else None,
            own_pool=self._str(state.pool) if state.hand else "",
            discards={s: [str(self._tile(i)) for i in st.discards]
                      for s, st in self._seats.items()},
            turn=self.turn,
            opponent_ready=self._seats[seat.other].hand is not None,
            own_furiten=state.furiten,
            end=self.result,
        )

    def events_for(self, seat: Seat | str) -> list[_Event]:
        """The event log as ``seat`` may see it."""
        return _redact(self._events, Seat(seat))

    # -- replay ---------------------------------------------------------------------------------

    @classmethod
    def replay(cls, seed: int | str, settings: RuleSettings | None,
               commands: Sequence[tuple[Seat, ChooseHand | Discard]],
               terms: GameTerms | None = None) -> Game:
        """Rebuild a game from its seed, settings, commands and a match's terms: the
        same commands rebuild the same state."""
        game = cls(seed, settings, terms=terms)
        for seat, command in commands:
            game.apply(seat, command)
        return game

    def state_key(self) -> tuple[Any, ...]:
        """A value that is equal for two games in the same state (for tests and records)."""
        seats = tuple(
            (str(s.hand), tuple(s.pool), tuple(s.discards), s.furiten)
            for s in self._seats.values())
        return (self.seed, self.settings, self.terms, self.phase, self.turn, self.discard_count,
                seats, self.result)

    # -- helpers --------------------------------------------------------------------------------

    def _tile(self, tile_id: int) -> Tile:
        return tile_from_id(tile_id, self.settings.red_fives)

    def _str(self, tile_ids: Sequence[int]) -> str:
        return tiles_to_str(self._tile(i) for i in tile_ids)


__all__ = [
    "COMMAND_ADAPTER", "DISCARDS_PER_SEAT", "EVENT_ADAPTER", "NEVER_DISCARDED", "POOL_SIZE",
    "RYANSHI_YAKU_HAN", "TOTAL_DISCARDS", "BecameFuriten", "ChooseHand", "Command",
    "CommandError", "Discard", "Discarded", "DiscardsBegin", "Event", "FuritenCause", "Game",
    "GameEnded", "GameStarted", "GameTerms", "HandChosen", "IllegalCommand", "InvalidCommand",
    "PlayerView", "Seat", "SeatEvents", "TileError", "first_discard_of", "judge_wait",
    "paarenchan_report", "parse_command", "parse_seat", "ron_context", "yaku_han",
]
