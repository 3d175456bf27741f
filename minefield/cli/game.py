"""``minefield``, ``minefield practice`` and ``minefield hotseat`` (``--match`` for a match,
R30): run the app.

>>> import argparse
>>> request_from_args(argparse.Namespace(command="practice", seed="3", level="easy",
...                                      seat="west", rules=None, match=False))
... # doctest: +ELLIPSIS
GameRequest(mode='practice', seed='3', level='easy', seat=<Seat.WEST: 'west'>, rules=None, ...)
>>> request_from_args(argparse.Namespace(command="hotseat", seed=None, rules=None,
...                                      match=True)).match
True
>>> request_from_args(argparse.Namespace(command="practice", seed=None, level=None,
...                                      seat=None, rules="club", match=False)).match
True
>>> request_from_args(argparse.Namespace(command="hotseat", seed=None, rules=None, match=False,
...                                      rule=["ryanshi=on"], clock="60+10")).rule
('ryanshi=on', 'hand_seconds=60', 'discard_seconds=10')
>>> request_from_args(argparse.Namespace(command=None)) is None
True
"""

from __future__ import annotations

import argparse
import gc
from typing import TYPE_CHECKING

from minefield.cli.common import (
    LEVEL_NAMES,
    SEATS,
    SEED_HELP,
    Subparsers,
    UsageError,
    add_rule_arguments,
    chosen_rules,
    clock_rules,
    name_argument,
    seed_argument,
)
from minefield.rules.presets import MATCH_PRESETS
from minefield.rules.seats import Seat

if TYPE_CHECKING:
    from minefield.tui.games import GameRequest


MATCH_HELP = ("play a match (R30): several games with scores kept, dealer and counter sticks; "
              "the first dealer is drawn from the seed")
PRESET_HELP = ("rule preset: standard, beginner, match or club ('match' and 'club' play a "
               "match; a match is 'match' unless given)")
CLOCK_HELP = ("clocks (R25): seconds to build the hand + seconds for each discard, e.g. 180+15, "
              "60+10 or 30+5; off for none (default: none)")


def add_parsers(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add the ``practice`` and ``hotseat`` subcommands."""
    p = sub.add_parser("practice", help="play against a bot")
    p.add_argument("--seed", type=seed_argument, default=None, metavar="SEED",
                   help=SEED_HELP)
    p.add_argument("--level", choices=LEVEL_NAMES, default=None, help="bot level")
    p.add_argument("--seat", choices=SEATS, default=None, help="your seat")
    add_rule_arguments(p, PRESET_HELP)
    p.add_argument("--clock", default=None, metavar="HAND+DISCARD", help=CLOCK_HELP)
    p.add_argument("--match", action="store_true", help=f"{MATCH_HELP}, so --seat is not used")
    p.add_argument("--name", type=name_argument, default=None, metavar="NAME",
                   help="your name on the table, the result and the record (default: You)")
    h = sub.add_parser("hotseat", help="two players at one terminal")
    h.add_argument("--seed", type=seed_argument, default=None, metavar="SEED",
                   help=SEED_HELP)
    add_rule_arguments(h, PRESET_HELP)
    h.add_argument("--clock", default=None, metavar="HAND+DISCARD", help=CLOCK_HELP)
    h.add_argument("--match", action="store_true", help=MATCH_HELP)
    for seat, default in (("east", "East; in a match Player 1"),
                          ("west", "West; in a match Player 2")):
        h.add_argument(f"--{seat}", type=name_argument, default=None, metavar="NAME",
                       help=f"the {seat.title()} player's name (default: {default}; in a match "
                       "the two players, whose first seats are drawn from the seed)")


def hotseat_names(east: str | None, west: str | None, match: bool) -> tuple[str, str] | None:
    """The hot-seat players' names from ``--east`` and ``--west`` (None: neither given; a
    missing one is its default). Two equal names are a usage error."""
    from minefield.session.local import HOTSEAT_MATCH_NAMES
    from minefield.session.names import PlayerNameError, two_names

    if east is None and west is None:
        return None
    defaults = HOTSEAT_MATCH_NAMES if match else ("East", "West")
    try:
        return two_names(east or defaults[0], west or defaults[1])
    except PlayerNameError as error:
        raise UsageError(f"--east/--west: {error}") from None


def request_from_args(args: argparse.Namespace) -> GameRequest | None:
    """The game the command line asks for (None: show the menu). A bad ``--rule`` or
    ``--clock`` is a :class:`~minefield.cli.common.UsageError`."""
    from minefield.tui.games import GameRequest  # Textual loads only for the game itself

    if args.command not in ("practice", "hotseat"):
        return None
    # The match presets play a match (RULES.md presets), as `host --rules match` does.
    match = bool(getattr(args, "match", False)) or getattr(args, "rules", None) in MATCH_PRESETS
    rule = (*getattr(args, "rule", []), *clock_rules(getattr(args, "clock", None)))
    # Checked now, so that a bad setting is one line before any screen (the preferences may
    # still choose the preset; its settings are checked the same way).
    chosen_rules(args.rules or ("match" if match else "standard"), list(rule))
    if args.command == "practice":
        return GameRequest("practice", seed=args.seed, level=args.level,
                           seat=Seat(args.seat) if args.seat and not match else None,
                           rules=args.rules, match=match, rule=rule,
                           player=getattr(args, "name", None))
    return GameRequest("hotseat", seed=args.seed, rules=args.rules, match=match, rule=rule,
                       players=hotseat_names(getattr(args, "east", None),
                                             getattr(args, "west", None), match))


def run(args: argparse.Namespace) -> int:
    """Run the app until the player quits; the exit status (non-zero after a crash).

    Textual restores the terminal on every exit, a crash included.
    """
    # No garbage collection before the first frame. The start allocates much and
    # frees little (imports, the stylesheet, the first screen), and the collector's passes
    # over it cost about a sixth of the menu's start; the app turns it back on once the
    # first frame is drawn (MinefieldApp._after_first_frame).
    gc.disable()
    from minefield.tui.app import MinefieldApp

    app = MinefieldApp(request_from_args(args))
    app.run()
    return app.return_code or 0
