"""Watching a game on the daemon: what a watcher is sent (the client is
:class:`~minefield.session.watch_link.WatchLink`).

A watcher (a ``watch`` hello naming a game id, protocol 11) is sent only what *both* players
see (R26): both discard rows, the dora indicator, whose turn it is, which hands are chosen,
the players and their presence, the clocks, a match's scoreboard; never a hand, a pool, the
34 tiles or a furiten before the end (each is one seat's own); at the end, the ``game_ended``
event both players get, which reveals everything (the result screen's). It is
:class:`WatchTable`, sent as :class:`WatchState` at once and after every change the players
were told of. :func:`public_table` makes it from a table view a *seat* was sent, dropping
that seat's own part, so a watcher can never learn what no player was told, nor sooner.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from minefield.protocol.messages import (
    MatchView,
    PlayerInfo,
    SeatClock,
    TableView,
)
from minefield.protocol.wire import (
    GameId,
    Pong,
    WireError,
    WireProblem,
)
from minefield.rules.game import GameEnded, GameTerms, PlayerView, Seat
from minefield.rules.settings import RuleSettings

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


__all__ = ["MAX_WATCHERS", "WatchClosed", "WatchRejected", "WatchState", "WatchTable",
           "WatcherMessage", "parse_watcher_line", "public_table"]
