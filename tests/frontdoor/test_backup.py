"""``minefield ssh-server backup DEST`` while the server runs, and the README's restore: the
copy, put in a fresh data folder, starts a server with the same host key, players, games,
ratings, profiles and tournaments; a DEST in use is refused with one line."""

from __future__ import annotations

import re
import shutil
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

from tests.e2e.harness import STEP_LIMIT, Daemon, minefield_command, short_folder, wait_for
from tests.frontdoor.conftest import FrontDoorProcess
from tests.frontdoor.test_server_kept import club_records
from tests.server.kept_records import write_record

HOST_KEY = re.compile(r"host key (SHA256:\S+)")


def backup(data: Path, dest: Path) -> subprocess.CompletedProcess[str]:
    """``minefield ssh-server backup DEST --data DATA``, as the operator types it."""
    return subprocess.run([minefield_command(), "ssh-server", "backup", str(dest), "--data",
                           str(data)], capture_output=True, text=True, check=False,
                          timeout=STEP_LIMIT)


def the_club(door: FrontDoorProcess, ann: Path) -> dict[str, object]:
    """Everything a player can ask of the club, as JSON."""
    return {"games": door.json(ann, "games", "--json"),
            "history": door.json(ann, "history", "--json"),
            "stats": {name: door.json(ann, "stats", name, "--json")
                      for name in ("Ann", "Bob", "Cat")},
            "ladder": door.json(ann, "ladder", "--json"),
            "whoami": door.json(ann, "whoami", "--json"),
            "tournaments": door.json(ann, "tournaments", "--json")}


def test_a_backup_of_a_running_server_restores_into_a_fresh_folder_with_the_same_club(
        folder: Path, keys: dict[str, Path]) -> None:
    ann, bob, cat = keys["ann"], keys["bob"], keys["cat"]
    data = folder / "door"
    club_records(data)
    door = FrontDoorProcess(folder, "--open")
    try:
        for key, name in ((ann, "Ann"), (bob, "Bob"), (cat, "Cat")):
            assert door.run(key, "name", name).returncode == 0
        created = door.run(ann, "tournament", "new", "Spring", "--format", "swiss")
        assert created.returncode == 0, created.stderr
        assert door.run(bob, "tournament", "join", "Spring").returncode == 0

        def rated() -> bool:
            return {row["name"]: row["games"] for row in door.json(ann, "ladder", "--json")
                    } == {"Ann": 3, "Bob": 2, "Cat": 1}

        wait_for("the games rated", rated, door.report)
        before = the_club(door, ann)
        assert before["games"] and before["tournaments"]
        key_line = HOST_KEY.search(door.log.read_text())
        assert key_line is not None
        # The backup, with the server running (its database open, in WAL mode).
        dest = folder / "saved"
        done = backup(data, dest)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(f"Backed up {data} to {dest}: 1 SQLite database "
                                      "(online backup, checked), 4 game records"), done.stdout
        assert (dest.stat().st_mode & 0o777) == 0o700
        assert (dest / "ssh_host_ed25519_key").stat().st_mode & 0o777 == 0o600
        assert not (dest / "run").exists()  # the daemon's socket is not data
        assert not list(dest.glob("*.sqlite-*"))  # WAL and shared memory folded in
        with sqlite3.connect(dest / "players.sqlite") as copy:
            assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        # A folder in use is refused with one line, and left as it was.
        listing = sorted(p.relative_to(dest) for p in dest.rglob("*"))
        again = backup(data, dest)
        assert again.returncode == 2 and again.stdout == ""
        assert again.stderr == (f"minefield: ssh-server backup: {dest} exists and is not "
                                "empty: give a new or empty folder\n")
        assert sorted(p.relative_to(dest) for p in dest.rglob("*")) == listing
        inside = backup(data, data / "copy")
        assert inside.returncode == 2 and inside.stderr.count("\n") == 1
        assert not (data / "copy").exists()
        nothing = backup(folder / "nowhere", folder / "other")
        assert nothing.returncode == 2 and "is not the data folder of a server" in nothing.stderr
    finally:
        door.stop()
    # The README's restore: the copy as a fresh server's data folder (cp -a DEST DATA).
    with short_folder() as elsewhere:
        shutil.copytree(dest, elsewhere / "door", symlinks=True)
        restored = FrontDoorProcess(elsewhere, "--open")
        try:
            assert f"host key {key_line[1]}" in restored.log.read_text()
            assert the_club(restored, ann) == before
        finally:
            restored.stop()


def test_the_data_folder_of_a_running_serve_is_backed_up_too(folder: Path) -> None:
    """With ``ssh-server --socket``, the game server is a ``minefield serve`` of its own: its
    folder (``club.sqlite``, the records) is backed up by the same command."""
    write_record(folder / "server" / "games", "g1", 1, "Ann@me", "Bob@me")
    daemon = Daemon(folder)
    try:
        def kept() -> bool:
            try:
                with closing(sqlite3.connect(folder / "server" / "club.sqlite")) as db:
                    return bool(db.execute("SELECT game FROM kept_games").fetchall())
            except sqlite3.Error:  # not made yet
                return False

        wait_for("the game kept", kept, daemon.report)
        done = backup(folder / "server", folder / "saved")
    finally:
        daemon.stop()
    assert done.returncode == 0, done.stderr
    assert "1 SQLite database (online backup, checked), 1 game record" in done.stdout
    with closing(sqlite3.connect(folder / "saved" / "club.sqlite")) as copy:
        assert copy.execute("SELECT game FROM kept_games").fetchall() == [("g1",)]
    assert (folder / "saved" / "games" / "finished" / "g1.jsonl").is_file()
