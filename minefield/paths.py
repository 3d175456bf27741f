"""Every folder and file Minefield keeps things in, named in one place (no Textual here).

Two roots, each movable by an environment variable (tests point them at temporary folders;
the SSH doors point them at a player's home):

- the config folder (``MINEFIELD_CONFIG_DIR``, else the platform's user config folder):
  ``settings.json`` and ``errors.log``;
- the data folder (``MINEFIELD_DATA_DIR``, else the platform's user data folder): ``records/``
  (game records), ``progress.sqlite3`` (the defense trainer's progress) and ``server/`` (the
  daemon's games when ``--data`` is not given).

A third, the cache folder (``MINEFIELD_CACHE_DIR``, else the platform's user cache folder),
holds only what can be made again: the parsed stylesheet (``minefield.tui.css_cache``).

The game servers' places are here too: the daemon's socket (``$MINEFIELD_SOCKET``, else
``$XDG_RUNTIME_DIR/minefield/minefield.sock``, else ``/tmp/minefield-$UID/minefield.sock``),
``minefield ssh-server``'s data folder (``ssh-server/`` in the data folder) with its embedded
daemon's socket (``run/daemon.sock`` in it, or in ``/tmp`` when that path is too long), and
a player's home when many people play from one account (:func:`player_home`):
``players/KEY/`` in a data folder, holding the player's two roots ``data/`` and ``config/``;
KEY is the account's id in ``ssh-server``'s data folder, the player's name in the data folder
of the OpenSSH door's shared account (whose homes of before, ``players/NAME`` inside both
roots, move in at the player's next start: :func:`open_player_home`).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import platformdirs

CONFIG_ENV = "MINEFIELD_CONFIG_DIR"
DATA_ENV = "MINEFIELD_DATA_DIR"
CACHE_ENV = "MINEFIELD_CACHE_DIR"

SETTINGS_FILE = "settings.json"
ERROR_LOG = "errors.log"
RECORDS_FOLDER = "records"
PROGRESS_FILE = "progress.sqlite3"
SERVER_FOLDER = "server"
#: Where the players' homes are, in a data folder (:func:`player_home`).
PLAYERS_FOLDER = "players"
#: Where a client finds the game daemon's socket (the daemon listens there), when set.
SOCKET_ENV = "MINEFIELD_SOCKET"
SOCKET_NAME = "minefield.sock"
#: ``minefield ssh-server``'s data folder, inside the data folder, when ``--data`` is not given.
SSH_SERVER_FOLDER = "ssh-server"
#: The two folders of a player's home: their data, their settings.
PLAYER_DATA_FOLDER = "data"
PLAYER_CONFIG_FOLDER = "config"
#: Next to a home in ``players/`` (no name or id has a ``~``): the lock its sessions take
#: while folders of before move in, and the new home being made (renamed to the home's name
#: once whole). In it, while its config folder is copied: the copy.
LOCK_SUFFIX = "~lock"
STAGE_SUFFIX = "~new"
PART_SUFFIX = "~part"
#: In a home just made from folders of before, until what is left of them is removed.
MOVED_MARK = "~moved"
#: The longest a Unix socket path may be (sun_path is 108 bytes with its NUL).
MAX_SOCKET_PATH = 100

_APP = "minefield"


def config_dir() -> Path:
    """The user config folder of Minefield (``MINEFIELD_CONFIG_DIR`` when set)."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override)
    return Path(platformdirs.user_config_dir(_APP, appauthor=False))


def data_dir() -> Path:
    """The user data folder of Minefield (``MINEFIELD_DATA_DIR`` when set)."""
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override)
    return Path(platformdirs.user_data_dir(_APP, appauthor=False))


def cache_dir() -> Path:
    """The user cache folder of Minefield (``MINEFIELD_CACHE_DIR`` when set): what can be
    made again, such as the parsed stylesheet; deleting it loses nothing."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override)
    return Path(platformdirs.user_cache_dir(_APP, appauthor=False))


def settings_path() -> Path:
    """Where the preferences are saved: ``settings.json`` in the config folder."""
    return config_dir() / SETTINGS_FILE


def error_log_path() -> Path:
    """The log of unexpected errors: ``errors.log`` in the config folder."""
    return config_dir() / ERROR_LOG


def records_dir() -> Path:
    """The folder of saved game records: ``records/`` in the data folder."""
    return data_dir() / RECORDS_FOLDER


def progress_path() -> Path:
    """The defense trainer's progress: ``progress.sqlite3`` in the data folder."""
    return data_dir() / PROGRESS_FILE


def server_data_dir() -> Path:
    """Where the daemon keeps its games when ``--data`` is not given: ``server/`` in the data
    folder."""
    return data_dir() / SERVER_FOLDER


def default_socket_path() -> Path:
    """The socket when none is given: ``$MINEFIELD_SOCKET``, the runtime folder, or /tmp."""
    explicit = os.environ.get(SOCKET_ENV)
    if explicit:
        return Path(explicit)
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and Path(runtime).is_dir():
        return Path(runtime) / "minefield" / SOCKET_NAME
    return Path(f"/tmp/minefield-{os.getuid()}") / SOCKET_NAME


