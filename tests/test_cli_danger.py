"""`minefield danger`: table, --json, --jsonl and one-line errors (R10-R17, R26 via the CLI)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from minefield.cli import main
from minefield.defense.calibration import Opponent
from minefield.defense.estimate import estimate
from minefield.defense.request import DangerRequest

TILES = "123456789m1112z2p5p8p6p4s4s7s3z9p9p1s1s2s5z5z6z6z4z4z7z7z"
HAND = "123456789m1112z"
POOL_KINDS = ["2p", "5p", "6p", "8p", "9p", "1s", "2s", "4s", "7s", "4z", "5z", "6z", "7z"]
ARGS = ["danger", "--tiles", TILES, "--hand", HAND, "--dora", "9s", "--east", "4s,3z",
        "--west", "5p,3p"]
REQUEST: dict[str, Any] = {"seat": "east", "tiles": TILES, "hand": HAND, "dora": "9s",
                           "discards": {"east": ["4s", "3z"], "west": ["5p", "3p"]},
                           "method": "fast"}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def jsonl(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
          data: bytes) -> tuple[int, list[str], str]:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8",
                                                      errors="strict"))
    code, out, err = run(capsys, "danger", "--jsonl")
    return code, out.splitlines(), err


def line(**changes: Any) -> bytes:
    return json.dumps({**REQUEST, **changes}).encode()


def check_result(result: dict[str, Any]) -> None:
    """The exact shape other tools read."""
    assert set(result) == {"discard", "opponent_furiten", "tiles"}
    assert result["discard"] == 5
    assert 0 <= result["opponent_furiten"] <= 1
    assert [t["tile"] for t in result["tiles"]] == POOL_KINDS
    for entry in result["tiles"]:
        assert set(entry) == {"tile", "danger", "loss", "reasons"}
        assert 0 <= entry["danger"] <= 1 and isinstance(entry["loss"], int)
        assert entry["reasons"] and all(isinstance(r, str) for r in entry["reasons"])


def test_json_result_has_the_documented_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *ARGS, "--json")
    assert code == 0
    result = json.loads(out)
    check_result(result)
    tiles = {t["tile"]: t for t in result["tiles"]}
    assert tiles["5p"]["danger"] == 0 and tiles["5p"]["reasons"][0].startswith("genbutsu")
    assert tiles["4s"]["danger"] == 0 and tiles["4s"]["reasons"][0].startswith("passed")
    assert tiles["2p"]["reasons"][0].startswith("suji of 5p")


def test_seat_defaults_to_the_one_whose_turn_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    _, with_seat, _ = run(capsys, *ARGS, "--seat", "east", "--json")
    _, without, _ = run(capsys, *ARGS, "--json")
    assert with_seat == without


def test_table_names_tiles_chances_and_reasons(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *ARGS)
    assert code == 0
    for text in ("Discard 5 (east)", "2p", "7z", "genbutsu", "passed", "suji of 5p", "0%"):
        assert text in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--tiles", TILES[:-2] + "8z"], 'tiles: "8z" is not a tile'),
    (["--tiles", TILES + "1p"], "tiles: 35 tiles, a seat holds 34 (R5)"),
    (["--hand", "123456789m1111z"], "hand: it holds tiles that are not among the seat's 34"),
    (["--hand", "123456789m111z"], "hand: hand has 12 tiles, expected 13"),
    (["--seat", "west"], "seat: it is east's turn to discard, not west's"),
    (["--east", "4s,4s,4s", "--west", "5p,3p,2z"],
     "discards: east discarded more 4s than its pool holds"),
    (["--west", "5p,3p,1m"], "east made 2 and west 3"),
    (["--dora", "1z", "--west", "5p,1z"], "discards.west[1]: a fifth 1z"),
    (["--dora", "0p"], "dora indicator: red fives (0m/0p/0s) are not used in these rules (R1)"),
])
def test_bad_input_is_one_clear_line(capsys: pytest.CaptureFixture[str], argv: list[str],
                                     message: str) -> None:
    args = list(ARGS)
    for option, value in zip(argv[::2], argv[1::2], strict=True):
        if option in args:
            args[args.index(option) + 1] = value
        else:
            args += [option, value]
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err and err.count("\n") == 1


def test_missing_position_and_bad_method(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "danger", "--tiles", TILES)
    assert code == 2 and err == "minefield: danger needs --hand, --dora (or --jsonl)\n"
    with pytest.raises(SystemExit) as exit_info:
        main([*ARGS, "--method", "guess"])
    assert exit_info.value.code == 2  # one line naming the choices
    assert capsys.readouterr().err == "minefield danger: --method takes fast, not 'guess'\n"


def test_jsonl_answers_good_and_bad_lines_in_order(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"\n".join([
        line(),
        line(tiles=TILES[:-2] + "8z"),
        line(tiles=TILES + "1p"),
        line(hand="123456789m1111z"),
        line(seat="west"),
        line(discards={"east": ["4s", "4s", "4s"], "west": ["5p", "3p", "2z"]}),
        line(method="guess"),
        b"not json",
        b'{"seat": "east", "tiles": "\xff"}',
        line(colour="red"),
        b"",
        line(discards={"north": []}),
        line(),
    ]) + b"\n"
    code, lines, err = jsonl(capsys, monkeypatch, data)
    assert code == 0 and "Traceback" not in err and len(lines) == 13
    results = [json.loads(text) for text in lines]
    check_result(results[0])
    assert results[-1] == results[0]
    errors = [r.get("error", "") for r in results[1:-1]]
    assert errors[0] == 'line 2: tiles: "8z" is not a tile (honors are 1z-7z)'
    assert errors[1] == "line 3: tiles: 35 tiles, a seat holds 34 (R5)"
    assert errors[2] == "line 4: hand: it holds tiles that are not among the seat's 34"
    assert errors[3] == "line 5: seat: it is east's turn to discard, not west's"
    assert errors[4] == "line 6: discards: east discarded more 4s than its pool holds"
    assert errors[5] == "line 7: field 'method': Input should be 'fast'"
    assert errors[6].startswith("line 8: Invalid JSON")
    assert errors[7] == "line 9: not valid UTF-8 (byte 0xff at position 28)"
    assert errors[8] == "line 10: field 'colour': unknown field"
    assert errors[9] == "line 11: empty line"
    assert errors[10].startswith("line 12: field 'discards.north.[key]'")
    assert all(len(r) == 1 for r in results[1:-1])


def test_jsonl_success_line_is_what_json_prints(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    code, lines, _ = jsonl(capsys, monkeypatch, line())
    _, single, _ = run(capsys, *ARGS, "--json")
    assert code == 0 and lines == [single.rstrip("\n")]


def test_jsonl_takes_no_position_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "danger", "--jsonl", "--tiles", TILES)
    assert code == 2 and out == "" and "--jsonl reads positions from stdin" in err


def test_posterior_is_a_one_line_error_naming_fast(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The posterior estimate was removed: its request is refused in one line that
    names the estimate to use, and the next line is answered as before."""
    code, lines, _ = jsonl(capsys, monkeypatch, line(method="posterior") + b"\n" + line())
    assert code == 0 and len(lines) == 2
    assert json.loads(lines[0]) == {
        "error": "line 1: field 'method': the posterior estimate was removed: use \"fast\" "
                 "(the one estimate) or leave method out"}
    check_result(json.loads(lines[1]))
    with pytest.raises(SystemExit):
        main([*ARGS, "--method", "posterior"])
    err = capsys.readouterr().err
    assert err == "minefield danger: --method takes fast, not 'posterior'\n"


