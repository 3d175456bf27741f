"""What one table plays, game after game: a single game, or a match.

A :class:`Series` holds the game on the table (:attr:`Series.table`, a
:class:`~minefield.table.game_table.GameTable`) and knows what comes after it. Its two kinds are
:class:`SingleGame` (one game, then the series is over) and
:class:`~minefield.table.match_table.MatchTable` (a match, R30-R35). No asyncio, no files:
time comes in as ``now`` and records through a recorder.

**Where the next game happens.** Every game of a series is dealt by one method,
:meth:`Series._deal`: the first when the series is made, each following one by
:meth:`Series.next_game` (at one terminal at once; over a network once both players asked,
:meth:`Series.ask_next_game`). After the last game a *rematch* is a new series with the same
players (:meth:`Series.rematch`, seats swapped for a single game, the first dealer drawn again
for a match), linked to the old one by :attr:`Series.rematch_of`: a series never starts over.
The two holders of a series call nothing else: :class:`~minefield.session.local.LocalSession`
(this process) and the daemon's room (:meth:`minefield.server.room.Room.begin`).

>>> from minefield.rules.game import Game
>>> series = SingleGame(Game(seed=3), {Seat.EAST: PlayerInfo(name="Ann"),
...                                    Seat.WEST: PlayerInfo(name="Bob")})
>>> series.seats, series.over
({<Seat.EAST: 'east'>: 'Ann', <Seat.WEST: 'west'>: 'Bob'}, True)
>>> again = series.rematch(seed=4)
>>> again.seats[Seat.EAST], again.rematch_of == series.id
('Bob', True)
"""

from __future__ import annotations

import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar, Literal

from minefield.protocol.messages import MatchView, PlayerInfo, ServerMessageType
from minefield.rules.game import Game, IllegalCommand, Seat
from minefield.rules.match import MatchError, Settlement
from minefield.table.game_table import GameTable, Recorder

SeriesKind = Literal["single", "match"]
#: Makes the record of a single game (None: not recorded): it gets the game and who sits where.
GameRecorderFactory = Callable[[Game, Mapping[Seat, str]], Recorder | None]


def new_series_id() -> str:
    """A fresh public id for a series (16 hex digits; it says nothing of any deal)."""
    return secrets.token_hex(8)


class Series(ABC):
    """What one table plays, game after game; see the module.

    ``players`` are the two players by name (their :class:`PlayerInfo`: kind, presence); the
    names are the series' own (identity keys on the daemon). ``rematch_of`` is the id of the
    series this one is a rematch of. ``one_keyboard``: hot-seat, both players at one keyboard;
    each game's clocks wait for the player at it (:class:`GameTable`, R25). A rematch is the
    daemon's (two keyboards): it is never given.
    """

    kind: ClassVar[SeriesKind]

    def __init__(self, players: Mapping[str, PlayerInfo], *,
                 rematch_of: str | None = None, one_keyboard: bool = False) -> None:
        self.id = new_series_id()
        self.rematch_of = rematch_of
        self.one_keyboard = one_keyboard
        self._infos = dict(players)
        #: The players who asked for the next game (over a network both must).
        self.next_asked: set[str] = set()
        #: What the game on the table did to the match once it ended (None in a single game).
        self.settlement: Settlement | None = None
        self.table: GameTable

    # -- what each kind says -----------------------------------------------------------------------

    @property
    @abstractmethod
    def players(self) -> tuple[str, str]:
        """The two players, by name."""

    @property
    @abstractmethod
    def seats(self) -> dict[Seat, str]:
        """Who sits where in the game on the table (East is its dealer)."""

    @property
    @abstractmethod
    def over(self) -> bool:
        """True when no game follows the one on the table."""

    @abstractmethod
    def _deal(self, now: float | None) -> GameTable:
        """Deal the series' next game and open its table (clocks started at ``now``).

        The one place a game of a series begins.
        """

    @abstractmethod
    def rematch(self, seed: int | str) -> Series:
        """A new series of the same kind between the same players, from ``seed``, linked to
        this one (:attr:`rematch_of`)."""

    def view(self) -> MatchView | None:
        """The match's public state for every table view (None: a single game)."""
        return None

    # -- the same for every kind -------------------------------------------------------------------

    @property
    def game_ended(self) -> bool:
        """True once the game on the table has ended."""
        return self.table.game.phase == "ended"

    def seat_of(self, player: str) -> Seat:
        """The seat of ``player`` in the game on the table."""
        for seat, name in self.seats.items():
            if name == player:
                return seat
        raise ValueError(f"{player!r} does not play at this table")

    def next_game(self, now: float) -> list[ServerMessageType]:
        """Start the next game at once: a snapshot of it for both seats (the players may have
        changed seats, R31). Raises :class:`~minefield.rules.match.MatchError` while the game
        on the table goes on and after a match, :class:`IllegalCommand` in a single game."""
        if self.kind == "single":
            raise IllegalCommand("a single game has no next game")
        if not self.game_ended:
            raise MatchError("the game on the table has not ended: no next game yet")
        if self.over:
            raise MatchError("the match is over: there is no next game")
        for seat, name in self.seats.items():  # presence follows the player
            self._infos[name] = self.table.players[seat]
        self.settlement = None
        self.next_asked = set()
        self.table = self._deal(now)
        return [self.table.snapshot(seat, now) for seat in Seat]

    def ask_next_game(self, player: str, now: float) -> list[ServerMessageType]:
        """``player`` is ready for the next game (over a network both must be): the next
        game's snapshots once both asked, else the new table for both seats (who is ready
        shows in :attr:`MatchView.next_asked <minefield.protocol.messages.MatchView>`); nothing
        while the game goes on or when the series is over."""
        if player not in self.players:
            raise ValueError(f"{player!r} does not play at this table")
        if not self.game_ended or self.over:
            return []
        self.next_asked.add(player)
        if self.next_asked == set(self.players):
            return self.next_game(now)
        return [self.table.snapshot(seat, now) for seat in Seat]

    def __rich_repr__(self) -> Iterator[Any]:
        yield "kind", self.kind
        yield "over", self.over
        yield "tiles", "<hidden>"


