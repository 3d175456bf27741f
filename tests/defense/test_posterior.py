"""The posterior danger estimate (minefield/defense/posterior.py).

The exact check builds a reduced problem: the opponent's tiles come from four kinds only
(1m-4m, four copies each) and it holds 15 tiles (13 in the hand, a pool of two), so every hand
the prior can propose, every pool and their weights can be enumerated with the same model
functions, and the sampler must agree with that enumeration within sampling error. The default
model sums the pool out in closed form; a separate check enumerates the pools to confirm that
sum.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import defaultdict
from dataclasses import replace

import pytest

from minefield.bots.levels import make_bot
from minefield.defense.fast import fast_dangers
from minefield.defense.position import Position
from minefield.defense.posterior import (
    DEFAULT_MODEL,
    Completions,
    DiscardEvent,
    PosteriorModel,
    PosteriorTracker,
    Problem,
    blend,
    choice_log_value,
    expected_choice,
    held_back,
    posterior_dangers,
    posterior_of,
    prior_shapes,
    sample_log_weight,
    win_at,
)
from minefield.rules.game import Game, Seat
from minefield.rules.hand import waits
from minefield.rules.prepared import game_with_hands
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import NUM_KINDS, kind_from_str, parse_tiles

M1, M2, M3, M4, M5 = (kind_from_str(f"{n}m") for n in range(1, 6))


def small_problem(events: tuple[DiscardEvent, ...], deal_size: int = 15, fives: int = 0
                  ) -> Problem:
    """Opponent West; its ``deal_size`` tiles come from 1m-4m and the ``fives`` 5m the seat does
    not hold (it sees nothing else of those kinds); the dora indicator is 7z."""
    available = [0] * NUM_KINDS
    for kind in (M1, M2, M3, M4):
        available[kind] = 4
    available[M5] = fives
    number = len(events) + 1
    return Problem(tuple(available), kind_from_str("7z"), Seat.WEST, events, number,
                   deal_size=deal_size)


def exact(problem: Problem, model: PosteriorModel, tries: int = 50
          ) -> tuple[list[float], float]:
    """The estimate by enumeration: every shape, every draw of its completion (pair and groups
    in order, kept when the copies allow it, the draw repeated up to ``tries`` times), every
    pool, each weighed by :func:`sample_log_weight`."""
    completions = Completions(problem.unseen)
    pair_total = sum(completions.pair_weight)
    group_total = completions.group_cum[-1]
    unseen = problem.unseen
    discarded = problem.opponent_discards
    rest_size = problem.pool_size - sum(discarded)
    danger = [0.0] * NUM_KINDS
    furiten = 0.0
    mass = 0.0
    for shape in prior_shapes(problem, model):
        hands: dict[tuple[int, ...], float] = defaultdict(float)
        pairs = [(k, w / pair_total) for k, w in enumerate(completions.pair_weight) if w]
        groups = [(tiles, w / group_total) for tiles, w in completions.groups]
        pair_choices = pairs if shape.pair else [(None, 1.0)]
        six = itertools.product(pairs, repeat=6) if shape.pairs else [()]
        for sixes in six:
            for (pair, p_pair), drawn in itertools.product(
                    pair_choices, itertools.product(groups, repeat=shape.groups)):
                counts = [0] * NUM_KINDS
                chance = p_pair
                for kind in shape.held:
                    counts[kind] += 1
                for kind, p in sixes:
                    chance *= p
                    if counts[kind]:
                        chance = 0.0
                    counts[kind] = 2
                if pair is not None:
                    counts[pair] += 2
                for tiles, p in drawn:
                    chance *= p
                    for kind in tiles:
                        counts[kind] += 1
                if chance and all(c <= u for c, u in zip(counts, unseen, strict=True)):
                    hands[tuple(counts)] += chance
        accepted = sum(hands.values())
        if not accepted:
            continue
        success = 1 - (1 - accepted) ** tries
        for hand, chance in hands.items():
            left = [u - h for u, h in zip(unseen, hand, strict=True)]
            bag = sum(left)
            for rest in _multisets(left, rest_size):
                p_rest = math.prod(math.comb(n, r) for n, r in zip(left, rest, strict=True))
                p_rest /= math.comb(bag, rest_size)
                pool = [d + r for d, r in zip(discarded, rest, strict=True)]
                found = sample_log_weight(problem, model, hand, pool)
                if found is None:
                    continue
                log_weight, is_furiten = found
                weight = shape.weight * success * chance / accepted * p_rest
                weight *= math.exp(log_weight)
                mass += weight
                if is_furiten:
                    furiten += weight
                    continue
                for wait in waits(hand):
                    if win_at(problem, hand, wait, problem.number)[0]:
                        danger[wait] += weight
    return [d / mass for d in danger], furiten / mass


def _multisets(left: list[int], size: int) -> list[list[int]]:
    kinds = [k for k in range(NUM_KINDS) if left[k]]
    out = []
    for combo in itertools.combinations_with_replacement(kinds, size):
        counts = [0] * NUM_KINDS
        for kind in combo:
            counts[kind] += 1
        if all(counts[k] <= left[k] for k in kinds):
            out.append(counts)
    return out


SMALL_EVENTS = (
    # East (the seat) passes a 5m (R13: a sample whose hand wins on it is impossible), then
    # West discards a 4m (genbutsu, R15a).
    ((DiscardEvent(1, False, M5), DiscardEvent(2, True, M4)), 15, 0),
    ((DiscardEvent(1, False, M5), DiscardEvent(2, True, M1)), 15, 0),
    # West discards 1m, then 2m while 1m was safe for it: any other 1m it holds is in its
    # hand (held back), the unknown rest of its pool holds none.
    ((DiscardEvent(1, False, M5), DiscardEvent(2, True, M1), DiscardEvent(3, False, M5),
      DiscardEvent(4, True, M2)), 16, 1),
)


@pytest.mark.parametrize(("events", "deal_size", "fives"), SMALL_EVENTS)
@pytest.mark.parametrize("model", [DEFAULT_MODEL, PosteriorModel(collapsed=False),
                                   PosteriorModel(discard_sharpness=3.0, ineligible_weight=0.2)])
def test_sampler_agrees_with_exact_enumeration(events: tuple[DiscardEvent, ...],
                                               deal_size: int, fives: int,
                                               model: PosteriorModel) -> None:
    problem = small_problem(events, deal_size, fives)
    want, want_furiten = exact(problem, model)
    got = posterior_of(problem, samples=6000, seed=3, budget_s=None, model=model)
    for kind in (M1, M2, M3, M4, M5):
        assert got.danger[kind] == pytest.approx(want[kind], abs=0.03), kind
    assert got.opponent_furiten == pytest.approx(want_furiten, abs=0.03)
    for event in events:  # genbutsu and passed tiles (R15) are exact zeros in the model
        assert want[event.kind] == 0.0
        assert got.danger[event.kind] == 0.0


@pytest.mark.parametrize(("events", "deal_size", "fives"), SMALL_EVENTS)
@pytest.mark.parametrize("ineligible", [0.05, 0.3])
def test_choice_summed_over_pools_matches_enumeration(events: tuple[DiscardEvent, ...],
                                                      deal_size: int, fives: int,
                                                      ineligible: float) -> None:
    # The collapsed model's choice term is the sampled-pool model's, averaged exactly over
    # the unknown rest of the pool (every multiset of the copies the hand leaves, weighted
    # by the hypergeometric chance of drawing it).
    problem = small_problem(events, deal_size, fives)
    model = PosteriorModel(ineligible_weight=ineligible)
    unseen = problem.unseen
    discarded = problem.opponent_discards
    rest_size = problem.pool_size - sum(discarded)
    checked = 0
    completions = Completions(unseen)
    for shape in prior_shapes(problem, model):
        for _ in range(20):
            hand = completions.draw(shape, random.Random(checked))
            checked += 1
            if hand is None:
                continue
            left = [u - h for u, h in zip(unseen, hand, strict=True)]
            bag = sum(left)
            hand_waits = waits(hand)
            mean = 0.0
            for rest in _multisets(left, rest_size):
                chance = math.prod(math.comb(n, r) for n, r in zip(left, rest, strict=True))
                chance /= math.comb(bag, rest_size)
                tiles = [h + d + r for h, d, r in zip(hand, discarded, rest, strict=True)]
                mean += chance * math.exp(choice_log_value(problem, model, hand, tiles,
                                                           hand_waits))
            assert expected_choice(problem, model, hand, hand_waits) == pytest.approx(mean)
    assert checked


def test_blend_keeps_exact_zeros_and_probabilities() -> None:
    position = seeded_positions(21, Seat.WEST, every=1)[-1]
    raw = posterior_dangers(position, samples=300, seed=1, budget_s=None, calibrated=False)
    fast = fast_dangers(position)
    mixed = blend(position, raw, fast, (-0.5, 0.6, 0.5))
    for tile in position.discards[Seat.EAST] + position.discards[Seat.WEST]:
        assert mixed.danger[tile.kind] == 0.0
    for kind in range(NUM_KINDS):
        assert 0.0 <= mixed.danger[kind] <= 1.0
        if fast.danger[kind] == 0.0:
            assert mixed.danger[kind] == 0.0
    # a larger posterior chance gives a larger blended one (positive weight on it)
    live = [k for k in range(NUM_KINDS) if mixed.danger[k] > 0 and fast.danger[k] > 0]
    pairs = [(a, b) for a in live for b in live
             if raw.danger[a] > raw.danger[b] and fast.danger[a] >= fast.danger[b]]
    assert all(mixed.danger[a] >= mixed.danger[b] for a, b in pairs)
    assert mixed.opponent_furiten == raw.opponent_furiten


def seeded_positions(seed: int, seat: Seat, every: int = 5) -> list[Position]:
    """Positions of ``seat`` in a normal-vs-normal game (deterministic)."""
    game = Game(seed)
    bots = {s: make_bot("normal", seed + i) for i, s in enumerate(Seat)}
    for s in Seat:
        game.apply(s, bots[s].act(game.view(s)))
    found = []
    while game.turn is not None:
        turn = game.turn
        view = game.view(turn)
        if turn is seat and len(view.discards[turn]) % every == 1 % every:
            found.append(Position.from_view(view))
        game.apply(turn, bots[turn].act(view))
    return found


def test_held_back_kinds() -> None:
    problem = small_problem(SMALL_EVENTS[2][0], 16, 1)
    assert held_back(problem) == {M1, M5}
    # 4m was no safe kind for West (nobody had discarded it), so the 5m was out of its pool
    assert held_back(small_problem(SMALL_EVENTS[0][0])) == {M5}


def test_genbutsu_and_passed_tiles_get_zero_and_everything_is_a_probability() -> None:
    # R15: the opponent's own discards (genbutsu) and the seat's discards that passed are safe.
    for position in seeded_positions(21, Seat.WEST)[:3]:
        estimate = posterior_dangers(position, samples=300, seed=1, budget_s=None)
        assert len(estimate.danger) == len(estimate.loss) == NUM_KINDS
        for tile in position.discards[Seat.EAST] + position.discards[Seat.WEST]:
            assert estimate.danger[tile.kind] == 0.0
            assert estimate.loss[tile.kind] == 0.0
        assert all(0.0 <= d <= 1.0 for d in estimate.danger)
        assert all(x >= 0.0 for x in estimate.loss)
        assert 0.0 <= estimate.opponent_furiten <= 1.0
        # a ron is at least a mangan (R14, R23): the loss is at least 8000 times the chance
        assert all(x >= 8000 * d - 1e-6 for x, d in zip(estimate.loss, estimate.danger,
                                                        strict=True))


def test_a_passed_wait_is_zero_even_when_the_opponent_waits_on_it() -> None:
    # West waits on 1m-4m-7m with riichi, tanyao and pinfu: 3 han 30 fu, below mangan (R14).
    # East's second discard is 7m: no ippatsu then (R16), so it passes and West is furiten
    # for ever (R15b); the seat's posterior must give 7m exactly 0.
    game = game_with_hands("1119s111222333z", "23m456m345p678s55s", east_pool="9m7m",
                           dora="9p")
    game.apply(Seat.EAST, {"type": "discard", "tile": "9m"})
    game.apply(Seat.WEST, {"type": "discard", "tile": _a_pool_tile(game, Seat.WEST)})
    game.apply(Seat.EAST, {"type": "discard", "tile": "7m"})
    assert game.furiten_of(Seat.WEST) is not None and game.result is None
    game.apply(Seat.WEST, {"type": "discard", "tile": _a_pool_tile(game, Seat.WEST)})
    position = Position.from_view(game.view(Seat.EAST))
    estimate = posterior_dangers(position, samples=300, seed=2, budget_s=None)
    assert estimate.danger[kind_from_str("7m")] == 0.0
    assert estimate.loss[kind_from_str("7m")] == 0.0


def _a_pool_tile(game: Game, seat: Seat) -> str:
    return str(parse_tiles(game.view(seat).own_pool)[0])


def test_deterministic_for_a_seed() -> None:
    position = seeded_positions(5, Seat.EAST)[1]
    first = posterior_dangers(position, samples=200, seed=9, budget_s=None)
    again = posterior_dangers(position, samples=200, seed=9, budget_s=None)
    other = posterior_dangers(position, samples=200, seed=10, budget_s=None)
    assert first == again
    assert first != other


def test_tracker_follows_a_game_and_stays_consistent() -> None:
    positions = seeded_positions(8, Seat.EAST, every=1)[:6]
    tracker = PosteriorTracker(Seat.EAST, samples=200, seed=4, budget_s=None)
    for position in positions:
        estimate = tracker.update(position)
        for tile in position.discards[Seat.EAST] + position.discards[Seat.WEST]:
            assert estimate.danger[tile.kind] == 0.0
        assert all(0.0 <= d <= 1.0 for d in estimate.danger)
    again = PosteriorTracker(Seat.EAST, samples=200, seed=4, budget_s=None)
    assert [again.update(p) for p in positions][-1] == estimate
    with pytest.raises(ValueError):
        tracker.update(seeded_positions(5, Seat.WEST, every=1)[0])


@pytest.mark.parametrize("seat", list(Seat))
def test_dealer_values_under_match_rules(seat: Seat) -> None:
    """R23: under ``dealer_bonus`` an East opponent's rons are paid dealer values, so the
    posterior's expected loss is 1.5 times the single game's (every eligible ron is a limit
    hand under the mangan minimum, R14), the chances unchanged; a West opponent's are not."""
    match = RuleSettings.preset("match")
    for position in seeded_positions(21, seat)[:2]:
        single = posterior_dangers(position, samples=300, seed=1, budget_s=None,
                                   calibrated=False)
        dealt = posterior_dangers(replace(position, settings=match), samples=300, seed=1,
                                  budget_s=None, calibrated=False)
        assert dealt.danger == single.danger
        factor = 1.5 if seat is Seat.WEST else 1.0  # the opponent is East
        assert any(single.loss)
        assert dealt.loss == pytest.approx([factor * x for x in single.loss])
