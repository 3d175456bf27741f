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


def name_argument(text: str) -> str:
    """A player's name on the command line (:func:`minefield.session.base.player_name`)."""
    from minefield.session.base import PlayerNameError, player_name

    try:
        return player_name(text)
    except PlayerNameError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def seed_argument(text: str) -> str:
    """``--seed``: 32 hex digits or a small number, as the canonical 32 hex digits (R2)."""
    try:
        return parse_seed(text)
    except SeedError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
