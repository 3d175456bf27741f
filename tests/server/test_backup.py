"""The backup's copy (:mod:`minefield.server.backup`): a database written to all the while is
copied as it was at one instant; a record that moved to ``finished/`` during the copy is
there once; what is not a regular file, and the daemon's socket folder, are left out."""

from __future__ import annotations

import socket
import sqlite3
import threading
from contextlib import closing
from pathlib import Path

import pytest

from minefield.server.backup import BackupError, backup, backup_database
from tests.server.kept_records import write_record


def test_a_database_written_meanwhile_is_copied_as_one_instant(tmp_path: Path) -> None:
    """Each transaction adds a row to two tables: every copy has as many in each."""
    source = tmp_path / "club.sqlite"
    with sqlite3.connect(source) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE games (n INTEGER)")
        db.execute("CREATE TABLE ratings (n INTEGER)")
    stop = threading.Event()

    def write() -> None:
        db = sqlite3.connect(source, isolation_level=None, timeout=30)
        n = 0
        while not stop.is_set():
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO games VALUES (?)", (n,))
            db.executemany("INSERT INTO ratings VALUES (?)", [(n,)] * 50)
            db.execute("COMMIT")
            n += 1
        db.close()

    writer = threading.Thread(target=write)
    writer.start()
    try:
        counts = []
        for copy in range(20):
            target = tmp_path / f"copy{copy}.sqlite"
            backup_database(source, target)
            assert not list(tmp_path.glob(f"copy{copy}.sqlite-*"))  # folded in
            with closing(sqlite3.connect(target)) as db:
                counts.append((db.execute("SELECT count(*) FROM games").fetchone()[0],
                               db.execute("SELECT count(*) FROM ratings").fetchone()[0]))
    finally:
        stop.set()
        writer.join()
    assert all(ratings == 50 * games for games, ratings in counts), counts
    assert counts[-1][0] > 0


def test_a_record_moved_to_finished_during_the_copy_is_kept_once_as_finished(
        tmp_path: Path) -> None:
    data, dest = tmp_path / "door", tmp_path / "saved"
    games = data / "server" / "games"
    write_record(games, "g1", 1, "Ann@me", "Bob@me", finished=False)  # copied first...
    write_record(games, "g1", 1, "Ann@me", "Bob@me")  # ...then it ended and moved
    write_record(games, "g2", 2, "Ann@me", "Bob@me", finished=False)  # still being played
    (data / "players.sqlite").write_bytes(b"")
    (data / "run").mkdir()
    listening = socket.socket(socket.AF_UNIX)
    listening.bind(str(data / "run" / "daemon.sock"))
    (data / "players" / "1" / "data").mkdir(parents=True)
    lonely = data / "players" / "1" / "data" / "s"
    other = socket.socket(socket.AF_UNIX)
    other.bind(str(lonely))
    try:
        report = backup(data, dest)
    finally:
        listening.close()
        other.close()
    copied = sorted(str(p.relative_to(dest)) for p in dest.rglob("*") if p.is_file())
    assert copied == ["players.sqlite", "server/games/finished/g1.jsonl",
                      "server/games/g2.jsonl"]
    assert (report.records, report.files, report.skipped) == (2, 1, 1)
    assert not (dest / "run").exists()


def test_a_failed_backup_leaves_no_half_copy(tmp_path: Path) -> None:
    data, dest = tmp_path / "door", tmp_path / "saved"
    data.mkdir()
    (data / "players.sqlite").write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)  # broken
    with pytest.raises(BackupError, match="cannot back up the database"):
        backup(data, dest)
    assert not dest.exists()
