"""``minefield ssh-server``: the SSH front door (players need only a key; see
:mod:`minefield.frontdoor`).

>>> parse_listen("0.0.0.0:22")
('0.0.0.0', 22)
>>> parse_listen("[::1]:2222")
('::1', 2222)
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import logging
import signal
import socket
import sys
from pathlib import Path

from minefield.cli.common import Subparsers, UsageError
from minefield.paths import ssh_server_data_dir

COMMANDS = ("ssh-server",)


def parse_listen(text: str) -> tuple[str, int]:
    """``ADDR:PORT`` (``[v6]:PORT`` for IPv6) as the address and the port."""
    address, colon, port_text = text.rpartition(":")
    if not colon or not address:
        raise argparse.ArgumentTypeError(f"{text!r}: give ADDRESS:PORT, such as 127.0.0.1:2222")
    if address.startswith("[") and address.endswith("]"):
        address = address[1:-1]
    try:
        port = int(port_text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: the port is not a number") from None
    if not 0 < port < 65536:
        raise argparse.ArgumentTypeError(f"{text!r}: the port is 1 to 65535")
    return address, port


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give 1 or more")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < 1e7:
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of seconds above 0")
    return value


#: The longest ``--keepalive``: a dead link is noticed within a minute, and before the game
#: server's own 45 s idle limit could close a cut-off client's game connection (the client,
#: still running, would then take its seat back by itself).
MAX_KEEPALIVE = 45.0


def _keepalive(text: str) -> float:
    value = _seconds(text)
    if not 1.0 <= value <= MAX_KEEPALIVE:
        raise argparse.ArgumentTypeError(f"{text!r}: give 1 to {MAX_KEEPALIVE:g} seconds")
    return value


def _public_url(text: str) -> str:
    from minefield.frontdoor.public_url import PublicUrl, WebDoorError

    try:
        return PublicUrl.parse(text).origin
    except WebDoorError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix(f"--public-url {text}: ")
                                         ) from None


def web_public_url(web: tuple[str, int], public_url: str | None) -> str:
    """The browser door's public URL: ``--public-url``, else ``--web``'s own address
    (UsageError when that is every address: the browser needs a name to open).

    >>> web_public_url(("127.0.0.1", 8080), None)
    'http://127.0.0.1:8080'
    >>> web_public_url(("::1", 8080), None)
    'http://[::1]:8080'
    """
    if public_url is not None:
        return public_url
    host, port = web
    if host in ANY_ADDRESS:
        raise UsageError(f"ssh-server: --web {host or '*'}:{port} listens on every address: "
                         "give --public-url, the address players open (https://... behind a "
                         "TLS reverse proxy)")
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def default_data() -> Path:
    """The front door's data folder when ``--data`` is not given."""
    return ssh_server_data_dir()


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``ssh-server``."""
    p = sub.add_parser(
        "ssh-server", help="let friends play over SSH with just their key (no accounts)",
        description="Run an SSH server for Minefield: players type `ssh -p PORT HOST` and "
        "their public key is who they are (a name is asked on the first login). The game "
        "server runs in the same process unless --socket names a running one. Logs on stderr.")
    p.add_argument("--listen", type=parse_listen, default=("127.0.0.1", 2222),
                   metavar="ADDR:PORT", help="where to listen (default 127.0.0.1:2222; give "
                   "0.0.0.0:2222 to let other machines in)")
    p.add_argument("--host-key", type=Path, default=None, metavar="PATH",
                   help="the server's ed25519 host key (default: in the data folder, made on "
                   "first start with mode 0600)")
    p.add_argument("--data", type=Path, default=None, metavar="DIR",
                   help="players, ratings, host key and games (default: ssh-server/ in the "
                   "user data folder)")
    p.add_argument("--socket", type=Path, default=None, metavar="PATH",
                   help="a running game server (minefield serve --shared-account THIS-USER) "
                   "instead of one in this process")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--open", action="store_true",
                     help="any key may come in and claim a name")
    who.add_argument("--allow", type=Path, default=None, metavar="FILE",
                     help="only the keys of this authorized_keys-style file (default: "
                     "allowed_keys in the data folder; empty: nobody)")
    p.add_argument("--web", type=parse_listen, default=None, metavar="ADDR:PORT",
                   help="also serve the game to web browsers here (HTTP, off by default; "
                   "players sign in with the link `ssh HOST web` prints). On a public "
                   "address, put it behind a TLS reverse proxy and give --public-url")
    p.add_argument("--public-url", type=_public_url, default=None, metavar="URL",
                   help="where players' browsers reach --web, e.g. https://mahjong.example.org "
                   "(default: http://ADDR:PORT of --web)")
    p.add_argument("--metrics", type=parse_listen, default=None, metavar="ADDR:PORT",
                   help="serve the server's figures for Prometheus at http://ADDR:PORT/metrics "
                   "(off by default; sessions, logins refused, games, commands and their "
                   "latency; keep it on 127.0.0.1 or a private network)")
    p.add_argument("--max-sessions", type=_count, default=200, metavar="N",
                   help="sessions open at once (default 200)")
    p.add_argument("--sessions-per-key", type=_count, default=4, help=argparse.SUPPRESS)
    p.add_argument("--sessions-per-address", type=_count, default=20, help=argparse.SUPPRESS)
    p.add_argument("--auth-per-minute", type=_count, default=30, help=argparse.SUPPRESS)
    p.add_argument("--pending-per-address", type=_count, default=10, help=argparse.SUPPRESS)
    p.add_argument("--keepalive", type=_keepalive, default=MAX_KEEPALIVE, metavar="SECONDS",
                   help="a player's client that answers nothing for this long (a frozen ssh, "
                   "a dead network) is disconnected and their opponent told; SSH keepalives "
                   f"ask it every third of this (1 to {MAX_KEEPALIVE:g}, the default)")
    p.add_argument("--idle-seconds", type=_seconds, default=900.0, help=argparse.SUPPRESS)
    p.add_argument("--login-seconds", type=_seconds, default=30.0, help=argparse.SUPPRESS)
    p.add_argument("--discard-seconds", type=int, default=15, help=argparse.SUPPRESS)
    p.add_argument("--hand-seconds", type=int, default=180, help=argparse.SUPPRESS)
    p.add_argument("--grace-seconds", type=_seconds, default=60.0, help=argparse.SUPPRESS)
    p.add_argument("--bot-think", type=float, default=0.7, help=argparse.SUPPRESS)
    p.add_argument("--bot-workers", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--verbose", "-v", action="store_true", help="log more")
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    rebuild = actions.add_parser(
        "rebuild-stats", help="make the index of kept games (games, stats) again from the "
        "records", description="Forget the index of the server's kept games and make it "
        "again from the game records alone (what games, history and stats answer from). Safe "
        "while the server runs.")
    rebuild.add_argument("--data", type=Path, default=None, metavar="DIR", dest="rebuild_data",
                         help="the server's data folder (default: ssh-server/ in the user data "
                         "folder)")
    admin = actions.add_parser(
        "admin", help="the server's admins: add NAME, remove NAME, list, log",
        description="Make a player (a name taken on this server) an admin, or no longer one, "
        "list the admins, or show the admins' latest actions. An admin bans, kicks, renames "
        "and sets the message of the day over SSH (ssh HOST help lists how). Safe while the "
        "server runs.")
    admin.add_argument("verb", choices=("add", "remove", "list", "log"), metavar="add|remove|"
                       "list|log")
    admin.add_argument("name", nargs="?", default=None, metavar="NAME",
                       help="the player (add, remove)")
    admin.add_argument("--data", type=Path, default=None, metavar="DIR", dest="admin_data",
                       help="the server's data folder (default: ssh-server/ in the user data "
                       "folder)")
    admin.add_argument("--json", action="store_true", help="list, log: as JSON")
    saved = actions.add_parser(
        "backup", help="copy the server's data consistently while it runs (README: restore)",
        description="Copy the server's data folder into DEST while the server runs: every "
        "SQLite database with SQLite's online backup (a snapshot of one instant, checked), "
        "then the game records, the host key, the allow-list and the players' folders. "
        "DEST must be new or empty (the data folder of a minefield serve, with --data, too). "
        "To restore, see the README (Backups).")
    saved.add_argument("dest", type=Path, metavar="DEST", help="a new or empty folder")
    saved.add_argument("--data", type=Path, default=None, metavar="DIR", dest="backup_data",
                       help="the server's data folder (default: ssh-server/ in the user data "
                       "folder)")


def backup_data(data: Path, dest: Path) -> int:
    """``ssh-server backup DEST``: the data folder ``data`` copied into ``dest`` (see
    :mod:`minefield.server.backup`); says what was copied."""
    from minefield.frontdoor.door_config import ACCOUNTS_NAME
    from minefield.server.backup import BackupError, backup
    from minefield.server.config import CLUB_NAME

    if not (data / ACCOUNTS_NAME).is_file() and not (data / CLUB_NAME).is_file():
        raise UsageError(f"ssh-server backup: {data} is not the data folder of a server (no "
                         f"{ACCOUNTS_NAME}, no {CLUB_NAME})")
    try:
        report = backup(data, dest)
    except BackupError as error:
        raise UsageError(f"ssh-server backup: {error}") from None
    print(report.summary(data, dest))
    return 0


def rebuild_stats(data: Path) -> int:
    """``ssh-server rebuild-stats``: the kept games' index made again from the records of the
    data folder ``data``; says how many games it holds."""
    import sqlite3

    from minefield.frontdoor.door_config import ACCOUNTS_NAME
    from minefield.server.kept_games import KeptGames

    games = data / "server" / "games"
    if not (data / ACCOUNTS_NAME).is_file():
        raise UsageError(f"ssh-server rebuild-stats: {data} is not an ssh-server data folder "
                         f"(no {ACCOUNTS_NAME})")
    try:
        kept = KeptGames(data / ACCOUNTS_NAME, games)
        count = kept.rebuild()
        kept.close()
    except (OSError, sqlite3.Error) as error:
        raise UsageError(f"ssh-server rebuild-stats: {error}") from None
    print(f"{count} finished games kept, from the records in {games}")
    return 0


def admin(data: Path, verb: str, name: str | None, as_json: bool) -> int:
    """``ssh-server admin add|remove NAME``, ``admin list|log [--json]`` over the data folder
    ``data``; a bad name or folder is one line, exit status 2, nothing changed."""
    import os
    import sqlite3

    from minefield.frontdoor.door_config import ACCOUNTS_NAME
    from minefield.frontdoor.moderation import ModerationRefused, host_admin
    from minefield.server.identity import user_name

    if not (data / ACCOUNTS_NAME).is_file():
        raise UsageError(f"ssh-server admin: {data} is not an ssh-server data folder "
                         f"(no {ACCOUNTS_NAME})")
    if name is not None and verb in ("list", "log"):
        raise UsageError(f"ssh-server admin {verb} takes no name")
    if as_json and verb in ("add", "remove"):
        raise UsageError(f"ssh-server admin {verb} takes no --json")
    try:
        print(host_admin(data / ACCOUNTS_NAME, verb, name, as_json,
                         f"{user_name(os.getuid())} on the host"))
    except ModerationRefused as refusal:
        raise UsageError(f"ssh-server admin: {refusal}") from None
    except (OSError, sqlite3.Error) as error:
        raise UsageError(f"ssh-server admin: {error}") from None
    return 0


def run(args: argparse.Namespace) -> int:
    """Run the front door until SIGTERM or SIGINT (or do its ``rebuild-stats`` or
    ``admin``); the exit status."""
    if getattr(args, "action", None) == "rebuild-stats":
        return rebuild_stats(args.rebuild_data or args.data or default_data())
    if getattr(args, "action", None) == "admin":
        return admin(args.admin_data or args.data or default_data(), args.verb, args.name,
                     args.json)
    if getattr(args, "action", None) == "backup":
        return backup_data(args.backup_data or args.data or default_data(), args.dest)
    from minefield.frontdoor.limits import Limits
    from minefield.frontdoor.server import FrontDoorConfig, FrontDoorError

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s minefield-ssh %(levelname)s: %(message)s")
    logging.getLogger("minefield").setLevel(logging.DEBUG if args.verbose else logging.INFO)
    host, port = args.listen
    limits = Limits(max_sessions=args.max_sessions, sessions_per_key=args.sessions_per_key,
                    sessions_per_address=args.sessions_per_address,
                    pending_per_address=args.pending_per_address,
                    auth_per_minute=args.auth_per_minute, idle_seconds=args.idle_seconds,
                    login_seconds=args.login_seconds)
    config = FrontDoorConfig(
        data=args.data or default_data(), host=host, port=port, host_key=args.host_key,
        socket=args.socket, open=args.open, allow=args.allow, limits=limits,
        keepalive=args.keepalive, web=args.web, metrics=args.metrics,
        public_url=web_public_url(args.web, args.public_url) if args.web else None,
        daemon_options={"discard_seconds": args.discard_seconds,
                        "hand_seconds": args.hand_seconds, "grace_seconds": args.grace_seconds,
                        "bot_think": max(0.0, args.bot_think), "bot_workers": args.bot_workers})
    try:
        asyncio.run(_serve(config))
    except FrontDoorError as error:
        raise UsageError(f"ssh-server: {error}") from None
    except KeyboardInterrupt:
        return 130
    return 0


#: Listening addresses that mean every address of the host.
ANY_ADDRESS = frozenset({"", "0.0.0.0", "::", "*"})


def host_addresses(name: str) -> list[str]:
    """The addresses ``name`` (this host's name) resolves to, loopback ones left out."""
    try:
        found = socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP)
    except OSError:
        return []
    addresses = []
    for *_, address in found:
        text = str(address[0])
        if text not in addresses and not ipaddress.ip_address(text.split("%")[0]).is_loopback:
            addresses.append(text)
    return addresses


