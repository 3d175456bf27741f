"""What the discarding seat sees (R26), and the danger report the estimators return.

>>> from minefield.rules.game import ChooseHand, Game, Seat
>>> from minefield.rules.tiles import tiles_to_str
>>> game = Game(7)
>>> for seat in Seat:
...     hand = tiles_to_str(game.tiles_of(seat)[:13])
...     _ = game.apply(seat, ChooseHand(tiles=hand))
>>> position = Position.from_view(game.view(Seat.EAST))
>>> position.number, len(position.pool_kinds) > 0
(1, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from minefield.defense.calibration import DEFAULT_OPPONENT, Opponent
from minefield.errors import MinefieldError
from minefield.rules.game import TOTAL_DISCARDS, PlayerView, Seat
from minefield.rules.hand import Hand, waits
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import NUM_KINDS, Tile, counts_of, dora_from_indicator, parse_tiles

#: The danger estimate's name (one estimate: the calibrated fast one).
Method = Literal["fast"]


class PositionError(MinefieldError, ValueError):
    """A position that cannot occur (wrong tile counts, wrong turn, ...); the message says why."""


@dataclass(frozen=True)
class Position:
    """One seat about to make a discard, with everything it may see and nothing else.

    ``discards`` holds each seat's discards in the order played. The seat to move is the one
    whose turn it is: East when both rows are the same length, else West (R10).
    """

    seat: Seat
    tiles: tuple[Tile, ...]
    hand: Hand
    dora_indicator: Tile
    discards: dict[Seat, tuple[Tile, ...]]
    settings: RuleSettings = field(default_factory=RuleSettings)

    def __post_init__(self) -> None:
        if len(self.tiles) != 34:
            raise PositionError(f"tiles: {len(self.tiles)} tiles, a seat holds 34 (R5)")
        own = counts_of(self.tiles)
        hand = self.hand.counts
        if any(hand[k] > own[k] for k in range(NUM_KINDS)):
            raise PositionError("hand: it holds tiles that are not among the seat's 34")
        pool = [own[k] - hand[k] for k in range(NUM_KINDS)]
        for tile in self.discards.get(self.seat, ()):
            pool[tile.kind] -= 1
            if pool[tile.kind] < 0:
                raise PositionError(
                    f"discards: {self.seat} discarded more {tile} than its pool holds")
        east = len(self.discards.get(Seat.EAST, ()))
        west = len(self.discards.get(Seat.WEST, ()))
        if east + west >= TOTAL_DISCARDS:
            raise PositionError("discards: all 34 discards are made, the game is over (R11)")
        expected = Seat.EAST if east == west else Seat.WEST
        if east not in (west, west + 1):
            raise PositionError(
                f"discards: east made {east} and west {west}; East discards first and they "
                "alternate (R10)")
        if expected is not self.seat:
            raise PositionError(f"seat: it is {expected}'s turn to discard, not {self.seat}'s")

    @classmethod
    def from_view(cls, view: PlayerView) -> Position:
        """The position of a phase-2 view whose seat is to discard."""
        if view.phase != "discarding" or view.own_hand is None or not view.my_turn:
            raise PositionError("there is no discard to make now")
        return cls(
            seat=view.seat,
            tiles=tuple(parse_tiles(view.own_tiles)),
            hand=Hand.parse(view.own_hand),
            dora_indicator=Tile.parse(view.dora_indicator),
            discards={s: tuple(Tile.parse(t) for t in row) for s, row in view.discards.items()},
            settings=view.settings,
        )

    @property
    def opponent(self) -> Seat:
        """The other seat, whose hand is hidden."""
        return self.seat.other

    @property
    def opponent_dealer(self) -> bool:
        """Whether the opponent's rons are paid dealer values: it is East and the rules have
        ``dealer_bonus`` (matches, R23)."""
        return self.settings.dealer_bonus and self.opponent is Seat.EAST

    @property
    def number(self) -> int:
        """The number (1-34) of the discard about to be made."""
        return sum(len(row) for row in self.discards.values()) + 1

    @cached_property
    def pool_counts(self) -> tuple[int, ...]:
        """Copies of each kind still in this seat's pool."""
        pool = [a - b for a, b in zip(counts_of(self.tiles), self.hand.counts, strict=True)]
        for tile in self.discards.get(self.seat, ()):
            pool[tile.kind] -= 1
        return tuple(pool)

    @property
    def pool_kinds(self) -> list[int]:
        """The kinds left in the pool, in tile order."""
        return [k for k in range(NUM_KINDS) if self.pool_counts[k]]

    @cached_property
    def unseen(self) -> tuple[int, ...]:
        """Copies of each kind this seat cannot see: the only ones the opponent can hold."""
        unseen = [4 - n for n in counts_of(self.tiles)]
        unseen[self.dora_indicator.kind] -= 1
        for tile in self.discards.get(self.opponent, ()):
            unseen[tile.kind] -= 1
        return tuple(max(0, n) for n in unseen)

    @property
    def dora(self) -> int:
        """The dora kind (R4)."""
        return dora_from_indicator(self.dora_indicator.kind)

    @cached_property
    def genbutsu(self) -> frozenset[int]:
        """Kinds the opponent has discarded: they can never win on them (R15a)."""
        return frozenset(tile.kind for tile in self.discards.get(self.opponent, ()))

    @cached_property
    def passed(self) -> frozenset[int]:
        """Kinds this seat has discarded without a ron: no wait, or the opponent is furiten
        (R13, R15b); either way they are safe for the rest of the game."""
        return frozenset(tile.kind for tile in self.discards.get(self.seat, ()))

    @cached_property
    def own_discards(self) -> tuple[Tile, ...]:
        """This seat's discards in the order played."""
        return self.discards.get(self.seat, ())

    @cached_property
    def opponent_discards(self) -> tuple[Tile, ...]:
        """The opponent's discards in the order played."""
        return self.discards.get(self.opponent, ())

    @cached_property
    def own_waits(self) -> tuple[int, ...]:
        """The kinds this seat's own hand waits on."""
        return waits(self.hand.counts)


