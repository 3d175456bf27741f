"""What every subcommand shares: the one-line usage error, seeds, seats and levels.

Light on purpose: every command's parser uses it, ``--help`` and ``--version`` included, so it
imports neither the rules engine nor pydantic.
"""

from __future__ import annotations

import argparse

# The values of minefield.rules.game.Seat and minefield.bots.base.LEVELS, written out so that
# parsing loads neither (a test keeps them the same).
SEATS = ["east", "west"]
LEVEL_NAMES = ["easy", "normal", "strong"]
SEED_HELP = ("deal seed: 32 hex digits, or a small number for a puzzle (default: 128 random "
             "bits, so the deal cannot be predicted)")

Subparsers = argparse._SubParsersAction  # argparse's own name for what add_subparsers returns


class UsageError(Exception):
    """Bad input on the command line; printed as one line, exit status 2."""


def name_argument(text: str) -> str:
    """A player's name on the command line (:func:`minefield.session.names.player_name`)."""
    from minefield.session.names import PlayerNameError, player_name

    try:
        return player_name(text)
    except PlayerNameError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def seed_argument(text: str) -> str:
    """``--seed``: 32 hex digits or a small number, as the canonical 32 hex digits (R2)."""
    from minefield.rules.seed import SeedError, parse_seed

    try:
        return parse_seed(text)
    except SeedError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def check_no_rules_option(args: argparse.Namespace) -> None:
    """``--jsonl`` takes the rules from each line's ``rules`` key: a ``--rules`` option beside
    it would be ignored, so it is refused (:class:`UsageError`)."""
    if getattr(args, "rules", "standard") != "standard":
        raise UsageError('--jsonl takes the rules from each line\'s "rules" key: give no --rules')
