"""Hand choice by expected value (R7, R10, R12, R14, R15, R18, R24)."""

from __future__ import annotations

import random

import pytest

from minefield.bots.bounds import HanBound, Shape, yakuman_bound
from minefield.bots.hands import DEFAULT_MODEL as MODEL
from minefield.bots.hands import (
    DealtTiles,
    _Evaluator,
    _limit_points,
    choose_best,
    choose_most_live,
    choose_random,
)
from minefield.bots.search import tenpai_hands
from minefield.rules.game import Seat
from minefield.rules.score import WinContext, score_counts
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import FIVES, Tile, TileError, kind_from_str, parse_tiles
from minefield.rules.wall import Deal, tile_from_id
from tests.bots.conftest import counts, deal34, is_sub_multiset
from tests.bots.test_search import NO_TENPAI


def _deal(seed: int, seat: Seat = Seat.EAST) -> DealtTiles:
    wall = Deal.from_seed(seed)
    ids = wall.east_tiles if seat is Seat.EAST else wall.west_tiles
    return DealtTiles.from_tiles([tile_from_id(i, False) for i in ids],
                             wall.dora_indicator_id // 4, seat)


@pytest.mark.parametrize("seed", range(4))
def test_every_level_keeps_a_tenpai_sub_hand(seed: int) -> None:
    """R7: 13 of the 34 tiles, tenpai (R12) whenever a tenpai sub-hand exists."""
    deal = _deal(seed)
    assert tenpai_hands(deal.counts)
    for choice in (choose_best(deal), choose_most_live(deal),
                   choose_random(deal, random.Random(seed))):
        assert choice.tenpai and choice.candidates > 0
        assert sum(choice.hand) == 13 and is_sub_multiset(choice.hand, deal.counts)
        assert choice.waits and set(choice.waits) == tenpai_hands(deal.counts)[choice.hand]


def test_best_first_search_equals_scoring_every_hand() -> None:
    """The bound only skips hands that cannot win the comparison: the pick is the true best."""
    for seed in (5, 6, 7):
        deal = _deal(seed, Seat.WEST)
        evaluator = _Evaluator(deal, MODEL)
        found = tenpai_hands(deal.counts)
        best = max(
            evaluator.hand_value(hand, waits, {w: evaluator.score(hand, w) for w in waits
                                               if evaluator.live[w]})
            for hand, waits in found.items())
        assert choose_best(deal).value == pytest.approx(best)


def test_han_bound_is_an_upper_bound_of_the_engines_yaku() -> None:
    """For many (hand, wait) pairs, no reading has more yaku han (R19) or yakuman (R20)."""
    rng = random.Random(1)
    checked = 0
    for seed in range(8, 14):
        deal = _deal(seed)
        bound = HanBound(deal.counts, deal.seat.wind)
        found = list(tenpai_hands(deal.counts).items())
        for hand, waits in rng.sample(found, min(300, len(found))):
            for wait in waits:
                value = score_counts(hand, wait, WinContext(seat_wind=deal.seat.wind))
                assert value is not None
                for score in (value.basis, value.paid):
                    if score.yakuman:
                        assert score.yakuman <= yakuman_bound(hand)
                    else:
                        yaku = sum(h for name, h in score.yaku if name != "riichi")
                        assert yaku <= bound(hand, waits)
                checked += 1
    assert checked > 1000


def test_prefers_a_hand_that_can_win_to_one_that_can_not() -> None:
    """R14: a wait below mangan is worse than useless (R15b), so strong picks eligible waits
    whenever normal (which counts only eligible copies) found any."""
    for seed in range(20, 26):
        deal = _deal(seed)
        if choose_most_live(deal).value == 0:
            continue
        chosen = choose_best(deal)
        assert any(
            (value := score_counts(chosen.hand, w, deal.context)) is not None and value.eligible
            and deal.unseen(w) > 0 for w in chosen.waits)


def test_most_live_counts_only_eligible_live_copies() -> None:
    """normal: the value is the live copies (R12) of the waits that may ron (R14)."""
    deal = _deal(30)
    choice = choose_most_live(deal)
    eligible = 0
    for wait in choice.waits:
        value = score_counts(choice.hand, wait, deal.context)
        if value is not None and value.eligible:
            eligible += max(0, deal.unseen(wait))
    assert choice.value == eligible


def test_live_copies_leave_out_own_tiles_and_the_dora_indicator() -> None:
    """A wait's live copies are those the seat can not see (R26)."""
    deal = deal34("123m456p789s1112z" + "2z99m11p44s567z33m22p6s88m3p3p8s8s", dora="2z")
    assert deal.unseen(kind_from_str("2z")) == 4 - 2 - 1
    assert deal.unseen(kind_from_str("5m")) == 4


def test_ura_dora_adds_in_expectation_but_not_to_eligibility() -> None:
    """R18, R24: the expected payment is at least the payment without ura."""
    deal = _deal(31)
    evaluator = _Evaluator(deal, MODEL)
    choice = choose_best(deal)
    for wait in choice.waits:
        value = evaluator.score(choice.hand, wait)
        assert value is not None
        expected = evaluator.expected_points(value, choice.hand)
        assert expected >= value.basis.points


def test_a_pool_holding_five_copies_of_the_waits_is_penalized() -> None:
    """R10, R15a: with five wait tiles in the pool one must be discarded (furiten), so the same
    hand is worth less than with four."""
    base = "23m456m345p678s55s"  # waits 1m 4m 7m (mangan with dora in the real deal)
    four = deal34(base + "11m44m" + "1z2z3z4z5z6z7z1p9p1s9s9m" + "2p3p6p8p7p", dora="4s")
    five = deal34(base + "11m44m7m" + "1z2z3z4z5z6z7z1p9p1s9s9m" + "2p3p6p8p", dora="4s")
    hand = counts(base)
    values = []
    for deal in (four, five):
        evaluator = _Evaluator(deal, MODEL)
        waits = tenpai_hands(deal.counts)[hand]
        scored = {w: evaluator.score(hand, w) for w in waits}
        live = evaluator.total_live(waits)
        values.append(evaluator.hand_value(hand, waits, scored) / max(live, 1))
    assert values[1] < values[0]


def test_no_tenpai_sub_hand_keeps_13_tiles_and_says_so() -> None:
    """R7: a hand that is not tenpai is legal; the bot keeps 13 tiles and reports tenpai false."""
    deal = deal34(NO_TENPAI)
    for choice in (choose_best(deal), choose_most_live(deal),
                   choose_random(deal, random.Random(0))):
        assert not choice.tenpai and choice.candidates == 0
        assert sum(choice.hand) == 13 and is_sub_multiset(choice.hand, deal.counts)


def test_bad_deals_are_refused() -> None:
    """Not 34 tiles, or five copies with the dora indicator (R1)."""
    with pytest.raises(TileError, match="34"):
        DealtTiles.from_tiles(parse_tiles("123m"), None, Seat.EAST)
    with pytest.raises(TileError, match="five copies of 1m"):
        deal34("1111m" + "23456789m" * 2 + "1234567z" + "2345678p", dora="1m")


def _points_bound_by_the_bounds(evaluator: _Evaluator, han_bound: HanBound,
                                hand: tuple[int, ...], waits: set[int]) -> float:
    """What the search's bound of a win's points was when written out from
    :func:`yakuman_bound` and :class:`HanBound` (the slow form, kept here as the reference)."""
    deal = evaluator.deal
    shape = Shape.of(hand)
    yakuman = yakuman_bound(hand, shape)
    if yakuman:
        factor = 2 if deal.settings.double_yakuman_waits else 1
        return 32000.0 * yakuman * factor * evaluator.dealer
    han = han_bound(hand, waits, shape) + 1
    if deal.dora is not None:
        han += hand[deal.dora] + (1 if deal.dora in waits else 0)
    if deal.red_suits:
        han += deal.reds_in(hand)
    if han <= 2 and deal.settings.minimum == "mangan":
        return 0.0
    most = 4 if shape.three else 3
    tables = evaluator.ura_tables
    one = shape.one
    ura = (tables[0][one & 511] + tables[1][one >> 9 & 511] + tables[2][one >> 18 & 511]
           + tables[3][one >> 27])
    ura = min(1.0, ura + max(evaluator.ura_chance[w] for w in waits))
    return ((1 - ura) * _limit_points(han) + ura * _limit_points(han + most)) * evaluator.dealer


#: Kinds to deal from, so that every yaku and yakuman of the bound comes up: all of them, one
#: suit and the honors (honitsu, chinitsu, chuuren), terminals and honors (kokushi, chanta,
#: honroutou), greens, the honors with a suit's ends (winds and dragons), the simples.
_DEAL_FROM = [list(range(34)), [*range(9), *range(27, 34)], list(range(18, 27)),
              [0, 8, 9, 17, 18, 26, *range(27, 34)], [19, 20, 21, 23, 25, 32, 1, 10],
              [*range(27, 34), 0, 8, 9], [k for k in range(27) if k % 9 not in (0, 8)]]


def test_the_searchs_points_bound_is_the_bounds_it_sums() -> None:
    """The search's bound of what a win pays (taken per suit, for speed) is, for every hand
    and waits, the number :func:`yakuman_bound` and :class:`HanBound` give with riichi, dora,
    red fives and ura in expectation (R14, R18-R20): the same hands are skipped, so the search
    picks the same hand."""
    rng = random.Random(7)
    checked = 0
    kinds_of_bound: set[str] = set()
    for round_ in range(140):
        favoured = [k for k in _DEAL_FROM[round_ % len(_DEAL_FROM)] for _ in range(4)]
        rng.shuffle(favoured)
        favoured = favoured[:30]
        others = [k for k in range(34) for _ in range(4 - favoured.count(k))]
        rng.shuffle(others)
        tiles, indicator = favoured + others[:34 - len(favoured)], others[34 - len(favoured)]
        red = round_ % 3 == 0
        settings = RuleSettings(red_fives=red, double_yakuman_waits=round_ % 2 == 0,
                                minimum="mangan" if round_ % 4 else "none")
        first = {k: tiles.index(k) for k in FIVES if k in tiles}  # each suit's red five
        deal = DealtTiles.from_tiles([Tile(k, red=red and first.get(k) == i)
                                      for i, k in enumerate(tiles)],
                                     indicator if round_ % 5 else None,
                                     Seat.EAST if round_ % 2 else Seat.WEST, settings)
        evaluator, han_bound = _Evaluator(deal, MODEL), HanBound(deal.counts, deal.seat.wind)
        found = list(tenpai_hands(deal.counts).items()) if round_ % 14 == 0 else []
        pairs = rng.sample(found, min(40, len(found)))
        for source in (favoured, tiles) * 10:  # and hands not tenpai, with any waits
            picked = [0] * 34
            for kind in rng.sample(source, 13):
                picked[kind] += 1
            pairs.append((tuple(picked), set(rng.sample(range(34), rng.randint(1, 4)))))
        for hand, waits in pairs:
            bound = evaluator.points_bound(hand, waits)
            assert bound == _points_bound_by_the_bounds(evaluator, han_bound, hand, waits), (
                deal, hand, waits)
            kinds_of_bound.add("yakuman" if bound >= 32000 else "han" if bound else "none")
            checked += 1
    assert checked > 3_000 and kinds_of_bound == {"yakuman", "han", "none"}
