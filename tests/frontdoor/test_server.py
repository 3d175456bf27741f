"""``minefield ssh-server`` end to end with the real OpenSSH client: keys claim names, the
JSON answers, a game between two keys that gets rated, and every hostile request refused with
a clear line while the server and its games go on.

Each test runs its own server on its own port and folder (``pytest -n auto`` is safe).
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
from functools import partial
from pathlib import Path

import pytest

from tests.e2e.harness import STEP_LIMIT, Terminals, tool, wait_for
from tests.frontdoor.conftest import FrontDoorProcess, SizedTerminals


def fingerprint(key: Path) -> str:
    """The SHA256 fingerprint of a key, as ``ssh-keygen -l`` gives it."""
    done = subprocess.run([tool("ssh-keygen"), "-l", "-E", "sha256", "-f", f"{key}.pub"],
                          capture_output=True, text=True, check=True, timeout=30)
    return done.stdout.split()[1]


def test_keys_claim_names_and_the_json_answers(folder: Path, keys: dict[str, Path]) -> None:
    door = FrontDoorProcess(folder, "--open")
    try:
        ann, bob = keys["ann"], keys["bob"]
        assert door.json(ann, "whoami", "--json") == {
            "name": None, "fingerprint": fingerprint(ann), "rating": None}
        claimed = door.run(ann, "name", "Ann")
        assert claimed.returncode == 0 and "Welcome, Ann" in claimed.stdout
        taken = door.run(bob, "name", "aNN")
        assert taken.returncode == 2
        assert taken.stderr.strip() == "minefield: the name 'aNN' is taken: choose another"
        assert door.run(bob, "name", "strong").stderr.strip() == (
            "minefield: 'strong' is reserved: choose another name")
        assert door.run(bob, "name", "Bob").returncode == 0
        assert door.json(bob, "whoami", "--json") == {
            "name": "Bob", "fingerprint": fingerprint(bob), "rating": 1500}
        assert door.json(ann, "who", "--json") == {"online": [], "tables": []}
        assert door.json(ann, "ladder", "--json") == []
        renamed = door.run(ann, "name", "Annie")
        assert renamed.returncode == 0 and "You are now Annie" in renamed.stdout
        # A former name stays its player's: nobody else may take it.
        assert "taken" in door.run(keys["cat"], "name", "ann").stderr
        assert door.json(ann, "whoami", "--json")["name"] == "Annie"
        # A second key, offered by a logged-in session, logs in as the same player once it
        # gives its code (tests/frontdoor/test_server_keys.py: the rest of it).
        public = keys["cat"].with_suffix(".pub").read_text().split()
        added = door.run(ann, "key", "add", public[0], public[1])
        assert added.returncode == 0, added.stderr
        code = added.stdout.split("key confirm ")[1].split()[0]
        assert door.run(keys["cat"], "key", "confirm", code).returncode == 0
        assert door.json(keys["cat"], "whoami", "--json")["name"] == "Annie"
        log = door.report()
        assert fingerprint(ann) in log and "127.0.0.1" in log
    finally:
        door.stop()


def test_the_first_login_asks_for_a_name_then_shows_the_lobby(
        folder: Path, keys: dict[str, Path], terminals: SizedTerminals) -> None:
    door = FrontDoorProcess(folder, "--open")
    try:
        assert door.run(keys["ann"], "name", "Ann").returncode == 0
        terminals.open("cat", door.ssh(keys["cat"], tty=True))
        wait_for("the name prompt", lambda: "Name:" in terminals.screen("cat"),
                 lambda: terminals.screen("cat") + door.report())
        terminals.keys("cat", "ann", "Enter")
        wait_for("a taken name refused", lambda: "is taken" in terminals.screen("cat"),
                 lambda: terminals.screen("cat"))
        # The refused name stays on the line, to be corrected (C-u empties it).
        wait_for("the name kept", lambda: terminals.screen("cat").rstrip().endswith(
            "Name: ann"), lambda: terminals.screen("cat"))
        terminals.keys("cat", "C-u", "Cat", "Enter")
        # A new player's rating (the front door's, asked by its daemon's lobby).
        wait_for("the lobby", lambda: "Online (1): Cat 1500 (lobby)" in terminals.screen("cat"),
                 lambda: terminals.screen("cat") + door.report())
        assert door.json(keys["cat"], "whoami", "--json")["name"] == "Cat"
        online = door.json(keys["ann"], "who", "--json")["online"]
        assert online == [{"name": "Cat", "status": "lobby"}]
        terminals.keys("cat", "m")  # the menu, from the lobby
        wait_for("the menu", lambda: "Practice against a bot" in terminals.screen("cat"),
                 lambda: terminals.screen("cat") + door.report())
        # A window change reaches the app through the terminal's size (80x24 at least).
        terminals.resize("cat", 60, 20)
        wait_for("the app sees the smaller window",
                 lambda: "Terminal too small" in terminals.screen("cat"),
                 lambda: terminals.screen("cat"))
        terminals.resize("cat", 100, 32)
        wait_for("and the larger one", lambda: "Practice against" in terminals.screen("cat"),
                 lambda: terminals.screen("cat"))
        terminals.keys("cat", "q")  # the menu ends: back in the lobby
        wait_for("the lobby again", lambda: "Online (1)" in terminals.screen("cat"),
                 lambda: terminals.screen("cat"))
        terminals.keys("cat", "q")
        wait_for("ssh ends with the lobby", lambda: terminals.ended("cat"),
                 lambda: terminals.screen("cat"))
        # Cat's home (her account's id), the same layout as an OpenSSH shared account's
        # player's: players/KEY/ with her config/ and data/ (and, being her client's $HOME,
        # its .cache/).
        homes = [(home.name, sorted(path.name for path in home.iterdir()))
                 for home in (door.data / "players").iterdir()]
        assert len(homes) == 1 and homes[0][0].isdigit(), homes
        assert {"config", "data"} <= set(homes[0][1]) <= {".cache", "config", "data"}, homes
        # A process server that dies is started again for the next session.
        zygote = door.process_server()
        assert zygote is not None
        os.kill(zygote, signal.SIGKILL)
        terminals.open("cat2", door.ssh(keys["cat"], tty=True))
        wait_for("the lobby again", lambda: "Online (1)" in terminals.screen("cat2"),
                 lambda: terminals.screen("cat2") + door.report())
        assert door.process_server() not in (None, zygote)
    finally:
        door.stop()


def test_history_answers_without_a_terminal(folder: Path, keys: dict[str, Path]) -> None:
    door = FrontDoorProcess(folder, "--open")
    try:
        assert door.run(keys["ann"], "name", "Ann").returncode == 0
        done = door.run(keys["ann"], "history")
        assert done.returncode == 0, done.stderr + door.report()
        assert "\r" not in done.stdout and "\x1b" not in done.stdout
        assert done.stdout.strip()
    finally:
        door.stop()


def _socks5_refused(port: int) -> bool:
    """True when the SOCKS proxy at ``port`` (ssh -D) cannot open a connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=STEP_LIMIT) as proxy:
        proxy.sendall(b"\x05\x01\x00")
        if proxy.recv(2) != b"\x05\x00":
            return True
        proxy.sendall(b"\x05\x01\x00\x01\x7f\x00\x00\x01\x00\x16")  # 127.0.0.1:22
        reply = proxy.recv(10)
        return len(reply) < 2 or reply[1] != 0


