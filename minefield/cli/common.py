"""What every subcommand shares: the one-line usage error, seeds, seats and levels.

Light on purpose: every command's parser uses it, ``--help`` and ``--version`` included, so it
imports neither the rules engine nor pydantic.
"""

from __future__ import annotations

import argparse

from minefield.errors import MinefieldError

TYPE_CHECKING = False  # not typing's: importing typing costs --help a third of its own time
if TYPE_CHECKING:
    from minefield.rules.names import HonorNames
    from minefield.rules.settings import RuleSettings

# The values of minefield.rules.game.Seat and minefield.bots.base.LEVELS, written out so that
# parsing loads neither (a test keeps them the same).
SEATS = ["east", "west"]
LEVEL_NAMES = ["easy", "normal", "strong"]
SEED_HELP = ("deal seed: 32 hex digits, or a small number for a puzzle (default: 128 random "
             "bits, so the deal cannot be predicted)")

Subparsers = argparse._SubParsersAction  # argparse's own name for what add_subparsers returns


class UsageError(MinefieldError):
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


RULE_HELP = ("one rule setting over the preset, by its name (repeatable): e.g. --rule ryanshi=on "
             "--rule honba_points=300; on/off settings take on, off, true or false, numbers a "
             "whole number, clocks none (the rule book's \"Rule presets\"; the in-app help "
             "lists every setting)")


def add_rule_arguments(parser: argparse.ArgumentParser, preset_help: str) -> None:
    """``--rules PRESET`` and ``--rule NAME=VALUE`` (repeatable), checked by :func:`chosen_rules`.

    ``--rule`` is read as text and checked after parsing, so that a bad one is one line.
    """
    from minefield.rules.presets import PRESETS

    parser.add_argument("--rules", choices=list(PRESETS), default=None, help=preset_help)
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                        help=RULE_HELP)


def chosen_rules(preset: str, rules: list[str]) -> RuleSettings:
    """The settings of ``--rules`` and ``--rule``; a bad one is a :class:`UsageError`."""
    from minefield.rules.settings import RuleSettings, SettingsError

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
    from minefield.rules.settings import SettingsError, parse_clock

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


def saved_honor_names() -> HonorNames:
    """The app's "Honor names" setting, read without changing the file (its default when the
    settings cannot be read: a broken file is the app's to report and set aside)."""
    from minefield.files import UnusableFileError
    from minefield.paths import settings_path
    from minefield.tui.config import (  # pydantic only, no Textual
        parse_preferences,
        read_settings_file,
    )

    try:
        data = read_settings_file(settings_path())
    except (OSError, UnusableFileError):
        return "letters"
    return parse_preferences(data)[0].honor_names
