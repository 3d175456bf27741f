"""``minefield history`` and ``minefield replay`` (the viewer, or ``--json``).

Bad input (an unreadable file, a folder that cannot be listed) is one line on stderr and exit
status 2 (:class:`~minefield.cli.common.UsageError`). ``replay`` exits 1 with one line on
stderr when a record's commands do not replay to its stored result.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from rich.console import Console

from minefield.cli.common import Subparsers, UsageError
from minefield.records.history import history_table, list_history
from minefield.records.paths import DATA_ENV, records_dir
from minefield.records.reader import ReadRecord, RecordError, read_record
from minefield.records.replay import Replay, replay_record
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
    h.add_argument("--json", action="store_true", help="print one JSON array")
    r = sub.add_parser("replay", help="watch a saved game again, discard by discard",
                       description="Rebuild a game from its record (seed, rules, commands), "
                       "check that it reaches the stored result (exit status 1 when it does "
                       "not) and open the replay viewer: step through the discards from "
                       "East's seat, West's seat or with both hands open.")
    r.add_argument("file", type=Path, metavar="FILE", help="a record (.jsonl)")
    r.add_argument("--json", action="store_true",
                   help="print the replayed result as the record's result line has it "
                   "(null for an unfinished game)")


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
        entries = list_history(folder)
    except RecordError as error:
        raise UsageError(str(error)) from None
    if args.json:
        print(json.dumps([entry.to_json() for entry in entries]))
    elif not entries:
        print(f"No saved games in {folder}.")
    else:
        Console().print(history_table(entries, folder))
    return 0


def _run_replay(args: argparse.Namespace) -> int:
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
        print(replay.result.result.model_dump_json() if replay.result else "null")
        return 0
    return _view(record, replay)


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
