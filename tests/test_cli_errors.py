"""Argument errors on the command line: one line on stderr naming the
argument and what it takes, exit status 2, never argparse's usage block: for every command."""

from __future__ import annotations

import pytest

from minefield.cli import main
from minefield.cli.registry import COMMANDS


def error_of(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run ``minefield ARGV``; its stderr, after checking the status is 2 and stdout empty."""
    try:
        status = main(list(argv))
    except SystemExit as stop:  # argparse's own errors
        status = int(stop.code or 0)
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "usage:" not in err and "Traceback" not in err
    return err.rstrip("\n")


@pytest.mark.parametrize(("argv", "error"), [
    (["practice", "--seat", "north"], "minefield practice: --seat takes east or west, not 'north'"),
    (["practice", "--rules", "foo"],
     "minefield practice: --rules takes standard, beginner, match or club, not 'foo'"),
    (["hotseat", "--seed", "zz"],
     "minefield hotseat: --seed: 'zz' is not a seed: give 32 hex digits or a small number"),
    (["practice", "--level"], "minefield practice: --level: expected one argument"),
    (["--seat", "north"], "minefield: --seat goes after a command, as in minefield practice "
                          "--seat ... (minefield --help lists the commands)"),
    (["history", "--last", "x"],
     "minefield history: unknown arguments --last x (minefield history --help lists the "
     "options)"),
])
def test_the_issues_argument_errors_are_one_line(capsys: pytest.CaptureFixture[str],
                                                 argv: list[str], error: str) -> None:
    assert error_of(capsys, *argv) == error


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_words_a_bad_option_in_one_line(capsys: pytest.CaptureFixture[str],
                                                      command: str) -> None:
    error = error_of(capsys, command, "--no-such-option")  # (a missing FILE may come first)
    assert error in (f"minefield {command}: unknown argument --no-such-option (minefield "
                     f"{command} --help lists the options)",
                     f"minefield {command}: the following arguments are required: "
                     f"{error.rpartition(' ')[2]}")
