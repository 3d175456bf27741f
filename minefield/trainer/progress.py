"""The trainer's progress: games, discards and drills in a small SQLite file.

The file is ``progress.sqlite3`` in the user data folder (``MINEFIELD_DATA_DIR`` moves it, as
as for the records: :mod:`minefield.paths`), mode 0600 in a 0700 folder. It runs in WAL
mode and every write is one short transaction, so a process killed mid-write loses at most the
write in progress and never a committed one. The schema is versioned by ``PRAGMA user_version``
and upgraded by :data:`MIGRATIONS` (a file from a newer Minefield is refused, never changed).

Nothing here may stop a game: :func:`open_progress` never raises. A file that is corrupt,
locked, unreadable or read-only gives a :class:`NullProgress` (every write a no-op, empty
summaries) and a one-line problem the caller shows. Writes on an open store raise
:class:`ProgressError` (one line) when the disk or a lock refuses them.

This module keeps the file; what it records is :mod:`minefield.trainer.progress_records`, the
summaries it gives :mod:`minefield.trainer.progress_summary`.

>>> import tempfile, pathlib
>>> from minefield.trainer.progress_records import DiscardRecord, GameRecord
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> store, problem = open_progress(folder / "progress.sqlite3")
>>> problem is None
True
>>> _ = store.record_game(GameRecord(mode="practice", seat="east", result="lost", points=-8000),
...                       [DiscardRecord(number=5, tile="3p", danger=0.12, least_danger=0.01,
...                                      dealt_in=True)])
>>> summary = store.summary()
>>> summary.games, summary.deal_ins, summary.deal_in_rate
(1, 1, 1.0)
>>> store.close()
"""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from minefield.errors import MinefieldError
from minefield.paths import progress_path
from minefield.records.writer import ensure_folder
from minefield.trainer.progress_records import (
    DiscardRecord,
    DrillRecord,
    GameRecord,
    parse_time,
    time_text,
)
from minefield.trainer.progress_summary import EMPTY_SUMMARY, ProgressSummary, summarize

FILE_MODE = 0o600
SCHEMA_VERSION = 1
#: How long a write waits for another process's lock before it gives up (seconds).
LOCK_TIMEOUT = 2.0

#: ``MIGRATIONS[n]`` takes a file from schema ``n`` to ``n + 1`` (user_version 0 is a new file).
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        played_at TEXT NOT NULL,
        mode TEXT NOT NULL,
        seat TEXT NOT NULL,
        result TEXT NOT NULL CHECK (result IN ('won', 'lost', 'draw')),
        dealt_in INTEGER NOT NULL CHECK (dealt_in IN (0, 1)),
        points INTEGER NOT NULL,
        seed TEXT
    );
    CREATE TABLE discards (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        number INTEGER NOT NULL CHECK (number BETWEEN 1 AND 34),
        tile TEXT NOT NULL,
        danger REAL,
        least_danger REAL,
        dealt_in INTEGER NOT NULL CHECK (dealt_in IN (0, 1))
    );
    CREATE INDEX discards_by_game ON discards (game_id);
    CREATE TABLE drills (
        id INTEGER PRIMARY KEY,
        done_at TEXT NOT NULL,
        kind TEXT NOT NULL,
        difficulty TEXT NOT NULL,
        position TEXT NOT NULL,
        correct INTEGER NOT NULL CHECK (correct IN (0, 1)),
        score REAL NOT NULL,
        pattern TEXT NOT NULL
    );
    CREATE INDEX drills_by_kind ON drills (kind, id);
    """,
)
assert len(MIGRATIONS) == SCHEMA_VERSION


class ProgressError(MinefieldError):
    """The progress file cannot be used: one line naming the file and what is wrong."""


def utc_now() -> datetime:
    """The current time in UTC (a function so tests and callers can pass their own)."""
    return datetime.now(UTC)


# ---------------------------------------------------------------------------------------------
# The stores


class Progress(Protocol):
    """What callers use: a real :class:`ProgressStore` or a :class:`NullProgress`."""

    path: Path
    problem: str | None

    def record_game(self, game: GameRecord, discards: Sequence[DiscardRecord] = ()) -> int:
        """Save a finished game and its discards in one transaction; the game's id."""
        ...

    def record_drill(self, drill: DrillRecord) -> int:
        """Save an answered drill; its id."""
        ...

    def drill_history(self, kind: str | None = None) -> list[DrillRecord]:
        """The answered drills (of one kind or all), oldest first."""
        ...

    def summary(self, last_games: int = 20, weeks: int = 8) -> ProgressSummary:
        """The totals shown by the stats screen and ``minefield stats``."""
        ...

    def close(self) -> None:
        """Close the file (a closed store must not be used again)."""
        ...


