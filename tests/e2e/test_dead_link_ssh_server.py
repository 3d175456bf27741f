"""A dead link on ``minefield ssh-server``'s route, for real: bob's ``ssh`` runs in a network
namespace of its own, joined to the server's namespace by a veth pair, and mid-game the link
goes down (no packet passes, nobody says goodbye); then, back in the game, his ``ssh`` is
frozen (SIGSTOP).

What decides it here is the front door's SSH keepalives (``--keepalive SECONDS``, default 45:
a client that answers nothing that long is disconnected). Its session's client is killed with
the connection, so the game server sees bob's connection drop at once: the seat's grace period
starts (R25b), alice is told, and the cut-off session never takes the seat back by itself. The
test gives the keepalive a few seconds (``DEAD_LINK_KEEPALIVE``, default 6) to stay short; the
README's figure is this test run with 45. It prints the measured times (``-s`` shows them).
Every wait is bounded by a safety net, never asserted as a speed.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.e2e.harness import (
    STEP_LIMIT,
    DeadLinkNet,
    Terminals,
    keygen,
    minefield_command,
    short_folder,
    tool,
    wait_for,
)
from tests.e2e.test_ssh import Player, hand_row, seated_at_one_table

#: The front door's keepalive in this test (seconds of silence before a client is gone).
KEEPALIVE = float(os.environ.get("DEAD_LINK_KEEPALIVE", "6"))
#: The safety net for noticing the dead link (TCP alone would take about 15 minutes).
NOTICE_LIMIT = KEEPALIVE + 120.0
#: How long alice is watched after being told (the old bug: bob's session took the seat back
#: 2-4 s after being cut off).
WATCHED_AFTER = 10.0
PORT = 2222  # the namespace is the test's own


@dataclass
class DoorSshd:
    """What :class:`tests.e2e.test_ssh.Player` needs of a server: the ``ssh`` command line per
    key, from its namespace to its address."""

    port: int
    routes: dict[Path, tuple[list[str], str]]

    def ssh(self, key: Path, *remote: str) -> list[str]:
        """``ssh -tt`` logging in with ``key``, typing ``remote``; under a shell that waits
        for it, so that it can be frozen (tmux wakes a process of its own that stops)."""
        prefix, address = self.routes[key]
        return [*prefix, "sh", "-c", '"$@"; status=$?; exit $status', "sh", tool("ssh"),
                "-tt", "-p", str(self.port), "-i", str(key), "-F", "/dev/null", "-o",
                "IdentitiesOnly=yes", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no",
                "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", address, *remote]


@dataclass
class DoorSite:
    """``ssh-server`` in the server's namespace, the players' keys and terminals."""

    folder: Path
    process: subprocess.Popen[bytes]
    log: Path
    sshd: DoorSshd
    keys: dict[str, Path]
    terminals: Terminals

    def report(self) -> str:
        """The server's log, for a failure message."""
        return "ssh-server log:\n" + self.log.read_text(errors="replace")[-6000:]


@pytest.fixture(scope="module")
def doorsite() -> Iterator[tuple[DoorSite, DeadLinkNet]]:
    """``ssh-server`` in a namespace of its own; alice logs in from inside it (its 127.0.0.1),
    bob from the other namespace, over the veth pair."""
    for name in ("ssh", "ssh-keygen", "tmux"):
        tool(name)
    net = DeadLinkNet()
    try:
        with short_folder() as folder:
            keys = {name: keygen(folder / name) for name in ("alice", "bob")}
            log = folder / "door.log"
            with log.open("wb") as out:
                process = subprocess.Popen(
                    [*net.prefix(net.server), minefield_command(), "ssh-server", "--open",
                     "--listen", f"0.0.0.0:{PORT}", "--data", str(folder / "door"),
                     "--keepalive", f"{KEEPALIVE:g}", "--hand-seconds", "900",
                     "--discard-seconds", "600", "--grace-seconds", "900"],
                    stdin=subprocess.DEVNULL, stdout=out, stderr=out)
            terminals = Terminals(folder)
            try:
                sshd = DoorSshd(PORT, {
                    keys["alice"]: (net.prefix(net.server), "127.0.0.1"),
                    keys["bob"]: (net.prefix(net.player), net.server_address)})
                site = DoorSite(folder, process, log, sshd, keys, terminals)
                wait_for("ssh-server listens",
                         lambda: f"listening on 0.0.0.0:{PORT}" in site.report()
                         or process.poll() is not None, site.report)
                assert process.poll() is None, site.report()
                for name, key in keys.items():
                    named = subprocess.run(sshd.ssh(key, "name", name), capture_output=True,
                                           text=True, timeout=STEP_LIMIT, check=False,
                                           stdin=subprocess.DEVNULL)
                    assert named.returncode == 0, named.stderr + site.report()
                yield site, net
            finally:
                terminals.close_all()
                process.terminate()
                try:
                    process.wait(timeout=STEP_LIMIT)
                except subprocess.TimeoutExpired:
                    process.kill()
    finally:
        net.close()


