"""Games kept by id, profiles and casual tables over ``minefield ssh-server``, with the real
OpenSSH client: ``games``, ``record``, ``stats`` and ``history`` answer from the daemon's
index of finished games (who may see which: a public table's, a quick match's to everyone, a
private room's or an invitation's to its two players), ``rebuild-stats`` makes the index again
from the records with the same answers, and a casual table says so in ``who --json`` (R36)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from pathlib import Path

from minefield.frontdoor.review_pages import make_review_page
from minefield.records.reader import read_record
from minefield.rules.seats import Seat
from minefield.server.identity import user_name
from minefield.server.kept_games import kept_from_record
from tests.e2e.harness import STEP_LIMIT, minefield_command, wait_for
from tests.frontdoor.conftest import FrontDoorProcess, SizedTerminals
from tests.server.kept_records import write_record

GAME_KEYS = ["game", "ended", "rules", "east", "west", "result", "points", "rated",
             "tournament", "link"]
STATS_KEYS = ["name", "rating", "deviation", "games", "wins", "losses", "draws", "rated_games",
              "win_rate", "deal_ins", "deal_in_rate", "average_win", "average_loss",
              "furiten_games", "longest_game_streak", "rating_history", "program"]


def club_records(data: Path) -> dict[str, Path]:
    """Four finished games of Ann, Bob and Cat in an ssh-server data folder, by id."""
    games, me = data / "server" / "games", user_name(os.getuid())
    return {
        "g1": write_record(games, "g1", 1, f"Ann@{me}", f"Bob@{me}", "public", minute=1),
        "g2": write_record(games, "g2", 2, f"Ann@{me}", f"Bob@{me}", "private", minute=2),
        "g3": write_record(games, "g3", 3, f"Bob@{me}", f"Cat@{me}", "invitation",
                           rated=False, minute=3),
        "g4": write_record(games, "g4", 4, f"Cat@{me}", f"Ann@{me}", "quick", minute=4),
    }


def ids(door: FrontDoorProcess, key: Path, *words: str) -> list[str]:
    return [game["game"] for game in door.json(key, "games", *words, "--json")]


def one_line_refusal(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2 and done.stdout == "", (done.returncode, done.stdout)
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    return done.stderr


def test_games_record_stats_and_history_answer_from_the_kept_games(
        folder: Path, keys: dict[str, Path]) -> None:
    ann, bob, cat = keys["ann"], keys["bob"], keys["cat"]
    data = folder / "door"
    records = club_records(data)
    door = FrontDoorProcess(folder, "--open")
    try:
        for key, name in ((ann, "Ann"), (bob, "Bob"), (cat, "Cat")):
            assert door.run(key, "name", name).returncode == 0

        def rated_games() -> dict[str, int]:
            return {row["name"]: row["games"] for row in door.json(ann, "ladder", "--json")}

        # The front door rates what it finds in the records: never the casual g3 (R36).
        wait_for("the games rated", lambda: rated_games() == {"Ann": 3, "Bob": 2, "Cat": 1},
                 lambda: f"{rated_games()}\n{door.report()}")
        # Newest first; a private room's game (g2) only to its players, an invitation's
        # (g3) likewise.
        assert ids(door, cat) == ["g4", "g3", "g1"]
        assert ids(door, ann) == ["g4", "g2", "g1"]
        assert ids(door, ann, "Bob") == ["g2", "g1"] and ids(door, cat, "bob") == ["g3", "g1"]
        assert ids(door, ann, "--limit", "1") == ["g4"]
        listed = door.json(ann, "games", "--json")
        assert [list(game) for game in listed] == [GAME_KEYS] * 3
        g4 = kept_from_record("g4", read_record(records["g4"]))
        assert g4 is not None and listed[0] == {
            "game": "g4", "ended": g4.ended, "rules": "standard", "east": "Cat", "west": "Ann",
            "result": g4.result, "points": g4.points, "rated": True, "tournament": None,
            "link": None}  # no browser door (--web): no link
        # The record, as the app writes it; not to whom it is not visible.
        record = door.run(ann, "record", "g2")
        assert record.returncode == 0 and record.stdout == records["g2"].read_text()
        assert json.loads(record.stdout.splitlines()[0])["table"] == {"kind": "private",
                                                                      "rated": True}
        assert "g2" in one_line_refusal(door.run(cat, "record", "g2"))
        assert one_line_refusal(door.run(cat, "record", "nothing"))
        # Bad input: one line, status 2.
        for words in (("games", "--limit", "x"), ("games", "Nobody"), ("stats", "Nobody"),
                      ("record",), ("games", "Ann", "Bob"), ("stats", "--limit", "2")):
            one_line_refusal(door.run(ann, *words))
        # A profile: every figure, and the same whoever asks.
        stats = door.json(cat, "stats", "Ann", "--json")
        assert list(stats) == STATS_KEYS and stats == door.json(ann, "stats", "--json")
        assert stats["games"] == 3 and stats["rated_games"] == 3
        assert [ended for ended, _ in stats["rating_history"]] == [
            listed[2]["ended"], listed[1]["ended"], listed[0]["ended"]]
        assert stats["rating_history"][-1][1] == stats["rating"]
        assert stats["wins"] + stats["losses"] + stats["draws"] == 3
        assert door.run(ann, "stats").stdout.startswith("Ann: ")
        # history: the player's own network games, not the server's data folder.
        history = door.run(ann, "history")
        assert history.returncode == 0, history.stderr
        assert [line.split()[-1] for line in history.stdout.splitlines()[1:4]] == [
            "g4", "g2", "g1"]
        assert str(data) not in history.stdout and "No saved games" not in history.stdout
        # Rebuilt from the records alone: the same answers.
        door.stop()
        with sqlite3.connect(data / "players.sqlite") as db:
            db.execute("UPDATE kept_games SET points = 1, result = 'draw'")
        rebuilt = subprocess.run([minefield_command(), "ssh-server", "rebuild-stats", "--data",
                                  str(data)], capture_output=True, text=True, check=False,
                                 timeout=STEP_LIMIT)
        assert rebuilt.returncode == 0 and "4 finished games kept" in rebuilt.stdout
        door.start()
        assert door.json(cat, "stats", "Ann", "--json") == stats
        assert door.json(ann, "games", "--json") == listed
    finally:
        door.stop()


def test_a_casual_table_says_so_and_a_bad_host_is_one_line(
        folder: Path, keys: dict[str, Path], terminals: SizedTerminals) -> None:
    """R36: a table is rated or casual, shown before its game starts."""
    door = FrontDoorProcess(folder, "--open")
    ann, bob = keys["ann"], keys["bob"]
    try:
        assert door.run(ann, "name", "Ann").returncode == 0
        assert door.run(bob, "name", "Bob").returncode == 0
        one_line_refusal(door.run(ann, "host", "--casual", "--casual"))
        terminals.open("ann", door.ssh(ann, "host", "--public", "--casual", tty=True))
        wait_for("Ann's room", lambda: "to join:" in terminals.screen("ann"),
                 lambda: terminals.screen("ann") + door.report())

        def tables() -> list[dict[str, object]]:
            return list(door.json(bob, "who", "--json")["tables"])

        wait_for("the table listed", tables, door.report)
        assert [(t["host"], t["rated"]) for t in tables()] == [("Ann", False)]
        assert "casual" in door.run(bob, "who").stdout
    finally:
        door.stop()


def test_replay_and_review_open_a_visible_game_in_a_terminal_and_the_review_as_a_page(
        folder: Path, keys: dict[str, Path], terminals: SizedTerminals) -> None:
    ann, cat = keys["ann"], keys["cat"]
    records = club_records(folder / "door")
    door = FrontDoorProcess(folder, "--open")
    try:
        assert door.run(ann, "name", "Ann").returncode == 0
        assert door.run(cat, "name", "Cat").returncode == 0
        # Not visible (a private room's, of Ann and Bob), unknown, or without a terminal:
        # one line each, nothing started.
        assert "g2" in one_line_refusal(door.run(cat, "replay", "g2", tty=True))
        one_line_refusal(door.run(cat, "review", "nothing", tty=True))
        assert "ssh -t" in one_line_refusal(door.run(cat, "replay", "g1"))
        # The replay viewer on a public table's game, for anyone.
        terminals.open("cat", door.ssh(cat, "replay", "g1", tty=True))
        # The players by their names (not the server's NAME@ACCOUNT of the record).
        wait_for("the replay", lambda: "Ann (East) vs Bob (West)" in terminals.screen("cat"),
                 lambda: terminals.screen("cat") + door.report())
        terminals.keys("cat", "q")
        wait_for("ssh ends with the replay", lambda: terminals.ended("cat"),
                 lambda: terminals.screen("cat"))
        # review GAME --html: the same review as one web page on standard output, no
        # terminal needed (the page the browser door serves and review --html writes).
        page = door.run(ann, "review", "g4", "--html")
        assert page.returncode == 0, page.stderr
        assert page.stdout == make_review_page(records["g4"], Seat.WEST, "g4")
        assert page.stdout.startswith("<!DOCTYPE html>") and "<script" not in page.stdout
        assert "Defense review of Ann (west) against Cat" in page.stdout
        assert "g2" in one_line_refusal(door.run(cat, "review", "g2", "--html"))
        # The defense review of Ann's own game, from her seat (West in g4).
        terminals.open("ann", door.ssh(ann, "review", "g4", tty=True))
        wait_for("the review", lambda: "Defense review" in terminals.screen("ann"),
                 lambda: terminals.screen("ann") + door.report())
        terminals.keys("ann", "q")
        wait_for("ssh ends with the review", lambda: terminals.ended("ann"),
                 lambda: terminals.screen("ann"))
    finally:
        door.stop()
