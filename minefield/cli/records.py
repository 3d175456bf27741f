"""``minefield history`` and ``minefield replay`` (the viewer, or ``--json``).

Bad input (an unreadable file, a folder that cannot be listed) is one line on stderr and exit
status 2 (:class:`~minefield.cli.common.UsageError`). ``replay`` exits 1 with one line on
stderr when a record's commands do not replay to its stored result; ``replay --match`` when
the records of a match do not agree with the match replayed from them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from rich.console import Console
from rich.text import Text

from minefield.cli.common import Subparsers, UsageError, saved_honor_names
from minefield.paths import DATA_ENV, records_dir
from minefield.records.history import (
    MatchEntry,
    abandoned,
    entry_id,
    group_history,
    history_table,
    list_history,
    numbered,
)
from minefield.records.reader import ReadRecord, RecordError, read_record
from minefield.records.replay import Replay, match_records, replay_match, replay_record
from minefield.records.scoreboard import final_line, match_json, scoreboard_table
from minefield.records.writer import ensure_folder

COMMANDS = ("history", "replay")


def add_parsers(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add the ``history`` and ``replay`` subcommands."""
    h = sub.add_parser("history", help="list saved games, newest first",
                       description="List the saved game records (date, mode, players, result, "
                       "points), newest first. Unreadable files are listed with their problem.")
    h.add_argument("--dir", type=Path, default=None, metavar="DIR",
                   help=f"records folder (default: records/ in the user data folder, or in "
                   f"${DATA_ENV})")
    h.add_argument("--json", action="store_true", help="print one JSON array (every game, "
                   "each with its number and id)")
    h.add_argument("--all", action="store_true",
                   help="also list the games left before their first discard")
    r = sub.add_parser("replay", help="watch a saved game again, discard by discard",
                       description="Rebuild a game from its record (seed, rules, commands), "
                       "check that it reaches the stored result (exit status 1 when it does "
                       "not) and open the replay viewer: step through the discards from "
                       "East's seat, West's seat or with both hands open.")
    r.add_argument("file", metavar="FILE",
                   help="a record (.jsonl), or a game's number or id as `history` lists them "
                   "(a match's opens its first game); with --match, a game of a match or a "
                   "folder")
    r.add_argument("--json", action="store_true",
                   help="print the replayed result as the record's result line has it "
                   "(null for an unfinished game); with --match, each match as JSON")
    r.add_argument("--match", action="store_true",
                   help="replay the whole match of FILE (its records in FILE's folder), or "
                   "every match in the folder FILE: check every game and the match's "
                   "scores, and print the scoreboard after each game")


