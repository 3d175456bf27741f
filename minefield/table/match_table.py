"""A match at one table: the games of a :class:`~minefield.rules.match.Match` one after the other
(R30-R35), each on its own :class:`~minefield.table.game_table.GameTable` (no asyncio).

:class:`MatchTable` is the part of running a match that is the same in this process and on the
daemon. It starts each game from :meth:`Match.new_game <minefield.rules.match.Match.new_game>`
(seed, settings and the terms of R23, R34, R35), settles it the moment it ends (before its
result is recorded or anyone hears of it), puts the match's public state in every
:class:`~minefield.protocol.messages.TableView` as a :class:`~minefield.protocol.messages.MatchView`
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
from typing import Any, ClassVar

from minefield.protocol.messages import (
    MatchView,
    PlayerInfo,
    SettlementView,
    StandingView,
)
from minefield.rules.game import Game, GameTerms, Seat
from minefield.rules.match import Match, Settlement
from minefield.rules.wall import Deal
from minefield.table.game_table import GameTable, Recorder
from minefield.table.series import Series, SeriesKind

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


class MatchTable(Series):
    """A match between two players at one table, one :class:`GameTable` per game: the
    :class:`~minefield.table.series.Series` of a match.

    ``players`` are the match's two players by name (their :class:`PlayerInfo`: kind,
    presence); each game seats them as the match says (R30, R31). ``recorders`` makes each
    game's record; ``deals`` gives prepared deals by game number (tests); ``now`` starts the
    first game's clocks; ``one_keyboard``: hot-seat (:class:`~minefield.table.series.Series`).
    Commands go to the current game's table, :attr:`table`;
    when a game ends, :attr:`settlement` says what it did to the match.
    """

    kind: ClassVar[SeriesKind] = "match"

    def __init__(self, match: Match, players: Mapping[str, PlayerInfo], *,
                 recorders: RecorderFactory | None = None,
                 deals: Mapping[int, Deal] | None = None, now: float | None = None,
                 rematch_of: str | None = None, one_keyboard: bool = False) -> None:
        if set(players) != set(match.players):
            raise ValueError(f"players must be the match's two players, {match.players!r}")
        super().__init__(players, rematch_of=rematch_of, one_keyboard=one_keyboard)
        self.match = match
        self.recorders = recorders
        self._deals = dict(deals or {})
        self._start = self._starting()
        self.table = self._deal(now)

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

    def _deal(self, now: float | None) -> GameTable:
        """Deal the match's next game (the seats and terms the match gives, R31-R35)."""
        self._start = self._starting()
        game = self.match.new_game(deal=self._deals.get(self.match.game_number))
        recorder = self.recorders(game, self.match) if self.recorders is not None else None
        infos = {seat: self._infos[name] for seat, name in self._start.seats.items()}
        return GameTable(game, infos, recorder=recorder, now=now, on_end=self._settle,
                         match=self.view, one_keyboard=self.one_keyboard)

    def _settle(self, game: Game) -> None:
        self.settlement = self.match.settle(game)

    @property
    def players(self) -> tuple[str, str]:
        """The match's two players (the first is the host's, R30)."""
        return self.match.players

    @property
    def seats(self) -> dict[Seat, str]:
        """Who sits where in the game on the table (East is its dealer)."""
        return dict(self._start.seats)

    @property
    def game_ended(self) -> bool:
        """True once the game on the table has ended (and been settled)."""
        return self.settlement is not None

    @property
    def over(self) -> bool:
        """True when the match is over: no next game (R30)."""
        return self.match.over

    def rematch(self, seed: int | str) -> MatchTable:
        """A new match between the same players from ``seed`` (its first dealer drawn again,
        R30), recorded as this one, linked to it."""
        infos = {name: self.table.players[seat] for seat, name in self.seats.items()}
        return type(self)(Match(seed, self.match.players, self.match.settings), infos,
                          recorders=self.recorders, rematch_of=self.id)

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
