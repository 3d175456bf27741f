"""Where the daemon listens and keeps its games, and its limits (every one a setting).

The socket: ``--socket PATH``, else ``$MINEFIELD_SOCKET``, else
``$XDG_RUNTIME_DIR/minefield/minefield.sock``, else ``/tmp/minefield-$UID/minefield.sock``.
Clients find it the same way. The data (game records): ``--data DIR``, else ``server/`` in
the user data folder (:func:`minefield.paths.server_data_dir`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from minefield.paths import server_data_dir
from minefield.protocol.address import (
    SOCKET_ENV,
    SOCKET_NAME,
    default_socket_path,
    socket_path,
)

SHARED_ACCOUNT_ENV = "MINEFIELD_SHARED_ACCOUNT"
#: The club's SQLite file in the data folder, unless told of another.
CLUB_NAME = "club.sqlite"


@dataclass(slots=True)
class ServerConfig:
    """Everything the daemon can be told. Times are seconds."""

    socket: Path = field(default_factory=default_socket_path)
    data: Path = field(default_factory=server_data_dir)
    #: Shared host: the socket is 0660 and its folder 0750, both of this group.
    group: str | None = None
    #: The SSH account whose connections may name their player (``--player``).
    shared_account: str | None = None
    #: R25 clocks of network games.
    hand_seconds: int = 180
    discard_seconds: int = 15
    #: How long a disconnected player's moves wait before the server plays them (per game).
    grace_seconds: float = 60.0
    #: A room code lasts this long unclaimed.
    code_seconds: float = 600.0
    #: After a game, how long the room waits for a rematch.
    rematch_seconds: float = 600.0
    #: Connections that send nothing for this long are closed (clients ping every 10 s).
    idle_seconds: float = 45.0
    #: The hello must come this soon after connecting.
    hello_seconds: float = 10.0
    #: Every discard is answered no sooner than this after it arrived (a ron check that takes
    #: longer on a hit must not tell the discarder by its timing).
    discard_pace: float = 0.010
    #: A bot waits this long before a discard (so players can follow); hands are not delayed.
    bot_think: float = 0.7
    #: Processes computing bot moves (default: the number of cores).
    bot_workers: int | None = None
    #: Threads writing records (fsync blocks; many games write at once).
    io_threads: int = 32
    #: Per connection: a burst of this many messages, refilled at ``rate`` per second.
    burst: int = 40
    rate: float = 10.0
    #: Messages dropped over the limit before the connection is closed (refilled 1/s).
    abuse: int = 20
    #: Wrong room codes per person: a burst, then one every ``code_retry_seconds``.
    code_attempts: int = 5
    code_retry_seconds: float = 20.0
    #: Open games (or waiting rooms) one person may hold.
    max_games_per_player: int = 4
    #: Connections one person may hold at once (for an account that is one person, that is
    #: every account but the shared one, its connections before the hello count too).
    max_connections_per_player: int = 8
    #: Connections of one Unix account that have not said hello yet (the shared account's
    #: players are known only from their hello: a club's players arriving at once after a
    #: restart, or a thousand games starting within seconds, all wait here for a moment).
    max_unnamed_per_account: int = 1000
    #: Connections in all (each is a file descriptor: the service allows 16384).
    max_connections: int = 10_000
    #: Accept a seed in the hello (tests and benchmarks only: a seed reveals both deals).
    test_seeds: bool = False
    #: A tournament player not seated this long after their round began loses by forfeit
    #: (R37: 10 minutes).
    tournament_forfeit_seconds: float = 600.0
    #: Bytes queued for a client that does not read before it is dropped.
    max_write_buffer: int = 1024 * 1024
    #: The club's SQLite file (kept games; the SSH front door gives its players' file, so
    #: that one file holds the club); None: ``club.sqlite`` in the data folder.
    database: Path | None = None

    @property
    def games_dir(self) -> Path:
        """The folder of game records (0700)."""
        return self.data / "games"

    @property
    def database_path(self) -> Path:
        """The club's SQLite file (:attr:`database`, else ``club.sqlite`` in the data
        folder)."""
        return self.database if self.database is not None else self.data / CLUB_NAME


__all__ = ["CLUB_NAME", "SHARED_ACCOUNT_ENV", "SOCKET_ENV", "SOCKET_NAME", "ServerConfig",
           "default_socket_path", "socket_path"]
