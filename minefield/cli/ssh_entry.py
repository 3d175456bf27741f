"""``minefield ssh-entry``: the forced command of SSH logins to a Minefield host.

sshd runs it instead of whatever the player typed (``ForceCommand`` in ``sshd_config``, or
``command="..."`` in a shared account's ``authorized_keys``) and puts what they typed in
``SSH_ORIGINAL_COMMAND``. Only the forms of :mod:`minefield.frontdoor.grammar` are accepted
(the lobby, ``host``, ``join CODE``, ``resume``, ``history``, ``watch GAME``, ``wire``: the
protocol itself, for a program, :mod:`minefield.cli.wire_pipe`); anything else is
one line on stderr and exit status 2. Options given to ``ssh-entry`` itself (``--player NAME``,
``--socket PATH``) come from the forced command the administrator wrote and are trusted; the
same options typed by the player are refused.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import hashlib
import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path

from minefield.cli.common import Subparsers, UsageError
from minefield.frontdoor.grammar import (
    ALLOWED,
    APP_ACTIONS,
    EntryCommand,
    Refused,
    parse_original_command,
)

COMMANDS = ("ssh-entry",)
#: The variable in which sshd passes what the player typed.
ORIGINAL_COMMAND_ENV = "SSH_ORIGINAL_COMMAND"
#: The variable in which sshd names the file of how the player logged in (``ExposeAuthInfo``).
AUTH_INFO_ENV = "SSH_USER_AUTH"
#: What a player name given by the forced command may be (the daemon's own rule).
PLAYER_NAME = re.compile(r"[A-Za-z0-9_.-]{1,32}")


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``ssh-entry`` (for ``sshd_config``'s ``ForceCommand`` and ``authorized_keys``)."""
    entry = sub.add_parser(
        "ssh-entry", help="the forced command of SSH logins (set by the server's administrator)",
        description="Run what an SSH player typed (in $SSH_ORIGINAL_COMMAND) if it is one of: "
        "nothing (the lobby), host [--bot LEVEL] [--rules PRESET] [--match] "
        "[--rule NAME=VALUE]..., join CODE, resume, history [--json], watch GAME, wire. "
        "The options here are the administrator's, written in the forced command.")
    entry.add_argument("--player", default=None, metavar="NAME",
                       help="the player's name on a shared SSH account (one authorized_keys "
                       "line per person)")
    entry.add_argument("--socket", type=Path, default=None, metavar="PATH",
                       help="the game server's socket (default: $MINEFIELD_SOCKET, else the "
                       "per-user default)")


def _has_terminal() -> bool:
    streams = (sys.stdin, sys.stdout)
    return all(stream is not None and stream.isatty() for stream in streams)


def _per_player_folders(player: str) -> None:
    """A shared account keeps each person's settings and saved games apart: their home
    ``players/NAME/`` (``data/`` and ``config/``) in the account's data folder, where their
    folders of before move at their first start; when they cannot, one line says so and the
    player plays from them."""
    from minefield.paths import use_player_folders

    problem = use_player_folders(player)
    if problem is not None:
        print(f"minefield: {problem}", file=sys.stderr)


def entry_argv(command: EntryCommand, player: str | None, socket: Path | None) -> list[str]:
    """The full ``minefield`` arguments: the player's checked command, then the trusted
    options of the forced command (for the commands that take them).

    >>> entry_argv(EntryCommand("join", code="K7Q3PX"), "alice", None)
    ['join', 'K7Q3PX', '--player', 'alice']
    >>> entry_argv(EntryCommand("history"), "alice", Path("/run/m.sock"))
    ['history']
    """
    argv = command.argv()
    if command.action in ("host", "join", "resume", "watch"):
        if player is not None:
            argv += ["--player", player]
        if socket is not None:
            argv += ["--socket", str(socket)]
    return argv


