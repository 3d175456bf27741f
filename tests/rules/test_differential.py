"""Differential test: our scorer against the reference ``mahjong`` package (2.1.0).

Thousands of seeded random tenpai hands of many shapes are analyzed by both. For every wait
the two must agree on R14's verdict (mangan without ura), and on the han, fu and points of the
best reading both without ura (the basis of R14) and with it (what is paid, R18).

The reference is configured as RULES.md plays: ron, riichi, ippatsu (R16) and houtei (R17) as
the discard gives them, kiriage on (R14), no double yakuman for special waits (R20), kazoe
capped at one yakuman (R21), no red fives (R1), the winner's seat wind as ``player_wind`` and no
round wind (R6, R19, R22), and non-dealer payment (R23). There is no exception: on every hand
the two agree (R18 breaks a points tie for a real yakuman over kazoe, as the reference does).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache

import pytest
from mahjong.agari import Agari
from mahjong.constants import EAST as REF_EAST
from mahjong.constants import WEST as REF_WEST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules

from minefield.rules.hand import Hand, waits
from minefield.rules.score import Score, WinContext, WinValue, score_counts
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import (
    EAST,
    NUM_KINDS,
    TERMINALS_AND_HONORS,
    WEST,
    dora_from_indicator,
    kind_from_str,
    kind_str,
    kinds_to_str,
)

SEED = 20240611
HANDS = 8000  # random deals compared with the reference, in BATCHES slices
BATCHES = 16
VARIANT_HANDS = 600  # deals also compared with dealer values and kiriage off
MANGAN = 8000  # non-dealer mangan (R23)
DEFAULT = RuleSettings()

# ---------------------------------------------------------------------------------------------
# Random tenpai hands


@dataclass(frozen=True)
class Deal:
    """One random hand and the situation of the ron: what both scorers are given."""

    shape: str
    counts: tuple[int, ...]
    seat_wind: int
    discard: str  # "first" (ippatsu, R16), "middle" or "last" (houtei, R17, East only)
    dora_indicator: int
    ura_indicator: int

    def context(self, dealer: bool = False) -> WinContext:
        """Our engine's view of the ron (``dealer``: paid dealer values, R23)."""
        return WinContext(seat_wind=self.seat_wind, ippatsu=self.discard == "first",
                          houtei=self.discard == "last", dora_indicator=self.dora_indicator,
                          ura_indicator=self.ura_indicator, dealer=dealer)

    def __str__(self) -> str:
        hand = kinds_to_str(expand(self.counts))
        return (f"{hand} [{self.shape}] seat {kind_str(self.seat_wind)}"
                f" discard {self.discard} dora ind {kind_str(self.dora_indicator)}"
                f" ura ind {kind_str(self.ura_indicator)}")


def expand(counts: Sequence[int]) -> list[int]:
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


def _yakuman(b: _Builder) -> None:
    rng = b.rng
    kind = rng.choice(("daisangen", "shousuushii", "daisuushii", "tsuuiisou", "ryuuiisou",
                       "chinroutou", "chuuren", "suuankou"))
    if kind == "daisangen":
        for dragon in (31, 32, 33):
            b.triplet(dragon)
        b.any_group(runs=0.5)
        b.pair(rng.randrange(NUM_KINDS))
    elif kind in ("shousuushii", "daisuushii"):
        winds = [27, 28, 29, 30]
        rng.shuffle(winds)
        for wind in winds[:3]:
            b.triplet(wind)
        if kind == "daisuushii":
            b.triplet(winds[3])
            b.pair(rng.randrange(NUM_KINDS))
        else:
            b.pair(winds[3])
            b.any_group(runs=0.5)
    elif kind == "tsuuiisou":
        honors = rng.sample(range(27, 34), 5)
        for honor in honors[:4]:
            b.triplet(honor)
        b.pair(honors[4])
    elif kind == "ryuuiisou":
        green = [19, 20, 21, 23, 25, 32]
        for _ in range(4):
            if rng.random() < 0.4:
                b.run(19)
            else:
                b.triplet(rng.choice(green))
        b.pair(rng.choice(green))
    elif kind == "chinroutou":
        terminals = rng.sample([0, 8, 9, 17, 18, 26], 5)
        for terminal in terminals[:4]:
            b.triplet(terminal)
        b.pair(terminals[4])
    elif kind == "chuuren":
        base = rng.randrange(3) * 9
        for offset, count in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)):
            b.counts[base + offset] += count
        b.counts[base + rng.randrange(9)] += 1
    else:
        kinds = rng.sample(range(NUM_KINDS), 5)
        for triplet in kinds[:4]:
            b.triplet(triplet)
        b.pair(kinds[4])


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


