"""`minefield analyze`: table, --json, --jsonl and clear errors (R12-R24 through the CLI)."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from minefield.cli import main
from minefield.cli.jsonl import serve_jsonl
from minefield.paths import CONFIG_ENV
from minefield.tui.config import Preferences, save_preferences


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
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
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


def jsonl(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, data: bytes,
          *argv: str) -> tuple[int, list[str], str]:
    """Run ``analyze --jsonl`` (or ``argv``) on raw stdin bytes; the output lines."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8",
                                                      errors="strict"))
    code, out, err = run(capsys, *(argv or ("analyze", "--jsonl")))
    return code, out.splitlines(), err


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


def test_jsonl_non_ascii_digit_does_not_stop_the_loop(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    data = json.dumps({"hand": "²" + HAND[1:]}).encode() + b"\n" + GOOD + b"\n"
    code, lines, _ = jsonl(capsys, monkeypatch, data)
    assert code == 0 and len(lines) == 2
    assert json.loads(lines[0])["error"].startswith("line 1: hand: unexpected '²' at position 1")
    assert json.loads(lines[1])["tenpai"] is True


def test_jsonl_invalid_utf8_line_is_its_own_error(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A line that is not UTF-8 gets one error line; the lines around it are answered."""
    data = GOOD + b"\n" + b'{"hand": "\xff\xfe"}\n' + GOOD + b"\n"
    code, lines, err = jsonl(capsys, monkeypatch, data)
    assert code == 0 and "Traceback" not in err and len(lines) == 3
    assert json.loads(lines[0])["hand"] == json.loads(lines[2])["hand"] == "23456m345p55678s"
    assert json.loads(lines[1]) == {
        "error": "line 2: not valid UTF-8 (byte 0xff at position 11)"}


def test_jsonl_blank_lines_are_answered_and_errors_carry_line_numbers(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """One output line per input line, a blank one included, so outputs line up with inputs."""
    data = b"\n".join([GOOD, b"", b"   \t", b'{"hand": "8z"}', b"[1]", GOOD]) + b"\n"
    code, lines, _ = jsonl(capsys, monkeypatch, data)
    assert code == 0 and len(lines) == 6
    results = [json.loads(line) for line in lines]
    assert results[1] == {"error": "line 2: empty line"}
    assert results[2] == {"error": "line 3: empty line"}
    assert results[3] == {"error": 'line 4: hand: "8z" is not a tile (honors are 1z-7z)'}
    assert results[4] == {"error": "line 5: Input should be an object"}
    assert results[0] == results[5] and set(results[0]) == {"hand", "tenpai", "waits"}


def test_jsonl_success_lines_are_unchanged(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A good line's output is exactly what --json prints for the same hand (read by tools)."""
    code, lines, _ = jsonl(capsys, monkeypatch, GOOD + b"\r\n" + GOOD)
    _, single, _ = run(capsys, "analyze", HAND, "--json")
    assert code == 0 and lines == [single.rstrip("\n")] * 2


def test_jsonl_over_long_line_is_one_error(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A line over 64 KiB is skipped to its end and answered with one error line."""
    huge = b'{"hand": "' + b"1" * 10_000_000 + b'm"}'
    code, lines, _ = jsonl(capsys, monkeypatch, GOOD + b"\n" + huge + b"\n" + GOOD + b"\n")
    assert code == 0 and len(lines) == 3
    assert json.loads(lines[1]) == {"error": "line 2: longer than 65536 bytes"}
    assert json.loads(lines[2])["tenpai"] is True


def test_jsonl_byte_order_mark_on_the_first_line(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A UTF-8 byte order mark (as some editors write) before the first request is ignored."""
    code, lines, _ = jsonl(capsys, monkeypatch, b"\xef\xbb\xbf" + GOOD + b"\n" + GOOD)
    assert code == 0 and len(lines) == 2 and lines[0] == lines[1]
    assert json.loads(lines[0])["tenpai"] is True


def test_serve_jsonl_survives_a_bug_in_one_answer() -> None:
    """An unexpected exception costs its line an error line; later lines are still answered."""

    def answer(line: str) -> str:
        if "boom" in line:
            raise KeyError(line)
        return line.upper()

    out = io.StringIO()
    assert serve_jsonl(answer, io.BytesIO(b'"a"\n"boom"\n"c"\n'), out) == 0
    assert out.getvalue().splitlines() == [
        '"A"', json.dumps({"error": "line 2: internal error (KeyError), please report this "
                                    "request"}), '"C"']


@pytest.mark.parametrize("length", [65536, 65537])
def test_jsonl_line_cap_is_exactly_64_kib(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch, length: int) -> None:
    """65536 bytes (newline not counted) is read and answered; one more byte is too long."""
    line = GOOD + b" " * (length - len(GOOD))
    code, lines, _ = jsonl(capsys, monkeypatch, line + b"\n" + line)
    assert code == 0 and len(lines) == 2
    for result in map(json.loads, lines):
        if length == 65536:
            assert result["tenpai"] is True
        else:
            assert result["error"].endswith(": longer than 65536 bytes")


def test_errors_quote_only_a_short_prefix_of_the_input(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A long bad hand is quoted by its first 40 characters and an ellipsis, not in full."""
    long_hand = "x" * 5000
    code, _, err = run(capsys, "analyze", long_hand)
    assert code == 2 and f"of {'x' * 40!r}…" in err and len(err) < 200
    data = b"\n".join([
        json.dumps({"hand": long_hand}).encode(),
        json.dumps({"hand": HAND, "k" * 5000: 1}).encode(),
        json.dumps({"hand": HAND, "rules": "r" * 5000}).encode(),
        json.dumps({"hand": HAND, "dora": "9" * 5000}).encode(),
        json.dumps({"hand": HAND, **{f"extra{i}": i for i in range(2000)}}).encode(),
    ])
    code, lines, _ = jsonl(capsys, monkeypatch, data)
    assert code == 0 and len(lines) == 5
    errors = [json.loads(line)["error"] for line in lines]
    assert errors[0].startswith(f"line 1: hand: unexpected 'x' at position 1 of {'x' * 40!r}…")
    assert errors[1] == f"line 2: field {'k' * 40!r}…: unknown field"
    assert errors[2].startswith(f"line 3: unknown rules preset {'r' * 40!r}…: choose one of")
    assert errors[3] == f"line 4: dora indicator: digits at the end of {'9' * 40!r}… have no " \
        "suit letter (m, p, s or z)"
    assert errors[4].startswith("line 5: field 'extra0': unknown field; field 'extra1'")
    assert errors[4].endswith("(2000 problems in all)")
    assert all(len(e) < 300 for e in errors)


@pytest.mark.parametrize("option", ["--dora", "--ura"])
@pytest.mark.parametrize("rules", ["standard", "beginner"])
def test_red_five_indicator_is_refused_without_red_fives(capsys: pytest.CaptureFixture[str],
                                                         option: str, rules: str) -> None:
    """R1: no red fives in these rules, so no red-five indicator either (as for hands)."""
    code, out, err = run(capsys, "analyze", HAND, option, "0m", "--rules", rules)
    what = option.removeprefix("--")
    assert code == 2 and out == ""
    assert err == (f"minefield: {what} indicator: red fives (0m/0p/0s) are not used in these "
                   "rules (R1)\n")


def test_match_rules_pay_east_dealer_values(capsys: pytest.CaptureFixture[str]) -> None:
    """R23: under the ``match`` preset (``dealer_bonus``) East is the dealer, paid 1.5 times a
    non-dealer; West is not. 2 han 40 fu: 2600 for a non-dealer, 3900 for the dealer; the
    kiriage mangan: 8000 and 12000."""
    def points(*argv: str) -> list[tuple[str, int, int]]:
        code, out, _ = run(capsys, "analyze", *argv, "--json")
        assert code == 0
        return [(w["tile"], w["points"], w["points_without_ura"])
                for w in json.loads(out)["waits"]]

    assert points("123m456p789s1112z", "--seat", "east") == [("2z", 2600, 2600)]
    assert points("123m456p789s1112z", "--seat", "east", "--rules", "match") == [
        ("2z", 3900, 3900)]
    assert points("123m456p789s3332z", "--seat", "west", "--rules", "match") == [
        ("2z", 2600, 2600)]
    assert points("23m456m345p678s55s", "--dora", "2m", "--rules", "match") == [
        ("1m", 5800, 5800), ("4m", 12000, 12000), ("7m", 12000, 12000)]
    code, out, _ = run(capsys, "analyze", "123m456p789s1112z", "--rules", "match")
    assert code == 0 and "3900" in out and "2600" not in out


def test_jsonl_match_rules_pay_east_dealer_values(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """R23 in ``--jsonl``: each line's ``rules`` decide; a ``--rules`` option beside
    ``--jsonl`` would be ignored, so it is refused."""
    lines = [{"hand": "123m456p789s1112z", "rules": "match"},
             {"hand": "123m456p789s1112z", "seat": "west", "rules": "match"},
             {"hand": "123m456p789s1112z"}]
    data = "".join(json.dumps(x) + "\n" for x in lines).encode()
    code, out, _ = jsonl(capsys, monkeypatch, data)
    assert code == 0
    assert [json.loads(x)["waits"][0]["points"] for x in out] == [3900, 1300, 2600]
    code, out, err = jsonl(capsys, monkeypatch, data, "analyze", "--jsonl", "--rules", "match")
    assert code == 2 and out == []
    assert err == ('minefield: --jsonl takes the rules from each line\'s "rules" key: give no '
                   "--rules\n")


def _old_answer(line: str) -> str:
    """What ``--jsonl`` answered before its fast path: the models, validated and dumped."""
    from pydantic import ValidationError

    from minefield.analyzer import AnalyzeError, AnalyzeRequest, analyze_request
    from minefield.rules.request import describe_request_error

    try:
        request = AnalyzeRequest.model_validate_json(line)
    except ValidationError as error:
        return "error: " + describe_request_error(error)
    try:
        return analyze_request(request).model_dump_json()
    except AnalyzeError as error:
        return "error: " + str(error)


def test_jsonl_fast_path_is_the_models_byte_for_byte() -> None:
    """``--jsonl`` writes its answers without building the pydantic models; each
    answer (and each error) is still exactly the models' ``model_dump_json()``, on random
    tenpai hands of every shape and situation and on lines the fast path leaves to pydantic."""
    import random

    from minefield.analyzer import AnalyzeError, analyze_line
    from minefield.rules.random_hands import random_case
    from minefield.rules.tiles import kind_str, kinds_to_str

    def new_answer(line: str) -> str:
        try:
            return analyze_line(line)
        except AnalyzeError as error:
            return "error: " + str(error)

    rng = random.Random(18)
    lines = []
    for number in range(600):
        case = random_case(rng)
        lines.append(json.dumps({
            "hand": kinds_to_str([k for k, n in enumerate(case.counts) for _ in range(n)]),
            "seat": "east" if case.seat_wind == 27 else "west",
            "dora": kind_str(case.dora_indicator), "ura": kind_str(case.ura_indicator),
            "discard": case.discard, "rules": ("standard", "beginner", "match")[number % 3]}))
    lines += ['{"hand":"x","hand":"123m456p789s1112z"}', '{"hand":"123m456p789s1112z","seat":5}',
              '{"hand":"123m456p789s1112z","dora":null,"ura":"1z"}', "[1]", '"x"', "{}",
              '{"hand":"123m456p789s1112z","rules":"nope"}', '{"hand":"12\\u0033m456p789s1112z"}',
              '{"hand":"123m456p789s1112z","seat":"EAST"}', '{"hand":"23m406m345p678s55s"}',
              '{"hand":"123m456p789s1112z","extra":1}', '{"hand":"123m456p789s1112z"} x',
              '{"hand":"123m456p789s1112z","discard":"last","seat":"west"}',
              '{"hand":"1111m234p567p789s"}', '{"hand":"123m456p789s1112z","dora":"0m"}']
    for line in lines:
        assert new_answer(line) == _old_answer(line), line


def test_wait_report_fields_are_the_models_dump() -> None:
    """The plain fields ``--jsonl`` writes are ``WaitReport.from_value(v).model_dump()``, in
    the model's order."""
    from minefield.rules.hand import Hand
    from minefield.rules.report import WaitReport, wait_report_fields
    from minefield.rules.score import WinContext, analyze

    for text in ("23m456m345p678s55s", "19m19p19s1234567z", "1122335577889m", "123m456p789s1112z"):
        for value in analyze(Hand.parse(text), WinContext(dora_indicator=0, ura_indicator=27)):
            fields = wait_report_fields(value)
            dumped = WaitReport.from_value(value).model_dump()
            assert fields == dumped and list(fields) == list(dumped)


def test_plain_hand_reader_is_hand_parse() -> None:
    """``--jsonl`` reads a hand in plain notation without building tiles; what it
    reads is :meth:`Hand.parse`'s counts and text, on hands written in any order, and it
    leaves anything else (red fives, spaces, capitals, errors) to ``Hand.parse``."""
    import random

    from minefield.analyzer import _plain_hand
    from minefield.rules.hand import Hand
    from minefield.rules.random_hands import random_case
    from minefield.rules.tiles import TileError

    rng = random.Random(18)
    suits = "mpsz"
    for _ in range(2000):
        kinds = [k for k, n in enumerate(random_case(rng).counts) for _ in range(n)]
        rng.shuffle(kinds)
        text = "".join(f"{k % 9 + 1}{suits[k // 9]}" for k in kinds)  # one tile a group
        if rng.random() < 0.5:
            kinds.sort()
            text = "".join(f"{k % 9 + 1}{suits[k // 9]}" for k in kinds)
        hand = Hand.parse(text)
        assert _plain_hand(text) == (hand.counts, str(hand)), text
        assert _plain_hand(str(hand)) == (hand.counts, str(hand))
    alphabet = "0123456789mpszM "
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(30)))
        found = _plain_hand(text)
        try:
            hand = Hand.parse(text)
        except TileError:
            assert found is None, text
            continue
        assert found is None or found == (hand.counts, str(hand)), text
    for text in ("23m406m345p678s55s", "23m456m345p678s 55s", "23M456m345p678s55s",
                 "11111m234p567p78s", "123m456p789s1118z", "123m456p789s1112z3"):
        assert _plain_hand(text) is None


# -- honors by name ----------------------------------------------------------------------------


@pytest.fixture
def honor_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Settings of their own; calling it saves an "Honor names" setting."""
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "config"))
    monkeypatch.setenv("COLUMNS", "80")

    def save(names: str) -> None:
        assert save_preferences(Preferences(honor_names=names)) is None

    return save


@pytest.mark.parametrize("hand", ["123m456p789s EEE S", "123m456p789sEEES", "123m456p789s東東東南",
                                  "123m 456p 789s east east east south", "123m456p789s1112z"])
def test_analyze_takes_every_honor_name(capsys: pytest.CaptureFixture[str], hand: str,
                                        honor_setting: Callable[[str], None]) -> None:
    code, out, err = run(capsys, "analyze", hand, "--dora", "Wh", "--json")
    assert code == 0 and err == ""
    assert json.loads(out)["hand"] == "123m456p789s1112z"  # --json keeps mpsz
    assert json.loads(out)["waits"][0]["tile"] == "2z"


def test_json_output_is_the_same_for_an_honor_typed_by_name(
        capsys: pytest.CaptureFixture[str], honor_setting: Callable[[str], None]) -> None:
    honor_setting("kanji")
    by_name = run(capsys, "analyze", "123m456p789s東東東南", "--dora", "東", "--json")[1]
    by_mpsz = run(capsys, "analyze", "123m456p789s1112z", "--dora", "1z", "--json")[1]
    assert by_name == by_mpsz and "東" not in by_mpsz


def test_the_table_calls_honors_by_the_setting(capsys: pytest.CaptureFixture[str],
                                               honor_setting: Callable[[str], None]) -> None:
    honor_setting("kanji")
    code, out, _ = run(capsys, "analyze", "123m456p789s1112z")
    assert code == 0 and "南" in out and "東東東" in out and "2z" not in out
    assert "seat wind 1" in out and "seat_wind" not in out  # words, not the yaku's key
    honor_setting("letters")
    out = run(capsys, "analyze", "123m456p789s1112z")[1]
    assert "│ S " in out and "E E E" in out and "z" not in out.replace("ron?", "")


def test_the_caption_leaves_no_word_alone_at_80_columns(
        capsys: pytest.CaptureFixture[str], honor_setting: Callable[[str], None]) -> None:
    out = run(capsys, "analyze", "23m456m345p678s55s", "--dora", "2m")[1]
    lines = [line.strip() for line in out.splitlines()]
    assert "dora" not in lines and all(len(line.split()) > 2 for line in lines[-2:])
