"""Tournament pairings and standings (R37), against hand computations."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from minefield.server.tournament_pairing import (
    Game,
    Pairing,
    Result,
    round_robin,
    standings,
    swiss_round,
)


def test_round_robin_every_pair_meets_once_by_the_circle_method() -> None:
    """R37: round robin, every pair once (circle method); 4 players play 3 rounds of 2."""
    rounds = round_robin(["a", "b", "c", "d"])
    assert [[(p.east, p.west) for p in r] for r in rounds] == [
        [("a", "d"), ("b", "c")],
        [("c", "a"), ("d", "b")],
        [("a", "b"), ("c", "d")],
    ]
    for n in range(2, 11):
        players = [f"p{i}" for i in range(n)]
        rounds = round_robin(players)
        pairs = [frozenset((p.east, p.west)) for r in rounds for p in r if p.west is not None]
        assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
        for r in rounds:  # everyone once a round, a bye only when odd
            seen = [p.east for p in r] + [p.west for p in r if p.west is not None]
            assert sorted(seen) == sorted(players)
        east = Counter(p.east for r in rounds for p in r if p.west is not None)
        assert max(east.values()) - min(east.get(p, 0) for p in players) <= 1


def test_round_robin_odd_gives_each_player_one_bye() -> None:
    """R37: with 5 players, each round one is out (a bye), each exactly once over 5 rounds."""
    rounds = round_robin(["a", "b", "c", "d", "e"])
    assert len(rounds) == 5
    byes = [p.east for r in rounds for p in r if p.west is None]
    assert sorted(byes) == ["a", "b", "c", "d", "e"]


def test_round_robin_standings_sonneborn_berger_by_hand() -> None:
    """R37 standings of a round robin of 4, by hand.

    R1 a beats d (8000), b draws c; R2 c beats a (2000), b beats d (1000); R3 a draws b,
    d beats c by forfeit (no points, R37).
    Scores: a 1.5, b 2, c 1.5, d 1.
    Sonneborn-Berger (beaten opponents' scores + half the drawn ones'):
      a: d 1 + b 2/2 = 2;  b: d 1 + c 1.5/2 + a 1.5/2 = 2.5;
      c: a 1.5 + b 2/2 = 2.5;  d: c 1.5 = 1.5.
    Order: b (2), then c and a on 1.5 split by SB (2.5 > 2), then d.
    """
    games = [
        Game(1, "a", "d", "east", points=8000), Game(1, "b", "c", "draw"),
        Game(2, "c", "a", "east", points=2000), Game(2, "d", "b", "west", points=1000),
        Game(3, "a", "b", "draw"), Game(3, "c", "d", "west", forfeit=True),
    ]
    table = standings(["a", "b", "c", "d"], games, "round-robin")
    assert [(s.rank, s.name, s.score, s.tiebreak, s.points) for s in table] == [
        (1, "b", 2.0, 2.5, 1000),
        (2, "c", 1.5, 2.5, 2000),
        (3, "a", 1.5, 2.0, 8000),
        (4, "d", 1.0, 1.5, 0),
    ]


def test_swiss_standings_buchholz_by_hand() -> None:
    """R37 standings of a Swiss, by hand: byes score a win and add nothing to Buchholz.

    R1 p1 beats p2 (1000), p3 draws p4, p5 bye; R2 p5 beats p1 (3000), p2 beats p3 (500),
    p4 bye. Scores: p1 1, p2 1, p3 0.5, p4 1.5, p5 2.
    Buchholz (opponents' scores): p1 p2 1 + p5 2 = 3; p2 p1 1 + p3 0.5 = 1.5;
    p3 p4 1.5 + p2 1 = 2.5; p4 p3 0.5 = 0.5; p5 p1 1 = 1.
    """
    games = [
        Game(1, "p1", "p2", "east", points=1000), Game(1, "p3", "p4", "draw"),
        Game(1, "p5", None, "east"),
        Game(2, "p5", "p1", "east", points=3000), Game(2, "p2", "p3", "east", points=500),
        Game(2, "p4", None, "east"),
    ]
    table = standings(["p1", "p2", "p3", "p4", "p5"], games, "swiss")
    assert [(s.rank, s.name, s.score, s.tiebreak, s.points) for s in table] == [
        (1, "p5", 2.0, 1.0, 3000),
        (2, "p4", 1.5, 0.5, 0),
        (3, "p1", 1.0, 3.0, 1000),
        (4, "p2", 1.0, 1.5, 500),
        (5, "p3", 0.5, 2.5, 0),
    ]


def test_standings_points_then_rating_then_shared_rank() -> None:
    """R37: equal score and tie-break, the points won decide, then the starting rating;
    equal on all, the rank is shared. Unfinished games count for nothing."""
    games = [Game(1, "a", "b", "east", points=1000), Game(1, "c", "d", "east", points=2000),
             Game(2, "a", "c", None)]
    table = standings(["a", "b", "c", "d"], games, "swiss", {"b": 1600, "d": 1500})
    assert [(s.rank, s.name) for s in table] == [(1, "c"), (2, "a"), (3, "b"), (4, "d")]
    level = standings(["a", "b"], [Game(1, "a", "b", "draw")], "swiss")
    assert [(s.rank, s.name, s.score) for s in level] == [(1, "a", 0.5), (1, "b", 0.5)]


def test_swiss_first_round_top_half_meets_bottom_half_and_lowest_gets_the_bye() -> None:
    """R37: all on 0, so one score group; with 7 players the lowest-ranked gets the bye."""
    assert swiss_round(list("abcdefg"), []) == [
        Pairing("a", "d"), Pairing("b", "e"), Pairing("c", "f"), Pairing("g", None)]


def test_swiss_pairs_within_score_groups() -> None:
    """R37: equal scores meet. After a beats b and c beats d, the winners meet and the
    losers meet (they have not met)."""
    games = [Game(1, "a", "b", "east"), Game(1, "c", "d", "east")]
    pairs = {frozenset((p.east, p.west)) for p in swiss_round(["a", "c", "b", "d"], games)}
    assert pairs == {frozenset("ac"), frozenset("bd")}


def test_swiss_bye_never_twice_when_avoidable() -> None:
    """R37: the odd player out is the lowest-ranked who has not had a bye. The lowest here
    (e) had one in round 1, so d (next lowest) gets it."""
    games = [Game(1, "a", "b", "east"), Game(1, "c", "d", "east"), Game(1, "e", None, "east")]
    pairing = swiss_round(["a", "c", "e", "b", "d"], games)
    assert [p.east for p in pairing if p.west is None] == ["d"]


def _play_swiss(rng: random.Random, n: int, rounds: int) -> list[Game]:
    players = [f"p{i}" for i in range(n)]
    games: list[Game] = []
    for number in range(1, rounds + 1):
        ranked = [s.name for s in standings(players, games, "swiss")]
        for p in swiss_round(ranked, games):
            result: Result = "east" if p.west is None else rng.choice(["east", "west", "draw"])
            games.append(Game(number, p.east, p.west, result))
    return games


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 22), st.integers(1, 6), st.integers(0, 2**32))
def test_swiss_never_repeats_a_pair_or_a_bye(n: int, rounds: int, seed: int) -> None:
    """R37: over random Swiss tournaments (random results), no pair meets twice and nobody
    has a second bye, while every round seats everyone (rounds at most half the field, where
    a pairing without repeats always exists)."""
    rounds = max(1, min(rounds, n // 2))
    games = _play_swiss(random.Random(seed), n, rounds)
    pairs = [frozenset((g.east, g.west)) for g in games if g.west is not None]
    assert len(pairs) == len(set(pairs))
    byes = [g.east for g in games if g.west is None]
    assert len(byes) == len(set(byes))
    for number in range(1, rounds + 1):
        seated = [g.east for g in games if g.round == number]
        seated += [g.west for g in games if g.round == number and g.west is not None]
        assert sorted(seated) == sorted(f"p{i}" for i in range(n))


def test_swiss_pairs_far_apart_rather_than_repeat() -> None:
    """R37: no pair meets twice, even when only players two points apart remain unmet (the
    near pairs cannot seat everyone, so every pair is searched)."""
    games = [Game(1, "a", "b", "east"), Game(1, "c", "d", "east"),
             Game(2, "a", "c", "east"), Game(2, "b", "d", "east")]
    pairs = {frozenset((p.east, p.west)) for p in swiss_round(["a", "b", "c", "d"], games)}
    assert pairs == {frozenset("ad"), frozenset("bc")}


def test_swiss_repeats_only_when_nothing_else_seats_everyone() -> None:
    """With two players who have met, they meet again rather than leave one out; the one
    who was West is East now."""
    assert swiss_round(["a", "b"], [Game(1, "a", "b", "draw")]) == [Pairing("b", "a")]
