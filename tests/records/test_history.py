"""Listing saved games: newest first, bad files listed with their problem, never a crash."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console

from minefield.records.header import Players
from minefield.records.history import history_table, list_history
from minefield.records.writer import write_game
from minefield.rules.game import Game
from tests.records.conftest import DRAW_SEED, RON_SEED, Clock, played, record_of

DAY = [datetime(2025, 3, day, 12, 0, tzinfo=UTC) for day in range(1, 6)]


def _render(table: object) -> str:
    console = Console(record=True, width=250)
    console.print(table)
    return console.export_text()


def test_games_are_listed_newest_first(tmp_path: Path) -> None:
    ron = record_of(played(RON_SEED), tmp_path, DAY[2])
    draw = record_of(played(DRAW_SEED), tmp_path, DAY[0])
    unfinished = record_of(played(RON_SEED, stop=4), tmp_path, DAY[1])
    entries = list_history(tmp_path)
    assert [e.path for e in entries] == [ron, unfinished, draw]
    first = entries[0]
    assert first.mode == "practice" and first.players == Players(east="Ann", west="Bot normal")
    assert first.result is not None and first.result.points == 8000
    assert first.commands == 6 and first.problems == ()
    assert entries[1].result is None and entries[1].commands == 4
    text = _render(history_table(entries, tmp_path))
    assert "east ron" in text and "8000" in text and "draw" in text
    assert "unfinished, 4 moves" in text and "Bot normal" in text


def test_corrupt_files_are_listed_with_their_problem(tmp_path: Path) -> None:
    good = record_of(played(DRAW_SEED), tmp_path, DAY[3])
    (tmp_path / "garbage.jsonl").write_bytes(b"\x00\xff garbage\n")
    (tmp_path / "folder.jsonl").mkdir()
    os.mkfifo(tmp_path / "fifo.jsonl")
    (tmp_path / "notes.txt").write_text("not a record, not listed")
    damaged = record_of(played(RON_SEED), tmp_path, DAY[4])
    damaged.write_bytes(damaged.read_bytes()[:-10])  # the result line half-written
    entries = list_history(tmp_path)
    by_name = {e.path.name: e for e in entries}
    assert set(by_name) == {good.name, damaged.name, "garbage.jsonl", "folder.jsonl",
                            "fifo.jsonl"}
    assert by_name["garbage.jsonl"].problems == (
        "line 1: not a Minefield record header: not UTF-8 text",)
    assert by_name["folder.jsonl"].problems == ("is a directory, not a record",)
    assert "not a regular file" in by_name["fifo.jsonl"].problems[0]
    assert by_name[damaged.name].result is None
    assert by_name[damaged.name].problems == (
        "line 8: half-written (no newline at its end): ignored",)
    assert by_name[good.name].problems == ()
    text = _render(history_table(entries, tmp_path))
    assert "not UTF-8 text" in text and "1 problem: line 8: half-written" in text


def test_a_missing_folder_has_no_games(tmp_path: Path) -> None:
    assert list_history(tmp_path / "nothing") == []


def test_names_are_shown_as_plain_text(tmp_path: Path) -> None:
    players = Players(east="[bold red]Mallory[/]", west="Bell\x07\x1b[2J")
    write_game(Game(seed=3), "network", players, tmp_path, clock=Clock())
    text = _render(history_table(list_history(tmp_path), tmp_path, show_all=True))
    assert "[bold re" in text and "Bell??[2J" in text  # as written (shortened), no markup
    assert "\x1b" not in text and "\x07" not in text
