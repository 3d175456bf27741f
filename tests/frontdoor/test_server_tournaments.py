"""Tournaments over ``minefield ssh-server`` with the real OpenSSH client (R37):
``tournament new|join|leave|start|show`` and ``tournaments``, their exact JSON, one-line
refusals with exit status 2 that change nothing, and a ``kill -9`` of the server in the middle
of a round with nothing lost."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.frontdoor.conftest import FrontDoorProcess

SHOW_KEYS = ["name", "format", "rules", "status", "round", "rounds", "players", "pairings",
             "standings"]


def refused(done: subprocess.CompletedProcess[str], text: str) -> None:
    assert done.returncode == 2 and done.stdout == "", (done.returncode, done.stdout)
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert text in done.stderr, done.stderr


def test_tournament_commands_and_a_kill_during_a_round(folder: Path,
                                                      keys: dict[str, Path]) -> None:
    ann, bob, cat = keys["ann"], keys["bob"], keys["cat"]
    door = FrontDoorProcess(folder, "--open")
    try:
        for key, name in ((ann, "Ann"), (bob, "Bob"), (cat, "Cat")):
            assert door.run(key, "name", name).returncode == 0
        assert door.json(ann, "tournaments", "--json") == []
        made = door.run(ann, "tournament", "new", "spring", "--format", "round-robin",
                        "--rule", "ryanshi=on", "--casual")
        assert made.returncode == 0 and "Tournament spring created" in made.stdout, made
        # Bad input: one line, exit 2, nothing changed.
        refused(door.run(ann, "tournament", "new", "x", "--format", "knockout"),
                "choose round-robin or swiss")
        refused(door.run(ann, "tournament", "new", "x"), "needs --format")
        refused(door.run(ann, "tournament", "new", "x", "--format", "swiss", "--rounds",
                         "zero"), "--rounds takes a number")
        refused(door.run(ann, "tournament", "new", "x", "--format", "swiss", "--rule",
                         "nosuch=1"), "nosuch")
        refused(door.run(ann, "tournament", "new", "spring", "--format", "swiss"),
                "exists already")
        refused(door.run(ann, "tournament", "show", "autumn"), "no tournament is called")
        refused(door.run(ann, "tournament", "frob"), "tournament takes new NAME")
        refused(door.run(ann, "tournaments", "--all"), "takes nothing but --json")
        for key in (ann, bob, cat):
            assert door.run(key, "tournament", "join", "spring").returncode == 0
        refused(door.run(bob, "tournament", "join", "spring"), "already in spring")
        assert door.run(cat, "tournament", "leave", "spring").stdout == "You left spring.\n"
        assert door.run(cat, "tournament", "join", "SPRING").returncode == 0
        refused(door.run(bob, "tournament", "start", "spring"), "only the organizer")
        listed = door.json(bob, "tournaments", "--json")
        assert listed == [{"name": "spring", "format": "round-robin",
                           "rules": "standard ryanshi=on casual", "status": "open",
                           "round": 0, "rounds": None, "players": 3}]
        started = door.run(ann, "tournament", "start", "spring")
        assert started.stdout == "spring has started: round 1 of 3.\n", started
        refused(door.run(cat, "tournament", "leave", "spring"), "has started")
        shown = door.json(cat, "tournament", "show", "spring", "--json")
        assert list(shown) == SHOW_KEYS
        assert (shown["status"], shown["round"], shown["rounds"]) == ("running", 1, 3)
        assert sorted(shown["players"]) == ["Ann", "Bob", "Cat"]
        first = [p for p in shown["pairings"] if p["round"] == 1]
        assert len(first) == 2 and all(list(p) == ["round", "east", "west", "game", "result",
                                                   "forfeit"] for p in first)
        game = next(p for p in first if p["west"] is not None)
        bye = next(p for p in first if p["west"] is None)
        assert game["result"] is None and game["game"] and not game["forfeit"]
        assert bye["result"] == "east" and bye["game"] is None  # a bye is a win (R37)
        assert [list(s) for s in shown["standings"]] == [
            ["rank", "name", "score", "tiebreak", "points"]] * 3
        top = shown["standings"][0]
        assert (top["name"], top["score"], top["rank"]) == (bye["east"], 1.0, 1)
        text = door.run(bob, "tournament", "show", "spring")
        assert text.returncode == 0 and "Round 1:" in text.stdout
        assert f"{bye['east']} (bye)" in text.stdout and "Sonneborn-Berger" in text.stdout
        # kill -9 in the middle of round 1: nothing is lost, the game waits again.
        door.kill()
        door.start()
        again = door.json(ann, "tournament", "show", "spring", "--json")
        assert (again["status"], again["round"]) == ("running", 1)
        kept = [p for p in again["pairings"] if p["round"] == 1]
        assert [(p["east"], p["west"], p["result"]) for p in kept] == [
            (p["east"], p["west"], p["result"]) for p in first]
        assert all(p["game"] for p in kept if p["west"] is not None)
        assert door.run(ann, "tournaments").stdout.startswith("spring")
    finally:
        door.stop()
