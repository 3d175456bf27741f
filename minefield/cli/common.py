"""What every subcommand shares: the one-line usage error, seeds, seats and levels."""

from __future__ import annotations

import argparse

from minefield.bots.base import LEVELS
from minefield.rules.game import Seat
from minefield.rules.seed import SeedError, parse_seed
from minefield.rules.settings import PRESETS, RuleSettings, SettingsError, parse_clock

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


RULE_HELP = ("one rule setting over the preset, by its name (repeatable): e.g. --rule ryanshi=on "
             "--rule honba_points=300; on/off settings take on, off, true or false, numbers a "
             "whole number, clocks none (the rule book's \"Rule presets\"; the in-app help "
             "lists every setting)")


def add_rule_arguments(parser: argparse.ArgumentParser, preset_help: str) -> None:
    """``--rules PRESET`` and ``--rule NAME=VALUE`` (repeatable), checked by :func:`chosen_rules`.

    ``--rule`` is read as text and checked after parsing, so that a bad one is one line.
    """
    parser.add_argument("--rules", choices=list(PRESETS), default=None, help=preset_help)
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                        help=RULE_HELP)


def chosen_rules(preset: str, rules: list[str]) -> RuleSettings:
    """The settings of ``--rules`` and ``--rule``; a bad one is a :class:`UsageError`."""
    try:
        return RuleSettings.chosen(preset, rules)
    except SettingsError as error:
        raise UsageError(f"--rule: {error}") from None


def clock_rules(text: str | None) -> list[str]:
    """``--clock HAND+DISCARD`` (R25) as the two clock settings; ``off`` turns both off.

    >>> clock_rules("180+15"), clock_rules(None)
    (['hand_seconds=180', 'discard_seconds=15'], [])
    """
    if text is None:
        return []
    try:
        return parse_clock(text)
    except SettingsError as error:
        raise UsageError(f"--{error}") from None


def check_no_rules_option(args: argparse.Namespace) -> None:
    """``--jsonl`` takes the rules from each line's ``rules`` key: a ``--rules`` or ``--rule``
    option beside it would be ignored, so it is refused (:class:`UsageError`)."""
    if getattr(args, "rules", None) not in (None, "standard"):
        raise UsageError('--jsonl takes the rules from each line\'s "rules" key: give no --rules')
    if getattr(args, "rule", None):
        raise UsageError('--jsonl takes the rules from each line\'s "rules" key: give no --rule')