def _forwarded_closed(port: int) -> bool:
    """True when a connection to the local end of ``ssh -L`` is closed without data."""
    with socket.create_connection(("127.0.0.1", port), timeout=STEP_LIMIT) as forwarded:
        forwarded.settimeout(STEP_LIMIT)
        try:
            return forwarded.recv(100) == b""
        except ConnectionResetError:
            return True


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def test_hostile_requests_are_refused_clearly(folder: Path, keys: dict[str, Path]) -> None:
    from tests.e2e.harness import free_port

    allow = folder / "allowed"
    allow.write_text("# the players\n" + keys["ann"].with_suffix(".pub").read_text())
    door = FrontDoorProcess(folder, "--allow", str(allow))
    ann = keys["ann"]
    try:
        assert door.run(ann, "name", "Ann").returncode == 0
        # Passwords and keyboard-interactive are not offered at all.
        for method in ("password", "keyboard-interactive"):
            done = door.run(ann, "whoami", extra=(
                "-o", f"PreferredAuthentications={method}", "-o", "PubkeyAuthentication=no"))
            assert done.returncode == 255 and "Permission denied (publickey)" in done.stderr
        # A key that is not on the allow-list.
        stranger = door.run(keys["bob"], "whoami", extra=("-o", "LogLevel=INFO"))
        assert stranger.returncode == 255
        assert f"the key {fingerprint(keys['bob'])} is not allowed" in stranger.stderr
        assert "is not on the allow-list" in door.report()
        # Commands outside the list, shell syntax, control characters.
        for remote, said in ((["bash"], "unknown command 'bash'"),
                             (["host; id"], "shell syntax is not accepted"),
                             (["name", "a\x01b"], "a name has no control characters"),
                             (["join", "K7Q3PX", "--socket", "/tmp/x"], "--socket is set by"),
                             (["host", "--bot", "easy"], "the game needs a terminal")):
            done = door.run(ann, *remote)
            assert done.returncode == 2, (remote, done.stderr)
            assert said in done.stderr and done.stderr.startswith("minefield: ")
            assert done.stderr.count("\n") == 1, done.stderr  # one line
        # No file transfer: sftp and both kinds of scp.
        sftp = subprocess.run(
            [tool("sftp"), "-b", "/dev/null", "-P", str(door.port), "-i", str(ann), "-F",
             "/dev/null", "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes", "-o",
             "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "127.0.0.1"],
            capture_output=True, text=True, timeout=STEP_LIMIT, check=False)
        assert sftp.returncode != 0 and "no subsystem here (sftp" in sftp.stderr
        for legacy in ((), ("-O",)):
            scp = subprocess.run(
                [tool("scp"), *legacy, "-P", str(door.port), "-i", str(ann), "-F", "/dev/null",
                 "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes", "-o",
                 "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                 "127.0.0.1:/etc/passwd", str(folder / "stolen")],
                capture_output=True, text=True, timeout=STEP_LIMIT, check=False)
            assert scp.returncode != 0 and "minefield: refused" in scp.stderr
            assert not (folder / "stolen").exists()
        # Forwarding: stdio (-W), local (-L), dynamic (-D), remote (-R).
        stdio = door.run(ann, extra=("-o", "LogLevel=INFO", "-W", "127.0.0.1:22"))
        assert stdio.returncode == 255 and "stdio forwarding failed" in stdio.stderr
        assert "administratively prohibited: minefield: no port forwarding here" in stdio.stderr
        reverse = door.run(ann, "whoami", extra=("-o", "ExitOnForwardFailure=yes",
                                                 "-R", "0:127.0.0.1:22"))
        assert reverse.returncode == 255 and "remote port forwarding failed" in reverse.stderr
        for option, refused in (("-L", _forwarded_closed), ("-D", _socks5_refused)):
            local = free_port()
            spec = f"{local}:127.0.0.1:22" if option == "-L" else str(local)
            tunnel = subprocess.Popen(door.ssh(ann, extra=("-o", "LogLevel=INFO", "-N", option,
                                                           spec)),
                                      stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE)
            try:
                wait_for(f"ssh {option} listens", partial(_listening, local),
                         door.report)
                assert refused(local)
            finally:
                tunnel.send_signal(signal.SIGTERM)
                _out, err = tunnel.communicate(timeout=STEP_LIMIT)
            assert b"administratively prohibited" in err or option == "-D", err
        assert "refused port forwarding" in door.report()
        # Agent forwarding is asked for and never set up: no agent channel is ever opened.
        agent_socket = folder / "agent.sock"
        agent_process = subprocess.Popen([tool("ssh-agent"), "-D", "-a", str(agent_socket)],
                                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL)
        try:
            wait_for("the agent", agent_socket.exists, lambda: "no agent socket")
            with_agent = {**os.environ, "SSH_AUTH_SOCK": str(agent_socket)}
            agent = door.run(ann, "whoami", "--json", extra=("-A", "-v"), env=with_agent)
        finally:
            agent_process.terminate()
            agent_process.wait(timeout=STEP_LIMIT)
        assert agent.returncode == 0 and json.loads(agent.stdout)["name"] == "Ann"
        assert "Requesting authentication agent forwarding" in agent.stderr
        assert "auth-agent@openssh.com" not in agent.stderr
        # After all of it the server still serves.
        assert door.json(ann, "whoami", "--json")["name"] == "Ann"
        assert "Traceback" not in door.report()
    finally:
        door.stop()


def test_a_burst_of_300_connections_is_refused_clearly_and_the_game_goes_on(
        folder: Path, keys: dict[str, Path], terminals: Terminals) -> None:
    door = FrontDoorProcess(folder, "--open")
    ann = keys["ann"]
    try:
        assert door.run(ann, "name", "Ann").returncode == 0
        terminals.open("ann", door.ssh(ann, "host", "--bot", "easy", tty=True))
        wait_for("the bot game", lambda: "Keep 13 of your 34" in terminals.screen("ann"),
                 lambda: terminals.screen("ann") + door.report())
        burst = [subprocess.Popen(door.ssh(ann, "whoami", "--json"), stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for _ in range(300)]
        answered = refused = 0
        for client in burst:
            out, err = client.communicate(timeout=STEP_LIMIT * 3)
            if client.returncode == 0:
                assert json.loads(out)["name"] == "Ann"
                answered += 1
            else:
                text = err.decode(errors="replace")
                assert "minefield: too many connections from 127.0.0.1" in text, text
                refused += 1
        assert answered + refused == 300 and refused > 0 and answered > 0
        assert door.process is not None and door.process.poll() is None
        # Another address is not held back, and the game on the server went on.
        other = door.run(ann, "who", "--json", source="127.0.0.2")
        assert other.returncode == 0, other.stderr + door.report()
        assert json.loads(other.stdout)["online"] == [{"name": "Ann", "status": "playing"}]
        terminals.keys("ann", "Space")  # the table still answers: a tile goes to the hand
        wait_for("the table still answers", lambda: "Hand 1/13" in terminals.screen("ann"),
                 lambda: terminals.screen("ann"))
        assert "Traceback" not in door.report()
    finally:
        door.stop()


def _ladder(door: FrontDoorProcess, key: Path) -> list[dict[str, object]] | None:
    done = door.run(key, "ladder", "--json", source="127.0.0.3")
    if done.returncode != 0:
        return None
    rows: list[dict[str, object]] = json.loads(done.stdout)
    return rows if len(rows) == 2 else None


def test_a_game_between_two_keys_survives_kill_9_and_is_rated(
        folder: Path, keys: dict[str, Path], terminals: Terminals) -> None:
    door = FrontDoorProcess(folder, "--open", "--hand-seconds", "2", "--discard-seconds", "1",
                            "--grace-seconds", "1", "--auth-per-minute", "200")
    ann, bob = keys["ann"], keys["bob"]
    try:
        assert door.run(ann, "name", "Ann").returncode == 0
        assert door.run(bob, "name", "Bob").returncode == 0
        terminals.open("ann", door.ssh(ann, "host", "--public", tty=True))
        tables = wait_for("the public table", lambda: door.json(bob, "who", "--json")["tables"],
                          door.report)
        assert tables == [{"code": tables[0]["code"], "host": "Ann", "rules": "standard",
                           "public": True, "players": ["Ann"], "watchers": 0, "rated": True}]
        # Bob's lobby lists it: Enter joins.
        terminals.open("bob", door.ssh(bob, tty=True))
        wait_for("the table in Bob's lobby",
                 lambda: f"join {tables[0]['code']}" in terminals.screen("bob"),
                 lambda: terminals.screen("bob") + door.report())
        terminals.keys("bob", "Enter")
        wait_for("Bob at the table", lambda: "vs Ann" in terminals.screen("bob"),
                 lambda: terminals.screen("bob") + door.report())
        # Bob's ssh dies: his moves are played by the clocks (R25b).
        os.kill(terminals.pid("bob"), signal.SIGKILL)
        # The front door and its daemon die too, and come back: the game goes on.
        door.kill()
        terminals.close("ann")
        door.start()
        terminals.open("ann2", door.ssh(ann, "resume", tty=True))
        wait_for("Ann back at her game", lambda: "Bob" in terminals.screen("ann2"),
                 lambda: terminals.screen("ann2") + door.report())
        rows = wait_for("the game played out and rated", lambda: _ladder(door, ann),
                        door.report, limit=STEP_LIMIT * 5)
        assert {row["name"] for row in rows} == {"Ann", "Bob"}
        assert all(row["games"] == 1 for row in rows)
        assert all(isinstance(row["deviation"], int) and row["deviation"] < 350
                   for row in rows)
        ratings = {row["name"]: row["rating"] for row in rows}
        assert door.json(ann, "whoami", "--json")["rating"] == ratings["Ann"]
        # Ann's result screen shows both ratings before and after (sent as the game ended).
        wait_for("the ratings on Ann's result screen",
                 lambda: f"Ann 1500 → {ratings['Ann']}" in terminals.screen("ann2")
                 and f"Bob 1500 → {ratings['Bob']}" in terminals.screen("ann2"),
                 lambda: terminals.screen("ann2") + door.report())
        log = door.report()
        assert "rated game" in log
        # The word, not four letters of a key's fingerprint (base64 may spell it).
        assert not re.search(r"\bseed\b", log, re.IGNORECASE)
    finally:
        door.stop()


@pytest.mark.parametrize("listen", ["nowhere", "127.0.0.1:99999"])
def test_a_bad_listen_address_is_one_line(listen: str) -> None:
    from tests.e2e.harness import minefield_command

    done = subprocess.run([minefield_command(), "ssh-server", "--listen", listen],
                          capture_output=True, text=True, timeout=STEP_LIMIT, check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--listen" in done.stderr


def test_the_host_key_is_made_once_with_mode_0600(folder: Path, keys: dict[str, Path]) -> None:
    door = FrontDoorProcess(folder)
    try:
        key = door.data / "ssh_host_ed25519_key"
        assert key.stat().st_mode & 0o777 == 0o600
        first = key.read_bytes()
        assert "allow-list" in door.report() and "is empty: nobody may come in" in door.report()
        refused = door.run(keys["ann"], "whoami")
        assert refused.returncode == 255
    finally:
        door.stop()
    again = FrontDoorProcess(folder)
    try:
        assert (door.data / "ssh_host_ed25519_key").read_bytes() == first
    finally:
        again.stop()


def test_the_embedded_daemon_asks_the_front_doors_players_file(tmp_path: Path) -> None:
    from minefield.frontdoor.accounts import Accounts
    from minefield.frontdoor.door_config import ACCOUNTS_NAME
    from minefield.frontdoor.server import FrontDoor, FrontDoorConfig

    door = FrontDoor(FrontDoorConfig(data=tmp_path))
    accounts = Accounts(tmp_path / ACCOUNTS_NAME)
    accounts.claim("SHA256:a", "Ann")
    assert door.daemon is not None
    ratings_of = door.daemon.raters.ratings_of
    me = door.shared_account
    # A new player has the starting rating; a Unix user of the OpenSSH route has none.
    assert ratings_of([f"Ann@{me}", "cat"]) == {f"Ann@{me}": 1500}
    accounts.close()