def check_record_folder(folder: Path) -> None:
    """Create ``folder`` (0700) if needed and check that records can be written in it;
    :class:`~minefield.cli.common.UsageError` saying why not (``simulate --records``)."""
    try:
        ensure_folder(folder)
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        raise UsageError(f"{folder}: cannot make a records folder there: {reason}") from None
    if not folder.is_dir():
        raise UsageError(f"{folder}: not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"{folder}: cannot write records there: permission denied")


def run(args: argparse.Namespace) -> int:
    """Run ``history`` or ``replay``; returns the exit status."""
    if args.command == "history":
        return _run_history(args)
    return _run_replay(args)


def _run_history(args: argparse.Namespace) -> int:
    folder: Path = args.dir if args.dir is not None else records_dir()
    if args.dir is not None and not folder.is_dir():
        raise UsageError(f"{folder}: not a folder")
    try:
        entries = group_history(list_history(folder))
    except RecordError as error:
        raise UsageError(str(error)) from None
    if args.json:
        print(json.dumps([{**entry.to_json(), "number": number, "id": entry_id(entry)}
                          for number, entry in numbered(entries)]))
    elif not entries:
        print(f"No saved games in {folder}.")
    else:
        console = Console()
        console.print(history_table(entries, folder, saved_honor_names(), args.all,
                                    console.width))
        hidden = sum(abandoned(entry) for entry in entries)
        if hidden and not args.all:
            print(f"{hidden} game{'s' * (hidden != 1)} left before a discard not shown "
                  "(--all shows them).")
    return 0


def record_path(text: str, folder: Path | None = None) -> Path:
    """The record ``text`` names: a file, or a number or id of ``history`` (in ``folder``,
    default the records folder; a match's number or id names its first game).
    :class:`~minefield.cli.common.UsageError` when it names none, or more than one."""
    path = Path(text)
    if path.exists() or os.sep in text or text.endswith(".jsonl"):
        return path
    folder = folder if folder is not None else records_dir()
    try:
        entries = numbered(group_history(list_history(folder)))
    except RecordError as error:
        raise UsageError(str(error)) from None
    found = [entry for number, entry in entries
             if text == str(number) or (len(text) >= 4 and entry_id(entry).startswith(text))]
    if not found:
        raise UsageError(f"{text}: no such file, and no game with that number or id in "
                         f"{folder} (see `minefield history`)")
    if len(found) > 1:
        raise UsageError(f"{text}: more than one game has an id starting so; give more of it")
    entry = found[0]
    return entry.games[0].path if isinstance(entry, MatchEntry) else entry.path


def _run_replay(args: argparse.Namespace) -> int:
    args.file = record_path(args.file) if not args.match else Path(args.file)
    if args.match:
        return _run_replay_match(args)
    try:
        record = read_record(args.file)
    except RecordError as error:
        raise UsageError(str(error)) from None
    for problem in record.problems:
        print(f"minefield: warning: {args.file}: {problem}", file=sys.stderr)
    replay = replay_record(record)
    if not replay.consistent:
        problems = "; ".join(replay.problems).replace("\n", " ")
        print(f"minefield: {args.file}: inconsistent record: {problems}", file=sys.stderr)
        return 1
    if args.json:
        print(_result_json(record, replay))
        return 0
    return _view(record, replay)


def _result_json(record: ReadRecord, replay: Replay) -> str:
    """The replayed result; a game of a match keeps the stored payments and match_over (the
    match's, checked by ``replay --match``)."""
    if replay.result is None:
        return "null"
    result = replay.result.result
    if record.result is not None and record.result.result.payments is not None:
        stored = record.result.result
        result = result.model_copy(update={"payments": stored.payments,
                                           "match_over": stored.match_over})
    return result.model_dump_json()


def _run_replay_match(args: argparse.Namespace) -> int:
    """``replay --match``: the whole match of a record, or every match of a folder."""
    path: Path = args.file
    if path.is_dir():
        try:
            matches, unreadable = match_records(path)
        except RecordError as error:
            raise UsageError(str(error)) from None
        for message in unreadable:
            print(f"minefield: warning: {message}", file=sys.stderr)
        if not matches:
            raise UsageError(f"{path}: no records of a match in this folder")
        groups = sorted(matches.values(), key=lambda records: records[0].header.started)
    else:
        try:
            record = read_record(path)
        except RecordError as error:
            raise UsageError(str(error)) from None
        if record.header.match is None:
            raise UsageError(f"{path}: a single game, not a game of a match (replay it "
                             "without --match)")
        try:
            matches, _ = match_records(path.parent)
        except RecordError as error:
            raise UsageError(str(error)) from None
        groups = [matches.get(record.header.match.id, [record])]
    replays = [replay_match(records) for records in groups]
    for replay in replays:
        for game in replay.games:
            for skipped in game.record.problems:
                print(f"minefield: warning: {game.record.name}: {skipped}", file=sys.stderr)
    if args.json:
        print(json.dumps([match_json(replay) for replay in replays]))
    else:
        console = Console()
        for replay in replays:
            console.print(scoreboard_table(replay))
            console.print(Text(final_line(replay)))
    status = 0
    for replay in replays:
        for problem in replay.problems:
            text = problem.replace("\n", " ")
            print(f"minefield: match {replay.id[:8]}: inconsistent records: {text}",
                  file=sys.stderr)
            status = 1
    return status


def _terminal_attached() -> bool:
    """True when the viewer has a terminal to run in (Textual reads stdin, draws on stderr)."""
    return all(stream is not None and stream.isatty() for stream in (sys.__stdin__,
                                                                      sys.__stderr__))


def _view(record: ReadRecord, replay: Replay) -> int:
    """Open the replay viewer on a checked record; its exit status."""
    if not _terminal_attached():
        raise UsageError(f"{record.name}: the replay viewer needs a terminal (--json prints "
                         "the result)")
    from minefield.tui.replay_app import ReplayApp  # Textual loads only for the viewer

    app = ReplayApp(record, replay)
    app.run()
    return app.return_code or 0


__all__ = ["COMMANDS", "add_parsers", "check_record_folder", "run"]
