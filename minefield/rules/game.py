"""One game of Minefield as a pure state machine (R6-R18, R26, R27).

``Game.apply(seat, command)`` validates a command, changes the state and returns the events it
caused; a wrong command raises :class:`IllegalCommand` and changes nothing. A game is rebuilt
from its seed, settings and commands with :meth:`Game.replay`.

>>> game = Game(seed=1)
>>> game.phase
'choosing'
>>> game.apply(Seat.EAST, Discard(tile="1m"))
Traceback (most recent call last):
...
minefield.rules.game.IllegalCommand: east cannot discard now: both hands are not chosen yet
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from minefield.errors import MinefieldError
from minefield.rules.hand import HAND_SIZE, Hand, waits
from minefield.rules.report import WaitReport, YakuEntry
from minefield.rules.score import YAKUMAN_POINTS, WinContext, WinValue, score_win
from minefield.rules.seats import Seat
from minefield.rules.seed import parse_seed
from minefield.rules.settings import RuleSettings, describe_validation_error
from minefield.rules.tiles import Tile, TileError, kind_str, parse_tiles, tiles_to_str
from minefield.rules.wall import DEAL_SIZE, Deal, tile_from_id

POOL_SIZE = DEAL_SIZE - HAND_SIZE  # R7: the 21 tiles not kept in the hand
DISCARDS_PER_SEAT = 17  # R10
TOTAL_DISCARDS = 2 * DISCARDS_PER_SEAT  # R10, R11
NEVER_DISCARDED = POOL_SIZE - DISCARDS_PER_SEAT  # R10: four pool tiles stay


def first_discard_of(seat: Seat) -> int:
    """The number (1-34) of ``seat``'s first discard: East discards first (R6, R10)."""
    return 1 if seat is Seat.EAST else 2


def ron_context(winner: Seat, number: int, dora_indicator: int | None = None,
                ura_indicator: int | None = None, dealer: bool = False) -> WinContext:
    """The win context of a ron by ``winner`` on discard ``number`` (1-34): R16 ippatsu on the
    opponent's first discard, R17 houtei on discard 34 (only East can win on it). ``dealer``:
    the winner is paid dealer values (East in a match with ``dealer_bonus``, R23).

    >>> ron_context(Seat.WEST, 1).ippatsu, ron_context(Seat.EAST, 34).houtei
    (True, True)
    """
    return WinContext(seat_wind=winner.wind, ippatsu=number == first_discard_of(winner.other),
                      houtei=number == TOTAL_DISCARDS, dora_indicator=dora_indicator,
                      ura_indicator=ura_indicator, dealer=dealer)


