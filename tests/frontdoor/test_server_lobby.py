"""The lobby over ``minefield ssh-server`` with the real OpenSSH client: what a player does
there is what ``who`` says (hosting a public table opened from the lobby, waiting for a quick
match), the room's header tells the friend the SSH command to type, and every way out of a
game chosen in the lobby comes back to the lobby, never to the menu."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import wait_for
from tests.frontdoor.conftest import FrontDoorProcess, SizedTerminals


def status_of(door: FrontDoorProcess, key: Path, name: str) -> str | None:
    """``name``'s status in ``who --json``."""
    online = door.json(key, "who", "--json")["online"]
    return next((p["status"] for p in online if p["name"] == name), None)


def test_the_lobby_over_ssh_server_says_what_each_does_and_comes_back_after_a_game(
        folder: Path, keys: dict[str, Path], terminals: SizedTerminals) -> None:
    door = FrontDoorProcess(folder, "--open")
    ann, bob = keys["ann"], keys["bob"]
    try:
        assert door.run(ann, "name", "Ann").returncode == 0
        assert door.run(bob, "name", "Bob").returncode == 0
        terminals.open("ann", door.ssh(ann, tty=True))
        wait_for("Ann's lobby", lambda: "Online (1)" in terminals.screen("ann"),
                 lambda: terminals.screen("ann") + door.report())
        terminals.keys("ann", "k")  # a quick match: nobody else asks
        wait_for("Ann waiting", lambda: status_of(door, bob, "Ann") == "waiting",
                 lambda: terminals.screen("ann") + door.report())
        wait_for("Escape in the footer", lambda: "esc Stop waiting" in terminals.screen("ann"),
                 lambda: terminals.screen("ann"))
        terminals.keys("ann", "Escape")  # stop waiting
        wait_for("k in the footer again", lambda: "k Quick match" in terminals.screen("ann"),
                 lambda: terminals.screen("ann"))
        terminals.keys("ann", "h")  # a public table
        wait_for("Ann's room", lambda: "to join:" in terminals.screen("ann"),
                 lambda: terminals.screen("ann") + door.report())
        # The friend is told the SSH command of this server, not ``minefield join``.
        header = terminals.screen("ann").splitlines()[0]
        assert f"to join: ssh -t -p {door.port} 127.0.0.1 join " in header, header
        wait_for("Ann hosting", lambda: status_of(door, bob, "Ann") == "hosting", door.report)
        # Escape leaves the table nobody joined (asked first or not): back in the lobby, not
        # the menu.
        terminals.keys("ann", "Escape")
        if wait_for("the lobby or the question", lambda: "Online (" in terminals.screen("ann")
                    or "Keep playing" in terminals.screen("ann"),
                    lambda: terminals.screen("ann")) and "Keep playing" in terminals.screen(
                        "ann"):
            terminals.keys("ann", "y")
        wait_for("Ann's lobby again", lambda: "Online (" in terminals.screen("ann"),
                 lambda: terminals.screen("ann") + door.report())
        assert "Practice against a bot" not in terminals.screen("ann")
        wait_for("Ann in the lobby", lambda: status_of(door, bob, "Ann") == "lobby",
                 door.report)
        terminals.keys("ann", "q")
        wait_for("ssh ends with the lobby", lambda: terminals.ended("ann"),
                 lambda: terminals.screen("ann"))
    finally:
        door.stop()