class NullProgress:
    """A store that keeps nothing: what callers get when the file cannot be used.

    ``problem`` is the one-line reason to show (None for a store disabled on purpose).
    """

    def __init__(self, path: Path, problem: str | None = None) -> None:
        self.path = path
        self.problem = problem

    def __repr__(self) -> str:
        return f"NullProgress({str(self.path)!r})"

    def record_game(self, game: GameRecord, discards: Sequence[DiscardRecord] = ()) -> int:
        """Keep nothing; 0."""
        return 0

    def record_drill(self, drill: DrillRecord) -> int:
        """Keep nothing; 0."""
        return 0

    def drill_history(self, kind: str | None = None) -> list[DrillRecord]:
        """No history."""
        return []

    def summary(self, last_games: int = 20, weeks: int = 8) -> ProgressSummary:
        """An empty summary."""
        return EMPTY_SUMMARY

    def close(self) -> None:
        """Nothing to close."""


def _reason(error: BaseException) -> str:
    text = str(error).strip().rstrip(".") or type(error).__name__
    if isinstance(error, OSError) and error.strerror:
        text = error.strerror
    return text.splitlines()[0].lower()


def _described(path: Path, error: BaseException) -> ProgressError:
    """The one-line :class:`ProgressError` of a failure on ``path``."""
    reason = _reason(error)
    damaged = ("not a database" in reason or "malformed" in reason or "corrupt" in reason)
    if damaged and not isinstance(error, sqlite3.OperationalError):
        return ProgressError(f"{path}: the progress file is damaged ({reason}); move it away "
                             "to start a new one")
    if "locked" in reason or "busy" in reason:
        return ProgressError(f"{path}: the progress file is in use by another program "
                             f"({reason}); try again when it is closed")
    if "readonly" in reason or "read-only" in reason:
        return ProgressError(f"{path}: the progress file is read-only: progress is not saved")
    return ProgressError(f"{path}: cannot use the progress file: {reason}")


