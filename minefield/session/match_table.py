"""A match at one table: the games of a :class:`~minefield.rules.match.Match` one after the other
(R30-R35), each on its own :class:`~minefield.session.table.GameTable` (no asyncio).

:class:`MatchTable` is the part of running a match that is the same in this process and on the
daemon. It starts each game from :meth:`Match.new_game <minefield.rules.match.Match.new_game>`
(seed, settings and the terms of R23, R34, R35), settles it the moment it ends (before its
result is recorded or anyone hears of it), puts the match's public state in every
:class:`~minefield.session.protocol.TableView` as a :class:`~minefield.session.protocol.MatchView`
(never the match seed), and starts the next game when asked: at once with :meth:`next_game`
(one terminal), or once both players asked with :meth:`ask_next_game` (a network room).

>>> from minefield.rules.match import Match
>>> match = MatchTable(Match(1, ("Ann", "Bob")), {"Ann": PlayerInfo(name="Ann"),
...                                              "Bob": PlayerInfo(name="Bob")})
>>> view = match.view()
>>> (view.game, view.hand, view.hands, view.honba, view.scores)
(1, 1, 4, 0, {'Ann': 25000, 'Bob': 25000})
>>> match.table.table(match.seat_of("Ann"), now=0.0).match == view
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from minefield.rules.game import Game, GameTerms, Seat
from minefield.rules.match import Match, MatchError, Settlement
from minefield.rules.wall import Deal
from minefield.session.protocol import (
    MatchView,
    PlayerInfo,
    ServerMessageType,
    SettlementView,
    StandingView,
)
from minefield.session.table import GameTable, Recorder

#: Makes the record of each game of a match (None: not recorded); it gets the game and the match
#: as it stands before that game (``Match.snapshot()`` is the record header's match part).
RecorderFactory = Callable[[Game, Match], Recorder | None]


@dataclass(frozen=True)
class _GameStart:
    """The match as it stood when the game on the table began."""

    game: int
    hand: int
    seats: dict[Seat, str]
    dealer_streak: int
    honba: int
    inherited: int
    terms: GameTerms


def settlement_view(settlement: Settlement) -> SettlementView:
    """A :class:`~minefield.rules.match.Settlement` as the protocol carries it."""
    return SettlementView(
        game=settlement.game_number, hand=settlement.hand_number, result=settlement.result,
        winner=settlement.winner, honba=settlement.honba, payments=dict(settlement.payments),
        lines=list(settlement.lines), renchan=settlement.renchan,
        paarenchan=settlement.paarenchan, match_over=settlement.match_over)


class MatchTable:
    """A match between two players at one table, one :class:`GameTable` per game.

    ``players`` are the match's two players by name (their :class:`PlayerInfo`: kind,
    presence); each game seats them as the match says (R30, R31). ``recorders`` makes each
    game's record; ``deals`` gives prepared deals by game number (tests); ``now`` starts the
    first game's clocks; ``one_keyboard``: hot-seat (each game's clocks wait for the player at
    the keyboard, :class:`GameTable`). Commands go to the current game's table, :attr:`table`;
    when a game ends, :attr:`settlement` says what it did to the match.
    """

    def __init__(self, match: Match, players: Mapping[str, PlayerInfo], *,
                 recorders: RecorderFactory | None = None,
                 deals: Mapping[int, Deal] | None = None, now: float | None = None,
                 one_keyboard: bool = False) -> None:
        if set(players) != set(match.players):
            raise ValueError(f"players must be the match's two players, {match.players!r}")
        self.match = match
        self._infos = dict(players)
        self._recorders = recorders
        self._deals = dict(deals or {})
        self._one_keyboard = one_keyboard
        self.settlement: Settlement | None = None
        self.next_asked: set[str] = set()
        self._start = self._starting()
        self.table = self._new_table(now)

    def __repr__(self) -> str:
        return (f"MatchTable(game={self._start.game}, over={self.match.over}, "
                f"table={self.table!r})")

    def __rich_repr__(self) -> Iterator[Any]:
        yield "game", self._start.game
        yield "over", self.match.over
        yield "tiles", "<hidden>"

    # -- the games ------------------------------------------------------------------------------

    def _starting(self) -> _GameStart:
        match = self.match
        return _GameStart(game=match.game_number, hand=match.hand_number,
                          seats=dict(match.seats), dealer_streak=match.dealer_streak,
                          honba=match.honba, inherited=match.inherited, terms=match.terms)

    def _new_table(self, now: float | None) -> GameTable:
        game = self.match.new_game(deal=self._deals.get(self.match.game_number))
        recorder = self._recorders(game, self.match) if self._recorders is not None else None
        infos = {seat: self._infos[name] for seat, name in self._start.seats.items()}
        return GameTable(game, infos, recorder=recorder, now=now, on_end=self._settle,
                         match=self.view, one_keyboard=self._one_keyboard)

    def _settle(self, game: Game) -> None:
        self.settlement = self.match.settle(game)

    @property
    def seats(self) -> dict[Seat, str]:
        """Who sits where in the game on the table (East is its dealer)."""
        return dict(self._start.seats)

    def seat_of(self, player: str) -> Seat:
        """The seat of ``player`` in the game on the table."""
        for seat, name in self._start.seats.items():
            if name == player:
                return seat
        raise ValueError(f"{player!r} does not play in this match")

    @property
    def game_ended(self) -> bool:
        """True once the game on the table has ended (and been settled)."""
        return self.settlement is not None

    @property
    def over(self) -> bool:
        """True when the match is over: no next game (R30)."""
        return self.match.over

    def next_game(self, now: float) -> list[ServerMessageType]:
        """Start the next game at once: a snapshot of it for both seats (the players may have
        changed seats, R31). Raises :class:`~minefield.rules.match.MatchError` while the game
        on the table goes on, or when the match is over."""
        if not self.game_ended:
            raise MatchError("the game on the table has not ended: no next game yet")
        if self.match.over:
            raise MatchError("the match is over: there is no next game")
        for seat, name in self._start.seats.items():  # presence follows the player
            self._infos[name] = self.table.players[seat]
        self.settlement = None
        self.next_asked = set()
        self._start = self._starting()
        self.table = self._new_table(now)
        return [self.table.snapshot(seat, now) for seat in Seat]

    def ask_next_game(self, player: str, now: float) -> list[ServerMessageType]:
        """``player`` is ready for the next game (over a network both must be): the next
        game's snapshots once both asked, else the new table for both seats (who is ready
        shows in :attr:`MatchView.next_asked <minefield.session.protocol.MatchView>`)."""
        if player not in self.match.players:
            raise ValueError(f"{player!r} does not play in this match")
        if not self.game_ended or self.match.over:
            return []
        self.next_asked.add(player)
        if self.next_asked == set(self.match.players):
            return self.next_game(now)
        return [self.table.snapshot(seat, now) for seat in Seat]

    # -- what everyone may see --------------------------------------------------------------------

    def view(self) -> MatchView:
        """The match's public state for a table view: never the seed (R2, R26)."""
        match, start = self.match, self._start
        settlement = self.settlement
        return MatchView(
            id=match.id,  # public: derived one-way from the seed (match_decisions.md)
            game=start.game, hand=start.hand, hands=match.settings.hands,
            players=dict(start.seats), dealer_streak=start.dealer_streak, honba=start.honba,
            inherited=start.inherited, dealer_bonus=start.terms.dealer_bonus,
            ryanshi=start.terms.ryanshi, paarenchan=start.terms.paarenchan,
            scores=dict(match.scores),
            last=settlement_view(settlement) if settlement is not None else None,
            over=match.over,
            standings=[StandingView(place=s.place, player=s.player, points=s.points)
                       for s in match.standings()] if match.over else None,
            next_asked=sorted(self.next_asked))


__all__ = ["MatchTable", "RecorderFactory", "settlement_view"]
