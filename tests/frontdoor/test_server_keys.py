"""``minefield ssh-server``'s keys and names with the real OpenSSH client: a key joins a player
only with the code that player's ``key add`` gave it (the capture of a published key), the
keys listed and removed, the name changes limited, and the name prompt typed in a terminal
keeping what was typed.

Each test runs its own server on its own port and folder (``pytest -n auto`` is safe).
"""

from __future__ import annotations

import re
import sqlite3
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from tests.e2e.harness import wait_for
from tests.frontdoor.conftest import FrontDoorProcess, SizedTerminals
from tests.frontdoor.test_server import fingerprint

CONFIRM = re.compile(r"^ssh -p (\d+) (\S+) key confirm ([A-Z0-9]{8,})$", re.MULTILINE)


def public_key(key: Path) -> list[str]:
    """The type and base64 of a key's public half, as ``key add`` takes them."""
    return key.with_suffix(".pub").read_text().split()[:2]


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    """The refusal of a command: one line on stderr, a non-zero exit status, nothing else."""
    assert done.returncode != 0, done.stdout
    assert done.stdout == "" and done.stderr.startswith("minefield: "), done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    return done.stderr.strip().removeprefix("minefield: ")


def offered_code(door: FrontDoorProcess, key: Path, new: Path) -> str:
    """``key add`` of ``new``'s public half from ``key``: the code of the one command it
    answers with (the server's real port and an address it listens on)."""
    added = door.run(key, "key", "add", *public_key(new))
    assert added.returncode == 0, added.stderr + door.report()
    commands: list[tuple[str, str, str]] = CONFIRM.findall(added.stdout)
    assert commands, added.stdout
    port, host, code = commands[0]
    assert (int(port), host) == (door.port, "127.0.0.1")
    assert fingerprint(new) in added.stdout
    return code


def test_a_published_key_is_not_captured_it_joins_with_its_code(
        folder: Path, keys: dict[str, Path]) -> None:
    door = FrontDoorProcess(folder, "--open")
    ann, bob, cat = keys["ann"], keys["bob"], keys["cat"]
    try:
        assert door.run(ann, "name", "Ann").returncode == 0
        # Bob's key has logged in once and has no name yet; its public half is known.
        assert door.json(bob, "whoami", "--json")["name"] is None
        code = offered_code(door, ann, bob)
        # The capture: Ann adds Bob's key. Bob logs in and is still Bob, nameless, not Ann.
        assert door.json(bob, "whoami", "--json") == {
            "name": None, "fingerprint": fingerprint(bob), "rating": None}
        assert "no name yet" in one_line(door.run(bob, "history"))
        # A wrong code, and Bob's code given by another key: one line each, nothing joins.
        assert one_line(door.run(bob, "key", "confirm", "ABCDEFGH23")) == (
            "that code is not one for this key: check it, or ask for a new one with key add")
        assert "not one for this key" in one_line(door.run(cat, "key", "confirm", code))
        assert door.json(cat, "whoami", "--json")["name"] is None
        # The code is kept through a restart of the server (kill -9: a crash).
        door.kill()
        door.start()
        confirmed = door.run(bob, "key", "confirm", code.lower())
        assert confirmed.returncode == 0, confirmed.stderr + door.report()
        assert confirmed.stdout == "This key now logs in as Ann.\n"
        assert door.json(bob, "whoami", "--json")["name"] == "Ann"
        # Used once: not again, not by another key.
        assert one_line(door.run(bob, "key", "confirm", code)) == (
            "that code has been used already: a code serves once")
        assert "not one for this key" in one_line(door.run(cat, "key", "confirm", code))
        # A key that plays under its own name is refused by key add.
        assert door.run(cat, "name", "Cat").returncode == 0
        taken = door.run(ann, "key", "add", *public_key(cat))
        assert one_line(taken) == "that key already belongs to another player"
        log = door.report()
        assert (f"Ann offered the key {fingerprint(bob)} a code (key {fingerprint(ann)}"
                in log)
        assert (f"key {fingerprint(bob)} joined Ann with its code (asked by key "
                f"{fingerprint(ann)}" in log)
        assert code not in log  # the code is the new key's to give, nobody else's to read
    finally:
        door.stop()


