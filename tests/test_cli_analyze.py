"""`minefield analyze`: table, --json, --jsonl and clear errors (R12-R24 through the CLI)."""

from __future__ import annotations

import io
import json

import pytest

from minefield.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_result_has_the_documented_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "analyze", "23m456m345p678s55s", "--dora", "2m", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["hand"] == "23456m345p55678s" and result["tenpai"] is True
    waits = {w["tile"]: w for w in result["waits"]}
    assert list(waits) == ["1m", "4m", "7m"]
    four = waits["4m"]
    assert (four["eligible"], four["han"], four["fu"], four["points"], four["limit"]) == (
        True, 4, 30, 8000, "mangan")
    assert four["yaku"] == [{"name": "riichi", "han": 1}, {"name": "tanyao", "han": 1},
                            {"name": "pinfu", "han": 1}]
    assert (four["dora"], four["ura"]) == (1, 0)
    assert waits["1m"]["eligible"] is False


def test_seat_discard_and_ura_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "analyze", "123m456p789s3332z", "--seat", "west",
                       "--discard", "first", "--ura", "1z", "--json")
    assert code == 0
    wait = json.loads(out)["waits"][0]
    names = [y["name"] for y in wait["yaku"]]
    assert names == ["riichi", "ippatsu", "seat_wind"]  # R16, R19
    assert wait["ura"] == 2 and wait["eligible"] is False  # R14: ura does not count


def test_houtei_only_for_east(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "analyze", "23m456m345p678s55s", "--discard", "last", "--json")
    assert code == 0 and "houtei" in out
    code, _, err = run(capsys, "analyze", "23m456m345p678s55s", "--seat", "west",
                       "--discard", "last")
    assert code == 2 and "west cannot win on the last discard" in err


def test_noten_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "analyze", "1111m234p567p789s", "--json")
    assert code == 0 and json.loads(out) == {"hand": "1111m234567p789s", "tenpai": False,
                                             "waits": []}
    code, out, _ = run(capsys, "analyze", "1111m234p567p789s")
    assert "not tenpai" in out


def test_table_output_names_waits_and_verdicts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "analyze", "23m456m345p678s55s", "--dora", "2m")
    assert code == 0
    for text in ("1m", "4m", "7m", "8000", "mangan", "riichi", "tanyao", "pinfu"):
        assert text in out


@pytest.mark.parametrize(("argv", "message"), [
    (["analyze", "23m456m345p678s55"], "no suit letter"),
    (["analyze", "23m456m345p678s555s"], "hand has 14 tiles, expected 13"),
    (["analyze", "33333p12345678m"], "five copies of 3p"),
    (["analyze", "23m456m345p678s55s", "--dora", "8z"], '"8z" is not a tile'),
    (["analyze", "23m406m345p678s55s"], "red fives"),
    (["analyze"], "needs a HAND"),
])
def test_bad_input_is_one_clear_line(capsys: pytest.CaptureFixture[str], argv: list[str],
                                     message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err and err.count("\n") == 1


def test_jsonl_answers_each_line_in_order(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [
        {"hand": "23m456m345p678s55s", "dora": "2m"},
        {"hand": "8z"},
        "not json",
        {"hand": "123m456p789s3332z", "seat": "west", "discard": "first", "dora": "1z"},
        {"hand": "23m456m345p678s55s", "colour": "red"},
        {"hand": "23m456m345p678s55s", "rules": "beginner"},
    ]
    stdin = "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code, out, _ = run(capsys, "analyze", "--jsonl")
    assert code == 0
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == len(lines)
    assert [w["tile"] for w in results[0]["waits"]] == ["1m", "4m", "7m"]
    assert '"8z" is not a tile' in results[1]["error"]
    assert "Invalid JSON" in results[2]["error"]
    assert results[3]["waits"][0]["eligible"] is True  # ippatsu + 2 dora: mangan
    assert "colour" in results[4]["error"]
    assert all(w["eligible"] for w in results[5]["waits"])  # beginner: every wait wins


HAND = "23m456m345p678s55s"
GOOD = json.dumps({"hand": HAND}).encode()


@pytest.mark.parametrize("digit", ["²", "٣", "３", "𝟑"])
@pytest.mark.parametrize("where", ["hand", "dora", "ura"])
def test_non_ascii_digit_is_an_unexpected_character(capsys: pytest.CaptureFixture[str],
                                                    digit: str, where: str) -> None:
    """Notation: tiles are ASCII digits 0-9; a superscript or other script digit is refused."""
    argv = {"hand": [digit + HAND[1:]], "dora": [HAND, "--dora", digit + "m"],
            "ura": [HAND, "--ura", digit + "m"]}[where]
    code, out, err = run(capsys, "analyze", *argv)
    label = "hand" if where == "hand" else f"{where} indicator"
    assert code == 2 and out == ""
    assert f"{label}: unexpected {digit!r} at position 1" in err
    assert "Traceback" not in err and err.count("\n") == 1
