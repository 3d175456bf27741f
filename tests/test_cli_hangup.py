"""A client whose terminal hangs up ends, even with SIGHUP ignored (started under ``nohup``,
or by a server that was): no read loop spinning on a dead terminal. This is the client of both
SSH routes (``ssh-entry`` under OpenSSH's sshd, and ``ssh-server``'s sessions)."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from minefield.cli.hangup import HANGUP_STATUS

#: A safety net for the client to draw its screen, and to end (never an assertion on speed).
LIMIT = 60.0


def _read_until(master: int, wanted: bytes) -> bytes:
    seen = b""
    deadline = time.monotonic() + LIMIT
    while wanted not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
    return seen


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's pseudo-terminals")
def test_the_client_ends_when_its_terminal_hangs_up_with_sighup_ignored(tmp_path: Path) -> None:
    master, slave = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "MINEFIELD_DATA_DIR": str(tmp_path / "d"),
           "MINEFIELD_CONFIG_DIR": str(tmp_path / "c"), "MINEFIELD_CACHE_DIR": str(tmp_path)}

    def as_under_nohup() -> None:
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        os.setsid()  # the terminal becomes its controlling terminal, as sshd's sessions do
        import fcntl
        import termios

        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    client = subprocess.Popen([sys.executable, "-m", "minefield.cli"], stdin=slave, stdout=slave,
                              stderr=slave, env=env, preexec_fn=as_under_nohup)
    os.close(slave)
    try:
        drawn = _read_until(master, b"\x1b[?1049h")  # the menu's screen
        assert b"\x1b[?1049h" in drawn, drawn[-400:]
        os.close(master)  # the terminal's other side goes: the kernel hangs it up
        master = -1
        status = client.wait(timeout=LIMIT)  # before: alive, spinning at 27-100% of a core
        assert status == HANGUP_STATUS
    finally:
        if client.poll() is None:
            client.kill()
            client.wait()
        if master >= 0:
            os.close(master)
