"""``minefield ssh-server``'s connections from their start to their end, with the real OpenSSH
client: a server stopped (``kill -9`` or SIGTERM, started under ``nohup``) leaves no process
behind; a stop restores the players' terminals before its last line; logged-in connections that
open no session are closed and counted; every end is logged with why.

Each test runs its own server on its own port and folder; every wait polls with a limit (a
safety net, never an assertion on speed).
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from functools import partial
from pathlib import Path

import pytest

from tests.e2e.harness import STEP_LIMIT, wait_for
from tests.frontdoor.conftest import FrontDoorProcess, SizedTerminals

#: How long the processes of a stopped server may take to go (the issue's figure).
GONE_WITHIN = 10.0


def _start_time(pid: int) -> str | None:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def _state(pid: int) -> str | None:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def descendants(root: int) -> dict[int, str]:
    """Every process below ``root`` (children, theirs...), with its start time (so that a
    recycled pid is not taken for one of them)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                parents[int(entry.name)] = int(fields[1])
            except (OSError, ValueError, IndexError):
                continue
    found: dict[int, str] = {}
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        for pid, its_parent in parents.items():
            if its_parent == parent and pid not in found:
                start = _start_time(pid)
                if start is not None:
                    found[pid] = start
                    frontier.append(pid)
    return found


def still_running(processes: dict[int, str]) -> dict[int, str]:
    """Those of ``processes`` still alive (not zombies, not a recycled pid)."""
    return {pid: start for pid, start in processes.items()
            if _start_time(pid) == start and _state(pid) not in (None, "Z", "X")}


def _ignore_sighup() -> None:
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # what nohup does


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "sigterm"])
def test_a_server_started_under_nohup_leaves_no_process_when_stopped(
        folder: Path, keys: dict[str, Path], terminals: SizedTerminals,
        stop: signal.Signals) -> None:
    door = FrontDoorProcess(folder, "--open", preexec_fn=_ignore_sighup)
    assert door.process is not None
    processes: dict[int, str] = {}
    try:
        for name in ("ann", "bob"):
            assert door.run(keys[name], "name", name.title()).returncode == 0
        # Ann plays a bot (the game server's bot processes run too), Bob is in the lobby.
        terminals.open("ann", door.ssh(keys["ann"], "host", "--bot", "easy", tty=True))
        terminals.open("bob", door.ssh(keys["bob"], tty=True))
        wait_for("ann's bot game", lambda: "Keep 13 of your 34" in terminals.screen("ann"),
                 lambda: terminals.screen("ann") + door.report())
        wait_for("bob's lobby", lambda: "Online (2)" in terminals.screen("bob"),
                 lambda: terminals.screen("bob") + door.report())
        processes = descendants(door.process.pid)
        # The process server and a client per session (its own process group each).
        assert len(processes) >= 3, processes
        door.process.send_signal(stop)
        door.process.wait(timeout=STEP_LIMIT)
        deadline = time.monotonic() + GONE_WITHIN
        left = still_running(processes)
        while left and time.monotonic() < deadline:
            time.sleep(0.2)
            left = still_running(processes)
        commands = {pid: (Path("/proc") / str(pid) / "cmdline").read_bytes()[:80]
                    for pid in left if (Path("/proc") / str(pid)).exists()}
        assert not left, f"still running {GONE_WITHIN:g} s after the stop: {commands}"
        for name in ("ann", "bob"):  # and the players' ssh clients were let go
            wait_for(f"{name}'s ssh ends", partial(terminals.ended, name),
                     partial(terminals.screen, name))
    finally:
        for pid in still_running(processes):
            os.kill(pid, signal.SIGKILL)
        door.stop()


