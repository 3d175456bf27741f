"""A real sshd, the game daemon and a private tmux server, shared by the tests of a module."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.e2e.harness import Daemon, Sshd, Terminals, keygen, short_folder, tool

PLAYERS = ("alice", "bob")


@dataclass
class Site:
    """A host as the README sets it up: the game daemon behind OpenSSH, and two players'
    keys; ``terminals`` are where the players type."""

    folder: Path
    daemon: Daemon
    sshd: Sshd
    keys: dict[str, Path]
    terminals: Terminals

    def report(self) -> str:
        """Both logs, for a failure message."""
        return f"{self.sshd.report()}\n{self.daemon.report()}"


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    """sshd on 127.0.0.1 with the shipped drop-in, its keys file made from the shipped
    example, the daemon (long clocks: a slow machine must not make the moves), and tmux."""
    for name in ("sshd", "ssh", "ssh-keygen", "tmux"):
        tool(name)
    with short_folder() as folder:
        keys = {name: keygen(folder / name) for name in PLAYERS}
        daemon = Daemon(folder, "--hand-seconds", "900", "--discard-seconds", "600",
                        "--grace-seconds", "900")
        terminals = Terminals(folder)
        sshd: Sshd | None = None
        try:
            sshd = Sshd(folder, daemon.socket, keys, {
                # The players' settings and records stay in the test's folder.
                "MINEFIELD_DATA_DIR": str(folder / "player-data"),
                "MINEFIELD_CONFIG_DIR": str(folder / "player-config"),
            })
            yield Site(folder, daemon, sshd, keys, terminals)
        finally:
            terminals.close_all()
            if sshd is not None:
                sshd.stop()
            daemon.stop()
