"""``minefield bot-hand`` and ``minefield simulate``: output shape and error handling."""

from __future__ import annotations

import io
import json
from concurrent.futures import ProcessPoolExecutor
from typing import ClassVar

import pytest

from minefield.analyzer import AnalyzeRequest, analyze_request
from minefield.bots.bot_hand import BotHandRequest, bot_hand
from minefield.cli import main
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import counts_of, kind_from_str, parse_tiles

TILES = "123456789m12345678934p1234567899s1122z"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_bot_hand_json_is_the_analyzers_waits(capsys: pytest.CaptureFixture[str]) -> None:
    """The JSON has hand, tenpai, waits (exactly as `analyze` reports them) and candidates."""
    status, out, _ = _run(capsys, "bot-hand", TILES, "--dora", "1z", "--seat", "west", "--json")
    assert status == 0
    result = json.loads(out)
    assert set(result) == {"hand", "tenpai", "waits", "candidates"}
    assert result["tenpai"] is True and result["candidates"] > 0
    hand = counts_of(parse_tiles(result["hand"]))
    assert sum(hand) == 13 and all(h <= t for h, t in zip(hand, counts_of(parse_tiles(TILES)),
                                                          strict=True))
    analyzed = analyze_request(AnalyzeRequest(hand=result["hand"], seat="west", dora="1z"))
    assert result["waits"] == json.loads(analyzed.model_dump_json())["waits"]


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_bot_hand_table_for_every_level(capsys: pytest.CaptureFixture[str], level: str) -> None:
    """The readable output names the level, the hand and its waits with live copies."""
    status, out, _ = _run(capsys, "bot-hand", TILES, "--level", level)
    assert status == 0
    assert f"{level} keeps" in out and "live" in out


def test_bot_hand_without_a_tenpai_hand(capsys: pytest.CaptureFixture[str]) -> None:
    """No tenpai sub-hand: tenpai false, no waits, 13 tiles still chosen."""
    status, out, _ = _run(capsys, "bot-hand", "111122224455778m124578p124578s1234567z", "--json")
    result = json.loads(out)
    assert status == 0 and result["tenpai"] is False and result["waits"] == []
    assert len(parse_tiles(result["hand"])) == 13 and result["candidates"] == 0


@pytest.mark.parametrize(("argv", "message"), [
    (["bot-hand", "123m"], "need 34 tiles, got 3"),
    (["bot-hand", TILES + "x"], "unexpected 'x'"),
    (["bot-hand", "11111m" + TILES[6:]], "five copies of 1m"),
    (["bot-hand", TILES, "--dora", "9q"], "dora indicator"),
    (["bot-hand", TILES.replace("1122z", "1111z"), "--dora", "1z"], "five copies of 1z"),
    (["bot-hand"], "needs TILES"),
    (["bot-hand", TILES.replace("34p", "30p")], "red fives"),
    (["simulate", "--games", "0"], "--games must be at least 1"),
])
def test_bad_input_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str],
                                            argv: list[str], message: str) -> None:
    """Bad input: one clear line on stderr, exit status 2, no traceback."""
    status, out, err = _run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_bot_hand_jsonl(capsys: pytest.CaptureFixture[str],
                        monkeypatch: pytest.MonkeyPatch) -> None:
    """One result per line; a bad line gives {"error": ...} and the rest go on."""
    lines = [
        json.dumps({"tiles": TILES, "seat": "west", "dora": "3z", "level": "normal"}),
        json.dumps({"tiles": "123m"}),
        "not json",
        json.dumps({"tiles": TILES, "colour": "red"}),
        "",
        json.dumps({"tiles": TILES}),
    ]
    data = ("\n".join(lines) + "\n").encode()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    status, out, _ = _run(capsys, "bot-hand", "--jsonl")
    results = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and len(results) == 6
    assert results[0]["tenpai"] is True and set(results[0]) == {"hand", "tenpai", "waits",
                                                                 "candidates"}
    assert "need 34 tiles" in results[1]["error"]
    assert "error" in results[2] and "colour" in results[3]["error"]
    assert results[4] == {"error": "line 5: empty line"}
    assert results[5]["tenpai"] is True


