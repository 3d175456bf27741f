"""Honor names (minefield/rules/names.py): every name of a tile means that tile, sentences are
renamed only where an honor is written, and mpsz stays as it is under ``numbers``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minefield.rules.names import (
    KANJI,
    LETTERS,
    name_text,
    parse_tile_name,
    tile_name,
    tiles_text,
    to_mpsz,
)
from minefield.rules.tiles import Tile, TileError, parse_tiles, tiles_to_str


@pytest.mark.parametrize("index", range(7))
def test_every_name_of_an_honor_is_the_same_tile(index: int) -> None:
    tile = Tile(27 + index)
    for written in (LETTERS[index], LETTERS[index].lower(), LETTERS[index].upper(),
                    KANJI[index], f"{index + 1}z", f"{index + 1}Z"):
        assert parse_tile_name(written) == tile
    assert tile_name(tile, "letters") == LETTERS[index]
    assert tile_name(tile, "kanji") == KANJI[index]
    assert tile_name(tile, "numbers") == f"{index + 1}z"


def test_number_tiles_and_red_fives_keep_mpsz() -> None:
    for names in ("letters", "kanji", "numbers"):
        assert tile_name(Tile.parse("0p"), names) == "0p"
        assert tile_name(Tile.parse("9s"), names) == "9s"


def test_a_word_that_is_not_a_tile_says_what_a_tile_is() -> None:
    with pytest.raises(TileError, match=r"'Xy' is not a tile.*E S W N Wh Gr Rd"):
        parse_tile_name("Xy")


def test_hands_are_written_with_honors_by_name() -> None:
    tiles = parse_tiles("2335566p33s2255z")
    assert tiles_text(tiles, "letters") == "2335566p33s S S Wh Wh"
    assert tiles_text(tiles, "kanji") == "2335566p33s 南南白白"
    assert tiles_text(tiles, "numbers") == "2335566p33s2255z"


def test_sentences_are_renamed_only_where_an_honor_is_written() -> None:
    text = "[b]7z[/]: 3% (honor, 2 seen); safest was 1z; seed ab5z, 15z9 R15b, 5p"
    assert name_text(text, "letters") == ("[b]Rd[/]: 3% (honor, 2 seen); safest was E; "
                                          "seed ab5z, 15z9 R15b, 5p")
    assert name_text(text, "numbers") == text
    assert name_text("waits 1z 4z", "kanji") == "waits 東 北"


def test_typed_names_become_mpsz_for_the_parsers() -> None:
    assert parse_tiles(to_mpsz("123m456p789s E e wh Wh")) == parse_tiles("123m456p789s1155z")
    assert to_mpsz("中 發 発") == "7z 6z 6z"
    assert to_mpsz("yes 5s the") == "yes 5s the"  # not a name: unchanged


@given(st.lists(st.integers(min_value=0, max_value=33), min_size=1, max_size=14))
def test_a_hand_written_by_name_reads_back_as_the_same_tiles(kinds: list[int]) -> None:
    tiles = [Tile(kind) for kind in kinds]
    for names in ("letters", "kanji", "numbers"):
        written = tiles_text(tiles, names)
        assert sorted(parse_tiles(to_mpsz(written))) == sorted(tiles)
    assert tiles_text(tiles, "numbers") == tiles_to_str(tiles)
