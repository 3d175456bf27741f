"""What every subcommand shares: the one-line usage error, seeds, seats and levels."""

from __future__ import annotations

import argparse

from minefield.bots.base import LEVELS
from minefield.rules.game import Seat
from minefield.rules.seed import SeedError, parse_seed

SEATS = [s.value for s in Seat]
LEVEL_NAMES = list(LEVELS)
SEED_HELP = ("deal seed: 32 hex digits, or a small number for a puzzle (default: 128 random "
             "bits, so the deal cannot be predicted)")

Subparsers = argparse._SubParsersAction  # argparse's own name for what add_subparsers returns


class UsageError(Exception):
    """Bad input on the command line; printed as one line, exit status 2."""


def seed_argument(text: str) -> str:
    """``--seed``: 32 hex digits or a small number, as the canonical 32 hex digits (R2)."""
    try:
        return parse_seed(text)
    except SeedError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def check_no_rules_option(args: argparse.Namespace) -> None:
    """``--jsonl`` takes the rules from each line's ``rules`` key: a ``--rules`` option beside
    it would be ignored, so it is refused (:class:`UsageError`)."""
    if getattr(args, "rules", "standard") != "standard":
        raise UsageError('--jsonl takes the rules from each line\'s "rules" key: give no --rules')