class SingleGame(Series):
    """A series of one game: ``game`` between ``players`` (by seat); ``recorders`` makes its
    record (and a rematch's). Its rematch is another single game with the seats swapped.

    The players are named by their :class:`PlayerInfo` names, or by ``names`` (by seat) when
    the series knows them otherwise (the daemon's identity keys; the views keep the infos').
    """

    kind: ClassVar[SeriesKind] = "single"

    def __init__(self, game: Game, players: Mapping[Seat, PlayerInfo], *,
                 recorders: GameRecorderFactory | None = None, now: float | None = None,
                 rematch_of: str | None = None, names: Mapping[Seat, str] | None = None,
                 one_keyboard: bool = False) -> None:
        seats = {seat: names[seat] if names is not None else players[seat].name
                 for seat in Seat}
        if len(set(seats.values())) != 2:
            raise ValueError("the two players of a game need two names")
        super().__init__({seats[seat]: players[seat] for seat in Seat}, rematch_of=rematch_of,
                         one_keyboard=one_keyboard)
        self._game = game
        self._seats = seats
        self.recorders = recorders
        self.table = self._deal(now)

    def __repr__(self) -> str:
        return f"SingleGame({self.id!r}, table={self.table!r})"

    @property
    def players(self) -> tuple[str, str]:
        """The two players, East's first."""
        return self._seats[Seat.EAST], self._seats[Seat.WEST]

    @property
    def seats(self) -> dict[Seat, str]:
        """Who sits where."""
        return dict(self._seats)

    @property
    def over(self) -> bool:
        """A single game has no next game."""
        return True

    def _deal(self, now: float | None) -> GameTable:
        infos = {seat: self._infos[name] for seat, name in self._seats.items()}
        recorder = (self.recorders(self._game, self.seats) if self.recorders is not None
                    else None)
        return GameTable(self._game, infos, recorder=recorder, now=now,
                         one_keyboard=self.one_keyboard)

    def rematch(self, seed: int | str) -> SingleGame:
        """The same players with the seats swapped, a new deal from ``seed``."""
        infos = {seat.other: self.table.players[seat] for seat in Seat}
        names = {seat.other: name for seat, name in self._seats.items()}
        return SingleGame(Game(seed, self._game.settings), infos, recorders=self.recorders,
                          rematch_of=self.id, names=names)


__all__ = ["GameRecorderFactory", "Series", "SeriesKind", "SingleGame", "new_series_id"]
