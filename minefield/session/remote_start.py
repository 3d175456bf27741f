"""How a network game begins: :func:`host`, :func:`join` or :func:`resume` (``minefield
host/join/resume``). Each sends its ``hello`` and returns a connected
:class:`~minefield.session.remote.RemoteSession`, or raises
:class:`~minefield.session.daemon_socket.RemoteError` with one line for the player (no server,
permission denied, another protocol version, a wrong room code...).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from minefield.protocol.address import player_command, socket_path
from minefield.protocol.codes import normalize_code
from minefield.protocol.messages import PROTOCOL_VERSION
from minefield.protocol.wire import Hello
from minefield.rules.settings import describe_validation_error
from minefield.session.daemon_socket import RemoteError
from minefield.session.remote import RemoteSession


def _hello(action: str, **fields: Any) -> Hello:
    try:
        return Hello(version=PROTOCOL_VERSION, action=action, **fields)
    except ValidationError as error:
        raise RemoteError(describe_validation_error(error, "option"), "bad_message") from None


async def host(*, bot: str | None = None, rules: str | None = None,
               socket: str | Path | None = None, player: str | None = None,
               seed: str | None = None, match: bool = False,
               rule: dict[str, bool | int | str | None] | None = None, public: bool = False,
               rated: bool | None = None, **options: Any) -> RemoteSession:
    """Host a game on the daemon (against a bot on the server with ``bot``); the session.

    Without a bot the room waits for a second player: share ``session.code``, or with
    ``public`` let the lobby list it for anyone. ``match``: a whole match (R30-R35) rather than
    one game (so does ``rules="match"`` or ``"club"``).
    ``rule``: settings over the preset by name (``--rule``; the clocks are the server's).
    ``rated``: False for a casual table (R36; None: the server's default, rated).
    ``seed`` is for tests (the daemon accepts it only with ``--test-seeds``).
    """
    hello = _hello("host", bot=bot, rules=rules, player=player, seed=seed, match=match,
                   rule=rule or {}, public=public, rated=rated)
    return await RemoteSession.connect(hello, socket_path(socket), **options)


async def join(code: str, *, socket: str | Path | None = None, player: str | None = None,
               **options: Any) -> RemoteSession:
    """Take the free seat of the room with ``code``; the session."""
    if normalize_code(code) is None:
        shown = code if len(code) <= 20 else code[:20] + "..."
        raise RemoteError(f"{shown!r} is not a room code: 6 letters and digits, such as K7Q3PX",
                          "bad_code")
    hello = _hello("join", code=code, player=player)
    return await RemoteSession.connect(hello, socket_path(socket), **options)


async def resume(*, socket: str | Path | None = None, player: str | None = None,
                 game: str | None = None, **options: Any) -> RemoteSession:
    """Go back to this player's unfinished game (or the game ``game``); the session. With no
    game to go back to, the error says how to host or join one, as this player reaches the
    server (``minefield host``, or over SSH ``ssh -t -p PORT HOST host``)."""
    hello = _hello("resume", player=player, game=game)
    try:
        return await RemoteSession.connect(hello, socket_path(socket), **options)
    except RemoteError as error:
        if error.code != "no_game" or game is not None or "host one" in str(error):
            raise
        command = player_command(player)
        raise RemoteError(f"{error}: host one ({command} host) or join one ({command} join "
                          "CODE)", error.code) from None


__all__ = ["host", "join", "resume"]
