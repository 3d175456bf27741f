"""``minefield serve``, ``host``, ``join`` and ``resume``: play over SSH through the game server.

``serve`` runs the daemon (:mod:`minefield.server`). The client commands (their options and
their hello: :func:`add_client_parsers`, :func:`connect`, :func:`host_rules`) connect first, in the
loop the app will run in, so that a server that is down, a missing socket, a refused permission
or another protocol version is one line on stderr that says what to do, before any screen.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from minefield.bots.base import LEVELS
from minefield.cli.common import Subparsers
from minefield.rules.settings import (
    CLOCK_SETTINGS,
    MATCH_PRESETS,
    PRESETS,
    RuleSettings,
    SettingsError,
    parse_rule,
)
from minefield.server import serve_command as server_commands
from minefield.server.config import SOCKET_ENV
from minefield.session.daemon_socket import RemoteError
from minefield.session.remote import RemoteSession
from minefield.session.remote_start import host, join, resume

CLIENT_COMMANDS = ("host", "join", "resume")
COMMANDS = (*server_commands.SERVE_COMMANDS, *CLIENT_COMMANDS)


def add_parsers(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``serve``, ``host``, ``join`` and ``resume``."""
    server_commands.add_parsers(sub)
    add_client_parsers(sub)


def run(args: argparse.Namespace) -> int:
    """Run the daemon, or connect and play; the exit status."""
    if args.command in server_commands.SERVE_COMMANDS:
        return server_commands.run(args)
    return asyncio.run(_play(args))


async def _play(args: argparse.Namespace) -> int:
    try:
        session = await connect(args)
    except RemoteError as error:
        print(f"minefield: {error}", file=sys.stderr)
        return 2
    from minefield.tui.app import MinefieldApp  # Textual loads only for the game itself

    app = MinefieldApp(session=session, lobby=bool(getattr(args, "from_lobby", False)))
    await app.run_async()
    return app.return_code or 0


def add_client_parsers(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``host``, ``join`` and ``resume`` (their options only; the app runs them)."""
    h = sub.add_parser("host", help="host a network game and get a room code to share")
    h.add_argument("--bot", choices=LEVELS, default=None,
                   help="play a bot on the server instead of a person")
    h.add_argument("--rules", choices=list(PRESETS), default=None,
                   help="the rules preset (default standard; match with --match, and "
                   "--rules match or club plays a match)")
    h.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="one rule setting over the preset, by its name (repeatable): e.g. "
                   "--rule ryanshi=on --rule honba_points=300; the clocks are the server's")
    h.add_argument("--public", action="store_true",
                   help="list the room in the lobby so that anyone may join it")
    h.add_argument("--casual", action="store_true",
                   help="a casual table: its games never change a rating (R36; a table is "
                   "rated by default)")
    h.add_argument("--match", action="store_true",
                   help="play a whole match (R30-R35: several games, scores kept, the next "
                   "game when both players are ready) rather than one game")
    j = sub.add_parser("join", help="join a network game with its room code")
    j.add_argument("code", metavar="CODE", help="the 6-character room code")
    r = sub.add_parser("resume", help="go back to your unfinished network game")
    r.add_argument("--game", default=None, metavar="ID",
                   help="this game (its id, as the lobby gives it), not your latest")
    for parser in (h, j, r):
        # Given by the lobby (``minefield lobby``) for the game chosen there: every way out of
        # the game goes back to the lobby, never to the menu. Not for players to type.
        parser.add_argument("--from-lobby", action="store_true", help=argparse.SUPPRESS)
        parser.add_argument("--socket", type=Path, default=None, metavar="PATH",
                            help=f"the game server's socket (default: ${SOCKET_ENV}, else the "
                            "per-user default)")
        parser.add_argument("--player", default=None, metavar="NAME",
                            help="the player's name (honoured only from the server's shared "
                            "SSH account)")


async def connect(args: argparse.Namespace) -> RemoteSession:
    """A connected session for parsed ``host``, ``join`` or ``resume`` arguments; raises
    :class:`~minefield.session.daemon_socket.RemoteError` (one line) when the server refuses."""
    if args.command == "host":
        match = bool(getattr(args, "match", False)) or args.rules in MATCH_PRESETS
        rules = args.rules or ("match" if match else "standard")
        return await host(bot=args.bot, rules=rules, socket=args.socket,
                          player=args.player, match=match, rule=host_rules(rules, args.rule),
                          public=bool(getattr(args, "public", False)),
                          rated=False if getattr(args, "casual", False) else None)
    if args.command == "join":
        return await join(args.code, socket=args.socket, player=args.player)
    return await resume(socket=args.socket, player=args.player,
                        game=getattr(args, "game", None))


def host_rules(preset: str, rules: list[str]) -> dict[str, bool | int | str | None]:
    """``host``'s ``--rule`` settings as the hello's ``rule`` (checked here first, so that a
    bad one is one line before connecting); raises :class:`RemoteError`."""
    try:
        RuleSettings.chosen(preset, rules)
        chosen = dict(parse_rule(text) for text in rules)
    except SettingsError as error:
        raise RemoteError(f"--rule: {error}", "bad_message") from None
    if CLOCK_SETTINGS & chosen.keys():
        raise RemoteError("--rule: the clocks of a network game are the server's (R25): "
                          "leave hand_seconds and discard_seconds out", "bad_message")
    return chosen


__all__ = ["CLIENT_COMMANDS", "COMMANDS", "add_client_parsers", "add_parsers", "connect",
           "host_rules", "run"]
