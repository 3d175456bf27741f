"""Random tenpai hands with the situation of a ron, for tests and benchmarks of the scorer.

Each :class:`ScoringCase` is a 13-tile tenpai hand of one of many shapes (ordinary, one suit,
honor-heavy, triplets, seven pairs, kokushi, the patterns of rarer yaku, yakuman), a seat wind,
a discard position (for ippatsu, R16, and houtei, R17) and the dora and ura indicators, half
the time chosen so that the hand holds dora. The differential test compares the scorer with a
reference library on thousands of them and the analysis benchmark times both on them.

Randomness comes only from the generator passed in: the same seed gives the same cases.

>>> import random
>>> from minefield.rules.hand import waits
>>> case = random_case(random.Random(7))
>>> len(waits(case.counts)) > 0 and sum(case.counts) == 13
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from minefield.rules.hand import waits
from minefield.rules.score import WinContext
from minefield.rules.tiles import (
    EAST,
    NUM_KINDS,
    TERMINALS_AND_HONORS,
    WEST,
    dora_from_indicator,
    kind_str,
    kinds_to_str,
)


@dataclass(frozen=True)
class ScoringCase:
    """A tenpai 13-tile hand and the situation of a ron on it: what a scorer is given.

    ``shape`` names how the hand was made (a key of :data:`SHAPES`, or any label).
    """

    shape: str
    counts: tuple[int, ...]
    seat_wind: int
    discard: str  # "first" (ippatsu, R16), "middle" or "last" (houtei, R17, East only)
    dora_indicator: int
    ura_indicator: int

    def context(self, dealer: bool = False) -> WinContext:
        """The engine's context of the ron (``dealer``: paid dealer values, R23)."""
        return WinContext(seat_wind=self.seat_wind, ippatsu=self.discard == "first",
                          houtei=self.discard == "last", dora_indicator=self.dora_indicator,
                          ura_indicator=self.ura_indicator, dealer=dealer)

    def __str__(self) -> str:
        hand = kinds_to_str(_kinds_of(self.counts))
        return (f"{hand} [{self.shape}] seat {kind_str(self.seat_wind)}"
                f" discard {self.discard} dora ind {kind_str(self.dora_indicator)}"
                f" ura ind {kind_str(self.ura_indicator)}")


def _kinds_of(counts: Sequence[int]) -> list[int]:
    """The kinds of a count vector, one per tile."""
    return [kind for kind, count in enumerate(counts) for _ in range(count)]


