"""The ``minefield`` command's argument parser, built for the command being run.

Only the module of that command is imported (:data:`minefield.cli.COMMANDS`); the others are
listed by name and help alone, which is all ``--help`` and a bad command need.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from collections.abc import Sequence
from types import ModuleType

from minefield import __version__
from minefield.cli.registry import COMMANDS

TYPE_CHECKING = False  # typing is not imported: --help loads as little as it can
if TYPE_CHECKING:
    from typing import NoReturn

DESCRIPTION = ("Minefield mahjong in the terminal: the two-player riichi variant from Kaiji. "
               "Without a command, the menu opens.")



class _Formatter(argparse.HelpFormatter):
    """argparse's help layout, its width found as :func:`shutil.get_terminal_size` finds it
    (``$COLUMNS``, else the terminal, else 80) without importing :mod:`shutil`, whose
    compression modules cost ``--help`` more than everything else it loads."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=_columns() - 2)


def _columns() -> int:
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class Parser(argparse.ArgumentParser):
    """argparse's parser whose errors are one line on stderr, exit status 2: the command,
    the argument and what it takes (``minefield practice: --seat takes east or west, not
    'north'``), as the commands' own errors are, never the usage block."""

    def error(self, message: str) -> NoReturn:
        """Print ``message`` as one line and exit with status 2."""
        self.exit(2, f"{self.prog}: {one_line_error(message)}\n")


_CHOICE = re.compile(r"argument (?P<name>[^:]+): invalid choice: (?P<value>.*?) "
                     r"\(choose from (?P<choices>.*)\)$", re.DOTALL)


def one_line_error(message: str) -> str:
    """argparse's ``message`` in the commands' words.

    >>> one_line_error("argument --seat: invalid choice: 'north' (choose from 'east', 'west')")
    "--seat takes east or west, not 'north'"
    >>> one_line_error("argument --level: expected one argument")
    '--level: expected one argument'
    """
    choice = _CHOICE.match(message)
    if choice is not None:
        choices = [c.strip().strip("'") for c in choice["choices"].split(",")]
        listed = (", ".join(choices[:-1]) + " or " + choices[-1]) if len(choices) > 1 else (
            choices[0])
        if choice["name"] == "COMMAND":
            return f"{choice['value']} is not a command (minefield --help lists them)"
        return f"{choice['name']} takes {listed}, not {choice['value']}"
    return " ".join(message.removeprefix("argument ").split())


class _VersionAction(argparse.Action):
    """``--version``: the version line, printed as is (argparse's own action lays it out with a
    help formatter first)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        sys.stdout.write(f"minefield {__version__}\n")
        parser.exit()


def module_of(name: str) -> ModuleType:
    """The module ``minefield.cli.NAME``, imported now if it was not yet."""
    return importlib.import_module(f"minefield.cli.{name}")


def _add_module_parsers(module: ModuleType, sub: argparse._SubParsersAction[
        argparse.ArgumentParser]) -> None:
    adder = getattr(module, "add_parsers", None) or module.add_parser
    adder(sub)


def build_parser(command: str | None = None, *, full: bool = True) -> argparse.ArgumentParser:
    """The argument parser of the ``minefield`` command.

    With ``full`` every subcommand has all its options (each module is imported). Otherwise
    only the module of ``command`` is imported and adds its subcommands whole; the others are
    listed by name and help alone, which is all ``--help`` and a bad command need.
    """
    parser = Parser(prog="minefield", description=DESCRIPTION,
                                     formatter_class=_Formatter)
    parser.add_argument("--version", action=_VersionAction,
                        help="show program's version number and exit")
    # Each command's parser is a Parser too (argparse makes them of the parent's class).
    sub: argparse._SubParsersAction[argparse.ArgumentParser] = parser.add_subparsers(  # type: ignore[assignment]
        dest="command", metavar="COMMAND")
    wanted = COMMANDS[command][0] if command in COMMANDS else None
    added: set[str] = set()
    for name, (module_name, summary) in COMMANDS.items():
        if full or module_name == wanted:
            if module_name not in added:
                added.add(module_name)
                _add_module_parsers(module_of(module_name), sub)
        else:
            sub.add_parser(name, help=summary, add_help=False)  # never parsed: a name and help
    return parser
