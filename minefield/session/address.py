"""Where a client finds the game daemon's socket (the daemon listens at the same place).

``--socket PATH``, else ``$MINEFIELD_SOCKET``, else ``$XDG_RUNTIME_DIR/minefield/minefield.sock``,
else ``/tmp/minefield-$UID/minefield.sock``. Here rather than in :mod:`minefield.server`, so
that a client never imports the server.

>>> socket_path("/run/minefield/minefield.sock")
PosixPath('/run/minefield/minefield.sock')
"""

from __future__ import annotations

import os
from pathlib import Path

SOCKET_ENV = "MINEFIELD_SOCKET"
SOCKET_NAME = "minefield.sock"


def default_socket_path() -> Path:
    """The socket when none is given: ``$MINEFIELD_SOCKET``, the runtime folder, or /tmp."""
    explicit = os.environ.get(SOCKET_ENV)
    if explicit:
        return Path(explicit)
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and Path(runtime).is_dir():
        return Path(runtime) / "minefield" / SOCKET_NAME
    return Path(f"/tmp/minefield-{os.getuid()}") / SOCKET_NAME


def socket_path(explicit: str | Path | None = None) -> Path:
    """``explicit`` if given, else :func:`default_socket_path`."""
    return Path(explicit) if explicit else default_socket_path()


__all__ = ["SOCKET_ENV", "SOCKET_NAME", "default_socket_path", "socket_path"]
