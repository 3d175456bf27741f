"""Hands, their readings and their waits (R7, R9, R12).

A 13-tile :class:`Hand` waits on a kind when adding it makes four groups and a pair, seven
distinct pairs or thirteen orphans. Internally everything works on 34-entry count vectors and
per-suit decomposition tables that are computed once per suit shape and cached.

>>> hand = Hand.parse("23m456m345p678s55s")
>>> [kind_str(k) for k in waits(hand.counts)]
['1m', '4m', '7m']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from minefield.rules.tiles import (
    NUM_KINDS,
    TERMINALS_AND_HONORS,
    Tile,
    TileError,
    check_copies,
    kind_str,
    parse_tiles,
    tiles_to_str,
)

HAND_SIZE = 13

# A group is an int: a triplet of kind k is k, a sequence starting at kind k is k + SEQ.
SEQ = 64

# Wait shapes, as named in R22.
RYANMEN, KANCHAN, PENCHAN, SHANPON, TANKI = "ryanmen", "kanchan", "penchan", "shanpon", "tanki"


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
        counts = [0] * NUM_KINDS
        for tile in ordered:
            counts[tile.kind] += 1
        self.counts: tuple[int, ...] = tuple(counts)
        self.reds: int = sum(1 for t in ordered if t.red)

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Parse a 13-tile hand in mpsz notation."""
        return cls(parse_tiles(text))

    def __str__(self) -> str:
        return tiles_to_str(self.tiles)

    def __repr__(self) -> str:
        # A hand is hidden information: a crash traceback must not reveal it (ARCHITECTURE 3).
        return "Hand(<13 tiles hidden>)"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hand) and self.tiles == other.tiles

    def __hash__(self) -> int:
        return hash(self.tiles)


def _suit_decompose(counts: tuple[int, ...], with_pair: bool) -> list[tuple[tuple[int, ...], int]]:
    """All ways to split one suit's 9 counts into groups (and a pair if ``with_pair``).

    Returns ``(groups, pair)`` with suit-local offsets; ``pair`` is -1 when there is none.
    """
    results: list[tuple[tuple[int, ...], int]] = []
    work = list(counts)

    def walk(start: int, groups: list[int], pair: int) -> None:
        i = start
        while i < 9 and work[i] == 0:
            i += 1
        if i == 9:
            if (pair >= 0) == with_pair:
                results.append((tuple(groups), pair))
            return
        if work[i] >= 3:
            work[i] -= 3
            groups.append(i)
            walk(i, groups, pair)
            groups.pop()
            work[i] += 3
        if i <= 6 and work[i + 1] and work[i + 2]:
            work[i] -= 1
            work[i + 1] -= 1
            work[i + 2] -= 1
            groups.append(i + SEQ)
            walk(i, groups, pair)
            groups.pop()
            work[i] += 1
            work[i + 1] += 1
            work[i + 2] += 1
        if with_pair and pair < 0 and work[i] >= 2:
            work[i] -= 2
            walk(i, groups, i)
            work[i] += 2

    walk(0, [], -1)
    return results


@cache
def suit_decompositions(counts: tuple[int, ...]) -> tuple[
    tuple[tuple[tuple[int, ...], int], ...], tuple[tuple[tuple[int, ...], int], ...]
]:
    """Cached per-suit table: (decompositions without a pair, decompositions with one pair)."""
    total = sum(counts)
    without = tuple(_suit_decompose(counts, False)) if total % 3 == 0 else ()
    with_pair = tuple(_suit_decompose(counts, True)) if total % 3 == 2 else ()
    return without, with_pair


def _honor_decompositions(counts: Sequence[int]) -> tuple[tuple[int, ...], int] | None:
    """Honors can only be triplets or one pair; None when that fails."""
    groups: list[int] = []
    pair = -1
    for offset in range(7):
        count = counts[27 + offset]
        if count == 3:
            groups.append(27 + offset)
        elif count == 2:
            if pair >= 0:
                return None
            pair = 27 + offset
        elif count:
            return None
    return tuple(groups), pair


