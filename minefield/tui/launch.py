"""``minefield``, ``minefield practice`` and ``minefield hotseat``: run the app.

>>> import argparse
>>> request_from_args(argparse.Namespace(command="practice", seed=3, level="easy", seat="west",
...                                      rules=None))
GameRequest(mode='practice', seed=3, level='easy', seat=<Seat.WEST: 'west'>, rules=None)
>>> request_from_args(argparse.Namespace(command=None)) is None
True
"""

from __future__ import annotations

import argparse

from minefield.rules.game import Seat
from minefield.tui.app import GameRequest, MinefieldApp


def request_from_args(args: argparse.Namespace) -> GameRequest | None:
    """The game the command line asks for (None: show the menu)."""
    if args.command == "practice":
        return GameRequest("practice", seed=args.seed, level=args.level,
                           seat=Seat(args.seat) if args.seat else None, rules=args.rules)
    if args.command == "hotseat":
        return GameRequest("hotseat", seed=args.seed, rules=args.rules)
    return None


def run(args: argparse.Namespace) -> int:
    """Run the app until the player quits; the exit status (non-zero after a crash).

    Textual restores the terminal on every exit, a crash included.
    """
    app = MinefieldApp(request_from_args(args))
    app.run()
    return app.return_code or 0
