"""A player's home, one layout for both SSH doors (minefield/paths.py): ``players/KEY/`` in a
data folder, holding ``data/`` and ``config/``; the OpenSSH shared account's folders of before
(``players/NAME`` inside each root) move in at the player's next start, under a lock, in steps
that a crash or a failure never leaves half done."""

from __future__ import annotations

import argparse
import contextlib
import errno
import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import minefield.paths as paths
from minefield.cli import ssh_entry
from minefield.frontdoor.accounts import Account
from minefield.frontdoor.server import FrontDoor, FrontDoorConfig
from minefield.paths import (
    CONFIG_ENV,
    DATA_ENV,
    error_log_path,
    make_player_home,
    player_home,
    progress_path,
    records_dir,
    settings_path,
    use_player_folders,
)
from tests.waiting import LOOKS, PAUSE_SECONDS

#: A player's things of before: where each lived (relative to the test's folder) and its bytes.
RECORD = "records/2026-01-02-g1.jsonl"
OLD_DATA = {RECORD: b'{"type": "header", "game": "g1"}\n',
            "progress.sqlite3": b"SQLite format 3\0x", "room-scores.json": b'{"K7Q3PX": [1, 0]}'}
OLD_CONFIG = {"settings.json": b'{"theme": "high-contrast"}\n', "errors.log": b"--- crash\n"}


class Crash(BaseException):
    """The process dies here (nothing below it runs, no ``except OSError`` catches it)."""


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) under ``folder``, lock files left out."""
    found: dict[str, bytes | None] = {}
    for path in sorted(folder.rglob("*")):
        if path.name.endswith("~lock"):
            continue
        found[path.relative_to(folder).as_posix()] = path.read_bytes() if path.is_file() else None
    return found


def old_player(data: Path, config: Path, name: str = "alice") -> None:
    """A player of the shared account as an older version left them: ``players/NAME`` in
    the data folder (saved games, the trainer's progress) and in the config folder."""
    for root, files in ((data, OLD_DATA), (config, OLD_CONFIG)):
        for relative, content in files.items():
            path = root / "players" / name / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)


def assert_everything_in_the_home(data: Path, name: str = "alice") -> None:
    """What the game reads (through the roots now set) is what the player had, all in their
    home, and nothing of before or of the move is left."""
    home = data / "players" / name
    assert records_dir() == home / "data" / "records"
    assert settings_path() == home / "config" / "settings.json"
    assert (records_dir() / "2026-01-02-g1.jsonl").read_bytes() == OLD_DATA[RECORD]
    assert progress_path().read_bytes() == OLD_DATA["progress.sqlite3"]
    assert (home / "data" / "room-scores.json").read_bytes() == OLD_DATA["room-scores.json"]
    assert settings_path().read_bytes() == OLD_CONFIG["settings.json"]
    assert error_log_path().read_bytes() == OLD_CONFIG["errors.log"]
    assert sorted(path.name for path in home.iterdir()) == ["config", "data"]
    assert sorted(path.name for path in (home / "data").iterdir()) == [
        "progress.sqlite3", "records", "room-scores.json"]
    assert sorted(path.name for path in (home / "config").iterdir()) == [
        "errors.log", "settings.json"]
    assert sorted(path.name for path in (data / "players").iterdir()) == [name, f"{name}~lock"]


@pytest.fixture
def roots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """The shared account's two roots, ``d`` and ``c`` (restored after the test)."""
    data, config = tmp_path / "d", tmp_path / "c"
    monkeypatch.setenv(DATA_ENV, str(data))
    monkeypatch.setenv(CONFIG_ENV, str(config))
    return data, config


def test_both_doors_give_a_player_the_same_home(
        tmp_path: Path, roots: tuple[Path, Path]) -> None:
    """ssh-server's player (an account's id) and a shared OpenSSH account's (a name): a home
    ``players/KEY/`` in the door's data folder, with the two roots ``data/`` and ``config/``."""
    server_data = tmp_path / "ssh-server"
    door = FrontDoor(FrontDoorConfig(data=server_data, socket=tmp_path / "daemon.sock"))
    account = Account(id=7, name="Ann", fingerprints=(), rating=1500.0, deviation=350.0,
                      volatility=0.06, games=0)
    env = door.spawn_env(account, "xterm", None, True)
    make_player_home(Path(env["HOME"]))
    use_player_folders("alice")
    homes = [(server_data, "7", env), (roots[0], "alice", dict(os.environ))]
    for root, key, seen in homes:
        home = root / "players" / key
        assert player_home(root, key) == home
        assert (Path(seen[DATA_ENV]), Path(seen[CONFIG_ENV])) == (home / "data", home / "config")
        assert sorted(path.name for path in home.iterdir()) == ["config", "data"]
    assert not roots[1].exists()  # nothing in the shared account's config folder