def test_the_opponent_key_chooses_the_fit(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """"opponent" is optional (default strong), the answer keeps its exact shape, and each
    opponent's chances are the estimate's for that opponent; --opponent is the default of
    lines that name none, and of the command's own position."""
    data = b"\n".join([line(), line(opponent="strong"), line(opponent="easy"),
                       line(opponent="person"), line(opponent="expert"),
                       json.dumps({k: v for k, v in REQUEST.items() if k != "method"}).encode()])
    code, lines, _ = jsonl(capsys, monkeypatch, data)
    results = [json.loads(text) for text in lines]
    assert code == 0 and len(results) == 6
    for result in results[:4]:
        check_result(result)
    assert results[0] == results[1] == results[5]
    position = DangerRequest.model_validate(REQUEST).position()
    opponents: tuple[Opponent, ...] = ("strong", "easy", "person")
    for result, opponent in zip(results[1:4], opponents, strict=True):
        wanted = estimate(position, opponent)
        assert [t["danger"] for t in result["tiles"]] == [round(t.danger, 4)
                                                          for t in wanted.tiles]
    assert results[4]["error"] == ("line 5: field 'opponent': Input should be 'easy', "
                                   "'normal', 'strong' or 'person'")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(line() + b"\n" + line(
        opponent="strong")), encoding="utf-8"))
    assert main(["danger", "--jsonl", "--opponent", "easy"]) == 0
    first, second = (json.loads(t) for t in capsys.readouterr().out.splitlines())
    assert first == results[2] and second == results[0]
    _, out, _ = run(capsys, *ARGS, "--json", "--opponent", "easy")
    assert json.loads(out) == results[2]


