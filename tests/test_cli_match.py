"""``minefield simulate --match``, ``history`` of matches and ``replay --match``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from minefield.bots.simulate import match_seed
from minefield.cli import main
from minefield.records.reader import read_record
from minefield.records.replay import match_records, replay_match
from tests.records.conftest import RON_SEED, played, record_of

#: Master seed 10, easy bots: match 0 has 7 games, match 1 has 11.
MASTER, GAMES = "10", (7, 11)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """Two matches written by ``simulate --match``."""
    records = tmp_path / "records"
    status, out, _ = _run(capsys, "simulate", "--match", "--games", "2", "--east", "easy",
                            "--west", "easy", "--seed", MASTER, "--jobs", "1", "--records",
                            str(records))
    assert status == 0
    out = " ".join(out.split())  # the console may wrap lines
    assert "2 matches of 4 hands from 25000 (match rules)" in out
    assert f"{sum(GAMES) / 2:.2f} [" in out and " games per match; " in out
    assert f" of {sum(GAMES)} games were draws" in out
    return records


def test_simulate_match_writes_every_game_of_n_matches(folder: Path) -> None:
    paths = sorted(folder.glob("*.jsonl"))
    assert len(paths) == sum(GAMES)
    matches, unreadable = match_records(folder)
    assert unreadable == [] and sorted(len(r) for r in matches.values()) == sorted(GAMES)
    for records in matches.values():
        replay = replay_match(records)
        assert replay.consistent and replay.over
        assert all(r.header.mode == "simulate" for r in records)


def test_history_shows_a_match_as_one_entry(folder: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    record_of(played(RON_SEED), folder)
    status, out, err = _run(capsys, "history", "--dir", str(folder), "--json")
    assert (status, err) == (0, "")
    entries = json.loads(out)
    matches = [e for e in entries if "match" in e and "games" in e]
    assert len(entries) == 3 and len(matches) == 2
    assert sorted(m["games_played"] for m in matches) == sorted(GAMES)
    for entry in matches:
        assert entry["over"] and entry["players"] == ["A easy", "B easy"]
        assert sum(entry["scores"].values()) == 50000
        assert [g["match"]["game"] for g in entry["games"]] == list(
            range(1, entry["games_played"] + 1))
    status, out, err = _run(capsys, "history", "--dir", str(folder))
    assert status == 0 and out.count("match: ") == 2


def test_replay_match_of_a_folder_prints_the_scoreboard_after_each_game(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, "replay", "--match", str(folder), "--json")
    assert (status, err) == (0, "")
    matches = json.loads(out)
    assert sorted(len(m["games"]) for m in matches) == sorted(GAMES)
    for data in matches:
        assert data["consistent"] and data["over"] and data["problems"] == []
        scores = {name: 25000 for name in data["players"]}
        for number, row in enumerate(data["games"], start=1):
            assert row["game"] == number and row["before"] == scores
            names = row["players"]
            for seat, amount in row["payments"].items():
                scores[names[seat]] += amount
            assert row["after"] == scores
        assert data["scores"] == scores and data["standings"][0]["place"] == 1
    assert all(match_seed(MASTER, i) not in out for i in range(2))
    status, out, err = _run(capsys, "replay", "--match", str(folder))
    assert status == 0 and out.count("final after ") == 2 and "start" in out


def test_replay_match_of_one_file_and_replay_json_of_a_game(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = sorted(folder.glob("*.jsonl"))[0]
    match = read_record(path).header.match
    assert match is not None
    match_id = match.id
    status, out, err = _run(capsys, "replay", "--match", str(path), "--json")
    assert status == 0 and [m["match"] for m in json.loads(out)] == [match_id]
    status, out, err = _run(capsys, "replay", str(path), "--json")
    stored = json.loads(path.read_bytes().splitlines()[-1])["result"]
    assert (status, err) == (0, "") and json.loads(out) == stored
    assert set(stored["payments"]) == {"east", "west"} and "match_over" in stored


def test_replay_match_reports_an_edited_record(folder: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    paths = sorted(folder.glob("*.jsonl"),
                   key=lambda p: json.loads(p.read_bytes().splitlines()[0])["match"]["game"])
    second = next(p for p in paths if json.loads(p.read_bytes().splitlines()[0])
                  ["match"]["game"] == 2)
    lines = second.read_bytes().splitlines(keepends=True)
    header = json.loads(lines[0])
    header["match"]["scores"] = {name: points + (1000 if i else -1000) for i, (name, points)
                                 in enumerate(header["match"]["scores"].items())}
    second.write_bytes(json.dumps(header).encode() + b"\n" + b"".join(lines[1:]))
    status, out, err = _run(capsys, "replay", "--match", str(second))
    assert status == 1 and "final" not in out and "unfinished after 1 game" in out
    assert f"inconsistent records: {second}: line 1: the match header differs" in err
    assert err.count("\n") == 1


def test_replay_match_of_bad_input_is_one_line(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    single = record_of(played(RON_SEED), tmp_path)
    status, out, err = _run(capsys, "replay", "--match", str(single))
    assert (status, out) == (2, "") and "a single game, not a game of a match" in err
    status, out, err = _run(capsys, "replay", "--match", str(tmp_path / "empty"))
    assert status == 2 and err.count("\n") == 1
    (tmp_path / "empty").mkdir()
    status, out, err = _run(capsys, "replay", "--match", str(tmp_path / "empty"))
    assert status == 2 and "no records of a match" in err