def connect_hint(host: str, port: int, name: str | None = None,
                 addresses: list[str] | None = None) -> str:
    """What players type to connect: ``ssh -p PORT HOST``; listening on every address, the
    host's name (and its addresses, when it has some), never ``0.0.0.0``.

    >>> connect_hint("127.0.0.1", 2222)
    'ssh -p 2222 127.0.0.1'
    >>> connect_hint("0.0.0.0", 2222, "box", ["192.168.1.5", "fd00::5"])
    'ssh -p 2222 box (its addresses: 192.168.1.5, fd00::5)'
    >>> connect_hint("::", 22, "box", [])
    'ssh -p 22 box'
    """
    if host not in ANY_ADDRESS:
        return f"ssh -p {port} {host}"
    name = name if name is not None else socket.gethostname()
    addresses = addresses if addresses is not None else host_addresses(name)
    shown = f" (its addresses: {', '.join(addresses[:4])})" if addresses else ""
    return f"ssh -p {port} {name}{shown}"


async def _serve(config: object) -> None:
    from minefield.frontdoor.server import FrontDoor, FrontDoorConfig

    assert isinstance(config, FrontDoorConfig)
    door = FrontDoor(config)
    await door.start()
    print(f"minefield ssh-server: host key {door.fingerprint}; players connect with: "
          f"{connect_hint(config.host, config.port)}", file=sys.stderr, flush=True)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop.set)
    await stop.wait()
    await door.stop()


__all__ = ["COMMANDS", "add_parser", "connect_hint", "host_addresses", "parse_listen", "run"]
