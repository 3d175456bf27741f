"""The "Honor names" setting on the command line: ``review --text`` and ``history``
call honors as the setting says (``--honors`` overrides it), while ``--json`` and ``--jsonl``
outputs and records keep mpsz whatever the setting."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from minefield.bots.bot_match import WatchedGame
from minefield.bots.levels import make_bot
from minefield.cli import main
from minefield.paths import CONFIG_ENV
from minefield.records.header import Players
from minefield.records.writer import write_game
from minefield.rules.game import Game, Seat
from minefield.rules.names import KANJI
from minefield.rules.seed import derive_int, parse_seed
from minefield.tui.config import Preferences, save_preferences
from tests.records.conftest import played

#: Normal bots: a drawn game whose review names honors (seed 1 of tests/records/conftest.py).
HONOR_SEED = 1
HAND = "123m456p789s1112z"


@pytest.fixture
def kanji(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Settings of their own, with honors called by kanji."""
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "config"))
    assert save_preferences(Preferences(honor_names="kanji")) is None
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def has_kanji(text: str) -> bool:
    return any(name in text for name in KANJI)


def test_review_text_follows_the_setting_and_honors_overrides_it(
        kanji: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = write_game(played(HONOR_SEED), "hotseat", Players(east="East", west="West"), kanji)
    by_kanji = run(capsys, "review", str(record), "--method", "fast", "--text")
    by_number = run(capsys, "review", str(record), "--method", "fast", "--text",
                    "--honors", "numbers")
    by_letter = run(capsys, "review", str(record), "--method", "fast", "--text",
                    "--honors", "letters")
    assert has_kanji(by_kanji) and "z" in by_number and not has_kanji(by_number)
    assert not has_kanji(by_letter)
    # The same review, only the honors' names differ: line for line.
    assert len(by_kanji.splitlines()) == len(by_number.splitlines()) == len(
        by_letter.splitlines())
    assert by_kanji != by_number != by_letter


def test_history_names_the_winning_honor(kanji: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    folder = kanji / "records"
    write_game(red_dragon_ron(), "simulate", Players(east="A easy", west="B easy"), folder)
    tile = json.loads(run(capsys, "history", "--dir", str(folder), "--json"))[0]["result"][
        "tile"]
    assert tile == "7z"  # --json keeps mpsz
    table = run(capsys, "history", "--dir", str(folder))
    assert "中" in table and "7z" not in table  # the result column, by the setting


def red_dragon_ron() -> Game:
    """Easy bots (as the Watch screen seeds them, seed 6): East wins on West's 7z."""
    seed = parse_seed(6)
    bots = {seat: make_bot("easy", derive_int(seed, f"watch {seat.value}")) for seat in Seat}
    watched = WatchedGame(seed, bots)
    while not watched.over:
        watched.play(*watched.decide())
    return watched.game


def test_json_and_jsonl_keep_mpsz_whatever_the_setting(
        kanji: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    analyzed = run(capsys, "analyze", HAND, "--json")
    assert '"1z"' in analyzed or "1z" in analyzed
    assert not has_kanji(analyzed) and '"E"' not in analyzed
    record = write_game(played(HONOR_SEED), "hotseat", Players(east="East", west="West"), kanji)
    replayed = run(capsys, "replay", str(record), "--json")
    assert not has_kanji(replayed)
    assert not has_kanji(record.read_text()) and "z" in record.read_text()
    history = run(capsys, "history", "--dir", str(kanji), "--json")
    assert not has_kanji(history)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(
        json.dumps({"hand": HAND}).encode() + b"\n"), encoding="utf-8"))
    lines = run(capsys, "analyze", "--jsonl")
    assert "1z" in lines and not has_kanji(lines)
