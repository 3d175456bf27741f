"""Every folder in one place: minefield/paths.py."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from minefield.paths import (
    CONFIG_ENV,
    DATA_ENV,
    config_dir,
    data_dir,
    error_log_path,
    progress_path,
    records_dir,
    server_data_dir,
    settings_path,
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
    use_player_folders("alice")
    assert os.environ[CONFIG_ENV] == str(tmp_path / "c" / "players" / "alice")
    assert records_dir() == tmp_path / "d" / "players" / "alice" / "records"


def test_no_other_module_finds_a_folder_of_its_own() -> None:
    """platformdirs and the two variables are read in minefield/paths.py only."""
    found = subprocess.run(
        ["grep", "-rlE", r"platformdirs|environ.*(DATA_ENV|CONFIG_ENV|MINEFIELD_(DATA|CONFIG)_DIR)",
         str(ROOT / "minefield"), "--include=*.py"], capture_output=True, text=True, check=False)
    readers = [Path(line).relative_to(ROOT).as_posix() for line in found.stdout.split()]
    assert "minefield/paths.py" in readers
    assert [path for path in readers if path != "minefield/paths.py"] == []
