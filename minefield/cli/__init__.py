"""The ``minefield`` command: the game (default), practice, hot-seat, and tools.

Each subcommand lives in its own module of this package, a thin layer over the packages that do
the work. Every subcommand reports bad input as one clear line on stderr and exit status 2,
never a traceback. In ``--jsonl`` modes every input line gets exactly one output line.
"""

from __future__ import annotations

import sys

from minefield import __version__
from minefield.cli.registry import COMMANDS, MENU_MODULE

TYPE_CHECKING = False  # typing itself is not imported: --version loads only what it prints
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence


def build_parser(command: str | None = None, *, full: bool = True) -> argparse.ArgumentParser:
    """The argument parser of the ``minefield`` command (see :mod:`minefield.cli.parser`):
    with ``full``, every subcommand whole; otherwise only ``command``'s."""
    from minefield.cli import parser

    return parser.build_parser(command, full=full)


#: The options of ``minefield`` itself, before any command.
TOP_OPTIONS = frozenset(("-h", "--help", "--version", "--"))


def command_of(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names: its first word that is not an option (the top level
    has only ``--help`` and ``--version``, which take no value); None for none."""
    for word in argv:
        if word == "--" or word.startswith("-"):
            continue
        return word
    return None


def _run(args: argparse.Namespace) -> int:
    from minefield.cli.parser import module_of

    module_name = COMMANDS[args.command][0] if args.command else MENU_MODULE
    status: int = module_of(module_name).run(args)
    return status


def _stdout_to_devnull() -> None:
    """Point file descriptor 1 at /dev/null, so the interpreter's last flush cannot fail."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):  # no real stdout (e.g. captured in tests)
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``minefield`` console script."""
    words = sys.argv[1:] if argv is None else list(argv)
    if words == ["--version"]:  # the version alone: no parser to build
        print(f"minefield {__version__}")
        return 0
    from minefield.cli.common import UsageError

    command = command_of(words)
    stray = next((w for w in words if w.startswith("-") and w not in TOP_OPTIONS), None)
    if stray is not None and (command is None or words.index(stray) < words.index(command)):
        print(f"minefield: {stray} goes after a command, as in minefield practice {stray} ... "
              "(minefield --help lists the commands)", file=sys.stderr)
        return 2
    parser = build_parser(command, full=False)
    args, unknown = parser.parse_known_args(words)
    if unknown:
        where = f"minefield {args.command}" if args.command else "minefield"
        print(f"{where}: unknown argument{'s' if len(unknown) > 1 else ''} {' '.join(unknown)} "
              f"({where} --help lists the options)", file=sys.stderr)
        return 2
    from minefield.cli.hangup import watch_for_hangup

    watch_for_hangup(0)  # a dead terminal ends the client, even with SIGHUP ignored
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
