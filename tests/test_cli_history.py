"""`minefield history` at 80 columns and the numbers and ids that `replay` and `review` take."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from minefield.cli import main
from minefield.cli.common import UsageError
from minefield.cli.records import record_path
from minefield.records.header import Players
from minefield.records.reader import read_record
from minefield.records.replay import replay_record
from minefield.records.writer import write_game
from minefield.rules.game import Seat
from minefield.tui.screens.replay import ReplayScreen
from tests.records.conftest import DRAW_SEED, RON_SEED, Clock, played, record_of

#: A game's line: its number, then its id.
GAME_ROW = re.compile(r"^ *\d+ [0-9a-f]{8} ")
LONG = Players(east="Annabelle-Marguerite", west="Bot (strong)")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Three games, newest first: a ron, a game left after the hands were chosen, a draw."""
    folder = tmp_path / "records"
    record_of(played(DRAW_SEED), folder)
    write_game(played(RON_SEED, stop=2), "practice", LONG, folder,
               clock=Clock(start=Clock().now.replace(day=2)))
    record_of(played(RON_SEED), folder, Clock().now.replace(day=3))
    return folder


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_one_line_per_game_at_80_columns_the_abandoned_hidden(
        folder: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    status, out, _ = run(capsys, "history", "--dir", str(folder))
    lines = out.splitlines()
    assert status == 0 and all(len(line) <= 80 for line in lines)
    rows = [line for line in lines if GAME_ROW.match(line)]
    # The game left after the hands were chosen is hidden, and numbered after those shown
    # the shown games are 1, 2...
    assert [row.split()[0] for row in rows] == ["1", "2"]
    assert "8000" in rows[0] and "draw" in rows[1]
    assert lines[-1] == "1 game left before a discard not shown (--all shows them)."
    status, out, _ = run(capsys, "history", "--dir", str(folder), "--all")
    rows = [line for line in out.splitlines() if GAME_ROW.match(line)]
    assert [row.split()[0] for row in rows] == ["1", "2", "3"]  # the hidden one last
    assert "unfinished" in rows[2] and "Annabelle" in rows[2]
    assert all(len(line) <= 80 for line in out.splitlines())


def test_at_80_columns_a_bots_level_and_a_rons_points_are_whole(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    folder = tmp_path / "records"
    write_game(played(RON_SEED), "practice", Players(east="Annabelle", west="Bot (strong)"),
               folder)
    lines = run(capsys, "history", "--dir", str(folder))[1].splitlines()
    row = next(line for line in lines if GAME_ROW.match(line))
    assert "Bot (strong)" in row and row.rstrip().endswith(" 8000") and "…" not in row
    write_game(played(RON_SEED), "hotseat", Players(east="Ann", west="Bob"), folder)
    lines = run(capsys, "history", "--dir", str(folder))[1].splitlines()
    assert any(" hot-seat " in line for line in lines)  # the mode in words (point 8)
    games = json.loads(run(capsys, "history", "--dir", str(folder), "--json")[1])
    assert {game["mode"] for game in games} == {"practice", "hotseat"}  # --json: the record's
    monkeypatch.setenv("COLUMNS", "120")  # room for the discard number
    lines = run(capsys, "history", "--dir", str(folder))[1].splitlines()
    assert "ron 5m, discard 4" in next(line for line in lines if GAME_ROW.match(line))


def test_json_lists_every_game_with_its_number_and_id(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "history", "--dir", str(folder), "--json")
    games = json.loads(out)
    assert status == 0
    assert [game["number"] for game in games] == [1, 3, 2]  # as the table numbers them
    assert all(Path(game["file"]).name.endswith(f"-{game['id']}.jsonl") for game in games)
    assert games[1]["commands"] == 2 and games[1]["result"] is None  # listed, as before


def test_replay_and_review_take_a_number_or_an_id(
        folder: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MINEFIELD_DATA_DIR", str(folder.parent))
    games = json.loads(run(capsys, "history", "--json")[1])
    assert record_path("1") == Path(games[0]["file"])
    assert record_path(games[2]["id"][:5]) == Path(games[2]["file"])
    status, out, _ = run(capsys, "replay", "2", "--json")
    assert status == 0 and json.loads(out)["kind"] == "draw"
    with pytest.raises(UsageError, match="no game with that number or id"):
        record_path("9")
    status, _, err = run(capsys, "replay", "zzzz")
    assert status == 2 and "zzzz: no such file, and no game with that number or id" in err


def test_a_practice_replay_opens_from_the_players_seat(tmp_path: Path) -> None:
    path = write_game(played(RON_SEED), "practice", Players(east="Bot (easy)", west="Ann"),
                      tmp_path, clock=Clock())
    record = read_record(path)
    assert ReplayScreen(record, replay_record(record)).perspective == Seat.WEST.value
    hotseat = write_game(played(RON_SEED), "hotseat", Players(east="Bo", west="Ann"),
                         tmp_path, clock=Clock())
    record = read_record(hotseat)
    assert ReplayScreen(record, replay_record(record)).perspective == "east"
