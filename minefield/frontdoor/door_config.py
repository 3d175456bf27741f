"""What ``minefield ssh-server`` is told, and the files it keeps: the configuration, the host
key, the allow-list file, the embedded daemon's socket path (with its ``/tmp`` fallback).

Nothing here listens or runs: :mod:`.server` starts the door from a :class:`FrontDoorConfig`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from minefield.errors import MinefieldError
from minefield.frontdoor.limits import Limits
from minefield.paths import MAX_SOCKET_PATH as MAX_SOCKET_PATH  # re-exported
from minefield.paths import daemon_socket_path as daemon_socket_path  # re-exported

HOST_KEY_NAME = "ssh_host_ed25519_key"
ACCOUNTS_NAME = "players.sqlite"
ALLOW_NAME = "allowed_keys"
#: How often finished games are looked for, to rate them.
RATING_PERIOD = 2.0
#: Tries at the name prompt before the session closes.
NAME_TRIES = 5
#: Connections refused with words at once; past this, a flood: they are cut without any.
MAX_REFUSING = 1000
#: Keepalives left unanswered before a connection is taken for dead: asyncssh asks after a
#: silent interval, asks again each interval, and closes at the interval after the last one
#: (so a client is given ``keepalive`` seconds: ``(KEEPALIVE_UNANSWERED + 1)`` intervals).
KEEPALIVE_UNANSWERED = 2
#: What a player's terminal needs to be itself again after a game drawn on it (what Textual
#: itself writes as it stops): mouse reporting off (every mode it turns on), bracketed paste,
#: in-band resize, focus reports and the keyboard protocol off, the main screen back with its
#: line wrapping, colours and attributes reset, the cursor shown.
RESTORE_TERMINAL = (b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1016l"
                    b"\x1b[?2004l\x1b[?2048l\x1b[?1004l\x1b[<u\x1b[?1049l\x1b[?7h\x1b[0m"
                    b"\x1b[?25h")
#: The largest packet a logged-in client may send (asyncssh's own limit is 256 KiB).
LONGEST_PACKET = 1024 * 1024
#: The longest a stop waits for the players' connections to take their last bytes.
STOP_SECONDS = 3.0
#: A TERM the client may pass on: a plain terminal name (anything else is replaced).
PLAIN_TERM = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
#: The TERM given instead of one that is not a plain name.
FALLBACK_TERM = "xterm-256color"


class FrontDoorError(MinefieldError):
    """The front door cannot start (one line)."""


@dataclass(slots=True)
class FrontDoorConfig:
    """Everything ``ssh-server`` can be told."""

    data: Path
    host: str = "127.0.0.1"
    port: int = 2222
    host_key: Path | None = None
    #: A running daemon's socket; None: run one in this process.
    socket: Path | None = None
    #: True: any key may come in; else the keys of ``allow`` (default: ``allowed_keys`` in
    #: the data folder, created empty).
    open: bool = False
    allow: Path | None = None
    limits: Limits = field(default_factory=Limits)
    #: A client that answers nothing this long is gone: its connection is closed (SSH
    #: keepalives ask it every third of this; see :data:`KEEPALIVE_UNANSWERED`).
    keepalive: float = 45.0
    #: Options of the embedded daemon (tests shorten its clocks).
    daemon_options: dict[str, Any] = field(default_factory=dict)
    #: ``--web ADDR:PORT``: the browser door listens there (None: no browser door), and
    #: players' browsers reach it at ``public_url`` (:mod:`.web_door`).
    web: tuple[str, int] | None = None
    public_url: str | None = None
    #: ``--metrics ADDR:PORT``: Prometheus's figures served there (None: not served;
    #: :mod:`.metrics`).
    metrics: tuple[str, int] | None = None

    @property
    def host_key_path(self) -> Path:
        """Where the host key is (made on first start)."""
        return self.host_key or self.data / HOST_KEY_NAME

    @property
    def allow_path(self) -> Path:
        """The allow-list (``--allow``, else ``allowed_keys`` in the data folder)."""
        return self.allow or self.data / ALLOW_NAME

    @property
    def accounts_path(self) -> Path:
        """The players' SQLite file (names, keys, ratings)."""
        return self.data / ACCOUNTS_NAME


def load_host_key(path: Path) -> tuple[asyncssh.SSHKey, bool]:
    """The host key at ``path``, made (ed25519, mode 0600) when there is none; and whether it
    was made now."""
    if path.exists():
        mode = path.stat().st_mode & 0o777
        if mode & 0o077:
            raise FrontDoorError(f"the host key {path} is readable by others (mode "
                                 f"{mode:o}): chmod 600 it")
        try:
            return asyncssh.read_private_key(path), False
        except (OSError, asyncssh.KeyImportError) as error:
            raise FrontDoorError(f"cannot read the host key {path}: {error}") from None
    key = asyncssh.generate_private_key("ssh-ed25519", comment="minefield ssh-server")
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(key.export_private_key())
    return key, True


def check_allow_file(path: Path) -> None:
    """``--allow FILE`` must be a file this process can read (FrontDoorError if not)."""
    if not path.is_file():
        raise FrontDoorError(f"--allow {path}: no such file")
    try:
        with path.open("rb"):
            pass
    except OSError as error:
        raise FrontDoorError(f"--allow {path}: cannot read it "
                             f"({(error.strerror or str(error)).lower()})") from None


__all__ = ["ACCOUNTS_NAME", "FrontDoorConfig", "FrontDoorError", "check_allow_file",
           "daemon_socket_path", "load_host_key"]
