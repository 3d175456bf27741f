"""Differential test: our scorer against the reference ``mahjong`` package (2.1.0).

Thousands of seeded random tenpai hands of many shapes (:mod:`minefield.rules.random_hands`)
are analyzed by both. For every wait the two must agree on R14's verdict (mangan without ura),
and on the han, fu and points of the best reading both without ura (the basis of R14) and with
it (what is paid, R18).

The reference is configured as RULES.md plays: ron, riichi, ippatsu (R16) and houtei (R17) as
the discard gives them, kiriage on (R14), no double yakuman for special waits (R20), kazoe
capped at one yakuman (R21), no red fives (R1), the winner's seat wind as ``player_wind`` and no
round wind (R6, R19, R22), and non-dealer payment (R23), or East paid as the dealer under the
``match`` preset's ``dealer_bonus`` (R23, also through the analyzer's own request). There is no
exception: on every hand the two agree (R18 breaks a points tie for a real yakuman over kazoe,
as the reference does).
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from mahjong.agari import Agari
from mahjong.constants import EAST as REF_EAST
from mahjong.constants import WEST as REF_WEST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules

from minefield.analyzer import AnalyzeRequest, analyze_request
from minefield.rules.game import Seat
from minefield.rules.hand import Hand, waits
from minefield.rules.random_hands import SHAPES, ScoringCase, random_case
from minefield.rules.score import Score, WinContext, WinValue, score_counts
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import (
    EAST,
    NUM_KINDS,
    WEST,
    kind_from_str,
    kind_str,
    kinds_to_str,
)

SEED = 20240611
HANDS = 8000  # random hands compared with the reference, in BATCHES slices
BATCHES = 16
VARIANT_HANDS = 600  # hands also compared with dealer values and kiriage off
MANGAN = 8000  # non-dealer mangan (R23)
DEFAULT = RuleSettings()
BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_analyze.py"

# ---------------------------------------------------------------------------------------------
# The random hands (minefield.rules.random_hands)


@cache
def cases(seed: int = SEED, count: int = HANDS) -> tuple[ScoringCase, ...]:
    """The fixed, seeded set of hands the differential test runs on."""
    rng = random.Random(seed)
    return tuple(random_case(rng) for _ in range(count))


def batch(index: int) -> tuple[ScoringCase, ...]:
    """One of ``BATCHES`` equal slices of :func:`cases`."""
    size = -(-HANDS // BATCHES)
    return cases()[index * size:(index + 1) * size]


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


def compare(case: ScoringCase, settings: RuleSettings = DEFAULT, dealer: bool = False
            ) -> Iterator[str]:
    """Every disagreement between our engine and the reference on one hand, as messages."""
    ctx = case.context(dealer)
    ours_waits = waits(case.counts)
    theirs_waits = reference_waits(case.counts)
    if ours_waits != theirs_waits:
        yield (f"{case}: waits {kinds_to_str(ours_waits)}, reference "
               f"{kinds_to_str(theirs_waits)}")
    for win in ours_waits:
        value = score_counts(case.counts, win, ctx, settings)
        assert value is not None
        ours = our_verdict(value)
        theirs = reference_verdict(case.counts, win, ctx, settings)
        problems = []
        if ours.eligible != theirs.eligible:
            problems.append(f"eligible {ours.eligible} vs {theirs.eligible}")
        for what, mine, other in (("basis", ours.basis, theirs.basis),
                                  ("paid", ours.paid, theirs.paid)):
            if not mine.same_as(other):
                problems.append(f"{what} {mine} vs reference {other}")
        if problems:
            yield (f"{case}: ron on {kind_str(win)}: {'; '.join(problems)} "
                   f"(our yaku {value.paid.yaku})")


# ---------------------------------------------------------------------------------------------
# Tests


def test_cases_cover_every_shape_and_situation() -> None:
    """The random set really exercises what it claims to: every shape, seat and discard, and
    every kind of outcome the comparison should see."""
    all_cases = cases()
    assert len(all_cases) >= 2000
    shapes = Counter(c.shape for c in all_cases)
    assert set(shapes) == set(SHAPES) and min(shapes.values()) >= 50
    assert {(c.seat_wind, c.discard) for c in all_cases} == {
        (EAST, "first"), (EAST, "middle"), (EAST, "last"), (WEST, "first"), (WEST, "middle")}
    outcomes: Counter[str] = Counter()
    for case in all_cases:
        for win in waits(case.counts):
            value = score_counts(case.counts, win, case.context())
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
    assert not missing, f"never seen in the random hands: {missing}"


@pytest.mark.parametrize("index", range(BATCHES))
def test_random_hands_agree_with_reference(index: int) -> None:
    """Every wait of every random hand: same waits, R14 verdict, han, fu and points."""
    problems = [problem for case in batch(index) for problem in compare(case)]
    assert not problems, f"{len(problems)} disagreements:\n" + "\n".join(problems[:20])


def test_dealer_values_without_kiriage_agree_with_reference() -> None:
    """R23 dealer values (matches with ``dealer_bonus``) and R14 with kiriage off, on a slice."""
    settings = RuleSettings(kiriage=False)
    problems = [problem for case in cases()[:VARIANT_HANDS]
                for problem in compare(case, settings, dealer=True)]
    assert not problems, f"{len(problems)} disagreements:\n" + "\n".join(problems[:20])


def test_the_analyzer_under_match_rules_pays_east_as_dealer_like_the_reference() -> None:
    """R23 through ``minefield analyze --rules match``: the analyzer builds its own context
    from the request, and under ``dealer_bonus`` East is paid dealer values and West not; the
    reference is told who the dealer is from the seat alone (East under the ``match`` preset)."""
    match = RuleSettings.preset("match")
    problems = []
    dealers = 0
    for case in cases()[:VARIANT_HANDS]:
        dealer = case.seat_wind == EAST
        dealers += dealer
        request = AnalyzeRequest(hand=kinds_to_str(
            [kind for kind, count in enumerate(case.counts) for _ in range(count)]),
            seat=Seat.EAST if dealer else Seat.WEST, dora=kind_str(case.dora_indicator),
            ura=kind_str(case.ura_indicator), discard=case.discard, rules="match")
        reports = analyze_request(request).waits
        if [kind_from_str(r.tile) for r in reports] != list(reference_waits(case.counts)):
            problems.append(f"{case}: waits {[r.tile for r in reports]}")
            continue
        for report in reports:
            theirs = reference_verdict(case.counts, kind_from_str(report.tile),
                                       case.context(dealer=dealer), match)
            yakuman = any(y.name in _OUR_YAKUMAN for y in report.yaku)
            paid = Value(report.han, report.fu, report.points, yakuman)
            if (report.eligible, report.points_without_ura, report.han_without_ura) != (
                    theirs.eligible, theirs.basis.points, theirs.basis.han) or not (
                    paid.same_as(theirs.paid)):
                problems.append(f"{case}: ron on {report.tile}: ours {report.eligible} "
                                f"{report.han_without_ura} han {report.points_without_ura}, "
                                f"paid {paid}; reference {theirs}")
    assert dealers >= VARIANT_HANDS // 4  # East dealers and West non-dealers both compared
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

    def scoring_case(self) -> ScoringCase:
        """The hand and situation of this case, as the random ones are given."""
        return ScoringCase("pinned", Hand.parse(self.hand).counts, kind_from_str(self.seat),
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
    scoring = case.scoring_case()
    win = kind_from_str(case.win)
    value = score_counts(scoring.counts, win, scoring.context())
    assert value is not None, f"{case.win} is not a wait of {case.hand}"
    ours = our_verdict(value)

    def triple(v: Value) -> tuple[int, int, int]:
        return (v.han, 0 if v.yakuman else v.fu, v.points)

    assert (ours.eligible, triple(ours.basis), triple(ours.paid)) == (
        case.eligible, case.basis, case.paid), case.note
    assert waits(scoring.counts) == reference_waits(scoring.counts)
    theirs = reference_verdict(scoring.counts, win, scoring.context())
    assert ours.eligible == theirs.eligible, case.note
    for mine, other in ((ours.basis, theirs.basis), (ours.paid, theirs.paid)):
        assert mine.same_as(other), case.note


def test_r18_a_real_yakuman_beats_kazoe_on_a_points_tie() -> None:
    """R18: suuankou tanki and a kazoe reading of the same tiles both pay 32000 with ura; the
    winner is paid the real yakuman, as the reference (and players) do."""
    case = PINNED[-1]
    scoring = case.scoring_case()
    win = kind_from_str(case.win)
    value = score_counts(scoring.counts, win, scoring.context())
    assert value is not None
    assert value.paid.yakuman == 1 and value.paid.limit == "yakuman"
    assert [name for name, _ in value.paid.yaku] == ["suuankou"]
    assert value.paid.reading.wait == "tanki"
    theirs = reference_verdict(scoring.counts, win, scoring.context())
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


def _config_values(config: HandConfig) -> dict[str, object]:
    """What a ``HandConfig`` is set to, its options as plain values (its yaku list is the
    library's own and not configured)."""
    return {name: vars(value) if name == "options" else value
            for name, value in vars(config).items() if name != "yaku"}


def test_the_analysis_benchmark_configures_the_reference_as_checked_here(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """benchmarks/bench_analyze.py times the reference with its own copy of
    :func:`reference_config` (a script cannot import a test module): it must stay this one."""
    spec = importlib.util.spec_from_file_location("bench_analyze", BENCHMARK)
    assert spec is not None and spec.loader is not None
    benchmark = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, benchmark)  # its dataclasses look it up there
    spec.loader.exec_module(benchmark)
    for case in cases()[:20]:
        for settings in (DEFAULT, RuleSettings(kiriage=False, double_yakuman_waits=True)):
            for dealer in (False, True):
                ctx = case.context(dealer)
                assert _config_values(benchmark.reference_config(ctx, settings)) == (
                    _config_values(reference_config(ctx, settings)))
