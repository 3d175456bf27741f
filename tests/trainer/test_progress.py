"""The progress store: round trip, summaries, and every way the file can be unusable."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from minefield.bots.levels import make_bot
from minefield.bots.simulate import play_game
from minefield.paths import PROGRESS_FILE
from minefield.rules.game import Game, Seat
from minefield.trainer.progress import (
    FILE_MODE,
    SCHEMA_VERSION,
    NullProgress,
    ProgressError,
    ProgressStore,
    open_progress,
)
from minefield.trainer.progress_records import (
    DiscardRecord,
    DrillRecord,
    GameRecord,
    Result,
    progress_of_game,
)
from minefield.trainer.progress_summary import week_of

MONDAY = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)  # ISO week 2026-W48


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "data" / PROGRESS_FILE


def store_at(path: Path) -> ProgressStore:
    store, problem = open_progress(path)
    assert problem is None
    assert isinstance(store, ProgressStore)
    return store


def game(result: Result, points: int, when: datetime, seat: str = "east") -> GameRecord:
    return GameRecord(mode="practice", seat=seat, result=result, points=points,
                      played_at=when)


def test_a_new_file_is_private_versioned_and_in_wal_mode(path: Path) -> None:
    store_at(path).close()
    assert os.stat(path).st_mode & 0o777 == FILE_MODE
    assert os.stat(path.parent).st_mode & 0o777 == 0o700
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()


def test_round_trip_of_games_discards_and_drills(path: Path) -> None:
    store = store_at(path)
    game_id = store.record_game(
        game("lost", -8000, MONDAY),
        [DiscardRecord(1, "1z", 0.0, 0.0), DiscardRecord(3, "5p", 0.20, 0.05, dealt_in=True)])
    drill = DrillRecord("read_wait", "expert", "read_wait:expert:00ab", False, 0.5, "kanchan",
                        done_at=MONDAY)
    drill_id = store.record_drill(drill)
    store.close()

    store = store_at(path)
    assert game_id == 1 and drill_id == 1
    history = store.drill_history()
    assert history == [drill] and history[0].id == drill_id
    assert store.drill_history("safest") == []
    rows = sqlite3.connect(path).execute(
        "SELECT number, tile, danger, least_danger, dealt_in FROM discards WHERE game_id = ?",
        (game_id,)).fetchall()
    assert rows == [(1, "1z", 0.0, 0.0, 0), (3, "5p", 0.20, 0.05, 1)]
    store.close()


def test_summary_totals_recent_games_weeks_and_drills(path: Path) -> None:
    store = store_at(path)
    last_week = MONDAY - timedelta(days=7)
    store.record_game(game("won", 8000, last_week), [DiscardRecord(2, "1m", 0.10, 0.00)])
    store.record_game(game("lost", -12000, last_week),
                      [DiscardRecord(2, "3m", 0.30, 0.10, dealt_in=True)])
    store.record_game(game("draw", 0, MONDAY),
                      [DiscardRecord(n, "9s", 0.05, 0.05) for n in range(1, 34, 2)]
                      + [DiscardRecord(34, "1z")])  # no estimate: left out of the danger sums
    store.record_game(game("lost", -8000, MONDAY, "west"), [])
    for correct, when in ((True, last_week), (False, MONDAY), (True, MONDAY)):
        store.record_drill(DrillRecord("safest", "beginner", "p", correct,
                                       1.0 if correct else 0.25, "suji_trap", done_at=when))
    store.record_drill(DrillRecord("is_mangan", "expert", "q", True, 1.0, "kiriage",
                                   done_at=MONDAY))

    summary = store.summary(last_games=2, weeks=8)
    overall = summary.overall
    assert (overall.games, overall.won, overall.deal_ins, overall.draws) == (4, 1, 2, 1)
    assert summary.deal_in_rate == 0.5 and overall.points == -12000
    assert overall.discards == 19  # 1 + 1 + 17 estimated discards
    assert overall.danger_taken == pytest.approx(0.10 + 0.30 + 17 * 0.05)
    assert overall.least_danger == pytest.approx(0.10 + 17 * 0.05)
    assert overall.excess_per_discard == pytest.approx(0.30 / 19)

    assert summary.recent.label == "last 2 games"
    assert (summary.recent.games, summary.recent.deal_ins, summary.recent.draws) == (2, 1, 1)
    assert [w.label for w in summary.weeks] == [week_of(last_week), "2026-W48"]
    assert [w.games for w in summary.weeks] == [2, 2]
    assert summary.weeks[0].excess_per_discard == pytest.approx(0.15)
    assert summary.weeks[1].excess_per_discard == 0.0

    drills = {d.kind: d for d in summary.drills}
    assert drills["safest"].attempts == 3 and drills["safest"].accuracy == pytest.approx(2 / 3)
    assert drills["safest"].mean_score == pytest.approx(2.25 / 3)
    assert drills["is_mangan"].accuracy == 1.0
    safest_weeks = [(d.label, d.attempts, d.correct) for d in summary.drill_weeks
                    if d.kind == "safest"]
    assert safest_weeks == [(week_of(last_week), 1, 1), ("2026-W48", 2, 1)]
    assert summary.to_json()["overall"]["deal_in_rate"] == 0.5
    store.close()


def test_an_empty_store_has_an_empty_summary(path: Path) -> None:
    store = store_at(path)
    summary = store.summary()
    assert summary.empty and summary.games == 0 and summary.deal_in_rate is None
    assert summary.overall.excess_per_discard is None and summary.weeks == ()
    store.close()


def test_bad_records_are_refused_with_the_reason() -> None:
    with pytest.raises(ValueError, match="result"):
        # A result outside the Literal, on purpose: the record refuses it at run time.
        GameRecord(mode="practice", seat="east", result="maybe")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seat"):
        GameRecord(mode="practice", seat="north", result="won")
    with pytest.raises(ValueError, match="1 to 34"):
        DiscardRecord(35, "1m")


def test_a_corrupt_file_is_one_line_and_the_caller_gets_a_no_op_store(path: Path) -> None:
    path.parent.mkdir(parents=True)
    path.write_bytes(b"this is not sqlite\n" * 300)
    store, problem = open_progress(path)
    assert isinstance(store, NullProgress)
    assert problem is not None and "\n" not in problem
    assert str(path) in problem and "damaged" in problem
    # The caller keeps going: writes are no-ops, the summary is empty, the file is untouched.
    assert store.record_game(game("won", 8000, MONDAY)) == 0
    assert store.record_drill(DrillRecord("safest", "beginner", "p", True, 1.0, "plain")) == 0
    assert store.summary().empty and store.drill_history() == []
    assert path.read_bytes() == b"this is not sqlite\n" * 300
    with pytest.raises(ProgressError, match="damaged"):
        ProgressStore(path)


def test_a_damaged_page_is_found_when_opening(path: Path) -> None:
    store = store_at(path)
    for _ in range(200):
        store.record_game(game("draw", 0, MONDAY), [DiscardRecord(1, "1m", 0.1, 0.1)] * 5)
    store.close()
    data = bytearray(path.read_bytes())
    page = 4096
    for offset in range(2 * page, len(data) - page, page):  # scribble over every later page
        data[offset + 8:offset + 200] = b"\xff" * 192
    path.write_bytes(bytes(data))
    damaged, problem = open_progress(path)
    assert isinstance(damaged, NullProgress)
    assert problem is not None and str(path) in problem and "\n" not in problem


def test_a_file_from_a_newer_minefield_is_refused_and_left_alone(path: Path) -> None:
    store_at(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    store, problem = open_progress(path)
    assert isinstance(store, NullProgress)
    assert problem is not None and "newer Minefield" in problem
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
    db.close()


def test_an_empty_file_is_upgraded_by_the_migrations(path: Path) -> None:
    path.parent.mkdir(parents=True)
    sqlite3.connect(path).close()  # a valid, empty SQLite file: schema 0
    store = store_at(path)
    assert store.record_game(game("won", 8000, MONDAY)) == 1
    store.close()


def test_a_folder_in_the_way_is_reported(path: Path) -> None:
    path.mkdir(parents=True)
    store, problem = open_progress(path)
    assert isinstance(store, NullProgress)
    assert problem == f"{path}: is a folder, not a progress file"


def test_a_locked_file_refuses_writes_with_one_line_and_still_reads(path: Path) -> None:
    store_at(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program holds the write lock
    try:
        store, problem = open_progress(path, timeout=0.05)
        assert problem is None and isinstance(store, ProgressStore)
        with pytest.raises(ProgressError, match="in use by another program") as raised:
            store.record_game(game("won", 8000, MONDAY))
        assert "\n" not in str(raised.value) and str(path) in str(raised.value)
        assert store.summary().games == 0  # readers are not blocked in WAL mode
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert store.record_game(game("won", 8000, MONDAY)) == 1  # the lock is gone: it works
    store.close()


def test_a_read_only_store_refuses_writes(path: Path) -> None:
    store_at(path).close()
    store, problem = open_progress(path, read_only=True)
    assert problem is None and isinstance(store, ProgressStore)
    with pytest.raises(ProgressError, match="read-only"):
        store.record_drill(DrillRecord("safest", "beginner", "p", True, 1.0, "plain"))
    store.close()


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write any file")
def test_a_read_only_file_gives_a_no_op_store(path: Path) -> None:
    store_at(path).close()
    path.chmod(0o400)
    store, problem = open_progress(path)
    assert isinstance(store, NullProgress)
    assert problem == f"{path}: the progress file is read-only: progress is not saved"


def test_reading_a_missing_file_creates_nothing(path: Path) -> None:
    store, problem = open_progress(path, read_only=True)
    assert problem is None and store.summary().empty
    assert not path.exists()


WRITER = """
import sys
from pathlib import Path
from minefield.trainer.progress import ProgressStore
from minefield.trainer.progress_records import DiscardRecord, GameRecord
store = ProgressStore(Path(sys.argv[1]))
while True:
    game_id = store.record_game(
        GameRecord(mode="practice", seat="east", result="draw"),
        [DiscardRecord(n, "1m", 0.1, 0.05) for n in range(1, 35, 2)])
    print(game_id, flush=True)
