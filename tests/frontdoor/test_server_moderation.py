"""``minefield ssh-server``'s moderation through the real OpenSSH client: admins made on the host
and over SSH, bans (of a player with every key of theirs, of one key) refused at login with one
line giving the reason and the end, on the asyncssh door and on the OpenSSH route
(``minefield ssh-entry`` behind a real sshd, reaching the same game server), kicks that leave
the game to its clocks (R25b), renames, released names and the message of the day in the lobby.

Each test runs its own server on its own port and folder (``pytest -n auto`` is safe).
"""

from __future__ import annotations

import json
import socket
import subprocess
from pathlib import Path
from typing import Any

from minefield.frontdoor.door_config import daemon_socket_path
from tests.e2e.harness import ME, STEP_LIMIT, Sshd, Terminals, minefield_command, wait_for
from tests.frontdoor.conftest import FrontDoorProcess
from tests.frontdoor.test_server import fingerprint
from tests.frontdoor.test_server_keys import offered_code, one_line


def host_admin(door: FrontDoorProcess, *words: str) -> subprocess.CompletedProcess[str]:
    """``minefield ssh-server admin WORDS --data DIR`` on the host (no SSH)."""
    return subprocess.run([minefield_command(), "ssh-server", "admin", *words, "--data",
                           str(door.data)], capture_output=True, text=True, check=False,
                          timeout=STEP_LIMIT, stdin=subprocess.DEVNULL)


def said(door: FrontDoorProcess, key: Path, *remote: str) -> str:
    """What a command that succeeds prints (fails with the server's log if it does not)."""
    done = door.run(key, *remote)
    assert done.returncode == 0, f"{remote}: {done.stderr}\n{door.report()}"
    assert done.stderr == "", done.stderr
    return done.stdout.rstrip("\n")


