"""The per-suit tables behind :mod:`minefield.rules.hand` and the scorer (private).

A hand is four "suits": man, pin, sou (9 counts each) and the honors (7 counts). Whether a
hand is complete, what it waits on and how it splits are all decided suit by suit, from tables
keyed by one suit's counts and filled the first time a shape is seen (:class:`MemoTable`), so
that a hand is a handful of dict look-ups:

* ``SUIT_SHAPES``: a suit's counts -> its :class:`SuitShape` (its tile flags, whether it splits
  and every way it does, as :class:`SuitPart`, with what yaku and fu need of each way);
* ``_SUIT_WAITS``: a suit's counts -> the kinds whose addition makes it split, with the new
  shape; ``_SUITS_WITH_WAITS`` says which suits' waits are the hand's.

What splits, every way it does and the waits are read from the tables shipped with the package
(:mod:`minefield.rules._suit_data`, made by :func:`shipped_records` from this module's own
functions) when they are there, and computed otherwise.

The public API is :mod:`minefield.rules.hand` (``Hand``, ``readings``, ``waits``, ...), which
is also the public home of the vocabulary defined here: ``HAND_SIZE``, the group codes
(``SEQ``) and the wait shapes. The scorer reads the parts' bit layouts (``TOTAL_*``,
``SHARED_*``, the ``HAS_*`` tile flags).

>>> from minefield.rules.hand import Hand
>>> man, pin, sou, honors = suit_shapes(Hand.parse("23m456m345p678s55s").counts)
>>> man.complete, pin.complete, [kind for kind, _ in _SUIT_WAITS[0][(0, 1, 1, 1, 1, 1, 0, 0, 0)]]
(False, True, [0, 3, 6])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations_with_replacement, product
from operator import mul

from minefield.rules._memo import MemoTable, TableGroup, slots_constructor
from minefield.rules._suit_data import RawPart, SuitData, load, suit_key
from minefield.rules.tiles import DRAGONS, NUM_KINDS, TERMINALS_AND_HONORS, WINDS

# The vocabulary of hands and readings (public as minefield.rules.hand.HAND_SIZE, and so on).
HAND_SIZE = 13  # R7: the tiles a hand keeps

# A group is an int: a triplet of kind k is k, a sequence starting at kind k is k + SEQ.
SEQ = 64

# Wait shapes, as named in R22.
RYANMEN, KANCHAN, PENCHAN, SHANPON, TANKI = "ryanmen", "kanchan", "penchan", "shanpon", "tanki"


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


# --- Per-suit tables --------------------------------------------------------------------------

HONORS = 3  # the index of the honors among the four suits
_BASES = (0, 9, 18, 27)
SUIT_SLICES = ((0, 9), (9, 18), (18, 27), (27, 34))
"""Where each suit's counts are in a hand's 34: man, pin, sou, honors."""


def _runs_and_triplets(work: list[int]) -> bool:
    """True when a numbered suit's counts split into runs and triplets alone.

    Greedy from the lowest tile: the runs starting there are its count mod 3 (three equal runs
    are the same tiles as three triplets), the rest of it are triplets.
    """
    for i in range(7):
        runs = work[i] % 3
        if runs:
            if work[i + 1] < runs or work[i + 2] < runs:
                return False
            work[i + 1] -= runs
            work[i + 2] -= runs
    return work[7] % 3 == 0 and work[8] % 3 == 0


def _suit_splits(counts: tuple[int, ...]) -> bool:
    """True when a numbered suit splits into groups, plus one pair when its size is 2 mod 3.

    The same question as "has it any :func:`suit_decompositions`", answered without listing
    them: most suits seen do not split, and only those that do are decomposed.
    ``tests/rules/test_hand.py`` checks that the two answers agree on every suit.
    """
    size = sum(counts)
    if size % 3 == 0:
        return _runs_and_triplets(list(counts))
    if size % 3 == 1:
        return False
    # Every group's tile numbers add up to a multiple of 3, so the pair's number p has
    # 2p = sum of all numbers (mod 3): only every third position can hold the pair.
    weight = sum(map(mul, range(9), counts))
    for pair in range(2 * weight % 3, 9, 3):
        if counts[pair] >= 2:
            work = list(counts)
            work[pair] -= 2
            if _runs_and_triplets(work):
                return True
    return False


def _honors_split(counts: tuple[int, ...]) -> bool:
    """True when the honors are triplets, plus one pair when their number is 2 mod 3."""
    if any(count not in (0, 2, 3) for count in counts):
        return False
    return counts.count(2) == (1 if sum(counts) % 3 == 2 else 0)


# SuitPart.totals, summed over the suits of a reading:
TOTAL_FU = 0xFF  # bits 0-7: the fu of the triplets if all are concealed (R22)
TOTAL_TRIPLETS_SHIFT = 8  # bits 8-10: the number of triplets
TOTAL_PEIKOU_SHIFT = 11  # bits 11-12: pairs of identical runs (1 iipeikou, 2 ryanpeikou)
TOTAL_ITTSU = 1 << 13  # 123, 456 and 789 of one suit
# SuitPart.shared, AND-ed over the suits of a reading (the honors' part has all bits set):
SHARED_RUNS = 0x7F  # bit n: a run starting on number n+1 (sanshoku doujun when shared)
SHARED_TRIPLETS = 0x1FF << 7  # bit 7+n: a triplet of number n+1 (sanshoku doukou)
SHARED_OUTSIDE = 1 << 16  # every group and the pair hold a terminal or honor (chanta)

# Tile flags of a suit shape; OR-ing the four suits' flags describes the whole hand.
HAS_ORPHANS = 1  # a terminal (1 or 9) or an honor
HAS_SIMPLES = 2  # a 2-8
NOT_GREEN = 4  # a tile other than 2s 3s 4s 6s 8s and the green dragon
HAS_MAN, HAS_PIN, HAS_SOU, HAS_HONORS = 8, 16, 32, 64
NUMBERED = HAS_MAN | HAS_PIN | HAS_SOU
_PRESENT = (HAS_MAN, HAS_PIN, HAS_SOU, HAS_HONORS)


@dataclass(frozen=True, slots=True)
class SuitPart:
    """One suit's share of a regular reading, with what the yaku and fu need of it.

    ``totals`` packs what adds up over the four suits of a reading and ``shared`` what must
    hold in every suit, so that the scorer combines four parts with one ``+`` or one ``&``
    (see ``TOTAL_*`` and ``SHARED_*``). The fields read for every reading come first, to
    share the object's first cache lines.
    """

    pair: int  # the pair's kind, -1 when the pair is in another suit
    totals: int
    shared: int
    dragons: int  # honors: bit set of the dragon triplets (1 white, 2 green, 4 red)
    winds: int  # honors: bit set of the wind triplets (1 East, 2 South, 4 West, 8 North)
    dragon_triplets: int
    wind_triplets: int
    big_honors: bool  # three dragon or three wind triplets: yakuman is near (R20)
    groups: tuple[int, ...]  # group codes (see ``SEQ``), in reading order
    # winning kind -> where that tile sits among these groups (see part_placements)
    win_cache: dict[int, tuple[tuple[int, str], ...]] = field(
        default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class SuitShape:
    """What a hand needs to know of one suit's counts (a per-suit table entry)."""

    flags: int  # HAS_ORPHANS, HAS_SIMPLES, NOT_GREEN and the suit's HAS_ bit when not empty
    size: int
    complete: bool  # splits into groups, plus one pair when ``size`` is 2 mod 3
    part: SuitPart | None  # the only way it splits, if there is exactly one
    parts: tuple[SuitPart, ...]  # every way it splits (none when it does not)
    state: int  # for the waits: 0-1 it splits, without or with the pair; 2-4 it does not,
    # and its size is 0, 1 or 2 mod 3
    wait_key: int  # state as this suit's digit of the base-5 index of _SUITS_WITH_WAITS


