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
"""

from __future__ import annotations

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


def use_player_folders(player: str) -> None:
    """Point both roots at ``players/NAME`` inside the current ones, for this process and its
    children (a shared SSH account keeps each person's settings and games apart)."""
    os.environ[DATA_ENV] = str(data_dir() / PLAYERS_FOLDER / player)
    os.environ[CONFIG_ENV] = str(config_dir() / PLAYERS_FOLDER / player)


__all__ = [
    "CACHE_ENV", "CONFIG_ENV", "DATA_ENV", "cache_dir", "config_dir", "data_dir",
    "error_log_path", "progress_path", "records_dir", "server_data_dir", "settings_path",
    "use_player_folders",
]