@pytest.mark.parametrize("one_root", [False, True], ids=["two roots", "one root"])
def test_a_player_of_before_keeps_everything_after_the_first_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, one_root: bool) -> None:
    """Saved games, the trainer's progress, settings and errors.log move into the home;
    when both roots were one folder (macOS's default), the settings go to ``config/``."""
    data = tmp_path / "d"
    config = data if one_root else tmp_path / "c"
    monkeypatch.setenv(DATA_ENV, str(data))
    monkeypatch.setenv(CONFIG_ENV, str(config))
    old_player(data, config)
    assert use_player_folders("alice") is None
    assert_everything_in_the_home(data)
    assert not (config / "players" / "alice" / "settings.json").exists()
    if not one_root:
        assert list((config / "players").iterdir()) == []
    moved = snapshot(tmp_path)
    monkeypatch.setenv(DATA_ENV, str(data))
    monkeypatch.setenv(CONFIG_ENV, str(config))
    assert use_player_folders("alice") is None  # the next start: nothing moves again
    assert snapshot(tmp_path) == moved


def test_a_config_folder_on_another_device_is_copied_whole_then_removed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The config root on another file system (a rename cannot cross it): its player's folder
    is copied into the home, then removed."""
    other = Path("/dev/shm")
    if not other.is_dir() or other.stat().st_dev == tmp_path.stat().st_dev:
        pytest.skip("no second file system to put the config folder on")
    data, config = tmp_path / "d", Path(tempfile.mkdtemp(dir=other))
    try:
        monkeypatch.setenv(DATA_ENV, str(data))
        monkeypatch.setenv(CONFIG_ENV, str(config))
        old_player(data, config)
        assert use_player_folders("alice") is None
        assert_everything_in_the_home(data)
        assert list((config / "players").iterdir()) == []
    finally:
        shutil.rmtree(config)


def test_a_new_player_gets_an_empty_home(roots: tuple[Path, Path]) -> None:
    assert use_player_folders("bob") is None
    home = roots[0] / "players" / "bob"
    assert snapshot(home) == {"config": None, "data": None}
    assert settings_path() == home / "config" / "settings.json"


def _blocked_on_a_lock(pid: int) -> bool:
    """True when process ``pid`` waits for an flock (a ``->`` line of /proc/locks)."""
    for line in Path("/proc/locks").read_text().splitlines():
        words = line.split()
        if len(words) > 5 and words[1] == "->" and words[2] == "FLOCK" and words[5] == str(pid):
            return True
    return False


def test_a_second_session_waits_for_the_first_and_moves_nothing_again(
        tmp_path: Path, roots: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Two sessions of one player at once: the second waits on the player's lock while the
    first moves the folders in, then finds the home made and moves nothing (no data/data)."""
    data, config = roots
    old_player(data, config)
    before = snapshot(tmp_path)
    lock = data / "players" / "alice~lock"
    code = "from minefield.paths import use_player_folders; print(use_player_folders('alice'))"
    with lock.open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # the first session, moving in
        second = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                                  text=True, env=dict(os.environ))
        try:
            for _ in range(LOOKS * 3):
                if _blocked_on_a_lock(second.pid) or second.poll() is not None:
                    break
                time.sleep(PAUSE_SECONDS)
            assert _blocked_on_a_lock(second.pid), "the second session did not wait"
            assert snapshot(tmp_path) == before  # it moved nothing meanwhile
            # The first session moves in (the test holds the lock for it: an flock belongs
            # to an open file, so the same file opened again would wait for the test's own).
            with monkeypatch.context() as patch:
                patch.setattr(paths, "_locked", lambda path: contextlib.nullcontext())
                assert use_player_folders("alice") is None
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)
            out, _ = second.communicate(timeout=60)
    assert (second.returncode, out) == (0, "None\n")
    assert_everything_in_the_home(data)


Step = tuple[str, tuple[Any, ...]]
#: The file operations of a whole move of a player of before: two files of settings copied,
#: the copy renamed into the new home, the mark of a move touched, the old data folder renamed
#: in, the new home renamed into place; then, with two roots, the old config folder removed,
#: with one, the settings' two old copies removed from ``data/``; the mark removed.
STEPS = {"two roots": 8, "one root": 9}
MOVES = [(roots, at) for roots, count in STEPS.items() for at in range(count)]


