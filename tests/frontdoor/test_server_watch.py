"""Watching over ``minefield ssh-server`` with the real OpenSSH client: a third key watches a
game by the id ``who`` lists, sees its hands face down (R26), is counted in ``who``, and
stops with ``q``; a watch without a terminal or of no game is one line."""

from __future__ import annotations

import re
from pathlib import Path

from tests.e2e.harness import wait_for
from tests.frontdoor.conftest import FrontDoorProcess, SizedTerminals


def test_a_third_key_watches_a_game_and_is_counted(
        folder: Path, keys: dict[str, Path], terminals: SizedTerminals) -> None:
    door = FrontDoorProcess(folder, "--open")
    ann, cat = keys["ann"], keys["cat"]
    try:
        assert door.run(ann, "name", "Ann").returncode == 0
        assert door.run(cat, "name", "Cat").returncode == 0
        terminals.open("ann", door.ssh(ann, "host", "--bot", "easy", tty=True))
        tables = wait_for("the game in who", lambda: door.json(cat, "who", "--json")["tables"],
                          door.report)
        game = tables[0]["game"]
        assert tables[0]["watchers"] == 0 and sorted(tables[0]["players"]) == [
            "Ann", "Bot (easy)"]
        # Without a terminal there is no screen to watch on: one line.
        refused = door.run(cat, "watch", game)
        assert refused.returncode == 2 and "needs a terminal" in refused.stderr
        terminals.open("cat", door.ssh(cat, "watch", game, tty=True))
        wait_for("Cat watching", lambda: "watching Ann" in terminals.screen("cat")
                 or "watching Bot" in terminals.screen("cat"),
                 lambda: terminals.screen("cat") + door.report())
        screen = terminals.screen("cat")
        assert "34 tiles face down" in screen and "1 watching" in screen
        counted = wait_for("the watcher counted",
                           lambda: door.json(ann, "who", "--json")["tables"][0]["watchers"],
                           door.report)
        assert counted == 1
        assert {"name": "Cat", "status": "watching"} in door.json(ann, "who", "--json")[
            "online"]
        assert "1 watching" in door.run(ann, "who").stdout
        terminals.keys("cat", "1", "Enter")  # a player's keys do nothing for a watcher
        terminals.keys("cat", "q")
        wait_for("ssh ends when Cat stops watching", lambda: terminals.ended("cat"),
                 lambda: terminals.screen("cat"))
        wait_for("no watcher left",
                 lambda: door.json(ann, "who", "--json")["tables"][0]["watchers"] == 0,
                 door.report)
        # A game that is not being played: refused (one line, tests/test_cli_watch.py), and
        # ssh ends.
        terminals.open("cat2", door.ssh(cat, "watch", "20250102T030405.678Z-network-00",
                                        tty=True))
        wait_for("ssh ends at once", lambda: terminals.ended("cat2"),
                 lambda: terminals.screen("cat2") + door.report())
        assert "hello (watch)" in door.report() and "error no_game" in door.report()
        # The word, not four letters of a key's fingerprint (base64 may spell it).
        assert not re.search(r"\bseed\b", door.report(), re.IGNORECASE)
    finally:
        door.stop()
