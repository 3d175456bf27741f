"""``minefield serve``, ``host``, ``join`` and ``resume``: play over SSH through the game server.

``serve`` runs the daemon (:mod:`minefield.server`). The client commands connect first, in the
loop the app will run in, so that a server that is down, a missing socket, a refused permission
or another protocol version is one line on stderr that says what to do, before any screen.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from minefield.cli.common import Subparsers
from minefield.server import commands as server_commands
from minefield.session.remote import RemoteError

COMMANDS = (*server_commands.SERVE_COMMANDS, *server_commands.CLIENT_COMMANDS)


def add_parsers(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``serve``, ``host``, ``join`` and ``resume``."""
    server_commands.add_parsers(sub)
    server_commands.add_client_parsers(sub)


def run(args: argparse.Namespace) -> int:
    """Run the daemon, or connect and play; the exit status."""
    if args.command in server_commands.SERVE_COMMANDS:
        return server_commands.run(args)
    return asyncio.run(_play(args))


async def _play(args: argparse.Namespace) -> int:
    try:
        session = await server_commands.connect(args)
    except RemoteError as error:
        print(f"minefield: {error}", file=sys.stderr)
        return 2
    from minefield.tui.app import MinefieldApp  # Textual loads only for the game itself

    app = MinefieldApp(session=session, lobby=bool(getattr(args, "from_lobby", False)))
    await app.run_async()
    return app.return_code or 0
