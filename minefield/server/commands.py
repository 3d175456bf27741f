"""``minefield serve`` and the client side of ``host``, ``join`` and ``resume``.

For :mod:`minefield.cli`: :func:`add_parsers` adds ``serve`` (run it with :func:`run`);
:func:`add_client_parsers` adds ``host``, ``join`` and ``resume`` (turn their arguments into a
connected :class:`~minefield.session.remote.RemoteSession` with :func:`connect`, which raises
:class:`~minefield.session.remote.RemoteError` with a one-line message).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from pathlib import Path

from minefield.bots.base import LEVELS
from minefield.paths import server_data_dir
from minefield.rules.settings import (
    CLOCK_SETTINGS,
    MATCH_PRESETS,
    PRESETS,
    RuleSettings,
    SettingsError,
    parse_rule,
)
from minefield.server.config import (
    SHARED_ACCOUNT_ENV,
    SOCKET_ENV,
    ServerConfig,
    default_socket_path,
)
from minefield.session.remote import RemoteError, RemoteSession, host, join, resume

SERVE_COMMANDS = ("serve",)
CLIENT_COMMANDS = ("host", "join", "resume")


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0 or value != value or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r}: give a number above 0")
    return value


def _seconds(text: str) -> int:
    value = _positive(text)
    if value != int(value):
        raise argparse.ArgumentTypeError(f"{text!r}: give whole seconds")
    return int(value)


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``serve`` (also used by ``python -m minefield.server``)."""
    parser.add_argument("--socket", type=Path, default=None, metavar="PATH",
                        help=f"the socket to listen on (default: ${SOCKET_ENV}, else "
                        "$XDG_RUNTIME_DIR/minefield/minefield.sock, else "
                        "/tmp/minefield-$UID/minefield.sock)")
    parser.add_argument("--data", type=Path, default=None, metavar="DIR",
                        help="where game records are kept (default: server/ in the user data "
                        "folder)")
    parser.add_argument("--group", default=None, metavar="NAME",
                        help="shared host: the socket is 0660 and its folder 0750, both of this "
                        "group (its members may play)")
    parser.add_argument("--shared-account", default=None, metavar="USER",
                        help="the SSH account shared by several players; only its connections "
                        f"may name their player (default: ${SHARED_ACCOUNT_ENV})")
    parser.add_argument("--hand-seconds", type=_seconds, default=180, metavar="S",
                        help="R25: time to build the hand (default 180)")
    parser.add_argument("--discard-seconds", type=_seconds, default=15, metavar="S",
                        help="R25: time for each discard (default 15)")
    parser.add_argument("--grace-seconds", type=_positive, default=60.0, metavar="S",
                        help="a disconnected player's moves wait this long per game before "
                        "the clocks play them (default 60)")
    parser.add_argument("--bot-workers", type=int, default=None, metavar="N",
                        help="processes computing bot moves (default: one per core)")
    parser.add_argument("--bot-think", type=float, default=0.7, metavar="S",
                        help=argparse.SUPPRESS)
    parser.add_argument("--idle-seconds", type=_positive, default=45.0, help=argparse.SUPPRESS)
    parser.add_argument("--code-seconds", type=_positive, default=600.0, help=argparse.SUPPRESS)
    parser.add_argument("--test-seeds", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--discard-pace", type=float, default=0.010, help=argparse.SUPPRESS)
    parser.add_argument("--message-rate", type=_positive, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--max-connections", type=int, default=10_000, metavar="N",
                        help="connections in all; each player may hold 8 (default 10000)")
    parser.add_argument("--verbose", "-v", action="store_true",
                        help="log details too (every connection is logged anyway)")


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``serve`` subcommand."""
    serve = sub.add_parser(
        "serve", help="run the game server for play over SSH",
        description="Run the Minefield game server in the foreground (logs on stderr). "
        "Players on this host connect with `minefield host`, `join CODE` and `resume`.")
    add_serve_arguments(serve)


def add_client_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
    :class:`~minefield.session.remote.RemoteError` (one line) when the server refuses."""
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


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    """The daemon's configuration from ``serve``'s arguments."""
    return ServerConfig(
        socket=args.socket or default_socket_path(),
        data=args.data or server_data_dir(),
        group=args.group,
        shared_account=args.shared_account or os.environ.get(SHARED_ACCOUNT_ENV) or None,
        hand_seconds=args.hand_seconds,
        discard_seconds=args.discard_seconds,
        grace_seconds=args.grace_seconds,
        bot_workers=args.bot_workers,
        bot_think=max(0.0, args.bot_think),
        idle_seconds=args.idle_seconds,
        code_seconds=args.code_seconds,
        test_seeds=args.test_seeds,
        discard_pace=max(0.0, args.discard_pace),
        max_connections=max(1, args.max_connections),
        **({} if getattr(args, "message_rate", None) is None else  # tests: fast clients
           {"rate": args.message_rate, "burst": max(40, int(args.message_rate))}),
    )


def run(args: argparse.Namespace) -> int:
    """Run ``serve`` in the foreground until SIGTERM or SIGINT; the exit status."""
    from minefield.server.daemon import Daemon, ServeError

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s minefield-serve %(levelname)s: %(message)s")
    logging.getLogger("minefield").setLevel(logging.DEBUG if args.verbose else logging.INFO)
    config = config_from_args(args)
    try:
        asyncio.run(Daemon(config).run())
    except ServeError as error:
        print(f"minefield serve: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


__all__ = ["CLIENT_COMMANDS", "SERVE_COMMANDS", "add_client_parsers", "add_parsers",
           "add_serve_arguments", "config_from_args", "connect", "run"]
