"""``minefield lobby``: each choice made in the lobby (a game, a watch, the menu) runs in a
child process, so that whatever a game grew goes with it and the session back in the lobby
is as small as a fresh one (the figures: benchmarks/bench_ssh.py)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from minefield.cli import lobby


def uss_mb() -> float:
    """This process's USS (pages it alone has), in MB."""
    fields = {}
    for line in Path("/proc/self/smaps_rollup").read_text().splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[1].isdigit():
            fields[parts[0].rstrip(":")] = int(parts[1])
    return (fields["Private_Clean"] + fields["Private_Dirty"]) / 1024


@pytest.mark.skipif(not Path("/proc/self/smaps_rollup").exists(), reason="Linux's /proc")
def test_a_choice_runs_in_a_child_whose_memory_goes_with_it(tmp_path: Path) -> None:
    parent = os.getpid()
    seen = tmp_path / "child"

    def game() -> int:
        grown = [b"x" * 1_000_000 for _ in range(60)]  # 60 MB written, as a game's heap
        seen.write_text(f"{os.getpid()} {os.getppid()} {len(grown)}")
        return 3

    before = uss_mb()
    assert lobby.in_a_child(game) == 3  # its exit status
    child, its_parent, blocks = (int(word) for word in seen.read_text().split())
    assert child != parent and its_parent == parent and blocks == 60
    assert uss_mb() < before + 10  # nothing of the 60 MB here


def test_a_failing_choice_is_status_1_and_the_lobby_goes_on(
        capfd: pytest.CaptureFixture[str]) -> None:
    def broken() -> None:
        raise RuntimeError("a broken game")

    assert lobby.in_a_child(broken) == 1
    assert "RuntimeError: a broken game" in capfd.readouterr().err
    assert lobby.in_a_child(lambda: None) == 0


def test_the_loop_runs_every_choice_in_a_child(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lobby, a game (in a child), the lobby again, quit: the game's argv as chosen."""
    from minefield.tui import lobby_app

    choices = [lobby_app.LobbyChoice("host", bot="normal"), None]
    ran: list[Any] = []

    class FakeLobby:
        def __init__(self, *args: object) -> None:
            self.return_code = 0
            self.choice: lobby_app.LobbyChoice | None = None
            self.screen_stack: list[object] = []  # the app has ended: no screen left

        def run(self) -> None:
            self.choice = choices.pop(0)

    def in_a_child(run: Any) -> int:
        ran.append(run)
        return 0

    monkeypatch.setattr(lobby_app, "LobbyApp", FakeLobby)
    monkeypatch.setattr(lobby, "in_a_child", in_a_child)
    assert lobby.lobby_loop(None, "ann") == 0
    assert len(ran) == 1 and ran[0].args == (
        ["host", "--bot", "normal", "--from-lobby", "--player", "ann"],)


def test_the_terminals_hangup_watch_does_not_keep_a_choice_in_the_lobbys_process(
        tmp_path: Path) -> None:
    """Every client watches its terminal for a hang-up in a thread of its own
    (:mod:`minefield.cli.hangup`): that thread holds nothing, so the choice still runs in a
    child, which may watch its terminal itself."""
    from minefield.cli import hangup

    # Both ends stay open until this process ends: closing the master would hang the slave up
    # and the watch would end this process.
    _master, slave = os.openpty()
    assert hangup.watch_for_hangup(slave)
    seen = tmp_path / "child"

    def game() -> int:
        seen.write_text(f"{os.getpid()} {hangup.watch_for_hangup(slave)}")
        return 0

    assert lobby.in_a_child(game) == 0
    child, watching = seen.read_text().split()
    assert int(child) != os.getpid() and watching == "True"
