"""The per-suit tables shipped as data (minefield/rules/_suit_data.py).

The file must be exactly what the tables' own functions compute, the shapes and waits read
from it must be the computed ones, and a missing or damaged file must only cost speed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from minefield.rules import _suit_data, _suit_tables
from minefield.rules._suit_data import FILE, generate, load, parse, suit_key
from minefield.rules._suit_tables import (
    HONORS,
    SUIT_TABLES,
    _shape_builder,
    _splitting_suits,
    _waits_builder,
)
from minefield.rules.hand import Hand
from minefield.rules.score import WinContext, analyze


def _counts(kinds: int, size: int = 14) -> Iterator[tuple[int, ...]]:
    """Every count vector of ``kinds`` kinds, at most four each, at most ``size`` tiles."""
    if kinds == 0:
        yield ()
        return
    for count in range(min(4, size) + 1):
        for rest in _counts(kinds - 1, size - count):
            yield (count, *rest)


@pytest.fixture
def fresh_tables() -> Iterator[None]:
    """Empty per-suit tables before and after the test (and the shipped file read anew)."""
    _suit_tables.shipped_data.cache_clear()
    SUIT_TABLES.cache_clear()
    yield
    _suit_tables.shipped_data.cache_clear()
    SUIT_TABLES.cache_clear()


def test_the_shipped_file_is_what_the_code_computes() -> None:
    """Regenerated from the tables' own functions, the file is the same byte for byte: it
    cannot go stale silently (regenerate with ``python -m minefield.rules._suit_data``)."""
    assert FILE.read_bytes() == generate()


def test_the_file_holds_exactly_the_suits_that_split_or_wait() -> None:
    """Every suit that splits (groups and at most one pair) has a record and the count of its
    ways; a suit has waits exactly when one more tile makes it split."""
    data = load()
    assert data is not None
    for honors, kinds in ((False, 9), (True, 7)):
        suit = HONORS if honors else 0
        splits = _suit_tables._SPLITS[suit].build
        every = list(_counts(kinds))
        rng = random.Random(18)
        for counts in rng.sample(every, 4000) if not honors else every:
            record = data.record(counts, sum(counts), honors)
            assert record is not None
            waits, ways, _ = record
            assert bool(ways) == splits(counts), counts
            expected = 0
            for offset in range(kinds):
                more = (*counts[:offset], counts[offset] + 1, *counts[offset + 1:])
                if sum(more) <= 14 and more[offset] <= 4 and splits(more):
                    expected |= 1 << offset
            assert waits == expected, counts


def test_shapes_and_waits_read_from_the_file_are_the_computed_ones() -> None:
    """Every numbered suit that splits (in each of the three suits), every honors' suit and a
    sample of all other suits: the same :class:`SuitShape` and the same waits, with the same
    shapes, whether read from the file or computed."""
    numbered = sorted(_splitting_suits(9, [(i, i, i) for i in range(9)]
                                       + [(i, i + 1, i + 2) for i in range(7)]))
    rng = random.Random(7)
    numbered += rng.sample(list(_counts(9)), 3000)
    for suit in range(4):
        samples = list(_counts(7)) if suit == HONORS else numbered[suit::3]
        shipped, computed = _shape_builder(suit, True), _shape_builder(suit, False)
        shipped_waits, computed_waits = _waits_builder(suit, True), _waits_builder(suit, False)
        for counts in samples:
            assert shipped(counts) == computed(counts), (suit, counts)
            if sum(counts) <= 13:
                assert shipped_waits(counts) == computed_waits(counts), (suit, counts)


def test_keys_only_cover_suits_a_hand_can_hold() -> None:
    """More than 4 of a kind or 14 tiles in a suit is outside the file (computed instead),
    even counts whose byte is a space or a digit."""
    data = load()
    assert data is not None
    assert suit_key((9, 0, 0, 0, 0, 0, 0, 0, 0), False) is None
    for counts in [(9, 0, 0, 0, 0, 0, 0, 0, 0), (5, 0, 0, 0, 0, 0, 0, 0, 0),
                   (4, 4, 4, 3, 0, 0, 0, 0, 0), (-1, 2, 0, 0, 0, 0, 0, 0, 0)]:
        assert data.record(counts, sum(counts), False) is None
    assert data.record((0,) * 9, 0, False) == (0, 1, 3)  # the empty suit splits: no groups


@pytest.mark.parametrize("damage", ["missing", "empty", "truncated", "flipped", "magic"])
def test_a_damaged_file_is_ignored(tmp_path: Path, damage: str) -> None:
    """A missing, empty, cut or altered file reads as no tables (the checksum catches a
    flipped byte), never as wrong ones and never as an exception."""
    blob = FILE.read_bytes()
    damaged = {"missing": None, "empty": b"", "truncated": blob[:len(blob) // 2],
               "flipped": blob[:5000] + bytes([blob[5000] ^ 1]) + blob[5001:],
               "magic": b"X" + blob[1:]}[damage]
    path = tmp_path / "suit_tables.bin"
    if damaged is not None:
        path.write_bytes(damaged)
        assert parse(damaged) is None
    assert load(path) is None


def test_without_the_file_every_shape_is_computed(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path, fresh_tables: None) -> None:
    """With a corrupt file in its place the analysis is the same, only slower."""
    hands = ["23m456m345p678s55s", "1112345678999m", "19m19p19s1234567z", "1122335577889m",
             "123m456p789s1112z", "2344555666777m"]
    ctx = WinContext(dora_indicator=3, ura_indicator=27)
    expected = [analyze(Hand.parse(text), ctx) for text in hands]
    corrupt = tmp_path / "suit_tables.bin"
    corrupt.write_bytes(b"MFSUIT1\n" + b"\0" * 64)
    monkeypatch.setattr(_suit_data, "FILE", corrupt)
    _suit_tables.shipped_data.cache_clear()
    SUIT_TABLES.cache_clear()
    assert _suit_tables.shipped_data() is None
    assert [analyze(Hand.parse(text), ctx) for text in hands] == expected
    assert any(len(table) for table in _suit_tables._SPLITS)  # computed, not read
