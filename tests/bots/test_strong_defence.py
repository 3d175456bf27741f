"""The ``strong`` bot's defence: the kept kinds, the planned discard, no peeking
(R10, R13, R15, R26)."""

from __future__ import annotations

import random

import pytest

from minefield.bots import make_bot
from minefield.bots.discards import (
    DiscardSituation,
    calibrated_dangers,
    keep_plan,
    planned_discard,
    safest_discard,
)
from minefield.bots.levels import DISCARD_POLICIES, PREVIOUS_STRONG, previous_strong
from minefield.defense import calibration
from minefield.defense.fast import fast_dangers, features, logistic
from minefield.defense.position import Position
from minefield.rules.game import Discard, Game, Seat
from minefield.rules.prepared import choose_hands, game_from_tiles
from minefield.rules.tiles import NUM_KINDS, Tile, kind_from_str, parse_tiles
from tests.bots.conftest import play

K = kind_from_str


def _vectors(entries: dict[str, tuple[int, float]]) -> tuple[list[int], list[float]]:
    copies, danger = [0] * NUM_KINDS, [0.0] * NUM_KINDS
    for tile, (count, value) in entries.items():
        copies[K(tile)], danger[K(tile)] = count, value
    return copies, danger


def test_keep_plan_keeps_whole_kinds_of_most_danger() -> None:
    """R10, R15: a kind costs its danger once, so the four kept tiles are whole kinds. Four
    single kinds of 0.25 (1.0 together) beat a kind of four copies of 0.3; of 0.9 and 0.2
    with three and two copies, only one fits."""
    copies, danger = _vectors({"1m": (4, 0.3), "1p": (1, 0.25), "2p": (1, 0.25),
                               "3p": (1, 0.25), "4p": (1, 0.25)})
    assert keep_plan(copies, danger, 4) == {K("1p"), K("2p"), K("3p"), K("4p")}
    copies, danger = _vectors({"1m": (4, 1.1), "1p": (1, 0.25), "2p": (1, 0.25)})
    assert keep_plan(copies, danger, 4) == {K("1m")}
    copies, danger = _vectors({"5s": (3, 0.9), "6s": (2, 0.2), "7s": (1, 0.1)})
    assert keep_plan(copies, danger, 4) == {K("5s"), K("7s")}
    assert keep_plan(copies, danger, 2) == {K("6s")}
    assert keep_plan(copies, danger, 0) == frozenset()


def test_keep_plan_never_keeps_a_safe_kind() -> None:
    """A kind of no danger (genbutsu, passed: R13, R15) is worth nothing to keep."""
    copies, danger = _vectors({"1z": (2, 0.0), "9m": (1, 0.05)})
    assert keep_plan(copies, danger, 4) == {K("9m")}


# East keeps 234m 234p 234s 67s 55p (waits 5s 8s); its pool holds both waits once, four 1z and
# singles. West keeps a hand East cannot see.
EAST_HAND = "234m234p234s67s55p"
EAST_POOL = "5s8s1z1z1z1z2z3z4z9m9p1m1p7z6z5z8m3m6p9s1s"
WEST_HANDS = ("567m678p111s999s3m", "789m111p456p222s7z")
WEST_POOLS = ("2z3z4z5m5m6m7m8m2m3p4p5p6p7p3s4s6s1p7z6z5z",
              "2z3z4z5m5m6m7m8m2m3p4p5p6p7p3s4s6s9s1s6z5z")


def _east_after(west: int, west_discards: list[str], east_discards: list[str]) -> Game:
    game = game_from_tiles(EAST_HAND + EAST_POOL, WEST_HANDS[west] + WEST_POOLS[west],
                           dora="9p", ura="8p")
    game = choose_hands(game, EAST_HAND, WEST_HANDS[west])
    for mine, theirs in zip(east_discards, west_discards, strict=True):
        game.apply(Seat.EAST, Discard(tile=mine))
        game.apply(Seat.WEST, Discard(tile=theirs))
    return game


def test_the_strong_discard_never_peeks() -> None:
    """R26: two games that differ only in West's hidden tiles give East the same view, so the
    same discard, turn after turn (the policy reads the view alone)."""
    bot = make_bot("strong", seed=4)
    for turn in range(3):
        mine = ["9m", "1m", "9p"][:turn]
        theirs = ["2z", "3z", "4z"][:turn]
        views = [_east_after(w, theirs, mine).view(Seat.EAST) for w in (0, 1)]
        assert views[0] == views[1]
        assert bot.act(views[0]) == bot.act(views[1])


def test_planned_discard_takes_a_safe_tile_first() -> None:
    """West discarded 2z (genbutsu, R15a) and East's own 1z passed, so East's other 1z are safe
    for ever (R13, R15): the danger of both is exactly 0, and they go before any tile of unknown
    danger, never the own waits 5s and 8s."""
    game = _east_after(0, ["2z"], ["1z"])
    table = DiscardSituation.from_view(game.view(Seat.EAST))
    danger = calibrated_dangers(table)
    assert danger[K("1z")] == danger[K("2z")] == 0.0
    assert all(danger[t.kind] > 0 for t in table.pool if t.kind not in (K("1z"), K("2z")))
    chosen = {Tile.parse(planned_discard(table, random.Random(seed)).tile).kind
              for seed in range(8)}
    assert chosen <= {K("1z"), K("2z")}


