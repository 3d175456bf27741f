"""The lobby: who is connected and what they do, the public tables and the games being played.

A ``lobby`` hello gets no room: the daemon sends :class:`~minefield.protocol.lobby.LobbyState`
at once and again whenever it changes (looked at every :data:`LOBBY_PERIOD` seconds, once
for all of them). Both
SSH front doors show the same lobby, since it is the daemon's. A private room (hosted
without ``public``) is never listed: its code is for the person it was given to. Nothing of
a game but who sits at it is shown.

The daemon keeps no ratings: whoever keeps them (the SSH front door) gives the
lobby a :data:`RatingsOf` (``Daemon(config, rate_game, ratings_of)``, as it gives the daemon
:data:`~minefield.server.rating.RateGame`), asked in a record thread at each look with the
identity keys of the players online; a player it does not know (or every player, when no
function is given: a daemon of the OpenSSH route) is shown without a rating. The message of
the day is given the same way (:data:`MotdOf`, asked at each look) and sent as a line of its
own (:class:`~minefield.protocol.lobby.Motd`) when it changes and to each newcomer.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping
from typing import Any

from minefield.bots.base import bot_name
from minefield.protocol.lobby import (
    MAX_MOTD,
    LobbyPlayer,
    LobbyState,
    LobbyTable,
    LobbyTournament,
    Motd,
    PlayerStatus,
    parse_lobby,
)
from minefield.protocol.profiles import AskGames, AskProfile, AskRecord
from minefield.protocol.wire import Ping, Pong, WireError, WireProblem
from minefield.server.connection import Connection, read_line
from minefield.server.invites import Invites, Pair
from minefield.server.lobby_profiles import LobbyProfiles
from minefield.server.room import Room

log = logging.getLogger("minefield.server")

#: ``(identity keys) -> {key: rating}`` for the players it knows (a rating rounded).
RatingsOf = Callable[[list[str]], dict[str, int]]
#: ``(identity keys) -> {keys of programs}``: the players known to be programs (their key has
#: connected over ``ssh HOST wire``), as the SSH front door tells it.
ProgramsOf = Callable[[list[str]], set[str]]
#: Runs a function in a record thread (:meth:`Daemon.run_io
#: <minefield.server.daemon.Daemon.run_io>`).
RunIO = Callable[..., Awaitable[Any]]
#: ``() -> text``: the message of the day (given by whoever keeps it: the SSH front door's
#: admins set it), None when there is none.
MotdOf = Callable[[], str | None]

#: How often the lobby is looked at for changes.
LOBBY_PERIOD = 2.0
#: At most this many players and tables in one state (a line stays far under 64 KiB).
MAX_ONLINE, MAX_TABLES, MAX_TOURNAMENTS = 200, 150, 20
#: What a player online does (protocol 10).
Status = PlayerStatus
#: A player with several connections is shown doing the busiest thing (the last here).
_RANK: dict[Status, int] = {"lobby": 0, "waiting": 1, "watching": 2, "hosting": 3, "result": 4,
                            "playing": 5}


def connection_status(conn: object, queue: Collection[object] = ()) -> Status:
    """What the player of ``conn`` does on this connection (``queue``: the connections
    waiting for a quick match). A connection with nothing yet (its hello being served) is
    in the lobby."""
    room = getattr(conn, "room", None)
    if isinstance(room, Room) and not room.closed:
        return "hosting" if room.waiting else "result" if room.ended else "playing"
    if getattr(conn, "watching", None) is not None:
        return "watching"
    return "waiting" if conn in queue else "lobby"


def _names(room: Room) -> list[str]:
    return [seated.identity.name if seated.identity is not None else bot_name(str(seated.level))
            for seated in room.seats.values() if seated.taken]


def _identity_keys(connections: Iterable[object]) -> dict[str, str]:
    """Each connected player's identity key, by the name shown."""
    keys: dict[str, str] = {}
    for conn in connections:
        identity = getattr(conn, "identity", None)
        name, key = getattr(identity, "name", None), getattr(identity, "key", None)
        if isinstance(name, str) and isinstance(key, str):
            keys.setdefault(name, key)
    return keys