def random_deal(rng: random.Random) -> Deal:
    """A random tenpai hand of a random shape, seat, discard position and indicators."""
    names = list(SHAPES)
    shape = rng.choices(names, weights=[SHAPES[n][1] for n in names])[0]
    counts = random_tenpai(rng, shape)
    seat = rng.choice((EAST, WEST))
    discard = rng.choice(("first", "middle", "middle", "last") if seat == EAST else
                         ("first", "middle", "middle"))  # R17: only East can win on discard 34
    return Deal(shape, counts, seat, discard, _indicator(rng, counts), _indicator(rng, counts))


@cache
def deals(seed: int = SEED, count: int = HANDS) -> tuple[Deal, ...]:
    """The fixed, seeded set of deals the differential test runs on."""
    rng = random.Random(seed)
    return tuple(random_deal(rng) for _ in range(count))


def batch(index: int) -> tuple[Deal, ...]:
    """One of ``BATCHES`` equal slices of :func:`deals`."""
    size = -(-HANDS // BATCHES)
    return deals()[index * size:(index + 1) * size]


# ---------------------------------------------------------------------------------------------
# Both scorers, in one shape


@dataclass(frozen=True)
class Value:
    """One scored reading: han, fu, points, and whether it is a real yakuman (R20, not kazoe)."""

    han: int
    fu: int
    points: int
    yakuman: bool

    def same_as(self, other: Value) -> bool:
        """Equal han, fu and points; a yakuman's fu mean nothing (R20 drops all else), so
        two yakuman compare on han and points only."""
        if self.yakuman and other.yakuman:
            return (self.han, self.points) == (other.han, other.points)
        return self == other


@dataclass(frozen=True)
class Verdict:
    """What one scorer says a ron is worth: R14's verdict, the basis of it, what is paid."""

    eligible: bool
    basis: Value  # best reading without ura (R14)
    paid: Value  # best reading with ura (R18)


_OUR_YAKUMAN = frozenset(("kokushi", "suuankou", "daisangen", "shousuushii", "daisuushii",
                          "tsuuiisou", "ryuuiisou", "chinroutou", "chuuren"))


def our_value(score: Score) -> Value:
    """Our engine's reading in the common shape."""
    real_yakuman = any(name in _OUR_YAKUMAN for name, _ in score.yaku)
    return Value(score.han, score.fu, score.points, real_yakuman)


def our_verdict(value: WinValue) -> Verdict:
    """Our engine's answer in the common shape."""
    return Verdict(value.eligible, our_value(value.basis), our_value(value.paid))


def reference_config(ctx: WinContext, settings: RuleSettings) -> HandConfig:
    """The reference configured as RULES.md plays a Minefield ron."""
    options = OptionalRules(has_double_yakuman=settings.double_yakuman_waits,
                            kazoe_limit=HandConstants.KAZOE_LIMITED, kiriage=settings.kiriage,
                            has_aka_dora=False)
    config = HandConfig(is_riichi=True, is_ippatsu=ctx.ippatsu, is_houtei=ctx.houtei,
                        player_wind=REF_EAST if ctx.seat_wind == EAST else REF_WEST,
                        round_wind=None, options=options)
    # R23: both seats are paid as non-dealers unless dealer values are asked for (matches);
    # the library would make East the dealer.
    config.is_dealer = ctx.dealer
    return config


def reference_verdict(counts13: Sequence[int], win: int, ctx: WinContext,
                      settings: RuleSettings = DEFAULT) -> Verdict:
    """Score a ron with the ``mahjong`` package, once with the dora indicator only (R14), once
    with the dora and ura indicators (R18)."""
    tiles = [kind * 4 + copy for kind, count in enumerate(counts13) for copy in range(count)]
    win_tile = win * 4 + counts13[win]
    tiles.append(win_tile)
    tiles.sort()
    assert ctx.dora_indicator is not None and ctx.ura_indicator is not None
    values = []
    for indicators in ([ctx.dora_indicator], [ctx.dora_indicator, ctx.ura_indicator]):
        response = HandCalculator.estimate_hand_value(
            tiles, win_tile, dora_indicators=[kind * 4 for kind in indicators],
            config=reference_config(ctx, settings))
        assert response.error is None, f"reference: {response.error}"
        assert response.cost is not None and response.han is not None and response.fu is not None
        values.append(Value(response.han, response.fu, response.cost["main"],
                            any(yaku.is_yakuman for yaku in response.yaku or ())))
    basis, paid = values
    mangan = MANGAN * 3 // 2 if ctx.dealer else MANGAN
    return Verdict(basis.points >= mangan, basis, paid)


def reference_waits(counts13: Sequence[int]) -> tuple[int, ...]:
    """The reference's waits: kinds whose addition its agari check accepts, dead ones (R12:
    all four copies already held) left out, since the library knows nothing of them."""
    found = []
    work = list(counts13)
    for kind in range(NUM_KINDS):
        if work[kind] == 4:
            continue
        work[kind] += 1
        if Agari.is_agari(work):
            found.append(kind)
        work[kind] -= 1
    return tuple(found)


def compare(deal: Deal, settings: RuleSettings = DEFAULT, dealer: bool = False
            ) -> Iterator[str]:
    """Every disagreement between our engine and the reference on one deal, as messages."""
    ctx = deal.context(dealer)
    ours_waits = waits(deal.counts)
    theirs_waits = reference_waits(deal.counts)
    if ours_waits != theirs_waits:
        yield (f"{deal}: waits {kinds_to_str(ours_waits)}, reference "
               f"{kinds_to_str(theirs_waits)}")
    for win in ours_waits:
        value = score_counts(deal.counts, win, ctx, settings)
        assert value is not None
        ours = our_verdict(value)
        theirs = reference_verdict(deal.counts, win, ctx, settings)
        problems = []
        if ours.eligible != theirs.eligible:
            problems.append(f"eligible {ours.eligible} vs {theirs.eligible}")
        for what, mine, other in (("basis", ours.basis, theirs.basis),
                                  ("paid", ours.paid, theirs.paid)):
            if not mine.same_as(other):
                problems.append(f"{what} {mine} vs reference {other}")
        if problems:
            yield (f"{deal}: ron on {kind_str(win)}: {'; '.join(problems)} "
                   f"(our yaku {value.paid.yaku})")


# ---------------------------------------------------------------------------------------------
# Tests


def test_deals_cover_every_shape_and_situation() -> None:
    """The random set really exercises what it claims to: every shape, seat and discard, and
    every kind of outcome the comparison should see."""
    all_deals = deals()
    assert len(all_deals) >= 2000
    shapes = Counter(d.shape for d in all_deals)
    assert set(shapes) == set(SHAPES) and min(shapes.values()) >= 50
    assert {(d.seat_wind, d.discard) for d in all_deals} == {
        (EAST, "first"), (EAST, "middle"), (EAST, "last"), (WEST, "first"), (WEST, "middle")}
    outcomes: Counter[str] = Counter()
    for deal in all_deals:
        for win in waits(deal.counts):
            value = score_counts(deal.counts, win, deal.context())
            assert value is not None
            basis, paid = value.basis, value.paid
            outcomes["eligible" if value.eligible else "not eligible"] += 1
            outcomes[f"limit {paid.limit}"] += 1
            outcomes[f"form {paid.reading.form}"] += 1
            outcomes[f"wait {paid.wait}"] += 1
            outcomes.update(name for name, _ in paid.yaku)
            if (basis.han, basis.fu) in ((4, 30), (3, 60)):
                outcomes["kiriage"] += 1
            if (basis.han, basis.fu) == (4, 25):
                outcomes["4 han 25 fu"] += 1
            if not value.eligible and paid.points >= MANGAN:
                outcomes["ura lifts a non-eligible wait"] += 1
    wanted = ["eligible", "not eligible", "kiriage", "4 han 25 fu",
              "ura lifts a non-eligible wait", "form chiitoitsu", "form kokushi"]
    wanted += [f"limit {name}" for name in ("None", "mangan", "haneman", "baiman", "sanbaiman",
                                            "yakuman", "kazoe yakuman", "double yakuman")]
    wanted += [f"wait {name}" for name in ("ryanmen", "kanchan", "penchan", "shanpon", "tanki")]
    wanted += ["ippatsu", "houtei", "tanyao", "pinfu", "iipeikou", "ryanpeikou", "seat_wind",
               "haku", "hatsu", "chun", "sanshoku_doujun", "ittsu", "chanta", "junchan",
               "chiitoitsu", "toitoi", "sanankou", "sanshoku_doukou", "honroutou", "shousangen",
               "honitsu", "chinitsu"]
    wanted += sorted(_OUR_YAKUMAN)
    missing = [outcome for outcome in wanted if not outcomes[outcome]]
    assert not missing, f"never seen in the random deals: {missing}"


@pytest.mark.parametrize("index", range(BATCHES))
def test_random_hands_agree_with_reference(index: int) -> None:
    """Every wait of every random deal: same waits, R14 verdict, han, fu and points."""
    problems = [problem for deal in batch(index) for problem in compare(deal)]
    assert not problems, f"{len(problems)} disagreements:\n" + "\n".join(problems[:20])


def test_dealer_values_without_kiriage_agree_with_reference() -> None:
    """R23 dealer values (matches with ``dealer_bonus``) and R14 with kiriage off, on a slice."""
    settings = RuleSettings(kiriage=False)
    problems = [problem for deal in deals()[:VARIANT_HANDS]
                for problem in compare(deal, settings, dealer=True)]
    assert not problems, f"{len(problems)} disagreements:\n" + "\n".join(problems[:20])


@dataclass(frozen=True)
class Pinned:
    """A hand-written case with our expected values (han, fu, points; fu 0 for a yakuman)."""

    hand: str
    win: str
    eligible: bool
    basis: tuple[int, int, int]
    paid: tuple[int, int, int]
    note: str
    seat: str = "1z"
    discard: str = "middle"
    dora: str = "7z"  # red dragon indicator: dora white dragon, absent unless wanted
    ura: str = "7z"

    def deal(self) -> Deal:
        return Deal("pinned", Hand.parse(self.hand).counts, kind_from_str(self.seat),
                    self.discard, kind_from_str(self.dora), kind_from_str(self.ura))


PINNED = [
    Pinned("23m456m345p678s55s", "4m", True, (4, 30, 8000), (4, 30, 8000), dora="2m",
           note="R14 kiriage: riichi tanyao pinfu and one dora are 4 han 30 fu, a mangan"),
    Pinned("23m456m345p678s55s", "1m", False, (3, 30, 3900), (3, 30, 3900), dora="2m",
           note="the same hand on 1m has no tanyao: 3 han 30 fu, below mangan"),
    Pinned("111m999p111s57p22z", "6p", True, (3, 60, 8000), (3, 60, 8000),
           note="R14 kiriage and R22: riichi sanankou, 30 + 3x8 + 2 kanchan = 56, so 60 fu"),
    Pinned("1133m5577p2299s6z", "6z", False, (4, 25, 6400), (6, 25, 12000), discard="first",
           ura="8s", note="R14: 4 han 25 fu is no mangan; R18: ura still pays a haneman"),
    Pinned("234m567p234s8s222z", "8s", False, (1, 40, 1300), (1, 40, 1300),
           note="R19: a South triplet is never yakuhai; R22: 30 + 8 + 2 tanki = 40"),
    Pinned("234m567p234s8s333z", "8s", False, (2, 40, 2600), (2, 40, 2600), seat="3z",
           note="R19: a West triplet is yakuhai for West"),
    Pinned("234m567p234s8s333z", "8s", False, (1, 40, 1300), (1, 40, 1300),
           note="R6, R19: a West triplet is not yakuhai for East (there is no round wind)"),
    Pinned("234m567p23456s22z", "4s", False, (3, 30, 3900), (3, 30, 3900), discard="first",
           note="R22: a South pair gives no fu and allows pinfu"),
    Pinned("234m567p23456s33z", "4s", False, (2, 40, 2600), (2, 40, 2600), seat="3z",
           discard="first", note="R22: the own seat wind pair is 2 fu and rules out pinfu"),
    Pinned("234m567p23456s33z", "4s", False, (3, 30, 3900), (3, 30, 3900), discard="first",
           note="R22: a West pair is no yakuhai pair for East, pinfu stands"),
    Pinned("111m999m55p234s77z", "7z", False, (2, 50, 3200), (2, 50, 3200),
           note="R20, R22: the ron completes 777z, an open triplet (4 fu): no sanankou"),
    Pinned("2344m456p789s567s", "4m", False, (2, 30, 2000), (2, 30, 2000),
           note="R22: 4m is a tanki (40 fu) or a ryanmen with pinfu (30 fu): best is paid"),
    Pinned("1122335577889m", "9m", True, (13, 30, 32000), (13, 30, 32000), dora="4m",
           note="R19: ryanpeikou pinfu chinitsu beats chiitoitsu; R21 kazoe with 2 dora"),
    Pinned("223344m556677p8s", "8s", True, (7, 40, 12000), (7, 40, 12000), dora="7s",
           note="R18: ryanpeikou (7 han 40 fu) and chiitoitsu (6 han) tie at 12000: more han"),
    Pinned("234m345p56777s99p", "9p", True, (5, 40, 8000), (5, 40, 8000), discard="last",
           dora="8p", note="R17: houtei for East; R24: the dora winning tile counts"),
    Pinned("19m19p19s1234567z", "1m", True, (13, 0, 32000), (13, 0, 32000),
           note="R20: the 13-sided kokushi is a single yakuman"),
    Pinned("1112345678999p", "5p", True, (13, 0, 32000), (13, 0, 32000),
           note="R20: the nine-sided chuuren is a single yakuman"),
    Pinned("111222333444z5z", "5z", True, (39, 0, 96000), (39, 0, 96000),
           note="R20: suuankou tanki, daisuushii and tsuuiisou add up to three yakuman"),
    Pinned("2223334445666s", "5s", True, (13, 0, 32000), (13, 0, 32000), dora="5s", ura="4s",
           note="R18: suuankou tanki (13) ties 234s x3 666s 55s kazoe (9 + 3 dora + 2 ura "
                "= 14 han) at 32000; the real yakuman wins the tie"),
]


@pytest.mark.parametrize("case", PINNED, ids=[f"{p.hand}+{p.win}" for p in PINNED])
def test_pinned_hands(case: Pinned) -> None:
    """Hand-written tricky cases: our values as RULES.md gives them, and the reference's."""
    deal = case.deal()
    win = kind_from_str(case.win)
    value = score_counts(deal.counts, win, deal.context())
    assert value is not None, f"{case.win} is not a wait of {case.hand}"
    ours = our_verdict(value)

    def triple(v: Value) -> tuple[int, int, int]:
        return (v.han, 0 if v.yakuman else v.fu, v.points)

    assert (ours.eligible, triple(ours.basis), triple(ours.paid)) == (
        case.eligible, case.basis, case.paid), case.note
    assert waits(deal.counts) == reference_waits(deal.counts)
    theirs = reference_verdict(deal.counts, win, deal.context())
    assert ours.eligible == theirs.eligible, case.note
    for mine, other in ((ours.basis, theirs.basis), (ours.paid, theirs.paid)):
        assert mine.same_as(other), case.note


def test_r18_a_real_yakuman_beats_kazoe_on_a_points_tie() -> None:
    """R18: suuankou tanki and a kazoe reading of the same tiles both pay 32000 with ura; the
    winner is paid the real yakuman, as the reference (and players) do."""
    case = PINNED[-1]
    deal = case.deal()
    win = kind_from_str(case.win)
    value = score_counts(deal.counts, win, deal.context())
    assert value is not None
    assert value.paid.yakuman == 1 and value.paid.limit == "yakuman"
    assert [name for name, _ in value.paid.yaku] == ["suuankou"]
    assert value.paid.reading.wait == "tanki"
    theirs = reference_verdict(deal.counts, win, deal.context())
    assert our_value(value.paid).same_as(theirs.paid)


def test_dead_wait_is_no_wait() -> None:
    """R12: 1111m456p789s555z could only be completed by a fifth 1m, so it is not tenpai;
    the library's agari check alone would accept that impossible tile."""
    counts = Hand.parse("1111m456p789s555z").counts
    assert waits(counts) == ()
    assert reference_waits(counts) == ()
    fifth = list(counts)
    fifth[0] += 1
    assert Agari.is_agari(fifth)
