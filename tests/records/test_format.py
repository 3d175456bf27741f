"""The record format: the exact keys of each line kind, the deal in order (R3), hidden reprs."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest
from pydantic import ValidationError

from minefield.records.format import CommandLine, dump_line
from minefield.records.header import Players, RecordHeader
from minefield.records.result import RecordDeal, RecordResult, ResultLine
from minefield.rules.game import ChooseHand, Discard, Game, Seat
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import parse_tiles
from minefield.rules.wall import tile_from_id
from tests.records.conftest import DRAW_SEED, PLAYERS, RON_SEED, played

HEADER_KEYS = {"record", "version", "seed", "rules", "mode", "players", "started"}
RESULT_KEYS = {"kind", "winner", "tile", "discard", "points", "han", "fu", "limit", "yaku",
               "dora", "ura", "furiten"}
DEAL_KEYS = {"east", "west", "dora_indicator", "ura_indicator", "dead_wall"}


def _line(model: RecordHeader | CommandLine | ResultLine) -> dict[str, object]:
    data = dump_line(model)
    assert data.endswith(b"\n") and data.count(b"\n") == 1
    parsed: dict[str, object] = json.loads(data)
    return parsed


def test_header_line_has_exactly_the_documented_keys() -> None:
    game = Game(seed=5, settings=RuleSettings.preset("beginner"))
    header = RecordHeader.for_game(game, "hotseat", PLAYERS)
    line = _line(header)
    assert set(line) == HEADER_KEYS
    assert line["record"] == "minefield" and line["version"] == 1
    assert line["seed"] == game.seed and len(game.seed) == 32
    assert line["rules"] == RuleSettings.preset("beginner").model_dump()
    assert line["players"] == {"east": "Ann", "west": "Bot normal"}
    assert isinstance(line["started"], str) and line["started"].endswith("Z")
    assert RecordHeader.model_validate_json(dump_line(header)) == header


def test_times_are_iso_utc_to_the_millisecond() -> None:
    cet = timezone(timedelta(hours=1))
    line = CommandLine(seq=1, seat=Seat.EAST, command=Discard(tile="5p"),
                       at=datetime(2025, 1, 2, 4, 4, 5, 678901, tzinfo=cet))
    assert _line(line)["at"] == "2025-01-02T03:04:05.678Z"
    with pytest.raises(ValidationError):  # a naive time says nothing about the zone
        CommandLine(seq=1, seat=Seat.EAST, command=Discard(tile="5p"),
                    at=datetime(2025, 1, 2))


def test_command_lines() -> None:
    discard = _line(CommandLine(seq=7, seat=Seat.WEST, command=Discard(tile="5p"),
                                at=datetime.now().astimezone()))
    assert set(discard) == {"seq", "seat", "command", "at"}
    assert discard["command"] == {"type": "discard", "tile": "5p"}
    assert discard["seat"] == "west" and discard["seq"] == 7
    choose = _line(CommandLine(seq=1, seat=Seat.EAST,
                               command=ChooseHand(tiles="55s23m456m345p678s"),
                               at=datetime.now().astimezone()))
    assert choose["command"] == {"type": "choose_hand", "tiles": "23456m345p55678s"}
    with pytest.raises(ValidationError):
        CommandLine.model_validate({"seq": 0, "seat": "east", "at": "2025-01-01T00:00:00Z",
                                    "command": {"type": "discard", "tile": "5p"}})


def test_ron_result_line() -> None:
    """R13, R18: the winner, the tile, the discard that ended the game, the value as paid."""
    game = played(RON_SEED)
    end = game.result
    assert end is not None and end.value is not None and end.winner is Seat.EAST
    line = _line(ResultLine.of_game(game))
    assert set(line) == {"result", "deal"}
    result = line["result"]
    assert isinstance(result, dict) and set(result) == RESULT_KEYS
    assert result["kind"] == "ron" and result["winner"] == "east"
    assert result["tile"] == end.win_tile and result["discard"] == end.discard_number
    assert (result["points"], result["han"], result["fu"]) == (8000, end.value.han, end.value.fu)
    assert result["limit"] == "mangan"
    assert result["yaku"] == [y.model_dump() for y in end.value.yaku]
    assert {"name": "riichi", "han": 1} in result["yaku"]  # R8: always in riichi
    assert (result["dora"], result["ura"]) == (end.value.dora, end.value.ura)
    assert result["furiten"] == {s.value: (c.model_dump() if c else None)
                                 for s, c in end.furiten.items()}


def test_draw_result_line() -> None:
    """R11: a draw after 34 discards: no winner, no tile, nothing paid."""
    result = _line(ResultLine.of_game(played(DRAW_SEED)))["result"]
    assert isinstance(result, dict)
    assert result == {
        "kind": "draw", "winner": None, "tile": None, "discard": 34, "points": 0, "han": 0,
        "fu": 0, "limit": None, "yaku": [], "dora": 0, "ura": 0,
        "furiten": result["furiten"],
    }


def test_result_of_an_unfinished_game_is_an_error() -> None:
    with pytest.raises(ValueError, match="not ended"):
        ResultLine.of_game(Game(seed=3))


def test_red_fives_are_written_only_when_there_are_some() -> None:
    """R1: ``aka`` is an optional key, absent when 0 (the documented shape stays exact)."""
    game = played(RON_SEED)
    result = RecordResult.of_game(game)
    assert "aka" not in result.model_dump(mode="json")
    with_red = result.model_copy(update={"aka": 1})
    assert with_red.model_dump(mode="json")["aka"] == 1
    assert RecordResult.model_validate_json(with_red.model_dump_json()) == with_red


def test_deal_keeps_the_dead_wall_in_order() -> None:
    """R3: the dead wall is written tile by tile; index 2 is the dora indicator and the tile
    beneath it (index 9) the ura indicator; both seats' 34 tiles are written too (R5)."""
    game = Game(seed=11)
    deal = RecordDeal.of_game(game)
    line = json.loads(deal.model_dump_json())
    assert set(line) == DEAL_KEYS
    dead = parse_tiles(deal.dead_wall)
    assert dead == [tile_from_id(i, False) for i in game.deal.dead_wall]
    assert str(dead[2]) == deal.dora_indicator == str(game.dora_indicator)
    assert str(dead[9]) == deal.ura_indicator == str(game.ura_indicator)
    assert len(parse_tiles(deal.east)) == len(parse_tiles(deal.west)) == 34
    assert sorted(parse_tiles(deal.east)) == sorted(game.tiles_of(Seat.EAST))
    assert RecordDeal.model_validate_json(deal.model_dump_json()) == deal