def lobby_state(rooms: Iterable[Room], connections: Iterable[object],
                ratings: Mapping[str, int] | None = None,
                queue: Collection[object] = (),
                tournaments: Iterable[LobbyTournament] = (),
                programs: Collection[str] = ()) -> LobbyState:
    """The lobby now: the connected players (each once, busiest status first, with their
    rating from ``ratings`` by identity key when it is there, marked when their key is one of
    ``programs``; ``queue``: the connections waiting for a quick match), the tables (public
    rooms waiting, then games going on) and the running ``tournaments``."""
    online: dict[str, Status] = {}
    keys: dict[str, str] = {}
    for conn in connections:
        identity = getattr(conn, "identity", None)
        name = getattr(identity, "name", None)
        if not isinstance(name, str):
            continue
        key = getattr(identity, "key", None)
        if isinstance(key, str):
            keys.setdefault(name, key)
        status = connection_status(conn, queue)
        if _RANK[status] >= _RANK.get(online.get(name, "lobby"), 0):
            online[name] = status
    waiting: list[LobbyTable] = []
    playing: list[LobbyTable] = []
    for room in rooms:
        if room.closed:
            continue
        names = _names(room)
        host = names[0] if names else "?"
        if room.waiting:
            if room.public and room.code is not None:
                waiting.append(LobbyTable(code=room.code, host=host, rules=room.rules_name,
                                          public=True, players=names,
                                          rated=room.table_header().rated))
        elif room.going_on and len(names) == 2:
            watchers = len(room.audience) if room.audience is not None else 0
            playing.append(LobbyTable(game=room.id, host=host, rules=room.rules_name,
                                      public=room.public, players=names, watchers=watchers,
                                      rated=room.table_header().rated))
    known = ratings or {}
    players = [LobbyPlayer(name=name, status=status, rating=known.get(keys.get(name, "")),
                           program=keys.get(name) in programs)
               for name, status in sorted(online.items(), key=lambda i: i[0].casefold())]
    return LobbyState(online=players[:MAX_ONLINE], tables=(waiting + playing)[:MAX_TABLES],
                      tournaments=list(tournaments)[:MAX_TOURNAMENTS])


def over_the_limit(conn: Connection, received: float) -> bool:
    """True when a lobby line received at ``received`` is over the connection's rate limit
    (protocol 6, as a player's): it is dropped unread and answered with a ``rate_limited``
    error, fatal once the connection has had too many dropped."""
    if conn.bucket.take(received):
        return False
    if not conn.abuse.take(received):
        log.info("%s: too many messages in the lobby: disconnected", repr(conn))
        conn.fail("rate_limited", "too many messages: disconnected")
        return True
    config = conn.config
    conn.send(WireError(code="rate_limited", message=(
        f"too many messages: at most {config.rate:g} a second (bursts of {config.burst}); "
        "this one was dropped")))
    return True