def test_a_stop_restores_the_players_terminal_before_its_last_line(
        folder: Path, keys: dict[str, Path]) -> None:
    """SIGTERM: the game's screen stops, the terminal leaves the alternate screen with mouse
    reporting off and the cursor on, and only then comes the stop line (read in the bytes
    the player's ssh receives)."""
    door = FrontDoorProcess(folder, "--open")
    received = folder / "received"
    try:
        assert door.run(keys["ann"], "name", "Ann").returncode == 0
        with received.open("wb") as out:
            client = subprocess.Popen(door.ssh(keys["ann"], tty=True), stdin=subprocess.PIPE,
                                      stdout=out, stderr=out)
        try:
            wait_for("the lobby drawn", lambda: b"Online" in received.read_bytes()
                     and b"\x1b[?1049h" in received.read_bytes(), door.report)
            assert door.process is not None
            door.process.send_signal(signal.SIGTERM)
            client.wait(timeout=STEP_LIMIT)
        finally:
            if client.poll() is None:
                client.kill()
    finally:
        door.stop()
    data = received.read_bytes()
    line = data.rfind(b"minefield: the server is stopping")
    assert line > 0, data[-400:]
    game, after = data[:line], data[line:]
    for on, off in ((b"\x1b[?1049h", b"\x1b[?1049l"), (b"\x1b[?1000h", b"\x1b[?1000l"),
                    (b"\x1b[?1003h", b"\x1b[?1003l"), (b"\x1b[?1006h", b"\x1b[?1006l"),
                    (b"\x1b[?1004h", b"\x1b[?1004l"), (b"\x1b[>", b"\x1b[<u"),
                    (b"\x1b[?25l", b"\x1b[?25h")):
        assert game.rfind(off) > game.rfind(on) >= 0, (on, game[-400:])
    assert b"\x1b[" not in after, after  # nothing of the game drawn over the line


def test_logged_in_connections_without_a_session_are_counted_and_closed(
        folder: Path, keys: dict[str, Path]) -> None:
    """``ssh -N`` logs in and opens nothing: such a connection counts toward the per-address
    and total caps, and is closed after the login timeout."""
    door = FrontDoorProcess(folder, "--open", "--login-seconds", "12", "--max-sessions", "3",
                            "--sessions-per-address", "2")
    ann = keys["ann"]
    idle: list[subprocess.Popen[bytes]] = []

    def log_in_idle(source: str) -> None:
        idle.append(subprocess.Popen(door.ssh(ann, source=source, extra=("-N",)),
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE))
        count = len(idle)
        wait_for(f"{count} logged in",
                 lambda: door.report().count("login SHA256") >= count, door.report)

    try:
        log_in_idle("127.0.0.1")
        log_in_idle("127.0.0.1")
        per_address = door.run(ann, "whoami")
        assert per_address.returncode == 255
        assert "minefield: 127.0.0.1 already has 2 sessions open" in per_address.stderr
        log_in_idle("127.0.0.2")
        full = door.run(ann, "whoami", source="127.0.0.3")
        assert full.returncode == 255
        assert "minefield: the server is full (3 sessions)" in full.stderr
        assert "refused login of" in door.report()
        for client in idle:  # closed by the server: ssh -N ends
            client.wait(timeout=STEP_LIMIT)
        assert door.report().count("ended: login timeout (no session for 12 s)") == 3
        # Their places are free again.
        assert door.run(ann, "whoami").returncode == 0
    finally:
        for client in idle:
            if client.poll() is None:
                client.kill()
        door.stop()


def test_odd_terminal_names_and_long_commands_are_answered_and_logged(
        folder: Path, keys: dict[str, Path]) -> None:
    door = FrontDoorProcess(folder, "--open")
    ann = keys["ann"]
    try:
        assert door.run(ann, "name", "Ann").returncode == 0
        # A TERM that is no terminal's name reaches no program: the client gets the usual.
        odd = door.run(ann, "resume", tty=True, env={**os.environ, "TERM": "xterm;$(id)"})
        assert "no unfinished game" in odd.stdout, odd.stdout + odd.stderr
        assert "TERM 'xterm;$(id)' of" in door.report()
        assert "is not a terminal name: xterm-256color instead" in door.report()
        # A command of 300 KB (three words of 100 KB: one argument may not be longer) gets
        # the one line a 2 KB one gets, not a protocol error.
        short = door.run(ann, "x" * 2000)
        long = door.run(ann, *(["x" * 100_000] * 3))
        assert short.returncode == long.returncode == 2
        assert long.stderr == short.stderr
        assert short.stderr.startswith("minefield: refused: the command is too long")
        assert short.stderr.count("\n") == 1
        # Every connection's end is logged with why.
        wait_for("four ends logged", lambda: door.report().count("ended: closed") >= 4,
                 door.report)
    finally:
        door.stop()
