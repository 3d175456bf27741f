"""Watching a game on the daemon: what a watcher is sent, and the watcher's client.

A watcher (a ``watch`` hello naming a game id, protocol 11) is sent only what *both* players
see (R26): both discard rows, the dora indicator, whose turn it is, which hands are chosen,
the players and their presence, the clocks, a match's scoreboard; never a hand, a pool, the
34 tiles or a furiten before the end (each is one seat's own); at the end, the ``game_ended``
event both players get, which reveals everything (the result screen's). It is
:class:`WatchTable`, sent as :class:`WatchState` at once and after every change the players
were told of. :func:`public_table` makes it from a table view a *seat* was sent, dropping
that seat's own part, so a watcher can never learn what no player was told, nor sooner.

>>> import asyncio
>>> asyncio.run(WatchLink.open("20250102T030405.678Z-network-1f2e3d4c",
...                            socket="/nonexistent/minefield.sock"))
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
minefield.session.remote.RemoteError: no game server at /nonexistent/minefield.sock: ...
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from minefield.rules.game import GameEnded, GameTerms, PlayerView, Seat
from minefield.rules.settings import RuleSettings
from minefield.session.address import socket_path
from minefield.session.link import LineLink
from minefield.session.protocol import (
    PROTOCOL_VERSION,
    MatchView,
    PlayerInfo,
    SeatClock,
    TableView,
)
from minefield.session.remote import RemoteError
from minefield.session.wire import (
    GameId,
    Hello,
    Pong,
    WireError,
    WireProblem,
)

#: At most this many watchers at one game (the next is refused with ``not_allowed``).
MAX_WATCHERS = 100


class WatchTable(BaseModel):
    """A game as a watcher sees it: only what both players see (R26)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game: GameId
    seq: int = Field(ge=0)
    phase: Literal["choosing", "discarding", "ended"]
    settings: RuleSettings
    terms: GameTerms = GameTerms()
    dora_indicator: str = Field(max_length=4)
    discards: dict[Seat, list[str]]
    turn: Seat | None
    #: Which hands are chosen (each player sees the other's is, R26), never what they hold.
    ready: dict[Seat, bool]
    end: GameEnded | None = None
    players: dict[Seat, PlayerInfo]
    clocks: dict[Seat, SeatClock]
    match: MatchView | None = None
    watchers: int = Field(0, ge=0)

    def __repr__(self) -> str:
        return f"WatchTable(game={self.game!r}, seq={self.seq}, phase={self.phase})"

    def seat_view(self, seat: Seat) -> PlayerView:
        """The table as the *other* seat's view shows ``seat`` (face down until the end), with
        nothing of that other seat's own: what the table widgets draw for a watcher."""
        other = seat.other
        return PlayerView(seat=other, phase=self.phase, settings=self.settings,
                          terms=self.terms, dora_indicator=self.dora_indicator, own_tiles="",
                          own_hand=None, own_pool="", discards=self.discards, turn=self.turn,
                          opponent_ready=self.ready[seat], own_furiten=None, end=self.end)


class WatchClosed(BaseModel):
    """Nothing more follows for this watcher (the room closed, or the watcher left)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["closed"] = "closed"
    reason: str = Field(max_length=500)


class WatchRejected(BaseModel):
    """A watcher's ``command``, answered by its id: watchers cannot play."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["rejected"] = "rejected"
    command_id: str | None = Field(None, max_length=64)
    reason: str = Field(max_length=500)


class WatchState(BaseModel):
    """The server's message to a watcher: the whole table as a watcher sees it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Literal["watch"] = "watch"
    table: WatchTable


def public_table(game: str, table: TableView, watchers: int) -> WatchTable:
    """What both players see of ``table`` (a view one seat was sent): that seat's own tiles,
    hand, pool and furiten dropped; whether its hand is chosen kept (the other seat is told)."""
    view = table.view
    seat = view.seat
    return WatchTable(game=game, seq=table.seq, phase=view.phase, settings=view.settings,
                      terms=view.terms, dora_indicator=view.dora_indicator,
                      discards=view.discards, turn=view.turn,
                      ready={seat: view.own_hand is not None,
                             seat.other: view.opponent_ready},
                      end=view.end, players=table.players, clocks=table.clocks,
                      match=table.match, watchers=watchers)


WatcherMessage = WatchState | WatchClosed | WatchRejected | WireError | Pong
_ADAPTER: TypeAdapter[WatcherMessage] = TypeAdapter(
    Annotated[WatcherMessage, Field(discriminator="type")])


def parse_watcher_line(data: bytes) -> WatcherMessage:
    """A line the server sends a watcher; :class:`WireProblem` if it is none of them."""
    try:
        return _ADAPTER.validate_json(data)
    except ValueError as error:
        raise WireProblem(f"not a watcher's message: {type(error).__name__}") from None


class WatchLink(LineLink):
    """A watcher's connection: :meth:`states` gives each new table until it closes;
    :meth:`~LineLink.close` stops watching."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        super().__init__(reader, writer)
        #: Why the server closed the connection (a ``closed`` reason), once it has.
        self.closed_reason: str | None = None

    @classmethod
    async def open(cls, game: str, *, socket: str | Path | None = None,
                   player: str | None = None) -> WatchLink:
        """Connect and ask to watch ``game``; :class:`RemoteError` (one line) when the server
        cannot be reached."""
        return cls(*await cls.connect(socket_path(socket), Hello(
            version=PROTOCOL_VERSION, action="watch", game=game, player=player)))

    async def first(self) -> WatchTable:
        """The first table; :class:`RemoteError` with the server's reason if it refuses."""
        async for table in self.states():
            return table
        raise RemoteError(self.closed_reason or "the game server closed the connection",
                          "closed")

    async def states(self) -> AsyncIterator[WatchTable]:
        """Each table as it comes; :class:`RemoteError` if the server refuses."""
        async for line in self.lines():
            try:
                message = parse_watcher_line(line)
            except WireProblem:
                continue
            if isinstance(message, WatchState):
                yield message.table
            elif isinstance(message, WatchClosed):
                self.closed_reason = message.reason
                return
            elif isinstance(message, WireError) and message.fatal:
                raise RemoteError(message.message, message.code)


__all__ = ["MAX_WATCHERS", "WatchClosed", "WatchLink", "WatchRejected", "WatchState",
           "WatchTable", "parse_watcher_line", "public_table"]