def test_an_expired_code_is_refused_and_a_key_never_named_cannot_confirm_twice(
        folder: Path, keys: dict[str, Path]) -> None:
    door = FrontDoorProcess(folder, "--open")
    ann, bob, cat = keys["ann"], keys["bob"], keys["cat"]
    try:
        assert door.run(ann, "name", "Ann").returncode == 0
        code = offered_code(door, ann, bob)
        # Ten minutes pass: the code's end, as the server stored it, is moved back by ten
        # minutes (the server's own clock judges it).
        store = sqlite3.connect(door.data / "players.sqlite", timeout=30)
        with store:
            moved = store.execute("UPDATE key_codes SET expires = expires - 600 WHERE "
                                  "fingerprint = ?", (fingerprint(bob),)).rowcount
        store.close()
        assert moved == 1
        assert one_line(door.run(bob, "key", "confirm", code)) == (
            "that code has expired (a code lasts 10 minutes): ask for a new one with key add")
        assert door.json(bob, "whoami", "--json")["name"] is None
        # A key that took a name of its own meanwhile cannot join with a code.
        fresh = offered_code(door, ann, cat)
        assert door.run(cat, "name", "Cat").returncode == 0
        assert one_line(door.run(cat, "key", "confirm", fresh)) == (
            "this key already logs in as Cat: it cannot join another player")
        assert door.json(cat, "whoami", "--json")["name"] == "Cat"
    finally:
        door.stop()


def test_keys_are_listed_and_removed_never_the_last(folder: Path, keys: dict[str, Path]
                                                    ) -> None:
    door = FrontDoorProcess(folder, "--open")
    ann, bob, cat = keys["ann"], keys["bob"], keys["cat"]
    try:
        assert door.run(ann, "name", "Ann").returncode == 0
        assert door.run(bob, "key", "confirm", offered_code(door, ann, bob)).returncode == 0
        offered_code(door, ann, cat)  # waiting for its code
        listed = door.json(bob, "key", "list", "--json")
        assert listed["name"] == "Ann"
        assert [(k["fingerprint"], k["this"]) for k in listed["keys"]] == [
            (fingerprint(ann), False), (fingerprint(bob), True)]
        assert [k["fingerprint"] for k in listed["pending"]] == [fingerprint(cat)]
        assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", stamp) for stamp in
                   [k["added"] for k in listed["keys"]] + [listed["pending"][0]["expires"]])
        text = door.run(ann, "key", "list")
        assert text.returncode == 0 and "(this key)" in text.stdout
        assert fingerprint(cat) in text.stdout and "waiting for its code" in text.stdout
        # Withdraw Cat's code; remove Ann's first key (from Bob's); the last one stays.
        withdrawn = door.run(ann, "key", "remove", fingerprint(cat))
        assert withdrawn.returncode == 0 and "withdrawn" in withdrawn.stdout
        assert door.json(ann, "key", "list", "--json")["pending"] == []
        removed = door.run(bob, "key", "remove", fingerprint(ann))
        assert removed.returncode == 0, removed.stderr
        assert removed.stdout == f"The key {fingerprint(ann)} no longer logs in as Ann.\n"
        assert door.json(ann, "whoami", "--json")["name"] is None
        assert one_line(door.run(bob, "key", "remove", fingerprint(bob))) == (
            "that is your last key: add another (key add) before removing it")
        assert one_line(door.run(bob, "key", "remove", fingerprint(cat))) == (
            f"the key {fingerprint(cat)} is not one of yours (key list shows them)")
        assert door.json(bob, "whoami", "--json")["name"] == "Ann"
        assert "key remove takes a key's fingerprint" in one_line(
            door.run(bob, "key", "remove", "id_ed25519"))
        assert f"Ann removed the key {fingerprint(ann)} (key {fingerprint(bob)}" in (
            door.report())
    finally:
        door.stop()


def test_five_name_changes_a_day_and_three_former_names_kept(
        folder: Path, keys: dict[str, Path]) -> None:
    door = FrontDoorProcess(folder, "--open")
    ann, bob = keys["ann"], keys["bob"]
    try:
        assert door.run(ann, "name", "Ann").returncode == 0
        for number in range(1, 6):
            done = door.run(ann, "name", f"Ann{number}")
            assert done.returncode == 0, done.stderr
        sixth = door.run(ann, "name", "Ann6")
        assert sixth.returncode == 1
        assert re.fullmatch(r"at most 5 name changes a day: the next is allowed at "
                            r"\d{4}-\d\d-\d\d \d\d:\d\d UTC \(in 23 h 5\d min\)",
                            one_line(sixth))
        assert door.json(ann, "whoami", "--json")["name"] == "Ann5"
        # Ann keeps her three latest former names; the older two are anyone's again.
        for kept in ("ann4", "ann3", "ann2"):
            assert "is taken" in one_line(door.run(bob, "name", kept))
        assert door.run(bob, "name", "ann1").returncode == 0
        assert door.json(bob, "whoami", "--json")["name"] == "ann1"
        # help says so, with the key commands.
        helped = door.run(bob, "help")
        assert helped.returncode == 0
        for said in ("at most 5 changes a day", "your last 3 former names stay yours",
                     "key add PUBLIC-KEY", "key confirm CODE", "key list [--json]",
                     "key remove SHA256:..."):
            assert said in helped.stdout, helped.stdout
    finally:
        door.stop()


