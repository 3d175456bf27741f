"""``minefield watch GAME``: watch a game being played on the game server, without a seat.

The game's id is the one ``who`` and the lobby list. The connection is made first, so that a
server that is down or a game that is not being played is one line on stderr, before any
screen. What shows is only what both players see (protocol 11, R26).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path

from minefield.cli.common import Subparsers
from minefield.protocol.address import SOCKET_ENV

COMMANDS = ("watch",)
#: What a game's id may be (the wire's rule).
GAME_ID = re.compile(r"[A-Za-z0-9_.:-]{1,80}")


def game_id(text: str) -> str:
    """``text`` if it is a game id; an argparse error naming it if not."""
    if not GAME_ID.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r} is not a game id (as `who` lists them: letters, digits, . _ : -)")
    return text


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``watch``."""
    p = sub.add_parser("watch", help="watch a game on the game server (no seat, hands hidden)")
    p.add_argument("game", type=game_id, metavar="GAME",
                   help="the game's id, as `who` and the lobby list it")
    p.add_argument("--socket", type=Path, default=None, metavar="PATH",
                   help=f"the game server's socket (default: ${SOCKET_ENV}, else the per-user "
                   "default)")
    p.add_argument("--player", default=None, metavar="NAME",
                   help="the player's name (honoured only from the server's shared SSH "
                   "account)")


def run(args: argparse.Namespace) -> int:
    """Watch until the player quits or the room closes; the exit status."""
    return asyncio.run(_watch(args))


async def _watch(args: argparse.Namespace) -> int:
    from minefield.protocol.watching import WatchTable
    from minefield.session.daemon_socket import RemoteError
    from minefield.session.watch_link import WatchLink

    try:
        link = await WatchLink.open(args.game, socket=args.socket, player=args.player)
        first = await link.first()
    except RemoteError as error:
        print(f"minefield: {error}", file=sys.stderr)
        return 2

    async def tables() -> AsyncIterator[WatchTable]:
        yield first
        async for table in link.states():
            yield table

    from minefield.tui.watch_app import WatchApp  # Textual loads only once there is a game

    app = WatchApp(tables, lambda: link.closed_reason)
    try:
        await app.run_async()
    finally:
        await link.close()
    return app.return_code or 0


__all__ = ["COMMANDS", "add_parser", "game_id", "run"]
