"""Hands, their readings and their waits (R7, R9, R12).

A 13-tile :class:`Hand` waits on a kind when adding it makes four groups and a pair, seven
distinct pairs or thirteen orphans. Internally everything works on 34-entry count vectors, seen
as four suits (man, pin, sou, honors). Tables filled the first time a suit's counts are seen
say whether that suit splits into groups, every way it does (with what yaku and fu need of each
way, :class:`SuitPart`) and which tiles complete it, so a hand is a handful of look-ups.

>>> hand = Hand.parse("23m456m345p678s55s")
>>> [kind_str(k) for k in waits(hand.counts)]
['1m', '4m', '7m']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from functools import cache, lru_cache
from itertools import product
from operator import mul
from typing import Any, TypeVar, cast

from minefield.rules.tiles import (
    DRAGONS,
    NUM_KINDS,
    TERMINALS_AND_HONORS,
    WINDS,
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

_Entry = TypeVar("_Entry")
_Key = TypeVar("_Key")

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


def slots_constructor(cls: type[_Entry]) -> Callable[..., _Entry]:
    """A fast constructor for a frozen, slotted dataclass without ``__post_init__``: it takes
    every field positionally and fills the slots directly.

    A frozen dataclass's ``__init__`` goes through ``object.__setattr__`` for each field, which
    is half the cost of the small values an analysis returns. Like ``dataclasses`` itself, this
    writes the function's source (one slot setter call per field) and compiles it.

    >>> make = slots_constructor(Reading)
    >>> make("chiitoitsu", (), 5, -1, TANKI) == Reading("chiitoitsu", (), 5, -1, TANKI)
    True
    """
    names = [item.name for item in fields(cls)]  # type: ignore[arg-type]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    namespace.update({f"_set_{name}": getattr(cls, name).__set__ for name in names})
    setters = "".join(f"    _set_{name}(made, {name})\n" for name in names)
    exec(f"def make({', '.join(names)}):\n    made = _new(_cls)\n{setters}    return made\n",
         namespace)
    return cast(Callable[..., _Entry], namespace["make"])


class MemoTable(dict[_Key, _Entry]):
    """A memo table: a dict that builds an entry the first time its key is looked up.

    Plain subscripting keeps the hot path a single dict look-up. Like a functools cache it has
    ``cache_clear`` (benchmarks empty every ``cache_clear`` of a module to time a cold start);
    it is set on each table, so that the class itself has no such method to call.
    """

    __slots__ = ("build", "cache_clear")
    cache_clear: Callable[[], None]

    def __init__(self, build: Callable[[_Key], _Entry]) -> None:
        super().__init__()
        self.build = build
        self.cache_clear = self.clear

    def __missing__(self, key: _Key) -> _Entry:
        entry = self.build(key)
        self[key] = entry
        return entry


class TableGroup:
    """Several tables emptied by one ``cache_clear``."""

    __slots__ = ("cache_clear", "tables")
    cache_clear: Callable[[], None]

    def __init__(self, *tables: dict[Any, Any]) -> None:
        self.tables = tables
        self.cache_clear = self._clear

    def _clear(self) -> None:
        for table in self.tables:
            table.clear()


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
# A hand is four "suits": man, pin, sou (9 counts each) and the honors (7 counts). Whether a
# hand is complete, what it waits on and how it splits are all decided suit by suit, from
# tables keyed by one suit's counts and filled the first time a shape is seen.

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
    """True when a numbered suit splits into groups, plus one pair when its size is 2 mod 3."""
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


def _shape_builder(suit: int) -> Callable[[tuple[int, ...]], SuitShape]:
    base = _BASES[suit]

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
        complete = _SPLITS[suit][counts]
        if suit == HONORS:
            parts = (_honor_part(counts),) if complete else ()
        else:
            without, with_pair = suit_decompositions(counts) if complete else ((), ())
            parts = tuple(_numbered_part(groups, pair, base)
                          for groups, pair in (with_pair if size % 3 == 2 else without))
        state = size % 3 // 2 if complete else 2 + size % 3
        return SuitShape(flags, size, complete, parts[0] if len(parts) == 1 else None, parts,
                         state, state * 5 ** (3 - suit))

    return build


SUIT_SHAPES = tuple(MemoTable(_shape_builder(suit)) for suit in range(4))
"""Per suit (0 man, 1 pin, 2 sou, 3 honors): its counts -> :class:`SuitShape`."""


def _waits_builder(suit: int) -> Callable[[tuple[int, ...]], tuple[tuple[int, SuitShape], ...]]:
    splits = _SPLITS[suit]
    shapes = SUIT_SHAPES[suit]
    base = _BASES[suit]

    def build(counts: tuple[int, ...]) -> tuple[tuple[int, SuitShape], ...]:
        if sum(counts) % 3 == 0:
            return ()  # one more tile leaves it 1 mod 3: it can't split
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
    if man.part and pin.part and sou.part and honors.part:  # each splits in one way
        if man.state + pin.state + sou.state + honors.state != 1:
            return []
        return [(honors.part, man.part, pin.part, sou.part)]
    if not (man.parts and pin.parts and sou.parts and honors.parts):
        return []
    if man.state + pin.state + sou.state + honors.state != 1:
        return []
    return [(h, m, p, s) for h in honors.parts for m in man.parts for p in pin.parts
            for s in sou.parts]


def regular_decompositions(counts: Sequence[int]) -> list[tuple[tuple[int, ...], int]]:
    """Every split of 14 counts into four groups and a pair, as global group codes."""
    return [(h.groups + m.groups + p.groups + s.groups, max(h.pair, m.pair, p.pair, s.pair))
            for h, m, p, s in split_hand(suit_shapes(counts))]


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


def readings(counts: Sequence[int], win: int) -> list[Reading]:
    """All readings of a complete 14-tile hand won on ``win`` (R12, R22).

    One reading per decomposition *and* per group the winning tile can be placed in, because
    the wait shape (and so fu, pinfu, open triplets) depends on it.
    """
    found: list[Reading] = []
    for parts in split_hand(suit_shapes(counts)):
        honor, man, pin, sou = parts
        groups = honor.groups + man.groups + pin.groups + sou.groups
        pair = max(honor.pair, man.pair, pin.pair, sou.pair)
        for index, wait in part_placements(parts[(win // 9 + 1) % 4], win):
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
            found.append((kind, (shape, pin, sou, honors) if suit == 0
                          else (man, shape, sou, honors) if suit == 1
                          else (man, pin, shape, honors) if suit == 2
                          else (man, pin, sou, shape)))
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


@lru_cache(maxsize=65536)
def _waits_cached(counts: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(kind for kind, _ in waits_with_shapes(counts, suit_shapes(counts)))


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
