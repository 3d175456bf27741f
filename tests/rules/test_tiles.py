"""Notation (RULES.md notation section), R1 copies and R4 dora."""

from __future__ import annotations

import pytest

from minefield.rules.tiles import (
    Tile,
    TileError,
    check_copies,
    dora_from_indicator,
    kind_from_str,
    kind_str,
    parse_tiles,
    tiles_to_str,
)


def test_parse_groups_digits_before_suit_letter() -> None:
    tiles = parse_tiles("23m456m345p678s55s")
    assert [str(t) for t in tiles] == ["2m", "3m", "4m", "5m", "6m", "3p", "4p", "5p", "6s",
                                       "7s", "8s", "5s", "5s"]


def test_print_is_sorted_grouped_notation() -> None:
    assert tiles_to_str(parse_tiles("5s1z23m5s")) == "23m55s1z"


@pytest.mark.parametrize("text", ["1m", "9p", "5s", "1z", "7z", "0m", "0s"])
def test_round_trip_of_every_form(text: str) -> None:
    assert str(Tile.parse(text)) == text


@pytest.mark.parametrize(("text", "message"), [
    ("8z", '"8z" is not a tile'),
    ("0z", '"0z" is not a tile'),
    ("12x", "unexpected 'x' at position 3"),
    ("m", "has no digits before it"),
    ("123", "have no suit letter"),
])
def test_bad_notation_is_a_clear_error(text: str, message: str) -> None:
    with pytest.raises(TileError, match=message):
        parse_tiles(text)


def test_r1_five_copies_is_an_error() -> None:
    with pytest.raises(TileError, match="five copies of 3p"):
        check_copies(parse_tiles("33333p"))


def test_r1_only_one_red_five_per_suit() -> None:
    with pytest.raises(TileError, match="red fives of m"):
        check_copies(parse_tiles("00m"))


@pytest.mark.parametrize(("indicator", "dora"), [
    ("1m", "2m"), ("9m", "1m"), ("9p", "1p"), ("9s", "1s"),
    ("1z", "2z"), ("4z", "1z"), ("5z", "6z"), ("6z", "7z"), ("7z", "5z"),
])
def test_r4_dora_wraps_within_its_group(indicator: str, dora: str) -> None:
    assert kind_str(dora_from_indicator(kind_from_str(indicator))) == dora
