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
...                                      seat=None, rules="match", match=False)).match
True
>>> request_from_args(argparse.Namespace(command=None)) is None
True
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from minefield.cli.common import (
    LEVEL_NAMES,
    SEATS,
    SEED_HELP,
    Subparsers,
    UsageError,
    name_argument,
    seed_argument,
)
from minefield.rules.game import Seat
from minefield.rules.settings import PRESETS

if TYPE_CHECKING:
    from minefield.tui.games import GameRequest


MATCH_HELP = ("play a match (R30): several games with scores kept, dealer and counter sticks; "
              "the first dealer is drawn from the seed")


def add_parsers(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add the ``practice`` and ``hotseat`` subcommands."""
    p = sub.add_parser("practice", help="play against a bot")
    p.add_argument("--seed", type=seed_argument, default=None, metavar="SEED",
                   help=SEED_HELP)
    p.add_argument("--level", choices=LEVEL_NAMES, default=None, help="bot level")
    p.add_argument("--seat", choices=SEATS, default=None, help="your seat")
    p.add_argument("--rules", choices=list(PRESETS), default=None,
                   help="rule preset ('match' plays a match; a match: 'match' unless given)")
    p.add_argument("--match", action="store_true", help=f"{MATCH_HELP}, so --seat is not used")
    p.add_argument("--name", type=name_argument, default=None, metavar="NAME",
                   help="your name on the table, the result and the record (default: You)")
    h = sub.add_parser("hotseat", help="two players at one terminal")
    h.add_argument("--seed", type=seed_argument, default=None, metavar="SEED",
                   help=SEED_HELP)
    h.add_argument("--rules", choices=list(PRESETS), default=None,
                   help="rule preset ('match' plays a match; a match: 'match' unless given)")
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
    """The game the command line asks for (None: show the menu)."""
    from minefield.tui.games import GameRequest  # Textual loads only for the game itself

    # The match preset plays a match (RULES.md presets), as `host --rules match` does.
    match = bool(getattr(args, "match", False)) or getattr(args, "rules", None) == "match"
    if args.command == "practice":
        return GameRequest("practice", seed=args.seed, level=args.level,
                           seat=Seat(args.seat) if args.seat and not match else None,
                           rules=args.rules, match=match, player=args.name)
    if args.command == "hotseat":
        return GameRequest("hotseat", seed=args.seed, rules=args.rules, match=match,
                           players=hotseat_names(args.east, args.west, match))
    return None


def run(args: argparse.Namespace) -> int:
    """Run the app until the player quits; the exit status (non-zero after a crash).

    Textual restores the terminal on every exit, a crash included.
    """
    from minefield.tui.app import MinefieldApp

    app = MinefieldApp(request_from_args(args))
    app.run()
    return app.return_code or 0
