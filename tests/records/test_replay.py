"""Replaying records (R2): the same seed and moves give the same game and result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from minefield.records.reader import parse_record, read_record
from minefield.records.replay import compare, replay_record
from minefield.records.result import ResultLine
from minefield.rules.game import Discard, Game
from tests.records.conftest import DRAW_SEED, RON_SEED, played, record_of


def _edit(path: Path, number: int, change: dict[str, object]) -> bytes:
    """The record with line ``number`` (1-based) updated by ``change`` (nested one level)."""
    lines = path.read_bytes().splitlines(keepends=True)
    data = json.loads(lines[number - 1])
    for key, value in change.items():
        if isinstance(value, dict):
            data[key].update(value)
        else:
            data[key] = value
    lines[number - 1] = json.dumps(data).encode() + b"\n"
    return b"".join(lines)


@pytest.mark.parametrize("seed", [RON_SEED, DRAW_SEED])
def test_a_whole_record_replays_to_its_result(tmp_path: Path, seed: int) -> None:
    game = played(seed)
    replay = replay_record(read_record(record_of(game, tmp_path)))
    assert replay.consistent and replay.problems == ()
    assert replay.applied == len(game.commands)
    assert replay.result == replay.stored == ResultLine.of_game(game)
    assert replay.game.state_key() == game.state_key()


def test_every_prefix_is_a_valid_position(tmp_path: Path) -> None:
    """A record without a result, of any length, is how a player shares a position."""
    game = played(RON_SEED)
    lines = record_of(game, tmp_path).read_bytes().splitlines(keepends=True)
    for count in range(len(game.commands) + 1):
        replay = replay_record(parse_record(b"".join(lines[:count + 1]), "prefix"))
        assert replay.consistent and replay.applied == count
        assert replay.game.state_key() == Game.replay(game.seed, None,
                                                      game.commands[:count]).state_key()
        assert replay.stored is None
        assert (replay.result is not None) == (count == len(game.commands))


def test_tampered_points_are_inconsistent(tmp_path: Path) -> None:
    path = record_of(played(RON_SEED), tmp_path)
    last = len(path.read_bytes().splitlines())
    record = parse_record(_edit(path, last, {"result": {"points": 12000, "limit": "haneman"}}),
                          "tampered")
    assert record.problems == ()
    replay = replay_record(record)
    assert not replay.consistent
    assert replay.problems == (
        f"the result (line {last}) differs from the replay: result.points: stored 12000, "
        'replayed 8000; result.limit: stored "haneman", replayed "mangan"',)


def test_tampered_deal_is_inconsistent(tmp_path: Path) -> None:
    path = record_of(played(DRAW_SEED), tmp_path)
    last = len(path.read_bytes().splitlines())
    deal = json.loads(path.read_bytes().splitlines()[-1])["deal"]
    swapped = deal["dead_wall"][2:4] + deal["dead_wall"][:2] + deal["dead_wall"][4:]
    if swapped == deal["dead_wall"]:
        pytest.skip("the first two dead-wall tiles are the same")
    replay = replay_record(parse_record(_edit(path, last, {"deal": {"dead_wall": swapped}}),
                                        "tampered"))
    assert replay.problems == (f"the result (line {last}) differs from the replay: "
                               f'deal.dead_wall: stored "{swapped}", replayed '
                               f'"{deal["dead_wall"]}"',)


def test_a_tampered_discard_is_inconsistent(tmp_path: Path) -> None:
    """Another tile of the same pool changes the game: the record no longer replays to its
    result (here the discard that won the game is replaced by a safe one)."""
    game = played(RON_SEED)
    end = game.result
    assert end is not None and end.win_tile is not None and end.winner is not None
    path = record_of(game, tmp_path)
    last_discard = len(game.commands) + 1  # the line of the command that ended the game
    loser = end.winner.other
    hand = game.hand_of(loser)
    assert hand is not None
    pool = game.tiles_of(loser)
    for tile in hand.tiles:
        pool.remove(tile)
    discarded = {cmd.tile for seat, cmd in game.commands if isinstance(cmd, Discard)}
    safe = next(str(t) for t in pool
                if t.kind not in game.waits_of(end.winner) and str(t) not in discarded)
    replay = replay_record(parse_record(_edit(path, last_discard,
                                              {"command": {"tile": safe}}), "tampered"))
    assert not replay.consistent
    assert replay.problems[0].startswith(
        f"the record has a result (line {last_discard + 1}) but its {len(game.commands)} "
        "commands do not end the game")


def test_a_refused_command_is_inconsistent(tmp_path: Path) -> None:
    path = record_of(played(RON_SEED), tmp_path)
    replay = replay_record(parse_record(_edit(path, 5, {"seat": "east"}), "tampered"))
    assert replay.applied == 3
    assert replay.problems == ("command 4 (line 5) is refused: east cannot discard now: "
                               "it is west's turn",)


def test_a_missing_command_is_inconsistent(tmp_path: Path) -> None:
    path = record_of(played(RON_SEED), tmp_path)
    lines = path.read_bytes().splitlines(keepends=True)
    record = parse_record(b"".join(lines[:3] + lines[4:]), "gap")
    replay = replay_record(record)
    assert replay.applied == 2
    assert replay.problems == ("command 3 is missing (line 4 holds command 4)",)


def test_compare_names_each_difference() -> None:
    assert compare({"a": {"b": 1, "c": "x" * 50}}, {"a": {"b": 2, "c": "y" * 50, "d": 0}}) == [
        "a.b: stored 1, replayed 2", "a.c: differs", "a.d: stored null, replayed 0"]
    assert compare({"a": [1]}, {"a": [1]}) == []