def ssh_server_data_dir() -> Path:
    """``minefield ssh-server``'s data folder when ``--data`` is not given: ``ssh-server/`` in
    the data folder."""
    return data_dir() / SSH_SERVER_FOLDER


def daemon_socket_path(data: Path) -> Path:
    """``ssh-server``'s embedded daemon's socket, for its data folder ``data``: in it, or in
    /tmp when that path is too long for a Unix socket."""
    path = data / "run" / "daemon.sock"
    if len(str(path)) <= MAX_SOCKET_PATH:
        return path
    tag = hashlib.sha256(str(data).encode()).hexdigest()[:12]
    return Path(f"/tmp/minefield-ssh-{os.getuid()}-{tag}") / "daemon.sock"


def player_home(data: Path, key: str | int) -> Path:
    """A player's home in the data folder ``data``: ``players/KEY``, holding ``data/`` and
    ``config/`` (the two roots of the player's client, :func:`player_roots`). KEY is the
    account's id for ``minefield ssh-server``, the player's name (``ssh-entry --player``) for
    the OpenSSH door's shared account; one that is no plain folder name is a ValueError.

    >>> player_home(Path("/srv/mf"), 7)
    PosixPath('/srv/mf/players/7')
    """
    name = str(key)
    if name in ("", ".", "..") or "/" in name or "~" in name or "\0" in name:
        raise ValueError(f"{name!r} cannot name a player's folder")
    return data / PLAYERS_FOLDER / name


def player_roots(home: Path) -> dict[str, str]:
    """The environment that points a client's two roots at the player's home ``home``
    (:func:`player_home`)."""
    return {DATA_ENV: str(home / PLAYER_DATA_FOLDER), CONFIG_ENV: str(home / PLAYER_CONFIG_FOLDER)}


def make_player_home(home: Path) -> None:
    """Make a player's two folders in ``home`` (private to the server's account)."""
    for folder in (PLAYER_DATA_FOLDER, PLAYER_CONFIG_FOLDER):
        (home / folder).mkdir(parents=True, exist_ok=True, mode=0o700)


@dataclass(frozen=True, slots=True)
class PlayerFolders:
    """A player's two roots; ``problem``: why they are not the home's (one line), None when
    they are."""

    data: Path
    config: Path
    problem: str | None = None

    def environ(self) -> dict[str, str]:
        """The variables that point a client at these folders."""
        return {DATA_ENV: str(self.data), CONFIG_ENV: str(self.config)}


def open_player_home(data: Path, config: Path, key: str) -> PlayerFolders:
    """The roots of the player ``key`` of a shared account whose roots are ``data`` and
    ``config``: their home (:func:`player_home`), made at their first start.

    Their folders of before, ``players/KEY`` in each root (one folder when the roots are one),
    move in first, under a lock on ``players/KEY~lock`` (a second session of the same player
    waits, then finds the home made). The new home is made as ``players/KEY~new``: the old
    config folder copied in (so it may be on another device; a copy is made whole, then
    renamed), then the old data folder renamed in (same folder: atomic), then the whole
    renamed to ``players/KEY``; only then is the old config folder removed. A start that
    finds a move cut short by a crash takes it up where it stopped. When a step fails (a full
    disk, a permission) before the home is whole, what was done is undone: the player plays
    from their folders of before, with ``problem`` saying so, and the next start tries again.
    """
    home = player_home(data, key)
    whole = PlayerFolders(home / PLAYER_DATA_FOLDER, home / PLAYER_CONFIG_FOLDER)
    if _is_home(home) and not (home / MOVED_MARK).exists():
        return whole
    move = _MoveIn(home, config / PLAYERS_FOLDER / key)
    try:
        home.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        with _locked(home.with_name(key + LOCK_SUFFIX)):
            move.run()
    except OSError as error:
        if _is_home(home):  # what is left of before goes at the next start
            return whole
        now_data, now_config = move.where_now()
        reason = error.strerror or "it failed"
        return PlayerFolders(now_data, now_config, (
            f"your saved games and settings stay where they were ({reason} while moving them "
            f"to {PLAYERS_FOLDER}/{key}/); the next start tries again"))
    return whole


def use_player_folders(player: str) -> str | None:
    """Point both roots at the home of ``player`` (:func:`open_player_home`) in the current
    data folder, for this process and its children (a shared SSH account keeps each person's
    settings and games apart); the one line that says why not, None when they are there."""
    folders = open_player_home(data_dir(), config_dir(), player)
    os.environ.update(folders.environ())
    return folders.problem