class _Builder:
    """A 14-tile hand under construction, as counts."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.counts = [0] * NUM_KINDS

    def run(self, start: int) -> None:
        for kind in range(start, start + 3):
            self.counts[kind] += 1

    def triplet(self, kind: int) -> None:
        self.counts[kind] += 3

    def pair(self, kind: int) -> None:
        self.counts[kind] += 2

    def any_run(self, suit: int | None = None) -> None:
        suit = self.rng.randrange(3) if suit is None else suit
        self.run(suit * 9 + self.rng.randrange(7))

    def any_group(self, suit: int | None = None, runs: float = 0.75) -> None:
        if self.rng.random() < runs:
            self.any_run(suit)
        elif suit is None:
            self.triplet(self.rng.randrange(NUM_KINDS))
        else:
            self.triplet(suit * 9 + self.rng.randrange(9))


def _ordinary(b: _Builder) -> None:
    for _ in range(4):
        b.any_group()
    b.pair(b.rng.randrange(NUM_KINDS))


def _one_suit(b: _Builder) -> None:
    suit = b.rng.randrange(3)
    for _ in range(4):
        b.any_group(suit, runs=0.65)
    b.pair(suit * 9 + b.rng.randrange(9))


def _honor_heavy(b: _Builder) -> None:
    suit = b.rng.randrange(3)
    for _ in range(4):
        roll = b.rng.random()
        if roll < 0.5:
            b.triplet(27 + b.rng.randrange(7))
        else:
            b.any_group(suit if roll < 0.85 else None, runs=0.7)
    b.pair(27 + b.rng.randrange(7) if b.rng.random() < 0.6 else b.rng.randrange(NUM_KINDS))


def _triplets(b: _Builder) -> None:
    for _ in range(4):
        b.triplet(b.rng.randrange(NUM_KINDS))
    b.pair(b.rng.randrange(NUM_KINDS))


def _seven_pairs(b: _Builder) -> None:
    if b.rng.random() < 0.6:
        pool = list(range(NUM_KINDS))
    else:  # half-flush or full-flush pairs
        suit = b.rng.randrange(3)
        pool = [suit * 9 + i for i in range(9)] + ([] if b.rng.random() < 0.3 else
                                                   list(range(27, 34)))
    for kind in b.rng.sample(pool, 7):
        b.pair(kind)


def _kokushi(b: _Builder) -> None:
    for kind in TERMINALS_AND_HONORS:
        b.counts[kind] += 1
    b.counts[b.rng.choice(TERMINALS_AND_HONORS)] += 1


def _patterned(b: _Builder) -> None:
    """Shapes random groups rarely make: sanshoku, ittsu, peikou, outside hands, shousangen."""
    rng = b.rng
    pattern = rng.choice(("sanshoku", "ittsu", "ryanpeikou", "junchan", "chanta", "doukou",
                          "shousangen"))
    suit = rng.randrange(3)
    if pattern == "sanshoku":
        start = rng.randrange(7)
        for s in range(3):
            b.run(s * 9 + start)
        b.any_group()
    elif pattern == "ittsu":
        for start in (0, 3, 6):
            b.run(suit * 9 + start)
        b.any_group()
    elif pattern == "ryanpeikou":
        for start in (rng.randrange(27) for _ in range(2)):
            run = start - start % 9 + min(start % 9, 6)
            b.run(run)
            b.run(run)
    elif pattern in ("junchan", "chanta"):
        outside = [0, 8, 9, 17, 18, 26] + ([27, 28, 29, 30, 31, 32, 33] if pattern == "chanta"
                                           else [])
        for _ in range(4):
            if rng.random() < 0.6:
                b.run(rng.randrange(3) * 9 + rng.choice((0, 6)))
            else:
                b.triplet(rng.choice(outside))
        b.pair(rng.choice(outside))
        return
    elif pattern == "doukou":
        number = rng.randrange(9)
        for s in range(3):
            b.triplet(s * 9 + number)
        b.any_group()
    else:
        dragons = [31, 32, 33]
        rng.shuffle(dragons)
        b.triplet(dragons[0])
        b.triplet(dragons[1])
        b.any_group()
        b.any_group(suit)
        b.pair(dragons[2])
        return
    b.pair(rng.randrange(NUM_KINDS))


def _daisangen(b: _Builder) -> None:
    for dragon in (31, 32, 33):
        b.triplet(dragon)
    b.any_group(runs=0.5)
    b.pair(b.rng.randrange(NUM_KINDS))


def _winds(b: _Builder, big: bool) -> None:
    """Shousuushii, or daisuushii when ``big``."""
    winds = [27, 28, 29, 30]
    b.rng.shuffle(winds)
    for wind in winds[:3]:
        b.triplet(wind)
    if big:
        b.triplet(winds[3])
        b.pair(b.rng.randrange(NUM_KINDS))
    else:
        b.pair(winds[3])
        b.any_group(runs=0.5)


def _tsuuiisou(b: _Builder) -> None:
    honors = b.rng.sample(range(27, 34), 5)
    for honor in honors[:4]:
        b.triplet(honor)
    b.pair(honors[4])


def _ryuuiisou(b: _Builder) -> None:
    green = [19, 20, 21, 23, 25, 32]
    for _ in range(4):
        if b.rng.random() < 0.4:
            b.run(19)
        else:
            b.triplet(b.rng.choice(green))
    b.pair(b.rng.choice(green))


def _chinroutou(b: _Builder) -> None:
    terminals = b.rng.sample([0, 8, 9, 17, 18, 26], 5)
    for terminal in terminals[:4]:
        b.triplet(terminal)
    b.pair(terminals[4])


def _chuuren(b: _Builder) -> None:
    base = b.rng.randrange(3) * 9
    for offset, count in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)):
        b.counts[base + offset] += count
    b.counts[base + b.rng.randrange(9)] += 1


def _suuankou(b: _Builder) -> None:
    kinds = b.rng.sample(range(NUM_KINDS), 5)
    for triplet in kinds[:4]:
        b.triplet(triplet)
    b.pair(kinds[4])


#: Each yakuman's hand builder, in the order the draw chooses from.
_YAKUMAN: dict[str, Callable[[_Builder], None]] = {
    "daisangen": _daisangen,
    "shousuushii": lambda b: _winds(b, big=False),
    "daisuushii": lambda b: _winds(b, big=True),
    "tsuuiisou": _tsuuiisou,
    "ryuuiisou": _ryuuiisou,
    "chinroutou": _chinroutou,
    "chuuren": _chuuren,
    "suuankou": _suuankou,
}


def _yakuman(b: _Builder) -> None:
    _YAKUMAN[b.rng.choice(tuple(_YAKUMAN))](b)


SHAPES = {
    "ordinary": (_ordinary, 30),
    "one-suit": (_one_suit, 14),
    "honor-heavy": (_honor_heavy, 12),
    "triplets": (_triplets, 8),
    "seven-pairs": (_seven_pairs, 10),
    "kokushi": (_kokushi, 4),
    "patterned": (_patterned, 12),
    "yakuman": (_yakuman, 10),
}
"""Each shape of hand: how to build a complete 14-tile one, and its weight in
:func:`random_case`."""


def random_tenpai(rng: random.Random, shape: str) -> tuple[int, ...]:
    """A tenpai 13-tile hand of ``shape``: a complete 14-tile hand with one tile taken out."""
    build = SHAPES[shape][0]
    while True:
        builder = _Builder(rng)
        build(builder)
        counts = builder.counts
        if sum(counts) != 14 or max(counts) > 4:
            continue  # more than four copies of a kind (R1): try again
        counts[rng.choice([k for k in range(NUM_KINDS) if counts[k]])] -= 1
        if waits(counts):  # an only-dead wait (R12) is not tenpai
            return tuple(counts)


def _indicator(rng: random.Random, counts: Sequence[int]) -> int:
    """Half the time an indicator whose dora is in the hand, so that dora matter often."""
    if rng.random() < 0.5:
        target = rng.choice([k for k in range(NUM_KINDS) if counts[k]])
        return next(k for k in range(NUM_KINDS) if dora_from_indicator(k) == target)
    return rng.randrange(NUM_KINDS)


def random_case(rng: random.Random) -> ScoringCase:
    """A random tenpai hand of a random shape (weighted as :data:`SHAPES` says), seat, discard
    position and indicators."""
    names = list(SHAPES)
    shape = rng.choices(names, weights=[SHAPES[n][1] for n in names])[0]
    counts = random_tenpai(rng, shape)
    seat = rng.choice((EAST, WEST))
    discard = rng.choice(("first", "middle", "middle", "last") if seat == EAST else
                         ("first", "middle", "middle"))  # R17: only East can win on discard 34
    return ScoringCase(shape, counts, seat, discard, _indicator(rng, counts),
                       _indicator(rng, counts))
