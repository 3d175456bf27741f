"""The ``minefield`` command: the game (default), practice, hot-seat, and tools.

Each subcommand lives in its own module of this package, a thin layer over the packages that do
the work. Every subcommand reports bad input as one clear line on stderr and exit status 2,
never a traceback. In ``--jsonl`` modes every input line gets exactly one output line.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version

from minefield.cli import (
    analyze,
    bots,
    danger,
    game,
    lobby,
    network,
    records,
    review,
    ssh_entry,
    ssh_server,
    stats,
)
from minefield.cli.common import UsageError

DESCRIPTION = ("Minefield mahjong in the terminal: the two-player riichi variant from Kaiji. "
               "Without a command, the menu opens.")


def _version() -> str:
    try:
        return version("minefield")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``minefield`` command."""
    parser = argparse.ArgumentParser(prog="minefield", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"minefield {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    game.add_parsers(sub)
    analyze.add_parser(sub)
    danger.add_parser(sub)
    bots.add_parsers(sub)
    records.add_parsers(sub)
    network.add_parsers(sub)
    ssh_entry.add_parser(sub)
    lobby.add_parser(sub)
    ssh_server.add_parser(sub)
    stats.add_parser(sub)
    review.add_parser(sub)
    return parser


def _run(args: argparse.Namespace) -> int:
    if args.command == "analyze":
        return analyze.run(args)
    if args.command == "danger":
        return danger.run(args)
    if args.command in ("bot-hand", "simulate"):
        return bots.run(args)
    if args.command in records.COMMANDS:
        return records.run(args)
    if args.command in network.COMMANDS:
        return network.run(args)
    if args.command in ssh_entry.COMMANDS:
        return ssh_entry.run(args)
    if args.command in lobby.COMMANDS:
        return lobby.run(args)
    if args.command in ssh_server.COMMANDS:
        return ssh_server.run(args)
    if args.command in stats.COMMANDS:
        return stats.run(args)
    if args.command in review.COMMANDS:
        return review.run(args)
    return game.run(args)


def _stdout_to_devnull() -> None:
    """Point file descriptor 1 at /dev/null, so the interpreter's last flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):  # no real stdout (e.g. captured in tests)
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``minefield`` console script."""
    args = build_parser().parse_args(argv)
    try:
        status = _run(args)
        if sys.stdout is not None:
            sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit flush
        return status
    except UsageError as error:
        print(f"minefield: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader has gone (``minefield ... | head -1``): stop quietly, as Unix tools do.
        # This is Python's own recipe (library docs, signal module, "Note on SIGPIPE"): send
        # what is left of stdout to /dev/null and exit with status 1, as Python itself does on
        # EPIPE (Python ignores SIGPIPE, so the 141 of a C tool killed by it never shows; Rich
        # does the same for its tables).
        _stdout_to_devnull()
        return 1


if __name__ == "__main__":
    sys.exit(main())