def _is_home(home: Path) -> bool:
    return (home / PLAYER_DATA_FOLDER).is_dir() and (home / PLAYER_CONFIG_FOLDER).is_dir()


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on the file ``path`` (made if missing), waiting for it."""
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # releases the lock


def _is_config(name: str) -> bool:
    """A file of the config root (kept apart when both roots were one folder)."""
    return name in (SETTINGS_FILE, ERROR_LOG) or name.startswith(SETTINGS_FILE + ".")


class _MoveIn:
    """A player's folders of before moved into their new home, step by step: each step is
    skipped when a start before did it (see :func:`open_player_home`)."""

    def __init__(self, home: Path, old_config: Path) -> None:
        self.home = home
        self.old_config = old_config
        self.stage = home.with_name(home.name + STAGE_SUFFIX)
        #: Both roots were one folder: the home of before holds the settings too.
        self.one_root = os.path.abspath(old_config) == os.path.abspath(home)
        with contextlib.suppress(OSError):
            self.one_root = self.one_root or os.path.samefile(old_config, home)
        #: This start renamed the data folder of before into the new home (undone on failure).
        self.moved_data = False

    def run(self) -> None:
        """Make the home (the lock is held)."""
        if not _is_home(self.home):
            try:
                self._make()
            except OSError:
                self._undo()
                raise
        with contextlib.suppress(OSError):  # the home is whole: what is left goes next time
            self._finish()

    def _make(self) -> None:
        if self.home.exists() and not self.home.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(self.home))
        self.stage.mkdir(exist_ok=True, mode=0o700)
        config = self.stage / PLAYER_CONFIG_FOLDER
        if not config.is_dir():
            part = self.stage / (PLAYER_CONFIG_FOLDER + PART_SUFFIX)
            if part.exists():  # a copy a crash cut short
                shutil.rmtree(part)
            self._copy_config(part)
            _sync_tree(part)
            os.rename(part, config)
        (self.stage / MOVED_MARK).touch()
        data = self.stage / PLAYER_DATA_FOLDER
        if not data.is_dir():
            if self.home.is_dir():
                os.rename(self.home, data)
                self.moved_data = True
            else:
                data.mkdir(mode=0o700)
        _sync(self.stage)
        os.rename(self.stage, self.home)
        with contextlib.suppress(OSError):
            _sync(self.home.parent)

    def _copy_config(self, part: Path) -> None:
        if self.one_root:
            part.mkdir(mode=0o700)
            if self.home.is_dir():
                for entry in self.home.iterdir():
                    if _is_config(entry.name):
                        _copy(entry, part / entry.name)
        elif self.old_config.is_dir():
            _copy(self.old_config, part)
        else:
            part.mkdir(mode=0o700)

    def _finish(self) -> None:
        """Remove what is left of the folders of before, now in the home."""
        mark = self.home / MOVED_MARK
        if not mark.exists():
            return
        if self.one_root:  # the settings moved to config/: their old copies leave data/
            for entry in (self.home / PLAYER_DATA_FOLDER).iterdir():
                if _is_config(entry.name):
                    _remove(entry)
        elif self.old_config.is_dir() or self.old_config.is_symlink():
            _remove(self.old_config)
        mark.unlink()

    def _undo(self) -> None:
        """Put back what this start moved; drop the new home if it holds only copies."""
        with contextlib.suppress(OSError):
            if self.moved_data and not self.home.exists():
                os.rename(self.stage / PLAYER_DATA_FOLDER, self.home)
            if not (self.stage / PLAYER_DATA_FOLDER).exists():
                shutil.rmtree(self.stage)

    def where_now(self) -> tuple[Path, Path]:
        """The roots to play from when the home could not be made: the folders of before,
        or the new home's if a crash moved the data there and it could not be finished."""
        staged = self.stage / PLAYER_DATA_FOLDER
        if not self.home.is_dir() and staged.is_dir():
            return staged, self.stage / PLAYER_CONFIG_FOLDER
        return self.home, self.old_config


def _copy(source: Path, target: Path) -> None:
    """Copy a file, a link or a folder (what else is there, a FIFO, is left out)."""
    if source.is_symlink():
        os.symlink(os.readlink(source), target)
    elif source.is_dir():
        target.mkdir(mode=0o700)
        for entry in source.iterdir():
            _copy(entry, target / entry.name)
        shutil.copystat(source, target)
    elif source.is_file():
        shutil.copy2(source, target)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def _sync(path: Path) -> None:
    """Write a file or a folder's entries to the disk (a crash after this keeps them)."""
    descriptor = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _sync_tree(folder: Path) -> None:
    for parent, _folders, files in os.walk(folder):
        for name in files:
            if not os.path.islink(os.path.join(parent, name)):
                _sync(Path(parent, name))
        _sync(Path(parent))

__all__ = [
    "CACHE_ENV", "CONFIG_ENV", "DATA_ENV", "MAX_SOCKET_PATH", "SOCKET_ENV", "SOCKET_NAME",
    "PlayerFolders", "cache_dir", "config_dir", "daemon_socket_path", "data_dir",
    "default_socket_path", "error_log_path", "make_player_home", "open_player_home",
    "player_home", "player_roots", "progress_path", "records_dir", "server_data_dir",
    "settings_path", "ssh_server_data_dir", "use_player_folders",
]
