"""``ssh-server --metrics ADDR:PORT``: the server's figures for Prometheus (off by default).

An HTTP listener in the front door's own event loop answers ``GET /metrics`` in Prometheus's
text format (``prometheus_client``, with a registry of this door's own):

==========================================  ===========================================
``minefield_sessions{door}``                sessions open now (``ssh``, ``web``)
``minefield_logins_total``                  SSH logins that came in
``minefield_logins_refused_total{door,      refusals, by reason (:data:`REASONS`)
reason}``
``minefield_players_online``                players connected to the game server
``minefield_games_in_play``                 games being played
``minefield_watchers``                      watchers of those games
``minefield_tournaments_running``           tournaments under way
``minefield_ssh_commands_total{command}``   SSH commands asked for, by command
``minefield_ssh_command_seconds{command}``  from a command received to its first byte
                                            sent back (a text command's answer, a
                                            client's first frame): a histogram
==========================================  ===========================================

The game server's figures are read from its lobby at each scrape (with the game server in
the same process; one named by ``--socket`` is not asked, and they are left out). A label is
always one of a few fixed words (a command's action, a reason, a door): never a name, a key,
an address, a game id or a seed.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Final

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

if TYPE_CHECKING:
    from aiohttp import web

    from minefield.frontdoor.server import FrontDoor

log = logging.getLogger("minefield.frontdoor")

#: Why a login (or a session) was refused: the only values of the ``reason`` label.
REASONS: Final = frozenset({
    "rate",          # too many connections from an address in the last minute
    "pending",       # too many connections logging in at once from an address
    "flood",         # past the refusals said in words: cut without a word
    "not_allowed",   # no key of the connection is on the allow-list
    "server_full",   # the server's session cap
    "address_full",  # an address's session cap
    "key_full",      # a key's (a browser's) session cap
    "banned",        # a banned key or player
    "link",          # a browser sign-in link used, expired or unknown
    "passkey",       # a passkey sign-up or sign-in refused
    "origin",        # a browser request from another site
    "signed_out",    # a browser websocket without a session
    "other",
})
#: The histogram's buckets, in seconds (a text command takes milliseconds; a client's first
#: frame a few tenths; a loaded machine more).
LATENCY_BUCKETS: Final = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class DoorMetrics:
    """The figures of one front door (``door``; None: only what it is told is counted), in a
    registry of its own."""

    def __init__(self, door: FrontDoor | None = None) -> None:
        self.door = door
        self.registry = CollectorRegistry()
        registry = self.registry
        self.sessions = Gauge("minefield_sessions", "Sessions open now, by door",
                              ["door"], registry=registry)
        self.logins = Counter("minefield_logins", "SSH logins that came in",
                              registry=registry)
        self.refused = Counter("minefield_logins_refused",
                               "Logins and sessions refused, by door and reason",
                               ["door", "reason"], registry=registry)
        self.players = Gauge("minefield_players_online",
                             "Players connected to the game server", registry=registry)
        self.games = Gauge("minefield_games_in_play", "Games being played",
                           registry=registry)
        self.watchers = Gauge("minefield_watchers", "Watchers of the games being played",
                              registry=registry)
        self.tournaments = Gauge("minefield_tournaments_running", "Tournaments under way",
                                 registry=registry)
        self.commands = Counter("minefield_ssh_commands", "SSH commands asked for, by command",
                                ["command"], registry=registry)
        self.latency = Histogram("minefield_ssh_command_seconds",
                                 "Seconds from an SSH command received to its first byte "
                                 "sent back", ["command"], buckets=LATENCY_BUCKETS,
                                 registry=registry)
        for door_name in ("ssh", "web"):
            self.sessions.labels(door=door_name)
        self._runner: web.AppRunner | None = None
        #: Where it listens, once started (the port made real when 0 was asked).
        self.address: tuple[str, int] | None = None

    # -- what the door tells it -----------------------------------------------------------------

    def login_refused(self, reason: str, door: str = "ssh") -> None:
        """A login or a session refused for ``reason`` (one of :data:`REASONS`)."""
        self.refused.labels(door=door, reason=reason if reason in REASONS else "other").inc()

    def command(self, action: str) -> None:
        """An SSH command asked for (its action; ``refused`` for one that is not a command)."""
        self.commands.labels(command=action).inc()

    def answered(self, action: str, since: float) -> None:
        """A command's first byte went back, ``since`` being when it came (monotonic)."""
        self.latency.labels(command=action).observe(max(0.0, time.monotonic() - since))

    # -- the scrape -----------------------------------------------------------------------------

    async def refresh(self) -> None:
        """Read what is counted by looking: the sessions, and the game server's lobby."""
        door = self.door
        if door is None:
            return
        self.sessions.labels(door="ssh").set(len(door.sessions))
        self.sessions.labels(door="web").set(len(door.web.sessions) if door.web else 0)
        lobby = await door.daemon.lobby() if door.daemon is not None else None
        if lobby is None:
            return
        playing = [table for table in lobby.tables if table.game is not None]
        self.players.set(len(lobby.online))
        self.games.set(len(playing))
        self.watchers.set(sum(table.watchers for table in playing))
        self.tournaments.set(len(lobby.tournaments))

    async def start(self, host: str, port: int) -> None:
        """Listen on ``host:port`` (OSError if it cannot)."""
        # The HTTP server is loaded only when asked for (--metrics): without it a start is
        # spared aiohttp's import, about a tenth of a second.
        from aiohttp import web
        from prometheus_client.aiohttp import make_aiohttp_handler

        exposition = make_aiohttp_handler(self.registry)

        async def handle(request: web.Request) -> web.StreamResponse:
            await self.refresh()
            return await exposition(request)

        app = web.Application()
        app.router.add_get("/metrics", handle)
        app.router.add_get("/", handle)
        runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, host, port, reuse_address=True)
        try:
            await site.start()
        except OSError:
            await runner.cleanup()
            raise
        self._runner = runner
        bound = runner.addresses[0] if runner.addresses else (host, port)
        self.address = (str(bound[0]), int(bound[1]))
        log.info("metrics on http://%s:%d/metrics", host, self.address[1])

    async def stop(self) -> None:
        """Stop listening."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


__all__ = ["LATENCY_BUCKETS", "REASONS", "DoorMetrics"]