class LobbyClient:
    """A program in the game server's lobby (the wire of assets/protocol.md, section 10), as
    a player of the front door's shared account."""

    def __init__(self, door: FrontDoorProcess, player: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(STEP_LIMIT)
        self.sock.connect(str(daemon_socket_path(door.data)))
        hello = {"type": "hello", "version": 1, "action": "lobby", "player": player}
        self.sock.sendall(json.dumps(hello).encode() + b"\n")
        self.lines = self.sock.makefile("rb")

    def next(self, kind: str) -> dict[str, Any]:
        """The next message of type ``kind`` (others skipped; pings keep it open)."""
        while True:
            line = self.lines.readline()
            assert line, f"the server closed the lobby while waiting for {kind}"
            message: dict[str, Any] = json.loads(line)
            if message["type"] == kind:
                return message
            self.sock.sendall(b'{"type": "ping"}\n')

    def close(self) -> None:
        self.lines.close()
        self.sock.close()


def test_a_banned_player_is_refused_with_every_key_a_kick_leaves_the_game_to_its_clocks(
        folder: Path, keys: dict[str, Path], terminals: Terminals) -> None:
    door = FrontDoorProcess(folder, "--open", "--auth-per-minute", "600")
    ann, bob, cat = keys["ann"], keys["bob"], keys["cat"]
    try:
        assert said(door, ann, "name", "Ann") == "Welcome, Ann."
        assert said(door, bob, "name", "Bob") == "Welcome, Bob."
        assert said(door, cat, "key", "confirm", offered_code(door, bob, cat)) == (
            "This key now logs in as Bob.")
        # Nobody is an admin yet: one line, exit status 2.
        refused = door.run(ann, "ban", "Bob")
        assert one_line(refused) == "ban is for the server's admins"
        assert refused.returncode == 2
        made = host_admin(door, "add", "ann")
        assert (made.returncode, made.stdout) == (0, "Ann is now an admin of this server.\n")
        assert one_line(door.run(bob, "kick", "Ann")) == "kick is for the server's admins"
        # Bob plays a bot; a kick ends his session, and the game goes on (R25b).
        terminals.open("bob", door.ssh(bob, "host", "--bot", "easy", tty=True))
        wait_for("bob's game", lambda: "Keep 13 of your 34" in terminals.screen("bob"),
                 lambda: terminals.screen("bob") + door.report())
        game = door.json(ann, "who", "--json")["tables"][0]["game"]
        assert said(door, ann, "kick", "Bob") == (
            "Bob's 1 session closed; a game in progress goes on under the clocks (R25b) "
            "until they resume it.")
        wait_for("bob told", lambda: "an admin ended your session" in terminals.screen("bob"),
                 lambda: terminals.screen("bob") + door.report())
        assert [t["game"] for t in door.json(ann, "who", "--json")["tables"]] == [game]
        # Banned: every key of Bob's is refused at login with one line, whatever it asks.
        answer = said(door, ann, "ban", "Bob", "--for", "1d", "--reason", "spam", "in",
                      "the", "lobby")
        bans = door.json(ann, "bans", "--json")
        assert [{k: v for k, v in ban.items() if k not in ("since", "ends")}
                for ban in bans] == [{"target": "Bob", "name": "Bob", "key": None,
                                      "reason": "spam in the lobby", "by": "Ann"}]
        until = bans[0]["ends"][:16].replace("T", " ") + " UTC"
        assert answer == f"Bob is banned for 1 d, until {until}: spam in the lobby"
        line = f"you are banned from this server until {until}: spam in the lobby"
        for key in (bob, cat):
            for typed in ("whoami", "help", "ban Ann", "no-such-command"):
                done = door.run(key, *typed.split())
                assert (one_line(done), done.returncode) == (line, 1), typed
        in_terminal = door.run(bob, tty=True)  # ssh -tt: the lobby, asked in a terminal
        assert (one_line(in_terminal), in_terminal.returncode) == (line, 1)
        assert "Ann" not in in_terminal.stderr  # who banned him is not told
        # Bad arguments: one line, exit status 2, nothing changed.
        bad: list[tuple[tuple[str, ...], str]] = [
                (("ban", "Bob", "--for", "7y"), "--for '7y': a duration such as 30m, 1h, 7d or "
                 "2w (m minutes, h hours, d days, w weeks)"),
                (("ban", "Zed"), "no player is called 'Zed' here"),
                (("ban", "SHA256:nope"), "'SHA256:nope' is not a key's fingerprint: SHA256: "
                 "and 43 characters, as key list and the server's log show it"),
                (("unban", "Cat"), "no player is called 'Cat' here"),
                (("ban", "Ann"), "you cannot ban yourself")]
        for asked, reason in bad:
            done = door.run(ann, *asked)
            assert (one_line(done), done.returncode) == (reason, 2), asked
        assert door.json(ann, "bans", "--json") == bans
        # Lifted: both keys come back; a key ban then keeps out that key alone, for good.
        assert said(door, ann, "unban", "bob") == "Bob is no longer banned."
        assert door.json(cat, "whoami", "--json")["name"] == "Bob"
        assert said(door, ann, "ban", fingerprint(cat)) == (
            f"{fingerprint(cat)} (a key of Bob) is banned for good: no reason given")
        assert one_line(door.run(cat, "whoami")) == (
            "you are banned from this server (permanent): no reason given")
        assert door.json(bob, "whoami", "--json")["name"] == "Bob"
        assert said(door, ann, "bans") == (
            f"Bans (1):\n  {fingerprint(cat)} (a key of Bob)  permanent, by Ann: "
            "no reason given")
        # Every action is in the server's log with who did it, and on the host.
        log = door.log.read_text()
        for action in ("admin Ann: kicked Bob (1 session)",
                       f"admin Ann: banned Bob for 1 d, until {until}: spam in the lobby",
                       "admin Ann: lifted the ban of Bob"):
            assert action in log, action
        actions = json.loads(host_admin(door, "log", "--json").stdout)
        assert [(a["by"], a["action"].split(" ")[0]) for a in actions] == [
            ("Ann", "banned"), ("Ann", "lifted"), ("Ann", "banned"), ("Ann", "kicked"),
            (f"{ME} on the host", "made")]
        assert "Traceback" not in log
    finally:
        door.stop()


def test_admins_rename_release_and_the_message_of_the_day(
        folder: Path, keys: dict[str, Path], terminals: Terminals) -> None:
    door = FrontDoorProcess(folder, "--open", "--auth-per-minute", "600")
    ann, bob, cat = keys["ann"], keys["bob"], keys["cat"]
    lobby: LobbyClient | None = None
    try:
        for key, name in ((ann, "Ann"), (bob, "Bob"), (cat, "Cat")):
            assert said(door, key, "name", name) == f"Welcome, {name}."
        assert host_admin(door, "add", "Ann").returncode == 0
        bad = host_admin(door, "add", "Zed")
        assert (bad.returncode, bad.stdout, bad.stderr) == (
            2, "", "minefield: ssh-server admin: no player is called 'Zed' here\n")
        # An admin makes another over SSH; the host lists them.
        assert said(door, ann, "admin", "add", "Bob") == "Bob is now an admin of this server."
        assert [a["name"] for a in door.json(bob, "admin", "list", "--json")] == ["Ann", "Bob"]
        listed = host_admin(door, "list")
        assert listed.stdout.splitlines()[1].startswith("Bob (admin since ")
        assert listed.stdout.splitlines()[1].endswith(", made by Ann)")
        # The message of the day reaches the lobby, with what a shell would not take.
        lobby = LobbyClient(door, "Cat")
        assert lobby.next("lobby")["online"][0]["name"] == "Cat"
        assert said(door, bob, "motd", "Club night: Friday (8pm)! Bring friends & tea") == (
            "The message of the day is set: the lobby shows it.")
        assert lobby.next("motd") == {"type": "motd",
                                      "text": "Club night: Friday (8pm)! Bring friends & tea"}
        # The lobby's screen shows it above the players, and drops it when it is cleared.
        terminals.open("cat", door.ssh(cat, tty=True))
        wait_for("the message of the day in the lobby",
                 lambda: "Club night: Friday (8pm)! Bring friends & tea" in
                 terminals.screen("cat"), lambda: terminals.screen("cat") + door.report())
        assert said(door, ann, "motd", "--clear") == "The message of the day is cleared."
        assert lobby.next("motd") == {"type": "motd", "text": None}
        wait_for("the message of the day gone", lambda: "Club night" not in
                 terminals.screen("cat") and "Online (" in terminals.screen("cat"),
                 lambda: terminals.screen("cat"))
        # A rename keeps the old name reserved to its player until it is released.
        assert said(door, ann, "rename", "Cat", "Kit") == (
            "Cat is now Kit (Cat stays reserved to them: release Cat frees it).")
        assert door.json(cat, "whoami", "--json")["name"] == "Kit"
        assert one_line(door.run(bob, "name", "Cat")) == "the name 'Cat' is taken: choose another"
        assert said(door, ann, "release", "Cat") == (
            "The name Cat is free: anyone may take it (Kit keeps theirs).")
        assert one_line(door.run(ann, "release", "Cat")) == "nobody holds the name 'Cat'"
        # No longer an admin: one line, exit status 2.
        assert said(door, ann, "admin", "remove", "Bob") == "Bob is no longer an admin."
        refused = door.run(bob, "motd", "hello")
        assert (one_line(refused), refused.returncode) == ("motd is for the server's admins", 2)
        assert said(door, bob, "name", "Cat") == "You are now Cat."
        assert "Traceback" not in door.report()
    finally:
        if lobby is not None:
            lobby.close()
        door.stop()


def test_a_ban_holds_on_the_openssh_route_to_the_same_game_server(
        folder: Path, keys: dict[str, Path]) -> None:
    """sshd's forced command (``ssh-entry --player bob``, the shipped example's line) reaching
    the front door's own game server: bob, banned by an admin of the front door, is refused
    with the same line before anything runs; so is his hello to the game server itself."""
    door = FrontDoorProcess(folder, "--open", "--auth-per-minute", "600")
    players = {"alice": keys["ann"], "bob": keys["bob"]}
    sshd: Sshd | None = None
    try:
        for name, key in players.items():
            assert said(door, key, "name", name) == f"Welcome, {name}."
        assert host_admin(door, "add", "alice").returncode == 0
        sshd = Sshd(folder, daemon_socket_path(door.data), players, {
            "MINEFIELD_DATA_DIR": str(folder / "player-data"),
            "MINEFIELD_CONFIG_DIR": str(folder / "player-config")})

        def entry(key: Path, *typed: str) -> subprocess.CompletedProcess[str]:
            assert sshd is not None
            return subprocess.run(sshd.ssh(key, *typed, tty=False), capture_output=True,
                                  text=True, timeout=STEP_LIMIT, stdin=subprocess.DEVNULL,
                                  check=False)

        needs = "minefield: the game needs a terminal: connect with ssh -t\n"
        before = entry(players["bob"], "resume")
        assert before.stderr == needs, before.stderr + sshd.report()
        assert entry(players["bob"], "history").returncode == 0
        assert said(door, players["alice"], "ban", "bob", "--reason", "cheating") == (
            "bob is banned for good: cheating")
        line = "you are banned from this server (permanent): cheating"
        for typed in (("resume",), ("history",), ("host", "--bot", "easy"), ("rm", "-rf")):
            done = entry(players["bob"], *typed)
            assert (done.returncode, done.stdout, done.stderr) == (
                1, "", f"minefield: {line}\n"), (typed, sshd.report())
        assert entry(players["alice"], "resume").stderr == needs
        # The game server refuses the hello itself (a client that would not ask first).
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as raw:
            raw.settimeout(STEP_LIMIT)
            raw.connect(str(daemon_socket_path(door.data)))
            raw.sendall(b'{"type": "hello", "version": 1, "action": "resume", '
                        b'"player": "BOB"}\n')
            answer = json.loads(raw.makefile("rb").readline())
        assert answer == {"type": "error", "code": "not_allowed", "message": line,
                          "fatal": True}
        assert said(door, players["alice"], "unban", "bob") == "bob is no longer banned."
        assert entry(players["bob"], "resume").stderr == needs
    finally:
        if sshd is not None:
            sshd.stop()
        door.stop()
