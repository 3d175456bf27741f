"""Hand choice by expected value (R7, R10, R12, R14, R15, R18, R24)."""

from __future__ import annotations

import random

import pytest

from minefield.bots.hands import DEFAULT_MODEL as MODEL
from minefield.bots.hands import (
    DealtTiles,
    HanBound,
    _Evaluator,
    choose_best,
    choose_most_live,
    choose_random,
    yakuman_bound,
)
from minefield.bots.search import tenpai_hands
from minefield.rules.game import Seat
from minefield.rules.score import WinContext, score_counts
from minefield.rules.tiles import TileError, kind_from_str, parse_tiles
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
