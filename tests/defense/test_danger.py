"""The danger model: genbutsu, suji, no-chance, the counting trap, dora (R13, R15, R26)."""

from __future__ import annotations

from minefield.defense.danger import suit_factors, tile_dangers, wait_probabilities, wait_shapes
from minefield.rules.tiles import NUM_KINDS, kind_from_str

K = kind_from_str


def _unseen(**held: int) -> list[int]:
    unseen = [4] * NUM_KINDS
    for tile, copies in held.items():
        unseen[K(tile[1:] + tile[0])] -= copies
    return unseen


def test_genbutsu_is_safe() -> None:
    """R15: a kind discarded by either seat can never win for the opponent any more."""
    danger = tile_dangers([4] * NUM_KINDS, {K("5m"), K("1z")}, dora=None)
    assert danger[K("5m")] == 0 and danger[K("1z")] == 0
    assert all(d > 0 for k, d in enumerate(danger) if k not in (K("5m"), K("1z")))


def test_suji_kills_both_sides_of_a_ryanmen() -> None:
    """4m passed: 23m (waits 1m-4m) is dead, so 1m loses only to tanki, shanpon (and
    kokushi); 7m loses its 56m ryanmen (4m-7m)."""
    safe = {K("4m")}
    shapes = wait_shapes([4] * NUM_KINDS, safe, dora=None)
    assert not any(K("4m") in s.waits for s in shapes)
    one_m = {s.name for s in shapes if K("1m") in s.waits}
    assert one_m == {"tanki", "shanpon", "kokushi"}
    danger = tile_dangers([4] * NUM_KINDS, safe, dora=None)
    assert danger[K("1m")] < danger[K("2m")]
    assert danger[K("7m")] < tile_dangers([4] * NUM_KINDS, set(), dora=None)[K("7m")]


def test_no_chance_and_one_chance() -> None:
    """All four 2p seen (no-chance): every sequence shape winning on 1p (23p, 2p-3p kanchan)
    needs a 2p, so 1p loses only to tanki, shanpon and kokushi; with three 2p seen
    (one-chance) it is in between."""
    none_left = tile_dangers(_unseen(p2=4), set(), dora=None)
    one_left = tile_dangers(_unseen(p2=3), set(), dora=None)
    all_left = tile_dangers([4] * NUM_KINDS, set(), dora=None)
    assert none_left[K("1p")] < one_left[K("1p")] < all_left[K("1p")]
    shapes = {s.name for s in wait_shapes(_unseen(p2=4), set(), None) if K("1p") in s.waits}
    assert shapes == {"tanki", "shanpon", "kokushi"}


def test_counting_trap_three_held_is_not_safe() -> None:
    """Holding three of an honor leaves one copy for the opponent's tanki (danger > 0); with all
    four seen only kokushi is left, and it is ruled out once another orphan has passed."""
    three = tile_dangers(_unseen(z7=3), set(), dora=None)
    four = tile_dangers(_unseen(z7=4), set(), dora=None)
    assert three[K("7z")] > four[K("7z")] > 0
    assert tile_dangers(_unseen(z7=4), {K("1z")}, dora=None)[K("7z")] == 0


def test_dora_and_its_neighbours_are_more_dangerous() -> None:
    """Shapes holding dora reach mangan more easily (R14, R24)."""
    plain = tile_dangers([4] * NUM_KINDS, set(), dora=None)
    dora = tile_dangers([4] * NUM_KINDS, set(), dora=K("5s"))
    assert dora[K("5s")] > plain[K("5s")]
    assert dora[K("4s")] > plain[K("4s")] and dora[K("7s")] > plain[K("7s")]
    assert dora[K("5m")] == plain[K("5m")]


def test_wait_probabilities_are_shares() -> None:
    """Before any discard the chances add up to the waits per shape (one or two)."""
    chance = wait_probabilities([4] * NUM_KINDS, (), dora=None)
    assert 1 < sum(chance) < 2
    assert wait_probabilities([4] * NUM_KINDS, {K("5m")}, dora=None)[K("5m")] == 0


def test_a_suit_the_opponent_keeps_discarding_is_safer() -> None:
    """Their discards are their leftovers: six pins out of eight discards say their hand is
    light in pins, so a pin is less dangerous than a man of the same shape."""
    discards = [K(t) for t in ("1p", "3p", "5p", "7p", "9p", "2p", "1z", "9m")]
    unseen = [4] * NUM_KINDS
    for kind in discards:
        unseen[kind] -= 1
    factors = suit_factors(unseen, discards, 0.3)
    assert factors[1] < 1 < factors[0]
    danger = tile_dangers(unseen, set(discards), None, opponent_discards=discards)
    assert danger[K("6p")] < danger[K("6m")]