class Lobby:
    """The daemon's lobby: the state is made once per look and sent to every lobby
    connection (not made per connection: 200 people in the lobby would make 200 a second)."""

    def __init__(self, rooms: dict[str, Room], connections: set[Connection],
                 pair: Pair | None = None, run_io: RunIO | None = None,
                 ratings_of: RatingsOf | None = None) -> None:
        self.rooms = rooms
        self.connections = connections
        self.members: set[Connection] = set()
        #: Invitations and quick match (:mod:`~minefield.server.invites`), given how the
        #: daemon makes a room for two.
        self.invites = Invites(self.members, pair) if pair is not None else None
        self.state: LobbyState | None = None
        #: The players' ratings, by identity key (given by whoever keeps them); None: no
        #: ratings are shown.
        self.ratings_of: RatingsOf | None = ratings_of
        #: Called with each connection that comes to the lobby, once it has the state
        #: (the daemon: the tournament games waiting for that player).
        self.on_join: Callable[[Connection], None] | None = None
        #: Which players are programs (given by the SSH front door); None: nobody is shown
        #: as one.
        self.programs_of: ProgramsOf | None = None
        #: The running tournaments (the daemon's), listed in the lobby.
        self.tournaments_of: Callable[[], list[LobbyTournament]] | None = None
        #: The message of the day (asked in a record thread at each look); None: none is
        #: ever shown. :attr:`motd` is the one the members were sent.
        self.motd_of: MotdOf | None = None
        self.motd: str | None = None
        #: The profile screen's questions (a player's profile, a kept game's record): the
        #: SSH front door gives how they are answered.
        self.profiles = LobbyProfiles(run_io)
        self._run_io = run_io
        self._looking = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    async def _ratings(self, connections: list[Connection]) -> dict[str, int]:
        ratings_of, run_io = self.ratings_of, self._run_io
        if ratings_of is None or run_io is None:
            return {}
        keys = sorted(set(_identity_keys(connections).values()))[:MAX_ONLINE * 2]
        if not keys:
            return {}
        try:
            found: dict[str, int] = await run_io(ratings_of, keys)
            return found
        except Exception as error:  # a ratings problem never stops the lobby
            log.error("lobby: ratings failed (%s)", type(error).__name__)
            return {}

    async def _motd(self) -> str | None:
        motd_of, run_io = self.motd_of, self._run_io
        if motd_of is None or run_io is None:
            return None
        try:
            text: str | None = await run_io(motd_of)
        except Exception as error:  # a problem with the message never stops the lobby
            log.error("lobby: the message of the day failed (%s)", type(error).__name__)
            return self.motd
        return text[:MAX_MOTD] if text is not None else None

    async def _programs(self, connections: list[Connection]) -> set[str]:
        programs_of, run_io = self.programs_of, self._run_io
        if programs_of is None or run_io is None:
            return set()
        keys = sorted(set(_identity_keys(connections).values()))[:MAX_ONLINE * 2]
        if not keys:
            return set()
        try:
            found: set[str] = await run_io(programs_of, keys)
        except Exception as error:  # never stops the lobby
            log.error("lobby: programs failed (%s)", type(error).__name__)
            return set()
        return found

    async def _look(self) -> None:
        async with self._looking:  # one look at a time: states sent in order
            connections = list(self.connections)
            ratings = await self._ratings(connections)
            motd = await self._motd()
            programs = await self._programs(connections)
            # The players of the state are those whose ratings were asked for: one who came
            # while they were read is in the next look, with their rating, never without it.
            state = self.now(ratings, connections, programs)
            if state != self.state:
                self.state = state
                for member in list(self.members):
                    member.send(state)
            if motd != self.motd:
                self.motd = motd
                for member in list(self.members):
                    member.send(Motd(text=motd))

    def now(self, ratings: Mapping[str, int] | None = None,
            connections: Iterable[Connection] | None = None,
            programs: Collection[str] = ()) -> LobbyState:
        """The lobby as it is now (in the daemon's loop), every player's status included;
        ``connections``: these players (default: every connection now); ``programs``: the
        identity keys of the players shown as programs."""
        queue = self.invites.queue if self.invites is not None else ()
        running = self.tournaments_of() if self.tournaments_of is not None else []
        players = list(self.connections) if connections is None else list(connections)
        return lobby_state(list(self.rooms.values()), players, ratings, queue, running,
                           programs)

    async def _follow(self) -> None:
        while self.members:
            await asyncio.sleep(LOBBY_PERIOD)
            await self._look()
        self.state = self.motd = None
        self._task = None

    async def serve(self, conn: Connection, clock: Callable[[], float]) -> None:
        """A lobby connection's life: the state now and on every change, pings answered,
        invitations and quick match served (a bad line gets a one-line error; lines are
        rate limited as a player's are), until the client goes."""
        self.members.add(conn)
        if self.state is None:
            await self._look()  # sends to every member, this one included
        else:
            conn.send(self.state)
            if self.motd is not None:
                conn.send(Motd(text=self.motd))
        if self.on_join is not None:
            self.on_join(conn)
        if self._task is None:
            self._task = asyncio.create_task(self._follow())
        try:
            while (line := await read_line(conn, clock)) is not None:
                if over_the_limit(conn, clock()):
                    if conn.closing_since is not None:
                        return
                    continue
                try:
                    message = parse_lobby(line)
                except WireProblem as problem:
                    conn.send(WireError(code=problem.code, message=str(problem)))
                else:
                    if isinstance(message, Ping):
                        conn.send(Pong())
                    elif isinstance(message, AskProfile | AskRecord | AskGames):
                        self.profiles.handle(conn, message)
                    elif self.invites is not None:
                        self.invites.handle(conn, message)
                if conn.closing_since is not None:
                    return
        finally:
            self.members.discard(conn)
            if self.invites is not None:
                self.invites.left(conn)


__all__ = ["LOBBY_PERIOD", "Lobby", "ProgramsOf", "RatingsOf", "Status", "connection_status",
           "lobby_state", "over_the_limit"]