def test_match_rules_pay_an_east_opponent_dealer_values(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """R23: under ``--rules match`` (``dealer_bonus``) East's rons are paid dealer values, so
    West's expected loss on each tile is 1.5 times the single game's, the chances unchanged;
    East discarding against West loses the same as in a single game. The same in ``--jsonl``
    through each line's ``rules``."""
    west = ["danger", "--tiles", TILES, "--hand", HAND, "--dora", "9s", "--east", "4s,3z,1m",
            "--west", "2p,5p", "--json"]
    results = {}
    for name, argv in (("west", west), ("east", [*ARGS, "--json"])):
        for rules in ("standard", "match"):
            code, out, _ = run(capsys, *argv, "--rules", rules)
            assert code == 0
            results[name, rules] = json.loads(out)["tiles"]
    single, dealt = results["west", "standard"], results["west", "match"]
    assert [t["danger"] for t in dealt] == [t["danger"] for t in single]
    assert any(t["loss"] for t in single)
    assert all(abs(d["loss"] - 1.5 * s["loss"]) <= 1 for d, s in zip(dealt, single, strict=True))
    assert results["east", "match"] == results["east", "standard"]
    request = {**REQUEST, "seat": "west", "discards": {"east": ["4s", "3z", "1m"],
                                                       "west": ["2p", "5p"]}}
    data = b"".join(json.dumps({**request, "rules": rules}).encode() + b"\n"
                    for rules in ("match", "standard", "matches"))
    code, lines, _ = jsonl(capsys, monkeypatch, data)
    assert code == 0
    assert [json.loads(x)["tiles"] for x in lines[:2]] == [dealt, single]
    assert json.loads(lines[2]) == {"error": "line 3: unknown rules preset 'matches': choose one "
                                             "of standard, beginner, match, club"}
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, out, err = run(capsys, "danger", "--jsonl", "--rules", "match")
    assert code == 2 and out == "" and "give no --rules" in err


def test_jsonl_result_is_the_models_json_byte_for_byte() -> None:
    """``danger --jsonl`` writes its results without building the result models;
    each is still exactly ``danger_request(request).model_dump_json()`` (bot-game positions,
    both seats, every discard)."""
    from minefield.bots import make_bot
    from minefield.defense.request import DangerRequest, danger_line, danger_request
    from minefield.rules.game import Game, Seat

    checked = 0
    for seed in (5, 6):
        game = Game(seed)
        bots = {s: make_bot("easy", seed + i) for i, s in enumerate(Seat)}
        for s in Seat:
            game.apply(s, bots[s].act(game.view(s)))
        while game.turn is not None:
            view = game.view(game.turn)
            assert view.own_hand is not None
            line = json.dumps({"seat": view.seat.value, "tiles": view.own_tiles,
                               "hand": view.own_hand, "dora": view.dora_indicator,
                               "discards": {s.value: row for s, row in view.discards.items()}})
            expected = danger_request(DangerRequest.model_validate_json(line)).model_dump_json()
            assert danger_line(line) == expected
            checked += 1
            game.apply(game.turn, bots[game.turn].act(view))
    assert checked > 20
