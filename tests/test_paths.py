"""Every folder in one place: minefield/paths.py."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from minefield.paths import (
    CONFIG_ENV,
    DATA_ENV,
    SOCKET_ENV,
    config_dir,
    daemon_socket_path,
    data_dir,
    default_socket_path,
    error_log_path,
    player_home,
    player_roots,
    progress_path,
    records_dir,
    server_data_dir,
    settings_path,
    ssh_server_data_dir,
    use_player_folders,
)

ROOT = Path(__file__).resolve().parent.parent


def test_every_file_follows_its_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "c"))
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "d"))
    assert (config_dir(), data_dir()) == (tmp_path / "c", tmp_path / "d")
    assert settings_path() == tmp_path / "c" / "settings.json"
    assert error_log_path() == tmp_path / "c" / "errors.log"
    assert records_dir() == tmp_path / "d" / "records"
    assert progress_path() == tmp_path / "d" / "progress.sqlite3"
    assert server_data_dir() == tmp_path / "d" / "server"


def test_without_the_variables_the_user_folders_are_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CONFIG_ENV, raising=False)
    monkeypatch.delenv(DATA_ENV, raising=False)
    assert config_dir().name == "minefield" and data_dir().name == "minefield"
    assert records_dir().parent == data_dir()


def test_a_player_of_a_shared_account_gets_folders_of_their_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "c"))
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "d"))
    assert use_player_folders("alice") is None
    home = tmp_path / "d" / "players" / "alice"
    assert os.environ[CONFIG_ENV] == str(home / "config")
    assert records_dir() == home / "data" / "records"


def test_no_other_module_finds_a_folder_of_its_own() -> None:
    """platformdirs and the two variables are read in minefield/paths.py only."""
    found = subprocess.run(
        ["grep", "-rlE", r"platformdirs|environ.*(DATA_ENV|CONFIG_ENV|MINEFIELD_(DATA|CONFIG)_DIR)",
         str(ROOT / "minefield"), "--include=*.py"], capture_output=True, text=True, check=False)
    readers = [Path(line).relative_to(ROOT).as_posix() for line in found.stdout.split()]
    assert "minefield/paths.py" in readers
    assert [path for path in readers if path != "minefield/paths.py"] == []


def test_the_game_servers_places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The daemon's socket ($MINEFIELD_SOCKET, the runtime folder, /tmp), ssh-server's data
    folder, its embedded daemon's socket (/tmp when the path is too long for a Unix socket)
    and its players' folders: the same places as before they moved here."""
    monkeypatch.setenv(SOCKET_ENV, "/run/m/game.sock")
    assert default_socket_path() == Path("/run/m/game.sock")
    monkeypatch.delenv(SOCKET_ENV)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    assert default_socket_path() == tmp_path / "minefield" / "minefield.sock"
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "missing"))
    assert default_socket_path() == Path(f"/tmp/minefield-{os.getuid()}/minefield.sock")
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "d"))
    assert ssh_server_data_dir() == tmp_path / "d" / "ssh-server"
    assert daemon_socket_path(Path("/srv/mf")) == Path("/srv/mf/run/daemon.sock")
    long = Path("/srv/" + "x" * 100)
    fallback = daemon_socket_path(long)
    assert fallback.parent.name.startswith(f"minefield-ssh-{os.getuid()}-")
    assert fallback.parent.parent == Path("/tmp") and fallback.name == "daemon.sock"
    assert fallback == daemon_socket_path(long)  # the same folder every start
    home = player_home(Path("/srv/mf"), 7)
    assert home == Path("/srv/mf/players/7")
    assert player_roots(home) == {DATA_ENV: "/srv/mf/players/7/data",
                                  CONFIG_ENV: "/srv/mf/players/7/config"}


def test_no_other_module_makes_a_place_in_tmp() -> None:
    """The /tmp fallbacks (the daemon's socket, ssh-server's embedded daemon's) are made in
    minefield/paths.py only."""
    found = subprocess.run(["grep", "-rlE", r"Path\(f?\"/tmp", str(ROOT / "minefield"),
                            "--include=*.py"], capture_output=True, text=True, check=False)
    makers = [Path(line).relative_to(ROOT).as_posix() for line in found.stdout.split()]
    assert makers == ["minefield/paths.py"]