@dataclass(frozen=True)
class Estimate:
    """What the estimate computes for one position, over all 34 kinds.

    ``danger[k]`` is the chance that discarding kind ``k`` now deals in: ``k`` is one of the
    opponent's waits, the ron is eligible (R14, with this discard's ippatsu R16 or houtei R17),
    and the opponent is not furiten (R15). ``loss[k]`` is the expected points lost (the chance
    times the average value of that ron). ``opponent_furiten`` is the chance that the opponent
    is already furiten. Kinds that are not in the pool may hold any value.
    """

    danger: tuple[float, ...]
    loss: tuple[float, ...]
    opponent_furiten: float


@dataclass(frozen=True)
class TileDanger:
    """The danger of discarding one kind now: the chance it deals in, the expected points lost
    (chance times the average value of the ron), and the reasons in words."""

    tile: str
    danger: float
    loss: int
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class DangerReport:
    """One estimate for one position: ``tiles`` has one entry per kind left in the pool;
    ``opponent`` is whom the chances are for (a bot level or a person)."""

    discard: int
    opponent_furiten: float
    tiles: tuple[TileDanger, ...]
    method: Method = "fast"
    opponent: Opponent = DEFAULT_OPPONENT

    def safest(self) -> TileDanger:
        """The entry with the least danger (then the least loss, then tile order)."""
        return min(self.tiles, key=lambda t: (t.danger, t.loss))

    def of(self, tile: str) -> TileDanger:
        """The entry of one kind (``"5p"``); KeyError when it is not in the pool."""
        for entry in self.tiles:
            if entry.tile == tile:
                return entry
        raise KeyError(tile)