def run(args: argparse.Namespace, environ: Mapping[bytes, bytes] | None = None) -> int:
    """Check ``$SSH_ORIGINAL_COMMAND`` and run it; the exit status (2 when refused)."""
    player: str | None = args.player
    if player is not None and (not PLAYER_NAME.fullmatch(player) or player in (".", "..")):
        raise UsageError("ssh-entry --player: 1 to 32 letters, digits, '_', '.' or '-' "
                         "(fix the forced command)")
    env = environ if environ is not None else os.environb
    if player is not None:
        banned = _banned(player, args.socket, login_key(env))
        if banned is not None:
            print(f"minefield: {banned}", file=sys.stderr)
            return 1
    try:
        command = parse_original_command(env.get(ORIGINAL_COMMAND_ENV.encode()))
    except Refused as refusal:
        print(f"minefield: refused: {refusal}; {ALLOWED}", file=sys.stderr)
        return 2
    if command.action in APP_ACTIONS and not _has_terminal():
        print("minefield: the game needs a terminal: connect with ssh -t", file=sys.stderr)
        return 2
    if command.action == "wire":
        from minefield.cli.wire_pipe import pipe_wire
        from minefield.protocol.address import socket_path

        return pipe_wire(player, socket_path(args.socket))
    if command.action == "history":
        return _history(player, args.socket, login_key(env), command.json)
    if player is not None:
        _per_player_folders(player)
    if command.action == "menu":
        return _menu(player, args.socket)
    from minefield.cli import main  # the one parser of every subcommand

    return main(entry_argv(command, player, args.socket))


def login_key(environ: Mapping[bytes, bytes]) -> str | None:
    """The SHA256 fingerprint of the key the player logged in with, from the file sshd names
    in ``$SSH_USER_AUTH`` (``ExposeAuthInfo yes``, as the shipped drop-in sets it; its first
    ``publickey`` line); None when sshd does not tell it.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile("w") as auth:
    ...     _ = auth.write("publickey ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA== x\\n")
    ...     _ = auth.flush()
    ...     login_key({AUTH_INFO_ENV.encode(): auth.name.encode()})
    'SHA256:xGib3+FptS+cITct2V7iFK9qKkm/QSPPdJstK0JtCps'
    """
    path = environ.get(AUTH_INFO_ENV.encode())
    if not path:
        return None
    try:
        with open(path, encoding="ascii", errors="replace") as info:
            lines = info.read(65536).splitlines()
    except OSError:
        return None
    for line in lines:
        words = line.split()
        if len(words) >= 3 and words[0] == "publickey":
            try:
                blob = base64.b64decode(words[2], validate=True)
            except (ValueError, binascii.Error):
                return None
            digest = base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")
            return f"SHA256:{digest}"
    return None


def _banned(player: str, socket: Path | None, key: str | None) -> str | None:
    """The one line that refuses a banned player or key (the game server's admins keep the
    bans: ``ssh-server``'s, for the players of its shared account), None when they may come
    in; asked before anything runs, whatever was typed."""
    import asyncio

    from minefield.session.lobby_link import refusal

    return asyncio.run(refusal(socket, player, key))


def _history(player: str | None, socket: Path | None, key: str | None, as_json: bool) -> int:
    """``history [--json]``: the player's own network games as the game server keeps them,
    newest first (what ``ssh-server``'s ``history`` lists), asked over its socket; a server
    that cannot say is one line and exit status 1."""
    import asyncio
    import json

    from minefield.frontdoor.club import games_table
    from minefield.protocol.profiles import HISTORY_GAMES
    from minefield.session.daemon_socket import RemoteError
    from minefield.session.lobby_link import own_games

    try:
        games = asyncio.run(own_games(socket, player, HISTORY_GAMES, key))
    except RemoteError as error:
        print(f"minefield: {error}", file=sys.stderr)
        return 1
    if as_json:  # the entries of ssh-server's history --json (no browser door: no link)
        print(json.dumps([{**game.model_dump(mode="json"), "link": None} for game in games]))
    elif not games:
        print("No network games yet: a game you finish on this server is kept here.")
    else:
        print(games_table(games, {player.casefold()} if player is not None else None))
    return 0


def _menu(player: str | None, socket: Path | None) -> int:
    """Nothing typed: the game server's lobby (the players of this host, its public tables,
    invitations, quick match), whose ``m`` opens the menu with the server's rooms first (host,
    join a code, resume)."""
    from minefield.cli.lobby import lobby_loop

    return lobby_loop(socket, player, menu=lambda: _rooms_menu(player, socket))


def _rooms_menu(player: str | None, socket: Path | None) -> int:
    """The menu, with the game server's rooms first (host, join a code, resume)."""
    from minefield.tui.app import MinefieldApp
    from minefield.tui.screens.rooms import ServerAddress

    app = MinefieldApp(server=ServerAddress(socket=socket, player=player))
    app.run()
    return app.return_code or 0


__all__ = ["COMMANDS", "add_parser", "entry_argv", "login_key", "run"]