def _check_file(path: Path) -> bool:
    """True when ``path`` exists (a regular file); :class:`ProgressError` for anything else."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return False
    except OSError as error:
        raise _described(path, error) from None
    if stat.S_ISDIR(info.st_mode):
        raise ProgressError(f"{path}: is a folder, not a progress file")
    if not stat.S_ISREG(info.st_mode):
        raise ProgressError(f"{path}: is not a regular file")
    return True


class ProgressStore:
    """An open progress file (see the module docstring). Use :func:`open_progress`.

    One store may be shared by the threads of an app (a worker recording a game while a
    screen reads the summary): its calls take turns.
    """

    def __init__(self, path: Path, *, read_only: bool = False, timeout: float = LOCK_TIMEOUT,
                 now: Callable[[], datetime] = utc_now) -> None:
        """Open (and, unless ``read_only``, create and upgrade) the file at ``path``.

        Raises :class:`ProgressError` (one line) when it cannot be used. A missing file opened
        ``read_only`` raises too: there is nothing to read (:func:`open_progress` says so).
        """
        self.path = path
        self.problem: str | None = None
        self.read_only = read_only
        self._now = now
        self._lock = threading.Lock()  # one connection, shared by the app's threads
        self._empty = False
        exists = _check_file(path)
        if read_only and not exists:
            raise ProgressError(f"{path}: no progress recorded yet")
        try:
            if not read_only:
                ensure_folder(path.parent)
                if not exists:  # create it 0600 before SQLite does (with the umask's mode)
                    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, FILE_MODE))
                elif not os.access(path, os.W_OK):
                    raise ProgressError(f"{path}: the progress file is read-only: progress is "
                                        "not saved")
            uri = path.resolve().as_uri() + ("?mode=ro" if read_only else "?mode=rw")
            self._db = sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None,
                                       check_same_thread=False)
        except ProgressError:
            raise
        except (OSError, sqlite3.Error) as error:
            raise _described(path, error) from None
        try:
            self._db.row_factory = sqlite3.Row
            self._prepare()
        except (sqlite3.Error, ProgressError) as error:
            self._db.close()
            if isinstance(error, ProgressError):
                raise
            raise _described(path, error) from None

    def __repr__(self) -> str:
        return f"ProgressStore({str(self.path)!r})"

    def _prepare(self) -> None:
        db = self._db
        check = str(db.execute("PRAGMA quick_check(1)").fetchone()[0])
        if check != "ok":
            first = (check.replace("*** in database main ***", "").strip().splitlines()
                     or ["quick_check failed"])[0]
            raise ProgressError(f"{self.path}: the progress file is damaged ({first.lower()}); "
                                "move it away to start a new one")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise ProgressError(
                f"{self.path}: written by a newer Minefield (schema {version}, this one knows "
                f"{SCHEMA_VERSION}); it is left unchanged")
        db.execute("PRAGMA foreign_keys = ON")
        if self.read_only:
            # Schema 0 is a file created but never set up (a process stopped at once): empty.
            self._empty = version == 0
            if 0 < version < SCHEMA_VERSION:
                raise ProgressError(f"{self.path}: an older progress file (schema {version}): "
                                    "open it once for writing to upgrade it")
            return
        if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        for number in range(version, SCHEMA_VERSION):
            self._migrate(number)

    def _migrate(self, number: int) -> None:
        """Take the file from schema ``number`` to ``number + 1`` in one transaction."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            if db.execute("PRAGMA user_version").fetchone()[0] != number:
                db.execute("ROLLBACK")  # another process upgraded it meanwhile
                return
            for statement in MIGRATIONS[number].split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {number + 1}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    # -- writes ---------------------------------------------------------------------------------

    def _write(self, action: Callable[[sqlite3.Connection], int]) -> int:
        if self.read_only:
            raise ProgressError(f"{self.path}: opened read-only: progress is not saved")
        db = self._db
        with self._lock:
            try:
                db.execute("BEGIN IMMEDIATE")
                try:
                    result = action(db)
                    db.execute("COMMIT")
                except BaseException:
                    if db.in_transaction:
                        db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as error:
                raise _described(self.path, error) from None
        return result

    def record_game(self, game: GameRecord, discards: Sequence[DiscardRecord] = ()) -> int:
        """Save a finished game and its discards in one transaction; the game's id.

        Raises :class:`ProgressError` when the file refuses the write (nothing is saved then).
        """
        when = time_text(game.played_at or self._now())

        def write(db: sqlite3.Connection) -> int:
            cursor = db.execute(
                "INSERT INTO games (played_at, mode, seat, result, dealt_in, points, seed) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (when, game.mode, game.seat, game.result, int(game.dealt_in), game.points,
                 game.seed))
            game_id = cursor.lastrowid
            assert game_id is not None
            db.executemany(
                "INSERT INTO discards (game_id, number, tile, danger, least_danger, dealt_in) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, d.number, d.tile, d.danger, d.least_danger, int(d.dealt_in))
                 for d in discards])
            return game_id

        return self._write(write)

    def record_drill(self, drill: DrillRecord) -> int:
        """Save an answered drill; its id. Raises :class:`ProgressError` when refused."""
        when = time_text(drill.done_at or self._now())

        def write(db: sqlite3.Connection) -> int:
            cursor = db.execute(
                "INSERT INTO drills (done_at, kind, difficulty, position, correct, score, "
                "pattern) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (when, drill.kind, drill.difficulty, drill.position, int(drill.correct),
                 float(drill.score), drill.pattern))
            assert cursor.lastrowid is not None
            return cursor.lastrowid

        return self._write(write)

    # -- reads ----------------------------------------------------------------------------------

    def _rows(self, query: str, parameters: Sequence[Any] = ()) -> list[sqlite3.Row]:
        try:
            with self._lock:
                return self._db.execute(query, parameters).fetchall()
        except sqlite3.Error as error:
            raise _described(self.path, error) from None

    def drill_history(self, kind: str | None = None) -> list[DrillRecord]:
        """The answered drills (of one kind, or all), oldest first."""
        if self._empty:
            return []
        query = "SELECT * FROM drills"
        parameters: tuple[str, ...] = ()
        if kind is not None:
            query += " WHERE kind = ?"
            parameters = (kind,)
        rows = self._rows(query + " ORDER BY id", parameters)
        return [DrillRecord(kind=r["kind"], difficulty=r["difficulty"], position=r["position"],
                            correct=bool(r["correct"]), score=r["score"], pattern=r["pattern"],
                            done_at=parse_time(r["done_at"]), id=r["id"]) for r in rows]

    def summary(self, last_games: int = 20, weeks: int = 8) -> ProgressSummary:
        """Games, deal-in rate, danger taken against the least possible (overall, over the
        last ``last_games`` games and per week for the last ``weeks`` weeks with games), and
        drill accuracy by kind (overall and per week). Raises :class:`ProgressError` when the
        file cannot be read."""
        if self._empty:
            return EMPTY_SUMMARY
        games = self._rows("SELECT * FROM games ORDER BY played_at, id")
        discards = self._rows("SELECT * FROM discards ORDER BY game_id, number")
        drills = self._rows("SELECT * FROM drills ORDER BY id")
        return summarize(games, discards, drills, last_games, weeks)


    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._db.close()


def open_progress(path: Path | None = None, *, read_only: bool = False,
                  timeout: float = LOCK_TIMEOUT) -> tuple[Progress, str | None]:
    """The progress store at ``path`` (default :func:`progress_path`) and the problem to show.

    Never raises: when the file cannot be used, the store is a :class:`NullProgress` and the
    second value is a one-line reason naming the file. ``read_only`` (``minefield stats``)
    neither creates nor upgrades the file; a missing file then gives an empty
    :class:`NullProgress` and no problem.
    """
    path = path if path is not None else progress_path()
    if read_only:
        try:
            if not _check_file(path):
                return NullProgress(path), None
        except ProgressError as error:
            return NullProgress(path, str(error)), str(error)
    try:
        return ProgressStore(path, read_only=read_only, timeout=timeout), None
    except ProgressError as error:
        return NullProgress(path, str(error)), str(error)


__all__ = [
    "FILE_MODE", "LOCK_TIMEOUT", "MIGRATIONS", "SCHEMA_VERSION", "NullProgress", "Progress",
    "ProgressError", "ProgressStore", "open_progress", "utc_now",
]
