"""A dead link, for real: bob's ``ssh`` runs in a network namespace of its own, joined to the
server's namespace by a veth pair, and mid-game the link goes down (no packet passes, nobody
says goodbye: a laptop shut, a cable pulled). The other player must be told, and the seat's
grace period must start, without waiting for TCP to give up (about 15 minutes).

What decides it is the app's link watch (:mod:`minefield.tui.link_watch`): the game asks the
terminal for its cursor position every 5 s and leaves when a terminal that answered stays
silent for 25 s. The test prints the measured times (run it with ``-s`` to see them); the
README quotes them. Every wait is bounded by a safety net, never asserted as a speed.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import PLAYERS, Site
from tests.e2e.harness import (
    Daemon,
    DeadLinkNet,
    Sshd,
    Terminals,
    keygen,
    short_folder,
    tool,
    wait_for,
)
from tests.e2e.test_ssh import Player, hand_row, seated_at_one_table

#: The safety net for noticing the dead link (TCP alone would take about 15 minutes).
NOTICE_LIMIT = 240.0


@pytest.fixture(scope="module")
def netsite() -> Iterator[tuple[Site, DeadLinkNet]]:
    """sshd in a namespace of its own; alice logs in from inside it (its 127.0.0.1), bob from
    the other namespace, over the veth pair."""
    for name in ("sshd", "ssh", "ssh-keygen", "tmux"):
        tool(name)
    net = DeadLinkNet()
    try:
        with short_folder() as folder:
            keys = {name: keygen(folder / name) for name in PLAYERS}
            daemon = Daemon(folder, "--hand-seconds", "900", "--discard-seconds", "600",
                            "--grace-seconds", "900")
            terminals = Terminals(folder)
            sshd: Sshd | None = None
            try:
                sshd = Sshd(folder, daemon.socket, keys, {
                    "MINEFIELD_DATA_DIR": str(folder / "player-data"),
                    "MINEFIELD_CONFIG_DIR": str(folder / "player-config"),
                }, netns=net.server, listen=("127.0.0.1", net.server_address))
                sshd.routes[keys["bob"]] = (net.prefix(net.player), net.server_address)
                yield Site(folder, daemon, sshd, keys, terminals), net
            finally:
                terminals.close_all()
                if sshd is not None:
                    sshd.stop()
                daemon.stop()
    finally:
        net.close()


def _disconnect_logged(log: Path) -> bool:
    """True once the daemon has logged bob's *seated* connection as gone (the seat's grace
    starts). Bob's short lobby connections before he sits (``seat=None``: the ban check, the
    message of the day) close on their own and do not count."""
    return re.search(r"Connection\(bob@[^,]*, seat=(?!None\b)\w+\): disconnected",
                     log.read_text(errors="replace")) is not None


def test_a_dead_link_is_noticed_and_the_other_player_told(
        netsite: tuple[Site, DeadLinkNet]) -> None:
    site, net = netsite
    alice, bob = Player(site, "alice"), Player(site, "bob")
    alice.login("host")
    before = seated_at_one_table(alice, bob)

    net.cut()
    cut = time.monotonic()
    seen: dict[str, float] = {}

    def both() -> bool:
        if "told" not in seen and "bob disconnected" in alice.screen():
            seen["told"] = time.monotonic() - cut
        if "grace" not in seen and _disconnect_logged(site.daemon.log):
            seen["grace"] = time.monotonic() - cut
        return len(seen) == 2

    wait_for("alice is told that bob's link is dead", both,
             lambda: alice.report() + f"\nseen so far: {seen}", limit=NOTICE_LIMIT)
    print(f"\ndead link: the seat's grace started {seen['grace']:.1f} s and alice was told "
          f"{seen['told']:.1f} s after the link went down", file=sys.stderr)
    # The link watch waits for 25 s of silence: nothing is noticed sooner (a check on the
    # mechanism, not a speed).
    assert seen["grace"] >= 25.0 and seen["told"] >= seen["grace"] - 1.0

    # bob's ssh is stuck on the dead link; once the network is back he resumes the same game.
    site.terminals.close(bob.terminal)
    net.restore()
    bob.login("resume")
    bob.wait("the same hand after resume", lambda screen: hand_row(screen) == before)
    alice.wait("sees bob back", lambda screen: "bob disconnected" not in screen)