def steps_failing(monkeypatch: pytest.MonkeyPatch, at: int | None,
                  failure: Callable[[], BaseException]) -> list[Step]:
    """Make the move's file operations fail with ``failure()`` at the ``at``-th (from 0;
    None: never); the list of those done (and the failed one)."""
    done: list[Step] = []

    def watched(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def step(*args: Any, **kwargs: Any) -> Any:
            done.append((name, args))
            if at is not None and len(done) - 1 == at:
                raise failure()
            return real(*args, **kwargs)
        return step

    monkeypatch.setattr(os, "rename", watched("rename", os.rename))
    monkeypatch.setattr(shutil, "copy2", watched("copy", shutil.copy2))
    monkeypatch.setattr(shutil, "rmtree", watched("rmtree", shutil.rmtree))
    monkeypatch.setattr(Path, "unlink", watched("unlink", Path.unlink))
    monkeypatch.setattr(Path, "touch", watched("touch", Path.touch))
    return done


def player_of_before(folder: Path, monkeypatch: pytest.MonkeyPatch, kind: str
                     ) -> tuple[Path, Path]:
    """The roots (``kind``: two roots, or one for both) of a player of before made in
    ``folder``, set for this test."""
    data = folder / "d"
    config = data if kind == "one root" else folder / "c"
    monkeypatch.setenv(DATA_ENV, str(data))
    monkeypatch.setenv(CONFIG_ENV, str(config))
    old_player(data, config)
    return data, config


def whole_move(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str) -> list[Step]:
    """The steps of one whole move of a player of before (done aside, then removed)."""
    aside = tmp_path / "aside"
    with monkeypatch.context() as patch:
        player_of_before(aside, patch, kind)
        done = steps_failing(patch, None, Crash)
        assert use_player_folders("alice") is None
    shutil.rmtree(aside)
    assert len(done) == STEPS[kind], done  # every step of a whole move is tried
    return done


def nothing_of_before(data: Path, config: Path) -> None:
    assert_everything_in_the_home(data)
    if config != data:
        assert list((config / "players").iterdir()) == []


@pytest.mark.parametrize(("kind", "at"), MOVES)
def test_a_start_cut_short_by_a_crash_is_finished_by_the_next(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, at: int) -> None:
    """A crash at any step leaves every file of the player somewhere (the folders of before
    or the new home being made); the next start finishes the move, and nothing is lost."""
    whole_move(tmp_path, monkeypatch, kind)
    data, config = player_of_before(tmp_path, monkeypatch, kind)
    with monkeypatch.context() as patch:
        steps_failing(patch, at, Crash)
        with pytest.raises(Crash):
            use_player_folders("alice")
    left = {content for content in snapshot(tmp_path).values() if content is not None}
    assert set(OLD_DATA.values()) | set(OLD_CONFIG.values()) <= left
    monkeypatch.setenv(DATA_ENV, str(data))
    monkeypatch.setenv(CONFIG_ENV, str(config))
    assert use_player_folders("alice") is None
    nothing_of_before(data, config)


@pytest.mark.parametrize(("kind", "at"), MOVES)
def test_a_move_that_fails_leaves_the_folders_of_before_as_they_were(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, at: int) -> None:
    """A full disk at any step: before the home is whole, what was done is undone, the
    player plays from their folders of before and one line says so; after, the player plays
    from the home. The next start finishes the move either way."""
    steps = whole_move(tmp_path, monkeypatch, kind)
    commit = next(i for i, (name, args) in enumerate(steps)  # the new home put in place
                  if name == "rename" and Path(args[1]).name == "alice")
    data, config = player_of_before(tmp_path, monkeypatch, kind)
    before = snapshot(tmp_path)
    with monkeypatch.context() as patch:
        steps_failing(patch, at, lambda: OSError(errno.ENOSPC, "No space left on device"))
        problem = use_player_folders("alice")
    if at <= commit:
        assert problem is not None and "\n" not in problem
        assert "No space left on device" in problem and str(tmp_path) not in problem
        assert snapshot(tmp_path) == before
        assert settings_path() == config / "players" / "alice" / "settings.json"
        assert records_dir() == data / "players" / "alice" / "records"
    else:  # the home is whole: what is left of before goes at the next start
        assert problem is None
        assert settings_path().read_bytes() == OLD_CONFIG["settings.json"]
    monkeypatch.setenv(DATA_ENV, str(data))
    monkeypatch.setenv(CONFIG_ENV, str(config))
    assert use_player_folders("alice") is None
    nothing_of_before(data, config)


def test_the_ssh_entry_says_a_failed_move_in_one_line_and_the_game_runs(
        roots: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    data, config = roots
    old_player(data, config)
    ran: list[tuple[list[str], str]] = []

    def game(argv: list[str]) -> int:
        ran.append((argv, os.environ[CONFIG_ENV]))
        return 0

    monkeypatch.setattr("minefield.cli.main", game)
    monkeypatch.setattr(ssh_entry, "_banned", lambda *_: None)
    monkeypatch.setattr(ssh_entry, "_has_terminal", lambda: True)
    monkeypatch.setattr(shutil, "copy2", _no_space)
    args = argparse.Namespace(player="alice", socket=None)
    assert ssh_entry.run(args, {b"SSH_ORIGINAL_COMMAND": b"resume"}) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("minefield: your saved games and settings")
    assert "Traceback" not in err
    assert ran == [(["resume", "--player", "alice"], str(config / "players" / "alice"))]


def _no_space(*_: object) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("name", ["", ".", "..", "a/b", "a~new"])
def test_a_key_that_is_no_folder_name_has_no_home(name: str) -> None:
    """``..`` would make the data folder itself a player's home; ``~`` marks the move's own
    names beside the homes."""
    with pytest.raises(ValueError, match="cannot name a player's folder"):
        player_home(Path("/srv"), name)
