"""Every folder and file Minefield keeps things in, named in one place (no Textual here).

Two roots, each movable by an environment variable (tests point them at temporary folders; a
shared SSH account points them at a player's own folders):

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
the two layouts of a player's own folders: ``players/NAME`` inside both roots on the OpenSSH
door's shared account (:func:`use_player_folders`), ``players/ID/{data,config}`` in
``ssh-server``'s data folder (:func:`door_player_home`).
"""

from __future__ import annotations

import hashlib
import os
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
#: A shared account's players each have ``players/NAME`` inside both roots.
PLAYERS_FOLDER = "players"
#: Where a client finds the game daemon's socket (the daemon listens there), when set.
SOCKET_ENV = "MINEFIELD_SOCKET"
SOCKET_NAME = "minefield.sock"
#: ``minefield ssh-server``'s data folder, inside the data folder, when ``--data`` is not given.
SSH_SERVER_FOLDER = "ssh-server"
#: A player's own folders in ``ssh-server``'s ``players/ID``: their data, their settings.
PLAYER_DATA_FOLDER = "data"
PLAYER_CONFIG_FOLDER = "config"
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


def door_player_home(data: Path, account: int) -> Path:
    """The home of ``ssh-server``'s player ``account`` (their account's id), for its data
    folder ``data``: ``players/ID``, holding ``data/`` and ``config/`` (the two roots of the
    player's client, :func:`door_player_roots`)."""
    return data / PLAYERS_FOLDER / str(account)


def door_player_roots(home: Path) -> dict[str, str]:
    """The environment that points a client's two roots at a door player's folders in
    ``home`` (:func:`door_player_home`)."""
    return {DATA_ENV: str(home / PLAYER_DATA_FOLDER), CONFIG_ENV: str(home / PLAYER_CONFIG_FOLDER)}


def make_door_player_folders(home: Path) -> None:
    """Make a door player's two folders in ``home`` (private to the server's account)."""
    for folder in (PLAYER_DATA_FOLDER, PLAYER_CONFIG_FOLDER):
        (home / folder).mkdir(parents=True, exist_ok=True, mode=0o700)


def use_player_folders(player: str) -> None:
    """Point both roots at ``players/NAME`` inside the current ones, for this process and its
    children (a shared SSH account keeps each person's settings and games apart)."""
    os.environ[DATA_ENV] = str(data_dir() / PLAYERS_FOLDER / player)
    os.environ[CONFIG_ENV] = str(config_dir() / PLAYERS_FOLDER / player)


__all__ = [
    "CACHE_ENV", "CONFIG_ENV", "DATA_ENV", "MAX_SOCKET_PATH", "SOCKET_ENV", "SOCKET_NAME",
    "cache_dir", "config_dir", "daemon_socket_path", "data_dir", "default_socket_path",
    "door_player_home", "door_player_roots", "error_log_path", "make_door_player_folders",
    "progress_path", "records_dir", "server_data_dir", "settings_path", "ssh_server_data_dir",
    "use_player_folders",
]
