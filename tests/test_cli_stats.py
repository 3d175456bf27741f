"""``minefield stats``: the progress summary in the shell, as JSON, and its failures."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from minefield.cli import main
from minefield.paths import PROGRESS_FILE
from minefield.trainer.progress import open_progress
from minefield.trainer.progress_records import DiscardRecord, DrillRecord, GameRecord

ROOT = Path(__file__).resolve().parent.parent
WHEN = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


@pytest.fixture
def data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("MINEFIELD_DATA_DIR", str(tmp_path))
    return tmp_path


def fill(path: Path) -> None:
    store, problem = open_progress(path)
    assert problem is None
    store.record_game(GameRecord("practice", "east", "lost", -8000, played_at=WHEN),
                      [DiscardRecord(3, "5p", 0.20, 0.05, dealt_in=True)])
    store.record_game(GameRecord("practice", "west", "won", 12000, played_at=WHEN),
                      [DiscardRecord(2, "1z", 0.0, 0.0)])
    store.record_drill(DrillRecord("safest", "beginner", "safest:beginner:1", True, 1.0,
                                   "suji_trap", done_at=WHEN))
    store.close()


def test_an_empty_database_says_so(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert out == (f"No progress recorded yet in {data / PROGRESS_FILE}: play a game or a "
                   "drill first.\n")
    assert not (data / PROGRESS_FILE).exists()  # stats only reads


def test_json_of_an_empty_database(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["empty"] is True and printed["overall"]["games"] == 0


def test_plain_summary_in_a_pipe(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fill(data / PROGRESS_FILE)
    assert main(["stats"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"Progress in {data / PROGRESS_FILE}"
    assert lines[1].startswith("all games: 2 games, 1 won, 1 dealt in, 0 drawn, deal-in rate "
                               "50.0%, points +4000, points lost per game 4000; 2 estimated "
                               "discards")
    assert "(+7.5% per discard)" in lines[1]  # (0.20 - 0.05 + 0) / 2
    assert "2026-W48: 2 games" in "\n".join(lines)
    # kinds in words, and which figure is which
    assert "Safest discard (all): 1/1 right (100.0%), mean score 100.0%" in lines
    assert not any("safest (" in line for line in lines)
    assert "agreement with the estimate, not safety" in lines[-1]


def test_json_summary(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fill(data / PROGRESS_FILE)
    assert main(["stats", "--json", "--last", "1"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["empty"] is False
    assert printed["overall"]["deal_in_rate"] == 0.5
    assert printed["recent"]["label"] == "last game" and printed["recent"]["won"] == 1
    assert [w["label"] for w in printed["weeks"]] == ["2026-W48"]
    assert printed["drills"] == [{"kind": "safest", "label": "all", "attempts": 1,
                                  "correct": 1, "accuracy": 1.0, "mean_score": 1.0}]  # codes
    assert printed["overall"]["points_lost"] == 8000
    assert printed["overall"]["points_lost_per_game"] == 4000.0
    assert printed["recent"]["points_lost"] == 0  # the last game was won


def test_a_given_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "elsewhere.sqlite3"
    fill(path)
    assert main(["stats", "--json", "--file", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["overall"]["games"] == 2


def test_a_corrupt_database_is_one_line_and_status_1(data: Path) -> None:
    path = data / PROGRESS_FILE
    path.write_bytes(b"not a database at all\n" * 100)
    env = {**os.environ, "MINEFIELD_DATA_DIR": str(data)}
    result = subprocess.run([sys.executable, "-m", "minefield.cli", "stats"], cwd=ROOT,
                            env=env, capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"minefield: {path}: the progress file is damaged")


def test_a_folder_instead_of_the_file(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (data / PROGRESS_FILE).mkdir()
    assert main(["stats"]) == 1
    assert capsys.readouterr().err == (f"minefield: {data / PROGRESS_FILE}: is a folder, not a "
                                       "progress file\n")


def test_bad_arguments_are_usage_errors(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["stats", "--last", "0"])
    assert exited.value.code == 2
    assert "--last: 0: give 1 or more" in capsys.readouterr().err


def test_a_file_never_set_up_is_empty(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (data / PROGRESS_FILE).write_bytes(b"")  # created, then the process stopped at once
    assert main(["stats"]) == 0
    assert capsys.readouterr().out.startswith("No progress recorded yet")


def test_tables_and_bars_on_a_terminal(data: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    fill(data / PROGRESS_FILE)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["stats"]) == 0
    out = re.sub(r"\x1b\[[0-9;]*m", "", capsys.readouterr().out)  # colours off
    assert "Defense (lost: dealt in; rate: deal-ins per game" in out and "Drills" in out
    row = next(line for line in out.splitlines() if "all games" in line)
    assert "50.0%" in row and "██···" in row and "+7.5%" in row and "+4000" in row
    assert " 4000 " in row  # points lost per game
    drill_row = next(line for line in out.splitlines() if "Safest discard" in line)
    assert "1/1" in drill_row and "█" * 20 in drill_row
    assert all(len(line) <= 80 for line in out.splitlines())
