"""Where a client finds the game daemon's socket (the daemon listens at the same place).

``--socket PATH``, else ``$MINEFIELD_SOCKET``, else ``$XDG_RUNTIME_DIR/minefield/minefield.sock``,
else ``/tmp/minefield-$UID/minefield.sock``. Here rather than in :mod:`minefield.server`, so
that a client never imports the server.

>>> socket_path("/run/minefield/minefield.sock")
PosixPath('/run/minefield/minefield.sock')
"""

from __future__ import annotations

import getpass
import os
import socket
from collections.abc import Mapping
from pathlib import Path

from minefield.paths import SOCKET_ENV as SOCKET_ENV  # re-exported: where it always was
from minefield.paths import SOCKET_NAME as SOCKET_NAME
from minefield.paths import default_socket_path as default_socket_path

#: What a player of ``minefield ssh-server`` types to reach it (``ssh -t -p 2222 box``): set by
#: that front door in the environment of each session's client, for the hints it shows.
DOOR_ENV = "MINEFIELD_DOOR"
#: The browser door's public URL (``https://mahjong.example.org``): set by ``minefield
#: ssh-server --web`` in the environment of each session's client, for the game links it shows.
WEB_ENV = "MINEFIELD_WEB_URL"


def socket_path(explicit: str | Path | None = None) -> Path:
    """``explicit`` if given, else :func:`default_socket_path`."""
    return Path(explicit) if explicit else default_socket_path()


def player_command(player: str | None = None, environ: Mapping[str, str] | None = None,
                   user: str | None = None, host: str | None = None) -> str:
    """What a player types before ``host``, ``join CODE`` or ``resume`` to reach this game
    server, as this client was reached: ``minefield`` on this machine; behind ``minefield
    ssh-server``, the command it gives (:data:`DOOR_ENV`); behind OpenSSH (``ssh-entry``),
    ``ssh -t HOST`` with the port when it is not 22, and the account in front when the player
    plays from the shared account (``player`` is not the Unix ``user``).

    >>> player_command("ann", {})
    'minefield'
    >>> player_command("ann", {DOOR_ENV: "ssh -t -p 2222 box", "SSH_CONNECTION": "a 1 b 22"})
    'ssh -t -p 2222 box'
    >>> player_command("ann", {"SSH_CONNECTION": "10.0.0.9 50000 10.0.0.1 22"}, "ann", "box")
    'ssh -t box'
    >>> player_command("alice", {"SSH_CONNECTION": "10.0.0.9 50000 10.0.0.1 2200"}, "mahjong",
    ...                "box")
    'ssh -t -p 2200 mahjong@box'
    """
    environ = os.environ if environ is None else environ
    door = environ.get(DOOR_ENV)
    if door:
        return door
    connection = environ.get("SSH_CONNECTION")
    if not connection:
        return "minefield"
    user = user if user is not None else getpass.getuser()
    host = host if host is not None else socket.gethostname()
    target = host if player in (None, "", user) else f"{user}@{host}"
    parts = connection.split()
    port = parts[3] if len(parts) == 4 and parts[3].isdigit() else "22"
    return f"ssh -t {target}" if port == "22" else f"ssh -t -p {port} {target}"


def game_link(game: str | None, environ: Mapping[str, str] | None = None) -> str | None:
    """The link of the finished game ``game`` at the browser door this client was reached
    through (:data:`WEB_ENV`): ``PUBLIC_URL/game/GAME``; None without one (or a game id that
    is not a plain word).

    >>> game_link("20261204T101500.000Z-network-beef", {WEB_ENV: "https://mf.example.org"})
    'https://mf.example.org/game/20261204T101500.000Z-network-beef'
    >>> game_link("g1", {}), game_link("../x", {WEB_ENV: "https://mf.example.org"})
    (None, None)
    """
    environ = os.environ if environ is None else environ
    public = environ.get(WEB_ENV, "")
    if not game or not public.startswith(("https://", "http://")) or any(
            not (c.isascii() and (c.isalnum() or c in "._-")) for c in game) or game[0] == ".":
        return None
    return f"{public.rstrip('/')}/game/{game}"


__all__ = ["DOOR_ENV", "SOCKET_ENV", "SOCKET_NAME", "WEB_ENV", "default_socket_path",
           "game_link", "player_command", "socket_path"]