def test_deal_whose_indicator_is_not_in_its_place_is_refused() -> None:
    deal = json.loads(RecordDeal.of_game(Game(seed=11)).model_dump_json())
    wrong = "1z" if deal["dora_indicator"] != "1z" else "2z"
    with pytest.raises(ValidationError, match="dora indicator"):
        RecordDeal.model_validate({**deal, "dora_indicator": wrong})
    with pytest.raises(ValidationError, match="14"):
        RecordDeal.model_validate({**deal, "dead_wall": deal["dead_wall"][2:]})


def test_models_forbid_unknown_keys_and_check_the_seed() -> None:
    header = json.loads(dump_line(RecordHeader.for_game(Game(seed="ab" * 16), "network",
                                                        PLAYERS)))
    for bad in ({**header, "extra": 1}, {**header, "seed": header["seed"].upper()},
                {**header, "seed": "12"}, {**header, "mode": "tournament"},
                {**header, "rules": {**header["rules"], "bogus": True}}):
        with pytest.raises(ValidationError):
            RecordHeader.model_validate(bad)


def test_reprs_hide_the_seed_and_the_tiles() -> None:
    """Hidden information: a traceback with locals must not reveal the deal."""
    game = played(RON_SEED)
    header = RecordHeader.for_game(game, "practice", Players(east="a", west="b"))
    line = ResultLine.of_game(game)
    choose = CommandLine(seq=1, seat=Seat.EAST, command=game.commands[0][1],
                         at=header.started)
    deal = line.deal
    chosen = game.commands[0][1]
    assert isinstance(chosen, ChooseHand)
    for text in (repr(header), str(header), repr(line), str(line), repr(choose), repr(deal),
                 str(deal)):
        assert game.seed not in text
        for secret in (deal.east, deal.west, deal.dead_wall, chosen.tiles):
            assert secret not in text


def test_a_command_line_keeps_its_id_and_automatic_mark_and_old_lines_still_read() -> None:
    """``command_id`` and ``automatic`` are optional keys: written only when they apply, so a
    line without them reads as before (an older record) and a plain line is written as
    before."""
    old = (b'{"seq":1,"seat":"east","command":{"type":"discard","tile":"5p"},'
           b'"at":"2025-03-01T12:00:01.000Z"}')
    line = CommandLine.model_validate_json(old)
    assert (line.command_id, line.automatic) == (None, False)
    assert dump_line(line) == old + b"\n"
    marked = line.model_copy(update={"command_id": "a1f3-8", "automatic": True})
    data = json.loads(dump_line(marked))
    assert (data["command_id"], data["automatic"]) == ("a1f3-8", True)
    assert CommandLine.model_validate(data) == marked
    with pytest.raises(ValidationError):
        CommandLine.model_validate({**data, "command_id": "not an id!"})
