"""``minefield ssh-server backup DEST``: a consistent copy of a server's data folder, taken
while the server runs.

What a data folder holds (:mod:`minefield.frontdoor.door_config`, :mod:`minefield.paths`):
``players.sqlite`` (names, keys, ratings, kept games, tournaments, browser sign-ins), the host
key, the allow-list, each player's home (``players/ID/``: settings in ``config/``, saved
games and the trainer's ``progress.sqlite3`` in ``data/``) and the game server's records
(``server/games/``, finished ones in ``server/games/finished/``). ``run/`` holds only the
daemon's socket and is left out.

How the copy stays consistent with a server writing meanwhile:

- every SQLite database is copied with SQLite's online backup API
  (:meth:`sqlite3.Connection.backup`, in one step: one read transaction, so the copy is the
  database as it was at one instant, whatever the server commits meanwhile; its WAL and shared
  memory files are folded in, never copied), then checked (``PRAGMA integrity_check``);
- the databases are copied first, the records after: a game kept or rated in the copied
  database finished before the copy began, so its record (never deleted, only moved to
  ``finished/``) is in the copy; a game that ended later is in the copy as a record only, and
  the server started on the copy adds it to its index and rates it (as it does for a game that
  ended while it was down);
- a record is appended line by line (each line fsynced), so a copy taken mid-line has a
  torn last line, which the reader leaves out (as after a crash); a record moved to
  ``finished/`` while being copied is copied from there, and a game copied both as unfinished
  and as finished is kept as finished only.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import stat
from dataclasses import dataclass
from pathlib import Path

from minefield.errors import MinefieldError
from minefield.records.writer import RECORD_SUFFIX
from minefield.server.durable import FINISHED_FOLDER

#: The first 16 bytes of every SQLite database file.
SQLITE_MAGIC = b"SQLite format 3\x00"
#: Files SQLite keeps beside a database while it is open (folded into the backup).
SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")
#: Folders of the data folder that are not copied: the daemon's socket.
SKIPPED_FOLDERS = frozenset({"run"})
#: How long a backup waits for a database the server holds locked for writing.
BUSY_MILLISECONDS = 10_000


class BackupError(MinefieldError):
    """The backup cannot be made (one line)."""


@dataclass(slots=True)
class BackupReport:
    """What was copied."""

    databases: int = 0
    records: int = 0
    files: int = 0
    #: Sockets, links and other files that are not regular files (not copied).
    skipped: int = 0

    def summary(self, data: Path, dest: Path) -> str:
        """One line for the operator."""
        return (f"Backed up {data} to {dest}: {self.databases} SQLite "
                f"database{'s' if self.databases != 1 else ''} (online backup, checked), "
                f"{self.records} game record{'s' if self.records != 1 else ''}, "
                f"{self.files} other file{'s' if self.files != 1 else ''}.")


def is_sqlite(path: Path) -> bool:
    """True when the file at ``path`` is an SQLite database (by its first bytes)."""
    try:
        with path.open("rb") as file:
            return file.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


def check_dest(data: Path, dest: Path) -> None:
    """``dest`` must be new or an empty folder, outside ``data`` (BackupError if not)."""
    if dest.exists() or dest.is_symlink():
        if not dest.is_dir():
            raise BackupError(f"{dest} exists and is not a folder: give a new folder")
        try:
            if any(dest.iterdir()):
                raise BackupError(f"{dest} exists and is not empty: give a new or empty "
                                  "folder")
        except OSError as error:
            raise BackupError(f"cannot read {dest}: {_why(error)}") from None
    resolved, source = dest.resolve(), data.resolve()
    if resolved == source or source in resolved.parents:
        raise BackupError(f"{dest} is inside the data folder {data}: give a folder outside "
                          "it")


def backup_database(source: Path, target: Path) -> None:
    """Copy the SQLite database ``source`` to ``target`` with the online backup API (one
    step: a snapshot of one instant), then check the copy."""
    # Read-write, though it only reads: a read-only connection cannot open a WAL database
    # whose shared memory file is not there (the server stopped).
    reader = sqlite3.connect(str(source), timeout=BUSY_MILLISECONDS / 1000)
    try:
        reader.execute(f"PRAGMA busy_timeout={BUSY_MILLISECONDS}")
        writer = sqlite3.connect(str(target))
        try:
            reader.backup(writer)
            (verdict,) = writer.execute("PRAGMA integrity_check").fetchone()
        finally:
            writer.close()
    finally:
        reader.close()
    if verdict != "ok":
        raise BackupError(f"the copy of {source.name} failed its integrity check ({verdict})")
    for side in SQLITE_SIDE_FILES:  # a WAL copy's own side files, empty once it is closed
        with contextlib.suppress(FileNotFoundError):
            Path(f"{target}{side}").unlink()


def _why(error: OSError) -> str:
    return (error.strerror or str(error)).lower()


class _Copier:
    """One backup's walk of the data folder."""

    def __init__(self, data: Path, dest: Path) -> None:
        self.data = data
        self.dest = dest
        self.report = BackupReport()

    def run(self) -> BackupReport:
        databases, others = self._files()
        for path in databases:  # first: see the module
            target = self._target(path)
            try:
                backup_database(path, target)
            except sqlite3.Error as error:
                raise BackupError(f"cannot back up the database {path}: {error}") from None
            os.chmod(target, stat.S_IMODE(path.stat().st_mode))
            self.report.databases += 1
        for path in others:
            if self._copy(path):
                if path.name.endswith(RECORD_SUFFIX):
                    self.report.records += 1
                else:
                    self.report.files += 1
        self._drop_stale_unfinished()
        return self.report

    def _files(self) -> tuple[list[Path], list[Path]]:
        """The databases and the other regular files of the data folder (folders made in the
        copy as they are found, with their modes)."""
        databases: list[Path] = []
        others: list[Path] = []
        sides: set[Path] = set()
        for folder, names, files in os.walk(self.data):
            here = Path(folder)
            if here == self.data:
                names[:] = [name for name in names if name not in SKIPPED_FOLDERS]
            names.sort()
            target = self._target(here)
            target.mkdir(mode=0o700, exist_ok=True)
            os.chmod(target, stat.S_IMODE(here.stat().st_mode) | stat.S_IRWXU)
            for name in sorted(files):
                path = here / name
                try:
                    mode = path.lstat().st_mode
                except FileNotFoundError:
                    continue  # gone meanwhile (a record moved: copied from finished/)
                if not stat.S_ISREG(mode):
                    self.report.skipped += 1
                elif is_sqlite(path):
                    databases.append(path)
                    sides.update(Path(f"{path}{side}") for side in SQLITE_SIDE_FILES)
                else:
                    others.append(path)
        return databases, [path for path in others if path not in sides]

    def _target(self, path: Path) -> Path:
        return self.dest / path.relative_to(self.data)

    def _copy(self, path: Path) -> bool:
        """Copy one file (with its mode); a record moved to ``finished/`` meanwhile is copied
        from there. False when it is gone."""
        target = self._target(path)
        for source, copy in ((path, target),
                             (path.parent / FINISHED_FOLDER / path.name,
                              target.parent / FINISHED_FOLDER / path.name)):
            if copy.exists():
                return False  # copied already (it moved into a folder walked later)
            try:
                copy.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                shutil.copy2(source, copy, follow_symlinks=False)
                return True
            except FileNotFoundError:
                if not path.name.endswith(RECORD_SUFFIX):
                    return False
            except OSError as error:
                raise BackupError(f"cannot copy {source}: {_why(error)}") from None
        return False

    def _drop_stale_unfinished(self) -> None:
        """A game copied unfinished and, after it ended and moved, finished: keep the
        finished copy only (the unfinished one would be taken up again at start)."""
        for finished in self.dest.rglob(f"{FINISHED_FOLDER}/*{RECORD_SUFFIX}"):
            stale = finished.parent.parent / finished.name
            if stale.is_file():
                stale.unlink()
                self.report.records -= 1


def backup(data: Path, dest: Path) -> BackupReport:
    """Copy the data folder ``data`` into ``dest`` (new or empty; made with mode 0700: it
    holds the host key), consistently while the server runs (see the module). BackupError,
    with the half-made copy removed, when it cannot."""
    check_dest(data, dest)
    made = not dest.exists()
    try:
        dest.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(dest, 0o700)
        return _Copier(data, dest).run()
    except OSError as error:
        _remove(dest, made)
        raise BackupError(f"cannot write the backup in {dest}: {_why(error)}") from None
    except BaseException:
        _remove(dest, made)
        raise


def _remove(dest: Path, made: bool) -> None:
    """Take away a half-made backup (the folder too when this backup made it)."""
    if made:
        shutil.rmtree(dest, ignore_errors=True)
        return
    for child in list(dest.iterdir()) if dest.is_dir() else []:
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)


__all__ = ["BackupError", "BackupReport", "backup", "backup_database", "check_dest",
           "is_sqlite"]
