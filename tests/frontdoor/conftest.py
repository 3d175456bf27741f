"""``minefield ssh-server`` as a process on its own port and folder, and the real OpenSSH
client to talk to it (terminals in a private tmux server: :class:`tests.e2e.harness.Terminals`).

Every wait polls with a limit (a safety net on a loaded machine, never an assertion on time).
"""

from __future__ import annotations

import json
import signal
import subprocess
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from minefield.frontdoor.spawner import ZYGOTE
from tests.e2e.harness import (
    STEP_LIMIT,
    Terminals,
    free_port,
    keygen,
    minefield_command,
    short_folder,
    tool,
    wait_for,
)


class FrontDoorProcess:
    """A running ``minefield ssh-server`` (its log in the folder)."""

    def __init__(self, folder: Path, *options: str,
                 preexec_fn: Callable[[], None] | None = None) -> None:
        """``preexec_fn``: run in the server's process before it starts (to start it as an
        operator's shell would, e.g. with SIGHUP ignored as under ``nohup``)."""
        self.folder = folder
        self.preexec_fn = preexec_fn
        self.data = folder / "door"
        self.log = folder / "door.log"
        self.options = options
        self.port = 0
        self._log_start = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        """Start (again, after :meth:`kill`) on a free port (another if that one is taken)."""
        for _attempt in range(5):
            self.port = self.port or free_port()
            self._log_start = self.log.stat().st_size if self.log.exists() else 0
            with self.log.open("ab") as log:
                self.process = subprocess.Popen(
                    [minefield_command(), "ssh-server", "--listen", f"127.0.0.1:{self.port}",
                     "--data", str(self.data), *self.options],
                    stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                    preexec_fn=self.preexec_fn)
            listening = f"listening on 127.0.0.1:{self.port}"
            state = wait_for("the front door listens", partial(self._up, listening),
                             self.report)
            if state == "up":
                return
            self.port = 0
        pytest.fail(f"ssh-server did not start\n{self.report()}")

    def _up(self, listening: str) -> str | None:
        assert self.process is not None
        with self.log.open("rb") as log:  # this start's lines only
            log.seek(self._log_start)
            text = log.read().decode(errors="replace")
        if self.process.poll() is not None:
            if "address already in use" in text:
                return "taken"  # start() tries another port
            pytest.fail(f"ssh-server exited\n{self.report()}", pytrace=False)
        return "up" if listening in text else None

    def report(self) -> str:
        """The server's log."""
        return "ssh-server log:\n" + self.log.read_text(errors="replace")[-6000:]

    def ssh(self, key: Path, *remote: str, tty: bool = False, source: str | None = None,
            extra: tuple[str, ...] = ()) -> list[str]:
        """The ``ssh`` command line logging in with ``key``, typing ``remote``."""
        # ``extra`` first: for an option given twice, ssh keeps the first value.
        return [tool("ssh"), *extra, "-tt" if tty else "-T", "-p", str(self.port), "-i",
                str(key), "-F", "/dev/null", "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
                "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                "-o", "LogLevel=ERROR", "-o", "ConnectTimeout=30",
                *(("-b", source) if source else ()), "127.0.0.1", *remote]

    def run(self, key: Path, *remote: str, env: dict[str, str] | None = None,
            **options: Any) -> subprocess.CompletedProcess[str]:
        """Run ``ssh`` without a terminal; its exit status and output."""
        return subprocess.run(self.ssh(key, *remote, **options), capture_output=True,
                              text=True, timeout=STEP_LIMIT, stdin=subprocess.DEVNULL,
                              check=False, env=env)

    def json(self, key: Path, *remote: str) -> Any:
        """What a ``--json`` command prints, parsed (fails with the server's log if not)."""
        done = self.run(key, *remote)
        assert done.returncode == 0, f"{remote}: {done.stderr}\n{self.report()}"
        return json.loads(done.stdout)

    def process_server(self) -> int | None:
        """The pid of the sessions' process server (the zygote), if it runs."""
        assert self.process is not None
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                command = (entry / "cmdline").read_bytes()
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if parent == self.process.pid and ZYGOTE.encode() in command:
                return int(entry.name)
        return None

    def kill(self) -> None:
        """SIGKILL, as a crash would."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it does not go."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=20)


@pytest.fixture
def folder() -> Iterator[Path]:
    """The test's own short folder."""
    with short_folder() as path:
        yield path


@pytest.fixture
def keys(folder: Path) -> dict[str, Path]:
    """Three key pairs: ann, bob, cat."""
    return {name: keygen(folder / name) for name in ("ann", "bob", "cat")}


class SizedTerminals(Terminals):
    """Terminals whose window can be resized (as a player drags theirs)."""

    def resize(self, name: str, columns: int, rows: int) -> None:
        """Give the terminal ``name`` a new size."""
        subprocess.run([self.tmux, "-S", str(self.socket), "resize-window", "-t", name,
                        "-x", str(columns), "-y", str(rows)], check=True, timeout=30,
                       capture_output=True)


@pytest.fixture
def terminals(folder: Path) -> Iterator[SizedTerminals]:
    """Terminals in the test's own tmux server."""
    terms = SizedTerminals(folder)
    yield terms
    terms.close_all()


__all__ = ["FrontDoorProcess", "SizedTerminals"]
