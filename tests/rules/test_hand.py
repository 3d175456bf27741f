"""Hands, readings and waits (R7, R9, R12)."""

from __future__ import annotations

import pytest

from minefield.rules.hand import Hand, readings, waits
from minefield.rules.tiles import TileError, kind_from_str, kinds_to_str


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