class GameTerms(BaseModel):
    """What one game of a match needs beyond the settings (R23, R34, R35); all off for a
    single game. The match (:mod:`minefield.rules.match`) decides them before each game.

    * ``dealer_bonus``: East, the dealer, is paid dealer values (R23).
    * ``ryanshi``: a win needs two han from yaku (R34), except East's with ``paarenchan``.
    * ``paarenchan``: East's next ron on any wait is eligible and paid as a yakuman (R35).

    >>> GameTerms() == GameTerms(dealer_bonus=False, ryanshi=False, paarenchan=False)
    True
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    dealer_bonus: bool = False
    ryanshi: bool = False
    paarenchan: bool = False


RYANSHI_YAKU_HAN = 2  # R34


def yaku_han(value: WinValue) -> int:
    """The han from yaku (riichi, ippatsu and houtei included; dora, ura, red fives not) of
    the reading R18 picks without ura: what ryanshi judges (R34)."""
    return sum(han for _, han in value.basis.yaku)


def paarenchan_report(value: WinValue, dealer_bonus: bool) -> WaitReport:
    """A paarenchan win (R35): the hand's reading, paid as one yakuman (a dealer's yakuman with
    ``dealer_bonus``, R23), whatever its yaku and dora."""
    points = YAKUMAN_POINTS * (6 if dealer_bonus else 4) // 4
    return WaitReport.from_value(value).model_copy(update={
        "eligible": True, "han": 13, "points": points, "limit": "yakuman",
        "yaku": [YakuEntry(name="paarenchan", han=13)], "dora": 0, "aka": 0, "ura": 0,
        "han_without_ura": 13, "points_without_ura": points})


def judge_wait(value: WinValue, seat: Seat, terms: GameTerms) -> tuple[WaitReport | None, str]:
    """R14, R34, R35: the report of a ron on a wait of ``seat`` worth ``value`` when the win is
    eligible under ``terms``, else None and why not (the end of a furiten cause's sentence).

    >>> from minefield.rules.hand import Hand
    >>> from minefield.rules.tiles import kind_from_str
    >>> value = score_win(Hand.parse("123m456p789s3332z"), kind_from_str("2z"),
    ...                   ron_context(Seat.EAST, 5))
    >>> judge_wait(value, Seat.EAST, GameTerms())[1]
    'worth only 1 han 40 fu without ura, below mangan'
    >>> judge_wait(value, Seat.EAST, GameTerms(paarenchan=True))[0].points
    32000
    """
    if terms.paarenchan and seat is Seat.EAST:  # R35: any complete hand
        return paarenchan_report(value, terms.dealer_bonus), ""
    basis = value.basis
    if not value.eligible:
        return None, f"worth only {basis.han} han {basis.fu} fu without ura, below mangan"
    if terms.ryanshi and (han := yaku_han(value)) < RYANSHI_YAKU_HAN:
        return None, (f"it has only {han} han from yaku: with four or more counter sticks "
                      f"a win needs {RYANSHI_YAKU_HAN} (ryanshi, R34)")
    return WaitReport.from_value(value), ""


class IllegalCommand(MinefieldError, ValueError):
    """A command that is not allowed now; the game state is unchanged."""


def _canonical_tiles(value: str, expected: int | None) -> str:
    tiles = parse_tiles(value)
    if expected is not None and len(tiles) != expected:
        raise ValueError(f"hand has {len(tiles)} tiles, expected {expected}")
    return tiles_to_str(tiles)


class ChooseHand(BaseModel):
    """Phase 1: keep these 13 of your 34 tiles as your hand (R7)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    type: Literal["choose_hand"] = "choose_hand"
    tiles: str

    @field_validator("tiles")
    @classmethod
    def _check_tiles(cls, value: str) -> str:
        return _canonical_tiles(value, HAND_SIZE)

    def __repr__(self) -> str:
        return "ChooseHand(<tiles hidden>)"

    def __rich_repr__(self) -> Iterator[Any]:
        yield "tiles", "<hidden>"


class Discard(BaseModel):
    """Phase 2: discard one tile of your pool (R10)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    type: Literal["discard"] = "discard"
    tile: str

    @field_validator("tile")
    @classmethod
    def _check_tile(cls, value: str) -> str:
        return _canonical_tiles(value, 1)


Command = Annotated[ChooseHand | Discard, Field(discriminator="type")]
COMMAND_ADAPTER: TypeAdapter[ChooseHand | Discard] = TypeAdapter(
    Command, config=ConfigDict(defer_build=True))


def parse_command(data: Any) -> ChooseHand | Discard:
    """Validate a command from a dict or JSON string; :class:`IllegalCommand` if malformed."""
    try:
        if isinstance(data, (str, bytes)):
            return COMMAND_ADAPTER.validate_json(data)
        return COMMAND_ADAPTER.validate_python(data)
    except ValidationError as error:
        raise IllegalCommand(describe_validation_error(error, "command field")) from None


class FuritenCause(BaseModel):
    """Why a player became furiten (R15, R27)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    kind: Literal["own_discard", "passed_wait"]
    tile: str
    discard_number: int
    detail: str


# ---------------------------------------------------------------------------------------------
# Events


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    def for_seat(self, viewer: Seat) -> _Event | None:
        """This event as ``viewer`` may see it (None: not at all)."""
        return self


class GameStarted(_Event):
    """Tiles are dealt; the dora indicator is face up (R3)."""

    type: Literal["game_started"] = "game_started"
    dora_indicator: str
    settings: RuleSettings
    terms: GameTerms = GameTerms()


class HandChosen(_Event):
    """A player fixed their hand. Only that player sees the tiles."""

    type: Literal["hand_chosen"] = "hand_chosen"
    seat: Seat
    hand: str | None = None

    def for_seat(self, viewer: Seat) -> _Event | None:
        return self if viewer is self.seat else self.model_copy(update={"hand": None})

    def __repr__(self) -> str:
        return f"HandChosen(seat={self.seat.value}, <hand hidden>)"


class DiscardsBegin(_Event):
    """Both hands are fixed; East discards first (R10)."""

    type: Literal["discards_begin"] = "discards_begin"


class Discarded(_Event):
    """A discard (public). ``number`` counts all discards of the game, 1 to 34."""

    type: Literal["discarded"] = "discarded"
    seat: Seat
    tile: str
    number: int


class BecameFuriten(_Event):
    """A player is now permanently furiten (R15). Private to that player (R26, R27)."""

    type: Literal["became_furiten"] = "became_furiten"
    seat: Seat
    cause: FuritenCause

    def for_seat(self, viewer: Seat) -> _Event | None:
        return self if viewer is self.seat else None


class GameEnded(_Event):
    """The end: ron or exhaustive draw, with everything revealed (R11, R13, R18, R26)."""

    type: Literal["game_ended"] = "game_ended"
    result: Literal["ron", "draw"]
    winner: Seat | None = None
    win_tile: str | None = None
    discard_number: int
    value: WaitReport | None = None
    seed: str
    hands: dict[Seat, str | None]
    pools: dict[Seat, str]
    waits: dict[Seat, list[str]]
    furiten: dict[Seat, FuritenCause | None]
    ura_indicator: str


Event = Annotated[
    GameStarted | HandChosen | DiscardsBegin | Discarded | BecameFuriten | GameEnded,
    Field(discriminator="type"),
]
EVENT_ADAPTER: TypeAdapter[
    GameStarted | HandChosen | DiscardsBegin | Discarded | BecameFuriten | GameEnded
] = TypeAdapter(Event, config=ConfigDict(defer_build=True))


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

    def apply(self, seat: Seat | str, command: ChooseHand | Discard | dict[str, Any] | str
              ) -> SeatEvents:
        """Apply one seat's command; the events it caused, as each seat may see them.

        Raises :class:`IllegalCommand` with the reason; the state is then unchanged.
        """
        try:
            seat = Seat(seat)
        except ValueError:
            raise IllegalCommand(f"{seat!r} is not a seat: use east or west") from None
        if not isinstance(command, (ChooseHand, Discard)):
            command = parse_command(command)
        if isinstance(command, ChooseHand):
            events = self._choose(seat, command)
        else:
            events = self._discard(seat, command)
        self.commands.append((seat, command))
        self._emit(events)
        return {viewer: _redact(events, viewer) for viewer in Seat}

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
               commands: Sequence[tuple[Seat | str, ChooseHand | Discard | dict[str, Any]]],
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
    "DISCARDS_PER_SEAT", "NEVER_DISCARDED", "POOL_SIZE", "TOTAL_DISCARDS", "ChooseHand",
    "Command", "Discard", "Event", "FuritenCause", "Game", "GameEnded", "GameTerms",
    "IllegalCommand", "PlayerView", "Seat", "SeatEvents", "TileError", "first_discard_of",
    "judge_wait", "paarenchan_report", "parse_command", "ron_context", "yaku_han",
]
