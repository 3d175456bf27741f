"""Hands, their readings and their waits (R7, R9, R12).

A 13-tile :class:`Hand` waits on a kind when adding it makes four groups and a pair, seven
distinct pairs or thirteen orphans. Internally everything works on 34-entry count vectors, seen
as four suits (man, pin, sou, honors): tables filled the first time a suit's counts are seen
say whether that suit splits into groups, every way it does and which tiles complete it, so a
hand is a handful of look-ups. Those tables are the private :mod:`minefield.rules._suit_tables`
(the scorer reads them too); this module is the API.

>>> from minefield.rules.tiles import kind_from_str
>>> hand = Hand.parse("23m456m345p678s55s")
>>> [kind_str(k) for k in waits(hand.counts)]
['1m', '4m', '7m']
>>> won = list(hand.counts)
>>> won[kind_from_str("4m")] += 1
>>> found = readings(won, kind_from_str("4m"))
>>> [group_str(g) for g in found[0].groups], [(r.win_group, r.wait) for r in found]
(['234m', '456m', '345p', '678s'], [(0, 'ryanmen'), (1, 'ryanmen')])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

# The vocabulary of hands and readings is defined with the tables that produce it; this module
# is its public home: the hand's size, the group codes (SEQ) and the wait shapes of R22.
from minefield.rules._suit_tables import (
    HAND_SIZE,
    KANCHAN,
    PENCHAN,
    RYANMEN,
    SEQ,
    SHANPON,
    TANKI,
    part_placements,
    reading_index,
    split_hand,
    suit_shapes,
    waits_with_shapes,
    win_part,
)
from minefield.rules.tiles import (
    NUM_KINDS,
    TERMINALS_AND_HONORS,
    Tile,
    TileError,
    check_copies,
    counts_of,
    kind_str,
    parse_tiles,
    tiles_to_str,
)

__all__ = [
    "HAND_SIZE", "KANCHAN", "PENCHAN", "RYANMEN", "SEQ", "SHANPON", "TANKI", "Hand", "Reading",
    "group_str", "is_chiitoitsu", "is_complete", "is_kokushi", "readings", "waits",
]


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a complete 14-tile hand.

    ``form`` is ``"regular"`` (four groups and a pair), ``"chiitoitsu"`` or ``"kokushi"``.
    For regular readings ``groups`` holds four group codes (see ``SEQ``), ``pair`` the pair's
    kind, and ``win_group`` the index of the group the winning tile completed (-1: the pair).
    """

    form: str
    groups: tuple[int, ...]
    pair: int
    win_group: int
    wait: str


class Hand:
    """A 13-tile closed hand.

    >>> str(Hand.parse("55s23m456m345p678s"))
    '23456m345p55678s'
    """

    __slots__ = ("counts", "reds", "tiles")

    def __init__(self, tiles: Iterable[Tile]) -> None:
        ordered = tuple(sorted(tiles, key=lambda t: (t.kind, not t.red)))
        if len(ordered) != HAND_SIZE:
            raise TileError(f"hand has {len(ordered)} tiles, expected {HAND_SIZE}")
        check_copies(ordered)
        self.tiles: tuple[Tile, ...] = ordered
        self.counts: tuple[int, ...] = tuple(counts_of(ordered))
        self.reds: int = sum(1 for t in ordered if t.red)

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Parse a 13-tile hand in mpsz notation."""
        return cls(parse_tiles(text))

    def __str__(self) -> str:
        return tiles_to_str(self.tiles)

    def __repr__(self) -> str:
        # A hand is hidden information: a crash traceback must not reveal it.
        return "Hand(<13 tiles hidden>)"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hand) and self.tiles == other.tiles

    def __hash__(self) -> int:
        return hash(self.tiles)


def readings(counts: Sequence[int], win: int) -> list[Reading]:
    """All readings of a complete 14-tile hand won on ``win`` (R12, R22).

    One reading per decomposition *and* per group the winning tile can be placed in, because
    the wait shape (and so fu, pinfu, open triplets) depends on it. The scorer finds the same
    readings in the same order (``score._scored_readings``, tested against this).
    """
    found: list[Reading] = []
    for parts in split_hand(suit_shapes(counts)):
        honor, man, pin, sou = parts
        groups = honor.groups + man.groups + pin.groups + sou.groups
        pair = max(honor.pair, man.pair, pin.pair, sou.pair)
        for index, wait in part_placements(parts[win_part(win)], win):
            found.append(Reading("regular", groups, pair, reading_index(parts, win, index),
                                 wait))
    if is_chiitoitsu(counts):
        found.append(Reading("chiitoitsu", (), win, -1, TANKI))
    if is_kokushi(counts):
        found.append(Reading("kokushi", (), win, -1, TANKI))
    return found


def is_chiitoitsu(counts: Sequence[int]) -> bool:
    """Seven distinct pairs."""
    return counts.count(2) == 7 and counts.count(0) == NUM_KINDS - 7


def is_kokushi(counts: Sequence[int]) -> bool:
    """Thirteen orphans: one of each terminal and honor, one of them twice."""
    total = 0
    for kind in TERMINALS_AND_HONORS:
        if not counts[kind]:
            return False
        total += counts[kind]
    return total == 14


def is_complete(counts: Sequence[int]) -> bool:
    """True when 14 counts form a winning shape."""
    shapes = suit_shapes(counts)
    if all(shape.complete for shape in shapes) and sum(
            shape.size % 3 == 2 for shape in shapes) == 1:
        return True
    return is_chiitoitsu(counts) or is_kokushi(counts)


@lru_cache(maxsize=65536)
def _waits_cached(counts: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(kind for kind, _ in waits_with_shapes(counts, suit_shapes(counts)))


def waits(counts: Sequence[int]) -> tuple[int, ...]:
    """The kinds that complete a 13-tile hand, dead waits excluded (R12)."""
    if sum(counts) != HAND_SIZE:
        raise TileError(f"hand has {sum(counts)} tiles, expected {HAND_SIZE}")
    return _waits_cached(tuple(counts))


@cache
def group_str(group: int) -> str:
    """``'123m'`` for a sequence, ``'555z'`` for a triplet."""
    if group >= SEQ:
        start = group - SEQ
        return "".join(str(start % 9 + 1 + i) for i in range(3)) + "mps"[start // 9]
    return kind_str(group)[0] * 3 + kind_str(group)[1]
