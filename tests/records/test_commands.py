"""``minefield history``, ``minefield replay`` and ``minefield simulate --records``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from minefield.bots.simulate import simulate
from minefield.cli import main
from minefield.records.reader import read_record
from minefield.records.replay import replay_record
from tests.records.conftest import DRAW_SEED, RON_SEED, played, record_of


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _stored_result(path: Path) -> object:
    return json.loads(path.read_bytes().splitlines()[-1])["result"]


@pytest.mark.parametrize("seed", [RON_SEED, DRAW_SEED])
def test_replay_json_is_the_stored_result(tmp_path: Path, seed: int,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = record_of(played(seed), tmp_path)
    status, out, err = _run(capsys, "replay", str(path), "--json")
    assert (status, err) == (0, "")
    assert out.count("\n") == 1
    assert json.loads(out) == _stored_result(path)


def test_replay_json_of_an_unfinished_game_is_null(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = record_of(played(RON_SEED, stop=3), tmp_path)
    assert _run(capsys, "replay", str(path), "--json") == (0, "null\n", "")


def test_replay_without_a_terminal_says_so_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = record_of(played(RON_SEED), tmp_path)
    status, out, err = _run(capsys, "replay", str(path))  # pytest's stdin is no terminal
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and "the replay viewer needs a terminal" in err


def test_an_inconsistent_record_exits_1_with_one_line(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    path = record_of(played(RON_SEED), tmp_path)
    path.write_bytes(path.read_bytes().replace(b'"points":8000', b'"points":9000'))
    for json_flag in (["--json"], []):
        status, out, err = _run(capsys, "replay", str(path), *json_flag)
        assert (status, out) == (1, "")
        assert err.count("\n") == 1
        assert err.startswith(f"minefield: {path}: inconsistent record: the result (line 8) "
                              "differs from the replay: result.points: stored 9000, "
                              "replayed 8000")


def test_tolerated_problems_are_warnings(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """A crash before the result line was whole: the replay still finds the result."""
    path = record_of(played(RON_SEED), tmp_path)
    stored = _stored_result(path)
    path.write_bytes(path.read_bytes()[:-5])
    status, out, err = _run(capsys, "replay", str(path), "--json")
    assert status == 0 and json.loads(out) == stored
    assert err == (f"minefield: warning: {path}: line 8: half-written (no newline at its end):"
                   " ignored\n")


@pytest.mark.parametrize("content", [b"", b"\xff\xfe\x00\n", b"{}\n", b"[[[[\n"])
def test_a_bad_file_exits_2_with_one_line(tmp_path: Path, content: bytes,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    status, out, err = _run(capsys, "replay", str(path), "--json")
    assert (status, out) == (2, "")
    assert err.startswith(f"minefield: {path}: line 1: ") and err.count("\n") == 1


def test_replay_of_a_folder_or_nothing(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    for target in (tmp_path, tmp_path / "missing.jsonl"):
        status, out, err = _run(capsys, "replay", str(target))
        assert (status, out) == (2, "") and err.count("\n") == 1


def test_history_lists_games_and_survives_a_corrupt_file(
        data_folder: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    folder = data_folder / "records"
    assert _run(capsys, "history") == (0, f"No saved games in {folder}.\n", "")
    path = record_of(played(RON_SEED), folder)
    (folder / "broken.jsonl").write_bytes(b"\x89PNG\r\n")
    status, out, err = _run(capsys, "history", "--json")
    assert (status, err) == (0, "")
    listed = {Path(e["file"]).name: e for e in json.loads(out)}
    assert set(listed) == {path.name, "broken.jsonl"}
    game = listed[path.name]
    assert game["result"] == _stored_result(path)
    assert (game["mode"], game["commands"], game["problems"]) == ("practice", 6, [])
    assert game["players"] == {"east": "Ann", "west": "Bot normal"}
    assert game["started"].endswith("Z")
    assert listed["broken.jsonl"]["result"] is None
    assert listed["broken.jsonl"]["problems"][0].startswith("line 1: not a Minefield record")
    status, out, err = _run(capsys, "history", "--dir", str(folder))
    assert (status, err) == (0, "") and "Ann" in out
    assert "broken" in out and "line 1: not a Minefield record" in out  # its id: the name


def test_history_of_a_missing_folder_is_bad_input(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, "history", "--dir", str(tmp_path / "nope"))
    assert (status, out) == (2, "") and err.endswith("nope: not a folder\n")


@pytest.mark.parametrize("jobs", [1, 2])
def test_simulated_games_replay_to_their_stored_results(tmp_path: Path, jobs: int) -> None:
    """Each worker writes its game's record; every one replays to its stored result (R2)."""
    games = simulate(5, "easy", "normal", seed=3, jobs=jobs, record_folder=tmp_path)
    paths = sorted(tmp_path.iterdir())
    assert len(paths) == len(games) == 5
    seeds = set()
    for path in paths:
        record = read_record(path)
        assert record.problems == () and record.header.mode == "simulate"
        assert {record.header.players.east, record.header.players.west} == {"A easy",
                                                                           "B normal"}
        replay = replay_record(record)
        assert replay.consistent and replay.stored is not None
        assert replay.result == replay.stored
        seeds.add(record.header.seed)
    by_seed = {g.seed: g for g in games}
    assert seeds == set(by_seed)
    for path in paths:
        record = read_record(path)
        game = by_seed[record.header.seed]
        assert record.result is not None
        assert record.header.players.of(game.a_seat) == "A easy"
        assert record.result.result.points == game.points


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_simulate_records_option(tmp_path: Path, jobs: str,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "sim"
    status, _, _ = _run(capsys, "simulate", "--games", "5", "--east", "easy", "--west", "easy",
                        "--jobs", jobs, "--records", str(folder))
    assert status == 0
    paths = list(folder.iterdir())
    assert len(paths) == 5  # more than one 4-game chunk: with --jobs 2, two workers write
    for path in paths:
        assert _run(capsys, "replay", str(path), "--json") == (
            0, json.dumps(_stored_result(path), separators=(",", ":")) + "\n", "")


def test_simulate_records_in_a_file_is_bad_input(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    taken = tmp_path / "file"
    taken.write_text("x")
    status, out, err = _run(capsys, "simulate", "--games", "1", "--records", str(taken))
    assert (status, out) == (2, "")
    assert err.startswith(f"minefield: {taken}: cannot make a records folder there")