def _type_bytes(terminals: SizedTerminals, name: str, data: bytes) -> None:
    """Type exactly ``data`` in the terminal (UTF-8, Esc and all, whatever the locale)."""
    subprocess.run([terminals.tmux, "-S", str(terminals.socket), "send-keys", "-t", name, "-H",
                    *(f"{byte:02x}" for byte in data)], check=True, timeout=30,
                   capture_output=True)


def test_the_name_prompt_refuses_what_name_refuses_and_keeps_the_text(
        folder: Path, keys: dict[str, Path], terminals: SizedTerminals) -> None:
    door = FrontDoorProcess(folder, "--open")
    ann, bob = keys["ann"], keys["bob"]
    try:
        # What the name command says of each (from another key: the same rules).
        reasons = {typed: one_line(door.run(ann, "name", typed)) for typed in
                   ("\u0430lice", "\u200fBob", "\x1b[31mCat")}
        assert "U+0430 CYRILLIC SMALL LETTER A" in reasons["\u0430lice"]
        assert "U+200F RIGHT-TO-LEFT MARK" in reasons["\u200fBob"]
        assert "no control characters" in reasons["\x1b[31mCat"]
        terminals.open("bob", door.ssh(bob, tty=True))

        def screen() -> str:
            return terminals.screen("bob")

        def flat() -> str:  # the long lines the terminal wrapped, whole again
            return subprocess.run(
                [terminals.tmux, "-S", str(terminals.socket), "capture-pane", "-p", "-J", "-t",
                 "bob"], capture_output=True, text=True, check=True, timeout=30).stdout

        wait_for("the name prompt", lambda: "Name:" in screen(), lambda: screen() + door.report())
        for typed, kept in (("\u0430lice", "Name: \u0430lice"),
                            ("\u200fBob", "Name: <U+200F>Bob"),
                            ("\x1b[31mCat", "Name: ^[[31mCat")):
            _type_bytes(terminals, "bob", typed.encode() + b"\r")

            def refused(reason: str = reasons[typed]) -> bool:
                return reason in flat()

            def kept_on_line(kept: str = kept) -> bool:
                return screen().rstrip().endswith(kept)

            wait_for(f"{typed!r} refused with the name command's reason", refused, screen)
            # What was typed is on the prompt's line again, as it was typed.
            wait_for("the text kept", kept_on_line, screen)
            if typed != "\x1b[31mCat":
                terminals.keys("bob", "C-u")  # and it is a line to edit: emptied
        # Corrected in place: Home, the five characters of the colour deleted, Enter.
        terminals.keys("bob", "Home", *["DC"] * 5, "Enter")
        wait_for("the lobby", lambda: "Online (1): Cat 1500 (lobby)" in screen(),
                 lambda: screen() + door.report())
        assert door.json(bob, "whoami", "--json")["name"] == "Cat"
        assert door.report().count("claimed the name") == 1  # none taken on the way
    finally:
        door.stop()


@pytest.mark.parametrize(("listen", "local", "shown"), [
    ("127.0.0.1", ("127.0.0.1", 2222), ("127.0.0.1", 2222)),
    ("game.example.org", ("192.0.2.7", 2222), ("game.example.org", 2222)),
    # Listening on every address: the one this player's connection came in on.
    ("0.0.0.0", ("192.0.2.7", 2222), ("192.0.2.7", 2222)),
    ("::", ("::ffff:192.0.2.7", 2222), ("192.0.2.7", 2222)),
    ("::", ("2001:db8::7", 2222, 0, 0), ("2001:db8::7", 2222)),
])
def test_key_add_names_a_host_and_port_the_player_reaches(
        tmp_path: Path, listen: str, local: tuple[object, ...], shown: tuple[str, int]) -> None:
    """The host and port of the ``ssh -p PORT HOST key confirm CODE`` that key add prints."""
    from minefield.frontdoor.server import FrontDoor, FrontDoorConfig
    from minefield.frontdoor.ssh_connection import DoorConnection
    from minefield.frontdoor.ssh_session import DoorSession

    door = FrontDoor(FrontDoorConfig(data=tmp_path, host=listen, port=2222))
    connection = DoorConnection(door)
    connection.conn = cast(Any, SimpleNamespace(
        get_extra_info=lambda name: local if name == "sockname" else None))
    assert DoorSession(door, connection).door_address() == shown
