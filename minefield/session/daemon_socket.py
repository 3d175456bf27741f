"""Reaching the game daemon's socket: every client's connection (a player's session, the
lobby's, a watcher's) opens it with :func:`open_socket`, and a daemon that cannot be reached
or refuses is a :class:`RemoteError` with one line for the player.

>>> import asyncio
>>> asyncio.run(open_socket(Path("/nonexistent/minefield.sock")))
Traceback (most recent call last):
...
minefield.session.daemon_socket.RemoteError: no game server at /nonexistent/minefield.sock: \
start one with `minefield serve`
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from minefield.errors import MinefieldError
from minefield.protocol.messages import MAX_LINE_BYTES

#: Seconds between pings (the server closes a connection silent for 45 s).
PING_SECONDS = 10.0


class RemoteError(MinefieldError):
    """The game server could not be reached or refused: a one-line message for the player."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


async def open_socket(path: Path) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Connect to the daemon's socket (a player's session, the lobby, a watcher);
    :class:`RemoteError` saying why not, in one line."""
    try:
        return await asyncio.open_unix_connection(str(path), limit=MAX_LINE_BYTES + 2)
    except (FileNotFoundError, ConnectionRefusedError):
        raise RemoteError(f"no game server at {path}: start one with `minefield serve`",
                          "unreachable") from None
    except PermissionError:
        raise RemoteError(f"cannot reach the game server at {path}: permission denied "
                          "(its group may play: ask its admin)", "permission") from None
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        raise RemoteError(f"cannot reach the game server at {path}: {reason}",
                          "unreachable") from None


__all__ = ["PING_SECONDS", "RemoteError", "open_socket"]