def test_strong_discards_in_whole_games() -> None:
    """In whole seeded games against ``normal``, every strong discard is a tile of no danger
    whenever the seat holds one (genbutsu or passed, R13, R15) and never an own wait while
    another tile is left (R15a)."""
    checked = 0
    for seed in range(3):
        game = Game(seed + 70)
        bots = {Seat.EAST: make_bot("strong", seed), Seat.WEST: make_bot("normal", seed + 1)}
        for seat in Seat:
            game.apply(seat, bots[seat].act(game.view(seat)))
        while game.turn is not None:
            seat = game.turn
            view = game.view(seat)
            command = bots[seat].act(view)
            assert isinstance(command, Discard)
            if seat is Seat.EAST:
                table = DiscardSituation.from_view(view)
                danger = calibrated_dangers(table)
                kind = Tile.parse(command.tile).kind
                if view.own_furiten is None and len(table.allowed()) < len(table.pool):
                    assert kind not in table.own_waits
                allowed = {t.kind for t in table.allowed()}
                least = min(danger[k] for k in allowed)
                if least == 0.0:
                    assert danger[kind] == 0.0  # a known-safe tile whenever there is one
                checked += 1
            game.apply(seat, command)
    assert checked >= 20


def test_calibrated_dangers_are_the_bots_read_of_the_view() -> None:
    """The strong discard reads what the seat sees with its own fit (the ``normal`` and
    ``strong`` games together: it cannot know whom it plays), not the per-level estimate the
    screens show against ``strong``; genbutsu and passed kinds stay exactly 0 (R13, R15)."""
    game = _east_after(1, ["2z", "3z"], ["9m", "1z"])
    view = game.view(Seat.EAST)
    table = DiscardSituation.from_view(view)
    position = Position.from_view(view)
    feats = features(position)
    expected = [logistic(calibration.BOT_DANGER, feats.danger_row(kind))
                if feats.possible[kind] else 0.0 for kind in range(NUM_KINDS)]
    danger = calibrated_dangers(table)
    assert danger == expected
    assert danger[K("2z")] == danger[K("3z")] == danger[K("9m")] == 0.0
    level = fast_dangers(position, "strong").danger
    assert any(abs(a - b) > 1e-6 for a, b in zip(danger, level, strict=True))


def test_previous_strong_is_reachable_and_deterministic() -> None:
    """The first ``strong`` policies stay playable for paired benchmarks; both versions give
    the same game for the same seeds (R2)."""
    assert DISCARD_POLICIES["strong"] is planned_discard
    assert PREVIOUS_STRONG[1] is safest_discard
    view = Game(21).view(Seat.EAST)
    assert previous_strong(5).act(view) == make_bot("strong", 5).act(view)  # the same hand
    for factory in (previous_strong, lambda seed: make_bot("strong", seed)):
        runs = [play(Game(21), factory(5), make_bot("normal", 6)).state_key() for _ in range(2)]
        assert runs[0] == runs[1]


@pytest.mark.parametrize("seed", range(2))
def test_strong_and_previous_strong_play_legal_games(seed: int) -> None:
    """Both versions play whole games to their end from either seat."""
    game = play(Game(seed + 30), previous_strong(seed), make_bot("strong", seed))
    assert game.phase == "ended"


def test_planned_discard_spends_a_kind_of_four_before_four_single_kinds() -> None:
    """With nine tiles left (five to discard, four to keep, R10): 1m four times (0.3), 1p 2p
    3p 4p once each (0.25) and 9s (0.1). Discarding 1m costs 0.3 once (its other copies then
    pass, R15); keeping it costs 1.0 in singles. So 9s goes first, then 1m, never a single."""
    game = _east_after(0, [], [])
    real = DiscardSituation.from_view(game.view(Seat.EAST))
    fixed = [0.0] * NUM_KINDS
    for tile, value in (("1m", 0.3), ("1p", 0.25), ("2p", 0.25), ("3p", 0.25), ("4p", 0.25),
                        ("9s", 0.1)):
        fixed[K(tile)] = value
    order = []
    for pool in ("1111m1234p9s", "1111m1234p"):
        table = DiscardSituation(real.seat_view, tuple(parse_tiles(pool)), real.own_counts,
                                 real.own_waits, real.opponent_discards, real.safe,
                                 real.dora_indicator)
        order.append(planned_discard(table, random.Random(0), dangers=lambda _t: fixed).tile)
    assert order == ["9s", "1m"]
    assert min(fixed[t.kind] for t in table.pool) < fixed[K("1m")]  # not the least danger
