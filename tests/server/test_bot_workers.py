"""The game server's bot workers end with it: a daemon killed with ``kill -9`` (or a front door
with its daemon inside) leaves no worker process waiting forever. This holds on both SSH
routes: ``minefield serve`` behind OpenSSH, and ``ssh-server``'s embedded daemon."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

#: A safety net for the workers to start and to go (never an assertion on speed).
LIMIT = 60.0
#: How long the workers may take to go (the issue's figure for a stopped server).
GONE_WITHIN = 10.0

SCRIPT = """
import os, signal, time
signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as under nohup
from minefield.server.bots import BotPool

pool = BotPool(2)
executor = pool._executor()
executor.submit(os.getpid).result()  # the workers run
print(" ".join(str(pid) for pid in executor._processes), flush=True)
time.sleep(3600)
"""


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def test_bot_workers_end_when_the_daemon_is_killed() -> None:
    daemon = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, text=True)
    workers: list[int] = []
    try:
        assert daemon.stdout is not None
        line = daemon.stdout.readline()
        workers = [int(word) for word in line.split()]
        assert workers, line
        assert all(_alive(pid) for pid in workers)
        daemon.send_signal(signal.SIGKILL)
        daemon.wait(timeout=LIMIT)
        deadline = time.monotonic() + GONE_WITHIN
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [pid for pid in workers if _alive(pid)]
    finally:
        if daemon.poll() is None:
            daemon.kill()
        for pid in workers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
