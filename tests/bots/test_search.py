"""Enumeration of tenpai hands from 34 tiles (R7, R12)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from minefield.bots.search import tenpai_hands
from minefield.rules.hand import waits
from minefield.rules.tiles import NUM_KINDS, TERMINALS_AND_HONORS, kind_from_str
from minefield.rules.wall import Deal
from tests.bots.conftest import counts, is_sub_multiset

NO_TENPAI = "111122224455778m124578p124578s1234567z"


def _deal_counts(seed: int) -> list[int]:
    found = [0] * NUM_KINDS
    for tile_id in Deal.from_seed(seed).east_tiles:
        found[tile_id // 4] += 1
    return found


def _random_complete(rng: random.Random) -> list[int]:
    """A random 14-tile winning shape: four groups and a pair, seven pairs or kokushi."""
    while True:
        hand = [0] * NUM_KINDS
        form = rng.random()
        if form < 0.1:
            for kind in rng.sample(range(NUM_KINDS), 7):
                hand[kind] = 2
        elif form < 0.15:
            for kind in TERMINALS_AND_HONORS:
                hand[kind] = 1
            hand[rng.choice(TERMINALS_AND_HONORS)] += 1
        else:
            for _ in range(4):
                if rng.random() < 0.3:
                    hand[rng.randrange(NUM_KINDS)] += 3
                else:
                    start = rng.randrange(3) * 9 + rng.randrange(7)
                    for k in range(start, start + 3):
                        hand[k] += 1
            hand[rng.randrange(NUM_KINDS)] += 2
        if max(hand) <= 4:
            return hand


def test_finds_a_known_hand_with_its_waits() -> None:
    """R12: 123m456p789s1112z waits on 2z only; the search finds it among the 34 tiles."""
    found = tenpai_hands(counts("123m456p789s1112z" + "99m11p44s567z33m22p6s1z88m"))
    hand = counts("123m456p789s1112z")
    assert found[hand] == {kind_from_str("2z")}


def test_every_found_hand_is_a_tenpai_sub_hand_with_the_engines_waits() -> None:
    """R7, R12: 13 tiles out of the 34, and exactly the waits the engine computes."""
    for seed in range(6):
        deal = _deal_counts(seed)
        found = tenpai_hands(deal)
        assert found
        for hand, hand_waits in found.items():
            assert sum(hand) == 13 and is_sub_multiset(hand, deal)
            assert hand_waits == set(waits(hand))


def test_finds_every_tenpai_hand_hidden_in_a_deal() -> None:
    """Take a tile out of a random winning shape, bury it in 21 random tiles: it is found."""
    rng = random.Random(3)
    checked = 0
    while checked < 120:
        complete = _random_complete(rng)
        tiles = [k for k in range(NUM_KINDS) for _ in range(complete[k])]
        complete[rng.choice(tiles)] -= 1
        hand = tuple(complete)
        if not waits(hand):
            continue  # only dead waits left (R12)
        rest = [k for k in range(NUM_KINDS) for _ in range(4 - hand[k])]
        deal = list(hand)
        for kind in rng.sample(rest, 21):
            deal[kind] += 1
        assert tenpai_hands(deal).get(hand) == set(waits(hand))
        checked += 1


def _sub_hands(deal: Sequence[int], kind: int = 0, left: int = 13,
               chosen: tuple[int, ...] = ()) -> Iterator[tuple[int, ...]]:
    """Every 13-tile count vector within ``deal``, by brute force."""
    if left == 0:
        yield chosen + (0,) * (NUM_KINDS - len(chosen))
        return
    if kind == NUM_KINDS:
        return
    for n in range(min(deal[kind], left) + 1):
        yield from _sub_hands(deal, kind + 1, left - n, (*chosen, n))


def test_matches_brute_force_on_a_small_deal() -> None:
    """Every 13-tile sub-hand of 1234m x4, 123p x4, 11z, 5z x4 checked with the engine:
    the search finds exactly the tenpai ones, each once, with their waits (R12)."""
    deal = counts("1111222233334444m111222333p11z5555z")
    expected = {}
    for hand in _sub_hands(deal):
        hand_waits = waits(hand)
        if hand_waits:
            expected[hand] = set(hand_waits)
    assert tenpai_hands(deal) == expected


def test_dead_waits_are_left_out() -> None:
    """R12: 1111m234m567p789s waits on 4m, never on a fifth 1m; 1111m234p567s789s (a tanki
    or shanpon only on 1m) is not tenpai at all."""
    deal = counts("1111m234m567p789s" + "234p567s2z3z4z5z6z7z9m9p1p1s5m7m8m")
    found = tenpai_hands(deal)
    assert found[counts("1111m234m567p789s")] == {kind_from_str("4m")}
    assert counts("1111m234p567s789s") not in found


def test_seven_pairs_and_thirteen_orphans() -> None:
    """Chiitoitsu waits on its single; kokushi on the missing orphan or on all thirteen."""
    found = tenpai_hands(counts("1199m1199p1199s12345z" + "67z234m234p234s56z"))
    assert found[counts("1199m1199p1199s1z")] == {kind_from_str("1z")}
    assert found[counts("19m19p19s1234567z")] == set(TERMINALS_AND_HONORS)
    assert found[counts("19m19p19s1234566z")] == {kind_from_str("7z")}


def test_no_tenpai_hand_in_a_deal_without_three_groups() -> None:
    """Two triplets, five pairs and no runs: no 13 of these tiles are tenpai."""
    assert sum(counts(NO_TENPAI)) == 34
    assert tenpai_hands(counts(NO_TENPAI)) == {}