def _ssh_under(shell: int) -> int:
    """The ``ssh`` process the terminal's shell waits for."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                command = (entry / "comm").read_text().strip()
            except (OSError, IndexError):
                continue
            if int(fields[1]) == shell and command == "ssh":
                return int(entry.name)
    raise AssertionError(f"no ssh under process {shell}")


#: The game server's line for bob's seated connection closing (the seat's grace starts).
DISCONNECTED = re.compile(r"Connection\(bob\b[^,]*, seat=(?!None\b)\w+\): disconnected")


def test_a_dead_link_closes_the_session_and_the_other_player_is_told(
        doorsite: tuple[DoorSite, DeadLinkNet]) -> None:
    site, net = doorsite
    alice, bob = Player(site, "alice"), Player(site, "bob")
    alice.login("host")
    before = seated_at_one_table(alice, bob)

    net.cut()
    cut = time.monotonic()
    seen: dict[str, float] = {}

    def told_and_graced() -> bool:
        if "told" not in seen and "bob disconnected" in alice.screen():
            seen["told"] = time.monotonic() - cut
        if "grace" not in seen and DISCONNECTED.search(site.report()):
            seen["grace"] = time.monotonic() - cut
        return len(seen) == 2

    wait_for("alice is told that bob's link is dead", told_and_graced,
             lambda: alice.report() + f"\nseen so far: {seen}", limit=NOTICE_LIMIT)
    print(f"\ndead link on ssh-server (keepalive {KEEPALIVE:g} s): the seat's grace started "
          f"{seen['grace']:.1f} s and alice was told {seen['told']:.1f} s after the link went "
          "down", file=sys.stderr)
    log = site.report()
    assert "ended: keepalive (the client stopped answering)" in log, log
    # The keepalives waited for the silence: nothing is noticed sooner (the mechanism, not a
    # speed).
    assert seen["grace"] >= KEEPALIVE - 2.0

    # The cut-off session never takes the seat back: bob stays gone for alice, and the game
    # server hears nothing more of him, until he comes back himself.
    deadline = time.monotonic() + WATCHED_AFTER
    while time.monotonic() < deadline:
        assert "bob disconnected" in alice.screen(), alice.report()
        time.sleep(0.5)
    assert len(DISCONNECTED.findall(site.report())) == 1, site.report()

    # Once the network is back he resumes the same game.
    site.terminals.close(bob.terminal)
    net.restore()
    bob.login("resume")
    bob.wait("the same hand after resume", lambda screen: hand_row(screen) == before)
    alice.wait("sees bob back", lambda screen: "bob disconnected" not in screen)

    # A frozen client (SIGSTOP: its machine still answers TCP, its ssh says nothing) is gone
    # the same way.
    frozen = _ssh_under(site.terminals.pid(bob.terminal))
    os.kill(frozen, signal.SIGSTOP)
    try:
        wait_for("alice is told that bob's ssh is frozen",
                 lambda: "bob disconnected" in alice.screen()
                 and len(DISCONNECTED.findall(site.report())) == 2,
                 alice.report, limit=NOTICE_LIMIT)
        assert site.report().count("ended: keepalive (the client stopped answering)") == 2
    finally:
        os.kill(frozen, signal.SIGCONT)
        site.terminals.close(bob.terminal)
