"""End to end through real OpenSSH: what a player keeps when their link or the server dies.

- R25b: a player whose ssh is killed at their turn, and who comes back after longer than
  their discard clock (within the grace), finds the same table and still their turn: no
  automatic move was played for them, and their own discard is the one played.
- Exactly once (protocol 7): the daemon is killed with SIGKILL right after the line of a
  player's discard is written and fsynced, before anyone is answered; a new daemon takes the
  game up from its record, the players' clients reconnect by themselves, and the discard's
  id, resent with another tile straight to the daemon's socket (as a client of the protocol
  would), is answered with a snapshot and not applied.

The daemons here have their own folders and clocks; every wait polls with a safety net.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from minefield.protocol.messages import PROTOCOL_VERSION
from minefield.records.reader import read_record
from minefield.rules.game import Discard
from minefield.rules.tiles import parse_tiles
from tests.e2e.conftest import PLAYERS, Site
from tests.e2e.harness import (
    ME,
    STEP_LIMIT,
    Daemon,
    Sshd,
    Terminals,
    keygen,
    short_folder,
    tool,
    wait_for,
)
from tests.e2e.test_ssh import DISCARDS, Player, hand_row, seated_at_one_table
from tests.server.test_restore import KILLING_DAEMON

#: The discard clock of these games, and longer than it: how long a dropped player stays away.
DISCARD_SECONDS = 10
AWAY_SECONDS = DISCARD_SECONDS + 3
#: The record line after which the killing daemon dies: the first discard (after two hands).
KILL_AT_SEQ = 3


class KillingDaemon(Daemon):
    """The game daemon, dying by SIGKILL once record line :data:`KILL_AT_SEQ` is on disk."""

    def __init__(self, folder: Path, *options: str) -> None:
        self.socket = folder / "run" / "minefield.sock"
        self.data = folder / "server"
        self.log = folder / "serve.log"
        environment = {**os.environ, "MF_TEST_KILL_AT": "-", "MF_TEST_KILL_AT_SEQ":
                       str(KILL_AT_SEQ)}
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-c", KILLING_DAEMON, "--socket", str(self.socket), "--data",
                 str(self.data), "--shared-account", ME, *options],
                stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=environment)
        wait_for("the killing daemon listens", self._listening, self.report)


def options() -> tuple[str, ...]:
    return ("--hand-seconds", "900", "--discard-seconds", str(DISCARD_SECONDS),
            "--grace-seconds", "900")


@pytest.fixture
def site_of() -> Iterator[Any]:
    """Makes a site (sshd, a daemon of the given class, tmux) in a fresh folder."""
    for name in ("sshd", "ssh", "ssh-keygen", "tmux"):
        tool(name)
    made: list[Site] = []
    with short_folder() as folder:

        def make(daemon_class: type[Daemon]) -> Site:
            keys = {name: keygen(folder / name) for name in PLAYERS}
            daemon = daemon_class(folder, *options())
            sshd = Sshd(folder, daemon.socket, keys, {
                "MINEFIELD_DATA_DIR": str(folder / "player-data"),
                "MINEFIELD_CONFIG_DIR": str(folder / "player-config"),
            })
            made.append(Site(folder, daemon, sshd, keys, Terminals(folder)))
            return made[-1]

        try:
            yield make
        finally:
            for site in made:
                site.terminals.close_all()
                site.sshd.stop()
                site.daemon.stop()


def start_game(site: Site) -> tuple[Player, Player]:
    """alice hosts, bob joins, both build their hands; (the player to discard, the other)."""
    alice, bob = Player(site, "alice"), Player(site, "bob")
    alice.login("host")
    seated_at_one_table(alice, bob)
    first = wait_for("whose turn", lambda: next(
        (p for p in (alice, bob) if "Your turn" in p.screen()), None),
        lambda: alice.report() + bob.report())
    return first, (bob if first is alice else alice)


def discards(player: Player) -> int:
    match = player.wait("the discard count", lambda screen: DISCARDS.search(screen))
    return int(match.group(1))


def one_discard(screen: str) -> bool:
    """True when the table shows exactly one discard made."""
    match = DISCARDS.search(screen)
    return match is not None and int(match.group(1)) == 1


def test_r25b_back_after_longer_than_the_clock_it_is_still_your_turn(site_of: Any) -> None:
    site = site_of(Daemon)
    first, other = start_game(site)
    before = first.wait("the table before the drop", hand_row)
    first.drop_link()
    other.wait(f"sees {first.name} disconnected",
               lambda screen: f"{first.name} disconnected" in screen)
    time.sleep(AWAY_SECONDS)  # longer than the discard clock: it is stopped (R25b)
    first.login("resume")
    first.wait("its turn, still", lambda screen: "Your turn" in screen)
    assert first.wait("the same hand", hand_row) == before
    assert discards(first) == 0  # nothing was played for the absent player
    first.keys("Enter")  # the player's own discard
    first.wait("the discard is played", one_discard)
    (path,) = (site.daemon.data / "games").glob("*.jsonl")
    line = read_record(path).commands[KILL_AT_SEQ - 1]
    assert not line.automatic and line.command_id is not None


def _raw_resume(socket_path: Path, player: str) -> tuple[socket.socket, Any]:
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.settimeout(STEP_LIMIT)
    connection.connect(str(socket_path))
    lines = connection.makefile("rb")
    hello = {"type": "hello", "version": PROTOCOL_VERSION, "action": "resume",
             "player": player}
    connection.sendall(json.dumps(hello).encode() + b"\n")
    return connection, lines


def _next(lines: Any, kind: str) -> dict[str, Any]:
    for _ in range(200):
        message: dict[str, Any] = json.loads(lines.readline())
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind}")


def test_a_discard_written_before_a_kill_is_kept_and_its_id_never_applied_again(
        site_of: Any) -> None:
    site = site_of(KillingDaemon)
    first, other = start_game(site)
    first.keys("Enter")  # discard: the daemon writes it, then dies before answering
    wait_for("the daemon is killed", lambda: site.daemon.process.poll() is not None,
             site.daemon.report)
    assert site.daemon.process.returncode == -9
    (path,) = (site.daemon.data / "games").glob("*.jsonl")
    written = read_record(path).commands[-1]
    assert written.seq == KILL_AT_SEQ and written.command_id is not None

    site.daemon = Daemon(site.folder, *options())  # a new daemon: the game from its record
    for player in (first, other):  # the clients reconnect by themselves
        player.wait("the discard, once", one_discard)

    # The same id resent with another tile, as a protocol client would: a snapshot, no move.
    connection, lines = _raw_resume(site.daemon.socket, first.name)
    try:
        snapshot = _next(lines, "snapshot")
        seq = snapshot["table"]["seq"]
        assert isinstance(written.command, Discard)
        pool = {str(t) for t in parse_tiles(snapshot["table"]["view"]["own_pool"])}
        other_tile = sorted(pool - {str(written.command.tile)})[0]
        connection.sendall(json.dumps({
            "type": "command", "command_id": written.command_id,
            "command": {"type": "discard", "tile": other_tile}}).encode() + b"\n")
        for _ in range(20):
            answer: dict[str, Any] = json.loads(lines.readline())
            assert answer["type"] != "applied", answer
            if answer["type"] == "snapshot":
                break
        assert answer["type"] == "snapshot" and answer["table"]["seq"] == seq
    finally:
        connection.close()
    ids = [line.command_id for line in read_record(path).commands]
    assert ids.count(written.command_id) == 1
