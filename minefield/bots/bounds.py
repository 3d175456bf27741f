"""Quick optimistic bounds of what a hand kept from a deal can win (R14, R18-R20): used by the
strong hand search (:mod:`minefield.bots.hands`) only to skip hands; every hand it keeps is
scored by the engine.

:func:`yakuman_bound` and :class:`HanBound` are the bounds written out from the yaku's
conditions; :func:`win_bound` gives the same numbers from per-suit features kept by each
suit's counts, about twice as fast (a test holds them equal).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from minefield.bots.search import Counts
from minefield.rules.tiles import DRAGONS, NUM_KINDS, TERMINALS_AND_HONORS, WINDS

_GREEN = frozenset((19, 20, 21, 23, 25, 32))


def _mask(kinds: Iterable[int]) -> int:
    out = 0
    for kind in kinds:
        out |= 1 << kind
    return out


_TH_MASK = _mask(TERMINALS_AND_HONORS)
_HONOR_MASK = _mask(range(27, NUM_KINDS))
_SIMPLE_MASK = _mask(range(NUM_KINDS)) & ~_TH_MASK
_SUIT_MASKS = tuple(_mask(range(s * 9, s * 9 + 9)) for s in range(3))
_MIDDLE_MASK = _mask(s * 9 + i for s in range(3) for i in (3, 4, 5))
_GREEN_MASK = _mask(_GREEN)
DRAGON_MASK = _mask(DRAGONS)
_WIND_MASK = _mask(WINDS)
_TERMINAL_MASK = _TH_MASK & ~_HONOR_MASK
_RUNS = tuple(_mask((k, k + 1, k + 2)) for k in range(27) if k % 9 <= 6)
_SANSHOKU = tuple(_mask(p + s * 9 + i for s in range(3) for i in range(3)) for p in range(7))
_ITTSU = _SUIT_MASKS
_DOUKOU = tuple(_mask(p + s * 9 for s in range(3)) for p in range(9))


#: Per suit (man, pin, sou, honors): the features of :func:`suit_features` by the suit's counts.
SUIT_FEATURES: tuple[dict[Counts, tuple[int, ...]], ...] = ({}, {}, {}, {})
#: Kept features per suit before the table starts again (a long-running process meets more
#: and more shapes; a deal's search meets a few hundred).
SUIT_FEATURES_KEPT = 20_000


def suit_features(counts: Counts, suit: int) -> tuple[int, ...]:
    """What the bounds need of one suit's counts (nine, or seven for the honors, ``suit`` 3),
    kept in :data:`SUIT_FEATURES`: the kinds held at least once, twice, three and four times
    (bit masks at the suit's place among the 34 kinds); then, for a numbered suit,

    4. the runs held twice but for one tile (iipeikou, ``_runs_han``),
    5. whether one of them is held four times but for one tile (ryanpeikou),
    6. whether the suit holds all nine kinds but one (ittsu),
    7. 8. the runs from each of its kinds 1-7 held whole, and held but for one tile (as bits:
       sanshoku doujun needs the three suits' together short of one tile at most),
    9. 10. the kinds held three times, and held exactly twice (sanshoku doukou, the same),
    11. whether the suit alone is nine gates but for one tile, with a terminal triplet (chuuren).
    """
    shift = 9 * suit
    shape = Shape.of(counts)
    one, two, three, four = shape.one, shape.two, shape.three, shape.four
    doubles = 0
    quads = whole_runs = short_runs = 0
    ittsu = chuuren = False
    if suit < 3:
        for low in range(7):
            run = counts[low:low + 3]
            if sum(2 - min(count, 2) for count in run) <= 1:
                doubles += 1
                if sum(4 - count for count in run) <= 1:
                    quads = 1
            absent = sum(1 for count in run if not count)
            if absent == 0:
                whole_runs |= 1 << low
            elif absent == 1:
                short_runs |= 1 << low
        ittsu = sum(1 for count in counts if not count) <= 1
        chuuren = bool(three & 0b100000001) and sum(
            max(0, (3 if index in (0, 8) else 1) - count)
            for index, count in enumerate(counts)) <= 1
    features = (one << shift, two << shift, three << shift, four << shift, doubles, quads,
                int(ittsu), whole_runs, short_runs, three, two & ~three, int(chuuren))
    table = SUIT_FEATURES[suit]
    if len(table) >= SUIT_FEATURES_KEPT:
        table.clear()
    table[counts] = features
    return features


def two_short_of_one(full_a: int, short_a: int, full_b: int, short_b: int, full_c: int,
                      short_c: int) -> bool:
    """Whether at some bit the three suits are all ``full`` but for at most one ``short``."""
    return bool(full_a & full_b & full_c | short_a & full_b & full_c | full_a & short_b & full_c
                | full_a & full_b & short_c)


@dataclass(frozen=True, slots=True)
class Shape:
    """Bit masks of the kinds a hand holds at least one, two, three and four of."""

    one: int
    two: int
    three: int
    four: int

    @classmethod
    def of(cls, hand: Sequence[int]) -> Shape:
        one = two = three = four = 0
        for kind, count in enumerate(hand):
            if count:
                bit = 1 << kind
                one |= bit
                if count >= 2:
                    two |= bit
                    if count >= 3:
                        three |= bit
                        if count == 4:
                            four |= bit
        return cls(one, two, three, four)

    def held(self, pattern: int) -> int:
        """Tiles held of the kinds in ``pattern``, counting at most three of each."""
        return ((self.one & pattern).bit_count() + (self.two & pattern).bit_count()
                + (self.three & pattern).bit_count())

    def missing(self, pattern: int, each: int) -> int:
        """Tiles short of holding ``each`` copies of every kind in ``pattern``."""
        short = (pattern & ~self.one).bit_count()
        if each >= 2:
            short += (pattern & ~self.two).bit_count()
        if each >= 3:
            short += (pattern & ~self.three).bit_count()
        if each >= 4:
            short += (pattern & ~self.four).bit_count()
        return short


class HanBound:
    """An upper bound of the yaku han (not riichi, dora or ura) of a hand kept from ``deal``
    plus any one of its waits, from tile counts alone.

    Each test is a necessary condition of its yaku (R19), the winning tile being allowed to
    fill one gap. Patterns the 34 tiles cannot fill are dropped once per deal, since a hand
    holds no more than its deal.
    """

    def __init__(self, deal_counts: Sequence[int], seat_wind: int) -> None:
        deal = Shape.of(deal_counts)
        self.seat_wind = seat_wind
        self.runs = [run for run in _RUNS if deal.missing(run, 2) <= 1]
        self.sanshoku = [p for p in _SANSHOKU if deal.missing(p, 1) <= 1]
        self.ittsu = [p for p in _ITTSU if deal.missing(p, 1) <= 1]
        self.doukou = [p for p in _DOUKOU if deal.missing(p, 3) <= 1]

    def __call__(self, hand: Sequence[int], waits: Iterable[int],
                 shape: Shape | None = None) -> int:
        shape = shape or Shape.of(hand)
        wait_mask = _mask(waits)
        one, two, three = shape.one, shape.two, shape.three
        han = 0
        if not one & _TH_MASK and wait_mask & _SIMPLE_MASK:
            han += 1  # tanyao
        if not three & _HONOR_MASK:
            han += 1  # pinfu
        han += self._runs_han(shape)
        for kind in (*DRAGONS, self.seat_wind):
            if hand[kind] >= 3 or (hand[kind] == 2 and wait_mask >> kind & 1):
                han += 1  # yakuhai
        if not one & _MIDDLE_MASK:
            han += 3  # chanta or junchan
        triplets = three.bit_count()
        if triplets + (1 if two & ~three & wait_mask else 0) >= 4:
            han += 2  # toitoi
        if triplets >= 3:
            han += 2  # sanankou
        if any(shape.missing(p, 3) <= 1 for p in self.doukou):
            han += 2  # sanshoku doukou
        if not one & ~_TH_MASK:
            han += 2  # honroutou
        if one & DRAGON_MASK and shape.held(DRAGON_MASK) >= 7:
            han += 2  # shousangen
        if (two & ~three).bit_count() >= 6:
            han += 2  # chiitoitsu
        suits = sum(1 for mask in _SUIT_MASKS if one & mask)
        if suits <= 1:
            han += 3 if one & _HONOR_MASK else 6  # honitsu or chinitsu
        return han

    def _runs_han(self, shape: Shape) -> int:
        """The bound of the yaku made of runs: peikou, sanshoku doujun and ittsu."""
        one, two = shape.one, shape.two
        han = 0
        doubles = [run for run in self.runs
                   if (run & ~one).bit_count() + (run & ~two).bit_count() <= 1]
        if len(doubles) >= 2 or any(shape.missing(run, 4) <= 1 for run in doubles):
            han += 3  # ryanpeikou
        elif doubles:
            han += 1  # iipeikou
        if any((p & ~one).bit_count() <= 1 for p in self.sanshoku):
            han += 2  # sanshoku doujun
        if any((p & ~one).bit_count() <= 1 for p in self.ittsu):
            han += 2  # ittsu
        return han


def yakuman_bound(hand: Counts, shape: Shape | None = None) -> int:
    """How many yakuman ``hand`` plus one winning tile could possibly hold (R20)."""
    shape = shape or Shape.of(hand)
    one, two, three = shape.one, shape.two, shape.three
    found = 0
    if not one & ~_TH_MASK and one.bit_count() >= 12:
        found += 1  # kokushi
    if three.bit_count() >= 4:
        found += 1  # suuankou (won by ron only as a tanki: the four triplets are held)
    if one & DRAGON_MASK and shape.held(DRAGON_MASK) >= 8:
        found += 1  # daisangen
    if one & _WIND_MASK and shape.held(_WIND_MASK) >= 10:
        found += 2  # shousuushii or daisuushii
    if not one & ~_HONOR_MASK:
        found += 1  # tsuuiisou
    if not one & ~_GREEN_MASK:
        found += 1  # ryuuiisou
    if not one & ~_TERMINAL_MASK:
        found += 1  # chinroutou
    for suit, mask in enumerate(_SUIT_MASKS):
        if not one & ~mask and (two & three & mask & _TERMINAL_MASK).bit_count() >= 1:
            base = suit * 9
            short = sum(max(0, (3 if i in (0, 8) else 1) - hand[base + i]) for i in range(9))
            if short <= 1:
                found += 1  # chuuren
    return found


def win_bound(hand: Counts, waits: Iterable[int], yakuhai_mask: int  # noqa: C901
              ) -> tuple[int, int, int, int]:
    """The bounds of :func:`yakuman_bound` and :class:`HanBound` for ``hand`` and any one of
    ``waits`` (``yakuhai_mask``: the dragons and the seat's wind), with the masks of the kinds
    held at least once and three times: ``(yakuman, 0, one, three)`` when a yakuman is
    possible, else ``(0, han, one, three)``.

    The same numbers as those give, from per-suit features looked up by each suit's counts
    (:func:`suit_features`) instead of walking the 34 kinds and the patterns for every hand:
    this is the strong hand search's inner loop (thousands of hands a deal).
    """
    features = SUIT_FEATURES
    key = hand[0:9]
    man = features[0].get(key) or suit_features(key, 0)
    key = hand[9:18]
    pin = features[1].get(key) or suit_features(key, 1)
    key = hand[18:27]
    sou = features[2].get(key) or suit_features(key, 2)
    key = hand[27:34]
    honors = features[3].get(key) or suit_features(key, 3)
    one = man[0] | pin[0] | sou[0] | honors[0]
    two = man[1] | pin[1] | sou[1] | honors[1]
    three = man[2] | pin[2] | sou[2] | honors[2]
    dragons = ((one & DRAGON_MASK).bit_count() + (two & DRAGON_MASK).bit_count()
               + (three & DRAGON_MASK).bit_count()) if one & DRAGON_MASK else 0
    triplets = three.bit_count()
    # yakuman_bound
    yakuman = 0
    if not one & ~_TH_MASK and one.bit_count() >= 12:
        yakuman += 1  # kokushi
    if triplets >= 4:
        yakuman += 1  # suuankou
    if dragons >= 8:
        yakuman += 1  # daisangen
    if one & _WIND_MASK and ((one & _WIND_MASK).bit_count() + (two & _WIND_MASK).bit_count()
                             + (three & _WIND_MASK).bit_count()) >= 10:
        yakuman += 2  # shousuushii or daisuushii
    if not one & ~_HONOR_MASK:
        yakuman += 1  # tsuuiisou
    if not one & ~_GREEN_MASK:
        yakuman += 1  # ryuuiisou
    if not one & ~_TERMINAL_MASK:
        yakuman += 1  # chinroutou
    if ((man[11] and not one & ~_SUIT_MASKS[0]) or (pin[11] and not one & ~_SUIT_MASKS[1])
            or (sou[11] and not one & ~_SUIT_MASKS[2])):
        yakuman += 1  # chuuren
    if yakuman:
        return yakuman, 0, one, three
    # HanBound
    wait_mask = 0
    for wait in waits:
        wait_mask |= 1 << wait
    pairs = two & ~three
    han = 0
    if not one & _TH_MASK and wait_mask & _SIMPLE_MASK:
        han += 1  # tanyao
    if not three & _HONOR_MASK:
        han += 1  # pinfu
    doubles = man[4] + pin[4] + sou[4]
    if doubles >= 2 or man[5] or pin[5] or sou[5]:
        han += 3  # ryanpeikou
    elif doubles:
        han += 1  # iipeikou
    if two_short_of_one(man[7], man[8], pin[7], pin[8], sou[7], sou[8]):
        han += 2  # sanshoku doujun
    if man[6] or pin[6] or sou[6]:
        han += 2  # ittsu
    han += (three & yakuhai_mask).bit_count() + (pairs & wait_mask & yakuhai_mask).bit_count()
    if not one & _MIDDLE_MASK:
        han += 3  # chanta or junchan
    if triplets + (1 if pairs & wait_mask else 0) >= 4:
        han += 2  # toitoi
    if triplets >= 3:
        han += 2  # sanankou
    if two_short_of_one(man[9], man[10], pin[9], pin[10], sou[9], sou[10]):
        han += 2  # sanshoku doukou
    if not one & ~_TH_MASK:
        han += 2  # honroutou
    if dragons >= 7:
        han += 2  # shousangen
    if pairs.bit_count() >= 6:
        han += 2  # chiitoitsu
    suits = ((1 if one & _SUIT_MASKS[0] else 0) + (1 if one & _SUIT_MASKS[1] else 0)
             + (1 if one & _SUIT_MASKS[2] else 0))
    if suits <= 1:
        han += 3 if one & _HONOR_MASK else 6  # honitsu or chinitsu
    return 0, han, one, three
