"""Hands, readings and waits (R7, R9, R12)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import pytest

from minefield.rules._suit_tables import (
    _suit_decompose,
    _suit_splits,
    suit_shapes,
    waits_with_shapes,
)
from minefield.rules.hand import Hand, is_complete, readings, waits
from minefield.rules.random_hands import random_case
from minefield.rules.score import WinContext, _reading, _scored_readings, _situation
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import NUM_KINDS, TileError, kind_from_str, kinds_to_str


def wait_str(hand: str) -> str:
    return kinds_to_str(waits(Hand.parse(hand).counts))


def test_hand_parse_and_print_round_trip() -> None:
    assert str(Hand.parse("55s23m456m345p678s")) == "23456m345p55678s"


def test_hand_size_is_checked() -> None:
    with pytest.raises(TileError, match="hand has 14 tiles, expected 13"):
        Hand.parse("23m456m345p678s555s")


def test_hand_repr_hides_tiles() -> None:
    assert "5" not in repr(Hand.parse("55s23m456m345p678s"))


@pytest.mark.parametrize(("hand", "expected"), [
    ("23m456m345p678s55s", "147m"),
    ("1112345678999m", "123456789m"),            # nine-sided chuuren
    ("19m19p19s1234567z", "19m19p19s1234567z"),  # thirteen-sided kokushi
    ("19m19p19s1234566z", "7z"),                 # kokushi single wait
    ("1122m3344p5566s7z", "7z"),                 # seven pairs
    ("111m222p333s444z5z", "5z"),                # tanki
    ("111m222p333s44z55z", "45z"),               # shanpon
    ("123m456m789m11p13s", "2s"),                # kanchan
    ("123m456m789m11p12s", "3s"),                # penchan
])
def test_r12_waits_of_all_shapes(hand: str, expected: str) -> None:
    assert wait_str(hand) == expected


def test_r12_seven_pairs_need_distinct_pairs() -> None:
    # 1111m counts as four tiles, never two pairs: the 7z would make no seven pairs hand.
    assert wait_str("1111m33p55p77s99s7z") == ""


def test_r12_a_kind_held_four_times_is_a_dead_wait() -> None:
    # 1111m + 234p 567p 789s: only a fifth 1m would complete it, so it is not tenpai.
    assert wait_str("1111m234p567p789s") == ""


def test_r12_dead_wait_dropped_but_live_waits_kept() -> None:
    # 1111234m: a fifth 1m would complete it (11m + 111m + 234m), but 1m is dead; 4m is live.
    counts = list(Hand.parse("1111234m456p789s").counts)
    counts[kind_from_str("1m")] += 1
    assert readings(counts, kind_from_str("1m"))  # the shape alone would win...
    assert wait_str("1111234m456p789s") == "4m"   # ...but R12 excludes the dead wait


def test_r9_four_of_a_kind_is_four_tiles_not_a_kan() -> None:
    counts = list(Hand.parse("1111m234p567p789s").counts)
    counts[kind_from_str("5z")] += 1
    assert readings(counts, kind_from_str("5z")) == []


def test_readings_report_every_wait_shape() -> None:
    counts = list(Hand.parse("4566m234p678s345s").counts)
    counts[kind_from_str("6m")] += 1
    shapes = {r.wait for r in readings(counts, kind_from_str("6m"))}
    assert shapes == {"ryanmen", "tanki"}


# --- the fast paths agree with the plain ones ---------------------------------------------------
# The tables behind this module (minefield.rules._suit_tables) and the scorer answer some
# questions twice, once quickly and once in full; these tests keep each pair in step.


def _suits(size: int = 14, kinds: int = 9) -> Iterator[tuple[int, ...]]:
    """Every count vector of one suit with at most four of each kind and ``size`` tiles."""
    if kinds == 0:
        yield ()
        return
    for count in range(min(4, size) + 1):
        for rest in _suits(size - count, kinds - 1):
            yield (count, *rest)


def test_the_quick_split_test_agrees_with_the_decompositions_on_every_suit() -> None:
    """``_suit_splits`` (greedy, asked of every suit) says a suit splits exactly when
    ``_suit_decompose`` (which lists the splits, only for suits that split) finds one, for
    every numbered suit a hand can hold."""
    disagree = []
    for counts in _suits():
        size = sum(counts)
        expected = size % 3 != 1 and bool(_suit_decompose(counts, size % 3 == 2))
        if _suit_splits(counts) != expected:
            disagree.append(counts)
    assert not disagree, disagree[:10]


def _random_hands(count: int) -> Iterator[tuple[int, ...]]:
    """Seeded random tenpai hands of every shape (:mod:`minefield.rules.random_hands`)."""
    rng = random.Random(5)
    for _ in range(count):
        yield random_case(rng).counts


def test_table_waits_are_the_kinds_that_complete_the_hand() -> None:
    """R12: the waits the per-suit tables find are the live kinds that :func:`is_complete`
    accepts, and each comes with the suit shapes of the completed hand."""
    for counts in _random_hands(1500):
        complete = []
        for kind in range(NUM_KINDS):
            won = list(counts)
            won[kind] += 1
            if counts[kind] < 4 and is_complete(won):
                complete.append(kind)
        assert waits(counts) == tuple(complete), kinds_to_str(_kinds(counts))
        for kind, shapes in waits_with_shapes(counts, suit_shapes(counts)):
            won = list(counts)
            won[kind] += 1
            assert shapes == suit_shapes(won)


def test_the_scorer_finds_the_readings_of_readings() -> None:
    """R22: the scorer's readings (built only for the one it keeps) are :func:`readings`, in
    the same order, including seven pairs and thirteen orphans found from the 13 tiles."""
    situation = _situation(WinContext(), RuleSettings(), 0)
    seen: set[str] = set()
    for counts in _random_hands(1500):
        for win in waits(counts):
            won = list(counts)
            won[win] += 1
            ours = [_reading(candidate, win) for candidate in
                    _scored_readings(counts, win, suit_shapes(won), situation)]
            assert ours == readings(won, win), kinds_to_str(_kinds(counts))
            seen.update(reading.form for reading in ours)
    assert seen == {"regular", "chiitoitsu", "kokushi"}


def test_a_hand_is_complete_when_it_has_a_reading() -> None:
    """:func:`is_complete` (from the suits' shapes) and :func:`readings` (from their splits)
    agree on every tile added to a tenpai hand, winning or not."""
    for counts in _random_hands(300):
        for kind in range(NUM_KINDS):
            if counts[kind] < 4:
                won = list(counts)
                won[kind] += 1
                assert is_complete(won) == bool(readings(won, kind)), kinds_to_str(_kinds(won))


def _kinds(counts: Sequence[int]) -> list[int]:
    return [kind for kind, count in enumerate(counts) for _ in range(count)]