def regular_decompositions(counts: Sequence[int]) -> list[tuple[tuple[int, ...], int]]:
    """Every split of 14 counts into four groups and a pair, as global group codes."""
    honors = _honor_decompositions(counts)
    if honors is None:
        return []
    partial: list[tuple[tuple[int, ...], int]] = [honors]
    for suit in range(3):
        base = suit * 9
        key = tuple(counts[base:base + 9])
        total = sum(key)
        if total % 3 == 1:
            return []
        without, with_pair = suit_decompositions(key)
        merged: list[tuple[tuple[int, ...], int]] = []
        for groups, pair in partial:
            if total % 3 == 2:
                if pair < 0:
                    for sgroups, spair in with_pair:
                        merged.append((groups + tuple(g + base for g in sgroups), spair + base))
            else:
                for sgroups, _ in without:
                    merged.append((groups + tuple(g + base for g in sgroups), pair))
        partial = merged
        if not partial:
            return []
    return [(groups, pair) for groups, pair in partial if pair >= 0 and len(groups) == 4]


def _seq_wait(start: int, win: int) -> str:
    if win == start + 1:
        return KANCHAN
    if (win == start + 2 and start % 9 == 0) or (win == start and start % 9 == 6):
        return PENCHAN
    return RYANMEN


def readings(counts: Sequence[int], win: int) -> list[Reading]:
    """All readings of a complete 14-tile hand won on ``win`` (R12, R22).

    One reading per decomposition *and* per group the winning tile can be placed in, because
    the wait shape (and so fu, pinfu, open triplets) depends on it.
    """
    found: list[Reading] = []
    for groups, pair in regular_decompositions(counts):
        seen: set[tuple[int, str]] = set()
        if pair == win:
            found.append(Reading("regular", groups, pair, -1, TANKI))
        for index, group in enumerate(groups):
            if group >= SEQ:
                start = group - SEQ
                if start <= win <= start + 2:
                    wait = _seq_wait(start, win)
                    if (group, wait) not in seen:
                        seen.add((group, wait))
                        found.append(Reading("regular", groups, pair, index, wait))
            elif group == win and (group, SHANPON) not in seen:
                seen.add((group, SHANPON))
                found.append(Reading("regular", groups, pair, index, SHANPON))
    if is_chiitoitsu(counts):
        found.append(Reading("chiitoitsu", (), win, -1, TANKI))
    if is_kokushi(counts):
        found.append(Reading("kokushi", (), win, -1, TANKI))
    return found


def is_chiitoitsu(counts: Sequence[int]) -> bool:
    """Seven distinct pairs."""
    pairs = 0
    for count in counts:
        if count == 2:
            pairs += 1
        elif count:
            return False
    return pairs == 7


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
    return bool(regular_decompositions(counts)) or is_chiitoitsu(counts) or is_kokushi(counts)


def _candidate_kinds(counts: Sequence[int]) -> list[int]:
    """Kinds that could possibly complete the hand: near a held tile, or any orphan."""
    candidates: set[int] = set()
    for kind in range(27):
        if counts[kind]:
            pos = kind % 9
            for delta in (-2, -1, 0, 1, 2):
                if 0 <= pos + delta <= 8:
                    candidates.add(kind + delta)
    for kind in range(27, 34):
        if counts[kind]:
            candidates.add(kind)
    if sum(1 for k in TERMINALS_AND_HONORS if counts[k]) >= 12:
        candidates.update(TERMINALS_AND_HONORS)
    return sorted(candidates)


@lru_cache(maxsize=65536)
def _waits_cached(counts: tuple[int, ...]) -> tuple[int, ...]:
    found: list[int] = []
    work = list(counts)
    for kind in _candidate_kinds(counts):
        if work[kind] >= 4:
            continue  # R12: a kind the hand holds all four of is a dead wait, never a wait
        work[kind] += 1
        if is_complete(work):
            found.append(kind)
        work[kind] -= 1
    return tuple(found)


def waits(counts: Sequence[int]) -> tuple[int, ...]:
    """The kinds that complete a 13-tile hand, dead waits excluded (R12)."""
    if sum(counts) != HAND_SIZE:
        raise TileError(f"hand has {sum(counts)} tiles, expected {HAND_SIZE}")
    return _waits_cached(tuple(counts))


def group_str(group: int) -> str:
    """``'123m'`` for a sequence, ``'555z'`` for a triplet."""
    if group >= SEQ:
        start = group - SEQ
        return "".join(str(start % 9 + 1 + i) for i in range(3)) + "mps"[start // 9]
    return kind_str(group)[0] * 3 + kind_str(group)[1]
