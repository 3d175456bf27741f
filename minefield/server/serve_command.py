"""``minefield serve``: the daemon's options and its start.

For :mod:`minefield.cli`: :func:`add_parsers` adds ``serve`` (run it with :func:`run`). The
client side of ``host``, ``join`` and ``resume`` is the client's (:mod:`minefield.cli.network`).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from pathlib import Path

from minefield.paths import server_data_dir
from minefield.server.config import (
    SHARED_ACCOUNT_ENV,
    SOCKET_ENV,
    ServerConfig,
    default_socket_path,
)

SERVE_COMMANDS = ("serve",)


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


__all__ = ["SERVE_COMMANDS", "add_parsers", "add_serve_arguments", "config_from_args", "run"]