_new_part = slots_constructor(SuitPart)
_new_shape = slots_constructor(SuitShape)


def _placements(groups: tuple[int, ...], pair: int, win: int) -> list[tuple[int, str]]:
    """Where ``win`` can sit among one suit's groups and pair: ``(group index, wait shape)``.

    The index is -1 for the pair (a tanki). A group met again is skipped: the wait shape
    follows from the group and the tile, so the reading would be the same.
    """
    found: list[tuple[int, str]] = [(-1, TANKI)] if pair == win else []
    for index, group in enumerate(groups):
        if group >= SEQ:
            start = group - SEQ
            if start <= win <= start + 2 and group not in groups[:index]:
                found.append((index, _seq_wait(start, win)))
        elif group == win:
            found.append((index, SHANPON))  # only one triplet of a kind fits in a hand
    return found


def _numbered_part(groups: tuple[int, ...], pair: int, base: int) -> SuitPart:
    runs = [g - SEQ for g in groups if g >= SEQ]
    triplets = [g for g in groups if g < SEQ]
    peikou = sum(runs.count(start) // 2 for start in set(runs))
    totals = (sum(8 if t in (0, 8) else 4 for t in triplets)
              + (len(triplets) << TOTAL_TRIPLETS_SHIFT) + (peikou << TOTAL_PEIKOU_SHIFT)
              + (TOTAL_ITTSU if all(start in runs for start in (0, 3, 6)) else 0))
    shared = 0
    for start in runs:
        shared |= 1 << start
    for number in triplets:
        shared |= 1 << (7 + number)
    if (all(start in (0, 6) for start in runs) and all(t in (0, 8) for t in triplets)
            and pair in (-1, 0, 8)):
        shared |= SHARED_OUTSIDE
    return SuitPart(
        pair=pair + base if pair >= 0 else -1,
        totals=totals,
        shared=shared,
        dragons=0,
        winds=0,
        dragon_triplets=0,
        wind_triplets=0,
        big_honors=False,
        groups=tuple(g + base for g in groups),
    )


def _honor_part(counts: tuple[int, ...]) -> SuitPart:
    triplets = tuple(27 + i for i, count in enumerate(counts) if count == 3)
    pair = next((27 + i for i, count in enumerate(counts) if count == 2), -1)
    dragon_triplets = sum(1 for t in triplets if t in DRAGONS)
    wind_triplets = sum(1 for t in triplets if t in WINDS)
    return SuitPart(
        pair=pair,
        totals=8 * len(triplets) + (len(triplets) << TOTAL_TRIPLETS_SHIFT),
        shared=SHARED_RUNS | SHARED_TRIPLETS | SHARED_OUTSIDE,
        dragons=sum(1 << (t - DRAGONS[0]) for t in triplets if t in DRAGONS),
        winds=sum(1 << (t - WINDS[0]) for t in triplets if t in WINDS),
        dragon_triplets=dragon_triplets,
        wind_triplets=wind_triplets,
        big_honors=dragon_triplets == 3 or wind_triplets >= 3,
        groups=triplets,
    )


_SPLITS = (*(MemoTable(_suit_splits) for _ in range(3)), MemoTable(_honors_split))
"""Per suit: its counts -> whether it splits into groups (and one pair by its size)."""


@cache
def shipped_data() -> SuitData | None:
    """The tables shipped with the package (:mod:`minefield.rules._suit_data`), read on the
    first look-up that misses; None when the file is missing or corrupt (every shape is then
    computed)."""
    return load()


def _shipped_shape(suit: int, counts: tuple[int, ...], size: int
                   ) -> tuple[bool, tuple[SuitPart, ...]] | None:
    """Whether a suit of ``size`` tiles splits and every way it does, from the shipped
    tables; None when they are not there or do not cover these counts."""
    data = shipped_data()
    found = data.record(counts, size, suit == HONORS) if data is not None else None
    if found is None:
        return None
    ways = found[1]
    if not ways:
        return False, ()
    if suit == HONORS:
        return True, (_honor_part(counts),)
    assert data is not None
    return True, tuple([_new_part(pair, totals, shared, 0, 0, 0, 0, False, groups, {})
                        for pair, totals, shared, groups
                        in data.parts(ways, found[2], _BASES[suit])])


def _shape_builder(suit: int, shipped: bool = True) -> Callable[[tuple[int, ...]], SuitShape]:
    """The builder of ``SUIT_SHAPES[suit]``: from the shipped tables when ``shipped`` and they
    cover the counts, else computed (the tests compare the two)."""
    base = _BASES[suit]
    digit = 5 ** (3 - suit)  # this suit's digit in the base-5 wait_key

    def build(counts: tuple[int, ...]) -> SuitShape:
        size = sum(counts)
        flags = 0
        if size:
            flags |= _PRESENT[suit]
            if suit == HONORS or counts[0] or counts[8]:
                flags |= HAS_ORPHANS
            if suit != HONORS and any(counts[1:8]):
                flags |= HAS_SIMPLES
            if (suit < 2 or (suit == 2 and (counts[0] or counts[4] or counts[6] or counts[8]))
                    or (suit == HONORS and size != counts[5])):
                flags |= NOT_GREEN  # only 2s 3s 4s 6s 8s and the green dragon are green
        parts: tuple[SuitPart, ...]
        found = _shipped_shape(suit, counts, size) if shipped else None
        if found is not None:
            complete, parts = found
        else:
            complete = _SPLITS[suit][counts]
            if suit == HONORS:
                parts = (_honor_part(counts),) if complete else ()
            else:
                without, with_pair = suit_decompositions(counts) if complete else ((), ())
                parts = tuple(_numbered_part(groups, pair, base)
                              for groups, pair in (with_pair if size % 3 == 2 else without))
        state = size % 3 // 2 if complete else 2 + size % 3
        return _new_shape(flags, size, complete, parts[0] if len(parts) == 1 else None, parts,
                          state, state * digit)

    return build


SUIT_SHAPES = tuple(MemoTable(_shape_builder(suit)) for suit in range(4))
"""Per suit (0 man, 1 pin, 2 sou, 3 honors): its counts -> :class:`SuitShape`."""


def _waits_builder(suit: int, shipped: bool = True
                   ) -> Callable[[tuple[int, ...]], tuple[tuple[int, SuitShape], ...]]:
    """The builder of ``_SUIT_WAITS[suit]``: the waits from the shipped tables when
    ``shipped`` and they cover the counts, else computed (the tests compare the two)."""
    splits = _SPLITS[suit]
    shapes = SUIT_SHAPES[suit]
    base = _BASES[suit]

    def build(counts: tuple[int, ...]) -> tuple[tuple[int, SuitShape], ...]:
        if sum(counts) % 3 == 0:
            return ()  # one more tile leaves it 1 mod 3: it can't split
        data = shipped_data() if shipped else None
        record = data.record(counts, sum(counts), suit == HONORS) if data is not None else None
        if record is not None:
            waits = record[0]
            shipped_found = []
            offset = 0
            while waits:
                if waits & 1:
                    shipped_found.append((base + offset, shapes[
                        (*counts[:offset], counts[offset] + 1, *counts[offset + 1:])]))
                waits >>= 1
                offset += 1
            return tuple(shipped_found)
        found = []
        for offset, count in enumerate(counts):
            if count >= 4:
                continue  # R12: a dead wait
            near = (count,) if suit == HONORS else counts[max(offset - 2, 0):offset + 3]
            if not any(near):
                continue  # a tile far from all others (any new honor) joins no group or pair
            completed = (*counts[:offset], count + 1, *counts[offset + 1:])
            if splits[completed]:
                found.append((base + offset, shapes[completed]))
        return tuple(found)

    return build


_SUIT_WAITS = tuple(MemoTable(_waits_builder(suit)) for suit in range(4))
"""Per suit: its counts -> each kind whose addition makes that suit split, with the suit's
shape once it is added."""

SUIT_TABLES = TableGroup(*_SPLITS, *SUIT_SHAPES, *_SUIT_WAITS)
"""All the per-suit tables: ``SUIT_TABLES.cache_clear()`` empties them."""


def _splitting_suits(kinds: int, groups: Sequence[tuple[int, ...]]
                     ) -> set[tuple[int, ...]]:
    """Every suit of ``kinds`` counts (at most 4 each, 14 in all) made of at most four of
    ``groups`` (each given as the offsets of its tiles) and at most one pair: the suits that
    split (a suit splits when it is such groups, by definition)."""
    found = set()
    for size in range(5):
        for chosen in combinations_with_replacement(groups, size):
            for pair in range(-1, kinds):
                counts = [0] * kinds
                for group in chosen:
                    for offset in group:
                        counts[offset] += 1
                if pair >= 0:
                    counts[pair] += 2
                if max(counts, default=0) <= 4:
                    found.add(tuple(counts))
    return found


def shipped_records() -> dict[int, tuple[int, int, tuple[RawPart, ...]]]:
    """What :mod:`minefield.rules._suit_data` ships, computed by this module's functions:
    for every suit that splits or is one tile from splitting, by its key, its waits (bit
    ``i``: one more tile ``i`` makes it split), how many ways it splits and, for a numbered
    suit, each way as stored (a :class:`SuitPart` at offset 0)."""
    numbered = [(i, i, i) for i in range(9)] + [(i, i + 1, i + 2) for i in range(7)]
    honors = [(i, i, i) for i in range(7)]
    records: dict[int, tuple[int, int, tuple[RawPart, ...]]] = {}
    waits: dict[int, int] = {}
    for is_honors, shapes in ((False, _splitting_suits(9, numbered)),
                              (True, _splitting_suits(7, honors))):
        suit = HONORS if is_honors else 0
        for counts in sorted(shapes):
            key = suit_key(counts, is_honors)
            if key is None or not _SPLITS[suit].build(counts):
                raise AssertionError(f"{counts} should split")
            if is_honors:
                records[key] = (0, 1, ())
            else:
                without, with_pair = suit_decompositions(counts)
                ways = with_pair if sum(counts) % 3 == 2 else without
                parts = tuple(_numbered_part(groups, pair, 0) for groups, pair in ways)
                records[key] = (0, len(parts), tuple((p.pair, p.totals, p.shared, p.groups)
                                                     for p in parts))
            for offset, count in enumerate(counts):
                if count:
                    short = (*counts[:offset], count - 1, *counts[offset + 1:])
                    short_key = suit_key(short, is_honors)
                    assert short_key is not None
                    waits[short_key] = waits.get(short_key, 0) | 1 << offset
    for key, mask in waits.items():
        _, count, stored = records.get(key, (0, 0, ()))
        records[key] = (mask, count, stored)
    return records

Shapes = tuple[SuitShape, SuitShape, SuitShape, SuitShape]
Parts = tuple[SuitPart, SuitPart, SuitPart, SuitPart]
"""A regular reading's decomposition, suit by suit: honors, man, pin, sou (reading order)."""


def suit_shapes(counts: Sequence[int]) -> Shapes:
    """The :class:`SuitShape` of each suit of a hand: man, pin, sou, honors."""
    key = tuple(counts)
    return (SUIT_SHAPES[0][key[0:9]], SUIT_SHAPES[1][key[9:18]], SUIT_SHAPES[2][key[18:27]],
            SUIT_SHAPES[3][key[27:34]])


def split_hand(shapes: Shapes) -> list[Parts]:
    """Every split of a 14-tile hand (given by its suit shapes) into four groups and a pair."""
    man, pin, sou, honors = shapes
    # A suit that splits holds the pair exactly when its size is 2 mod 3: there must be one.
    if man.part and pin.part and sou.part and honors.part:  # the usual case: one way each
        if man.state + pin.state + sou.state + honors.state != 1:
            return []
        return [(honors.part, man.part, pin.part, sou.part)]
    if not (man.parts and pin.parts and sou.parts and honors.parts):
        return []
    if man.state + pin.state + sou.state + honors.state != 1:
        return []
    return [(h, m, p, s) for h in honors.parts for m in man.parts for p in pin.parts
            for s in sou.parts]


def _seq_wait(start: int, win: int) -> str:
    if win == start + 1:
        return KANCHAN
    if (win == start + 2 and start % 9 == 0) or (win == start and start % 9 == 6):
        return PENCHAN
    return RYANMEN


def part_placements(part: SuitPart, win: int) -> tuple[tuple[int, str], ...]:
    """Where ``win`` can sit in one suit's part: ``(index in the part's groups or -1 for the
    pair, wait shape)``; see :func:`reading_index` for the index in a whole reading."""
    found = part.win_cache.get(win)
    if found is None:
        found = part.win_cache[win] = tuple(_placements(part.groups, part.pair, win))
    return found


def win_part(win: int) -> int:
    """Where the part of the winning tile's suit is among a reading's parts (honors, man, pin,
    sou, see :data:`Parts`)."""
    return (win // 9 + 1) % 4


def reading_index(parts: Parts, win: int, index: int) -> int:
    """The index in a reading's groups of group ``index`` of the winning tile's suit (-1, the
    pair, stays -1): the groups of the suits read before it come first."""
    if index < 0 or win >= 27:
        return index
    index += len(parts[0].groups)  # parts are read honors, man, pin, sou
    if win >= 9:
        index += len(parts[1].groups)
        if win >= 18:
            index += len(parts[2].groups)
    return index


def _suits_with_waits(states: tuple[int, ...]) -> tuple[int, ...]:
    """Given each suit's ``SuitShape.state``, the suits whose waits are the hand's.

    The winning tile goes into one suit; every other suit must already split, and exactly one
    suit must end up holding the pair.
    """
    incomplete = [suit for suit in range(4) if states[suit] >= 2]
    with_pair = [suit for suit in range(4) if states[suit] in (1, 4)]
    if not incomplete:  # a suit with a pair must lose it: there must be two of them
        return tuple(with_pair) if len(with_pair) == 2 else ()
    if len(incomplete) > 1:
        return ()
    suit = incomplete[0]
    # The incomplete suit takes the tile: it gets the pair (size 1) or loses it (size 2).
    if (states[suit] == 3 and not with_pair) or (states[suit] == 4 and len(with_pair) == 2):
        return (suit,)
    return ()


_SUITS_WITH_WAITS = tuple(_suits_with_waits(states) for states in product(range(5), repeat=4))
"""Indexed by the four states (man, pin, sou, honors) as a number in base 5."""


def with_shape(shapes: Shapes, suit: int, shape: SuitShape) -> Shapes:
    """``shapes`` with one suit's shape replaced."""
    man, pin, sou, honors = shapes
    if suit == 0:
        return shape, pin, sou, honors
    if suit == 1:
        return man, shape, sou, honors
    if suit == 2:
        return man, pin, shape, honors
    return man, pin, sou, shape


def _special_waits(counts: tuple[int, ...], empty: int) -> list[int]:
    """Waits for seven pairs and for thirteen orphans; ``empty`` is the number of kinds the
    hand does not hold."""
    found = []
    if empty == NUM_KINDS - 7 and counts.count(2) == 6:  # six pairs and a single
        found.append(counts.index(1))
    if empty <= NUM_KINDS - 12:  # at least twelve kinds held
        held = [kind for kind in TERMINALS_AND_HONORS if counts[kind]]
        if len(held) >= 12 and sum(counts[kind] for kind in held) == HAND_SIZE:
            if len(held) == 13:
                found.extend(TERMINALS_AND_HONORS)  # the 13-sided wait
            else:
                found.extend(kind for kind in TERMINALS_AND_HONORS if not counts[kind])
    return found


def waits_with_shapes(counts: tuple[int, ...], shapes: Shapes) -> list[tuple[int, Shapes]]:
    """The waits of 13 counts whose :func:`suit_shapes` are known, each with the suit shapes
    of the completed hand (the counts are not checked, nothing is cached).

    Four groups and a pair: the winning tile goes into one suit; every other suit must
    already split, and exactly one suit must end up holding the pair.
    """
    man, pin, sou, honors = shapes
    found: list[tuple[int, Shapes]] = []
    for suit in _SUITS_WITH_WAITS[man.wait_key + pin.wait_key + sou.wait_key
                                  + honors.wait_key]:
        low, high = SUIT_SLICES[suit]
        for kind, shape in _SUIT_WAITS[suit][counts[low:high]]:
            found.append((kind, with_shape(shapes, suit, shape)))
    empty = counts.count(0)
    if empty == NUM_KINDS - 7 or empty <= NUM_KINDS - 12:  # seven pairs, thirteen orphans
        special = _special_waits(counts, empty)
        if special:
            regular = {kind for kind, _ in found}
            for kind in special:
                if kind not in regular:
                    suit = kind // 9
                    low, high = SUIT_SLICES[suit]
                    completed = list(counts[low:high])
                    completed[kind - low] += 1
                    found.append((kind, with_shape(shapes, suit,
                                                   SUIT_SHAPES[suit][tuple(completed)])))
            found.sort(key=lambda item: item[0])
    return found