def test_simulate_prints_both_players_and_is_repeatable(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    """A few games: wins, deal-ins, draws and points for each player; same seed, same table."""
    outputs = []
    for _ in range(2):
        status, out, _ = _run(capsys, "simulate", "--games", "4", "--east", "easy",
                              "--west", "normal", "--seed", "3", "--jobs", "1")
        assert status == 0
        outputs.append(out.split("games per second")[0].rsplit("\n", 1)[0])
    assert "A easy" in outputs[0] and "B normal" in outputs[0] and "decided" in outputs[0]
    assert outputs[0] == outputs[1]


def _jsonl(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
           lines: list[str]) -> tuple[int, list[str], str]:
    data = ("\n".join(lines) + "\n").encode()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    status, out, err = _run(capsys, "bot-hand", "--jsonl", "--level", "easy")
    return status, out.splitlines(), err


@pytest.mark.parametrize(("count", "word"), [(5, "five"), (8, "eight"), (9, "9"), (139, "139"),
                                             (140, "140"), (1000, "1000")])
def test_any_number_of_copies_is_a_clear_error(capsys: pytest.CaptureFixture[str], count: int,
                                               word: str) -> None:
    """R1: four copies of each kind; any larger count is named, however large."""
    status, out, err = _run(capsys, "bot-hand", "1" * count + "m")
    assert status == 2 and out == "" and "Traceback" not in err
    assert err == f"minefield: tiles: {word} copies of 1m: there are only four\n"


@pytest.mark.parametrize(("tiles", "message"), [
    ("", "needs TILES"),
    ("1m", "need 34 tiles, got 1"),
    (TILES[:-5] + "112z", "need 34 tiles, got 33"),
    (TILES + "5z", "need 34 tiles, got 35"),
    (TILES + "5z6z7z5z6z7z", "need 34 tiles, got 40"),
])
def test_too_few_or_too_many_tiles(capsys: pytest.CaptureFixture[str], tiles: str,
                                   message: str) -> None:
    """R5: a bot builds from exactly 34 tiles."""
    status, out, err = _run(capsys, "bot-hand", tiles)
    assert status == 2 and out == "" and err.count("\n") == 1 and message in err


@pytest.mark.parametrize("digit", ["²", "٣", "３"])
def test_bot_hand_non_ascii_digit(capsys: pytest.CaptureFixture[str], digit: str) -> None:
    """Notation: only ASCII digits are tile numbers, in the tiles and in the dora indicator."""
    status, _, err = _run(capsys, "bot-hand", digit + "m" + TILES[2:])
    assert status == 2 and f"tiles: unexpected {digit!r} at position 1" in err
    status, _, err = _run(capsys, "bot-hand", TILES, "--dora", digit + "m")
    assert status == 2 and f"dora indicator: unexpected {digit!r} at position 1" in err
    assert "Traceback" not in err


def test_bot_hand_red_five_indicator_needs_red_fives(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """R1: without red fives a red-five dora indicator is refused, worded as for the tiles."""
    status, out, err = _run(capsys, "bot-hand", TILES, "--dora", "0p")
    assert status == 2 and out == ""
    assert err == ("minefield: dora indicator: red fives (0m/0p/0s) are not used in these "
                   "rules (R1)\n")
    status, lines, _ = _jsonl(capsys, monkeypatch, [json.dumps({"tiles": TILES, "dora": "0s"})])
    assert status == 0 and json.loads(lines[0]) == {
        "error": "line 1: dora indicator: red fives (0m/0p/0s) are not used in these rules (R1)"}
    result, deal = bot_hand(BotHandRequest(tiles=TILES, dora="0p", level="easy"),
                            RuleSettings(red_fives=True))
    assert deal.dora_indicator == kind_from_str("5p") and result.tenpai


def test_bot_hand_jsonl_one_line_per_line_with_numbers(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Blank lines and bad lines each get one error line naming their line number."""
    status, lines, err = _jsonl(capsys, monkeypatch, [
        json.dumps({"tiles": "1" * 140 + "m"}), "", json.dumps({"tiles": "²m"}),
        json.dumps({"tiles": TILES, "level": "easy"})])
    results = [json.loads(line) for line in lines]
    assert status == 0 and "Traceback" not in err and len(results) == 4
    assert results[0] == {"error": "line 1: tiles: 140 copies of 1m: there are only four"}
    assert results[1] == {"error": "line 2: empty line"}
    assert results[2]["error"].startswith("line 3: tiles: unexpected '²' at position 1")
    assert results[3]["tenpai"] is True


class _CountingPool(ProcessPoolExecutor):
    """A real process pool that remembers how many workers it was asked for."""

    sizes: ClassVar[list[int | None]] = []

    def __init__(self, max_workers: int | None = None) -> None:
        _CountingPool.sizes.append(max_workers)
        super().__init__(max_workers=max_workers)


@pytest.mark.parametrize(("games", "cores", "workers"), [(8, 64, 2), (40, 3, 3), (9, 64, 3)])
def test_simulate_jobs_are_capped(capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch, games: int, cores: int,
                                  workers: int) -> None:
    """--jobs 300 starts no more workers than there are cores or 4-game chunks of work."""
    monkeypatch.setattr("minefield.bots.simulate.ProcessPoolExecutor", _CountingPool)
    monkeypatch.setattr("os.cpu_count", lambda: cores)
    _CountingPool.sizes.clear()
    outputs = []
    for jobs in ("300", "1"):
        status, out, err = _run(capsys, "simulate", "--games", str(games), "--east", "easy",
                                "--west", "easy", "--jobs", jobs)
        assert status == 0 and "Traceback" not in err
        outputs.append(out.split("games per second")[0].rsplit("\n", 1)[0])
    assert _CountingPool.sizes == [workers]
    assert outputs[0] == outputs[1]


def test_bot_hand_match_rules_pay_east_dealer_values(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """R23: under ``--rules match`` (``dealer_bonus``) East's waits are paid dealer values,
    exactly as ``analyze --rules match`` reports them; West's are not. The same in
    ``--jsonl`` through each line's ``rules``."""
    kokushi = "123456789m123456789p123456789s1234567z"
    results = {}
    for seat in ("east", "west"):
        for rules in ("standard", "match"):
            status, out, _ = _run(capsys, "bot-hand", kokushi, "--seat", seat, "--rules", rules,
                                  "--json")
            assert status == 0
            results[seat, rules] = json.loads(out)
    assert {w["points"] for w in results["east", "match"]["waits"]} == {48000}
    for key in (("east", "standard"), ("west", "standard"), ("west", "match")):
        assert {w["points"] for w in results[key]["waits"]} == {32000}
    status, out, _ = _run(capsys, "bot-hand", TILES, "--rules", "match", "--json")
    result = json.loads(out)
    analyzed = analyze_request(AnalyzeRequest(hand=result["hand"], rules="match"))
    assert status == 0 and result["waits"] == json.loads(analyzed.model_dump_json())["waits"]
    standard = analyze_request(AnalyzeRequest(hand=result["hand"])).waits
    assert result["waits"] and all(w["points"] > s.points for w, s in zip(
        result["waits"], standard, strict=True))
    lines = [json.dumps({"tiles": kokushi, "rules": rules, "seat": seat})
             for rules, seat in (("match", "east"), ("match", "west"), ("standard", "east"))]
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(("\n".join(lines) + "\n")
                                                                 .encode())))
    status, out, _ = _run(capsys, "bot-hand", "--jsonl")
    assert status == 0
    assert [json.loads(x)["waits"][0]["points"] for x in out.splitlines()] == [48000, 32000,
                                                                              32000]
    status, out, err = _run(capsys, "bot-hand", "--jsonl", "--rules", "match")
    assert status == 2 and "give no --rules" in err


def test_a_match_bot_values_east_hands_at_dealer_values() -> None:
    """R23 in play: a bot dealt as East in a match game (``dealer_bonus`` terms) values its
    hands as the dealer; the same tiles in a single game do not."""
    from minefield.bots.hands import DealtTiles
    from minefield.rules.game import Game, GameTerms, Seat

    match = RuleSettings.preset("match")
    in_match = Game(5, match, terms=GameTerms(dealer_bonus=True))
    single = Game(5)
    assert DealtTiles.from_view(in_match.view(Seat.EAST)).context.dealer is True
    assert DealtTiles.from_view(in_match.view(Seat.WEST)).context.dealer is False
    assert DealtTiles.from_view(single.view(Seat.EAST)).context.dealer is False