"""


def test_stats_survive_a_kill_mid_write(path: Path) -> None:
    store_at(path).close()
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path)],
                              stdout=subprocess.PIPE, text=True)
    assert writer.stdout is not None
    committed = [int(writer.stdout.readline()) for _ in range(40)]
    writer.kill()  # SIGKILL, most likely in the middle of a later transaction
    writer.wait()
    committed += [int(line) for line in writer.stdout.read().split()]

    store = store_at(path)
    summary = store.summary()
    assert summary.games >= len(committed)
    ids = {row[0] for row in sqlite3.connect(path).execute("SELECT id FROM games")}
    assert set(committed) <= ids
    counts = dict(sqlite3.connect(path).execute(
        "SELECT game_id, COUNT(*) FROM discards GROUP BY game_id").fetchall())
    assert all(counts[game_id] == 17 for game_id in ids)  # no game is half written
    assert store.record_game(game("won", 8000, MONDAY)) == max(ids) + 1
    store.close()


@pytest.mark.parametrize("seed", [0, 1])
def test_progress_of_game_records_each_discard_of_the_seat(path: Path, seed: int) -> None:
    """The record of a bot game: R13 (a loss is a deal-in on the seat's own discard), the
    seat's 17 or fewer discards (R10), each with the danger taken and the least available."""
    game = Game(seed)
    end = play_game(game, make_bot("normal", 1), make_bot("strong", 2))
    for seat in Seat:
        record, discards = progress_of_game(game, seat, "practice")
        own = [c for s, c in game.commands if s is seat and c.type == "discard"]
        assert [d.tile for d in discards] == [c.tile for c in own]
        assert all(d.danger is not None and d.least_danger is not None
                   and d.least_danger <= d.danger for d in discards)
        if end.winner is None:
            assert record.result == "draw" and record.points == 0
        elif end.winner is seat:
            assert record.result == "won" and end.value is not None
            assert record.points == end.value.points and not any(d.dealt_in for d in discards)
        else:
            assert record.result == "lost" and record.dealt_in
            assert [d.number for d in discards if d.dealt_in] == [end.discard_number]
        store = store_at(path)
        game_id = store.record_game(record, discards)
        assert store.summary().overall.discards >= len(discards) and game_id >= 1
        store.close()


def test_progress_of_game_needs_a_finished_game() -> None:
    with pytest.raises(ValueError, match="has not ended"):
        progress_of_game(Game(1), Seat.EAST, "practice")


def test_threads_share_one_store(path: Path) -> None:
    store = store_at(path)

    def write(kind: str) -> None:
        for n in range(25):
            store.record_drill(DrillRecord(kind, "beginner", str(n), True, 1.0, "plain"))
            store.summary()

    threads = [threading.Thread(target=write, args=(kind,)) for kind in ("safest", "is_mangan")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {(d.kind, d.attempts) for d in store.summary().drills} == {
        ("safest", 25), ("is_mangan", 25)}
    store.close()
