"""A match: several games between two players, with dealer, counter sticks and scores (R30-R35).

:class:`Match` is pure, like :class:`~minefield.rules.game.Game`: it maps players to seats,
starts each game with the seed, settings and terms (R23, R34, R35) it needs, and
:meth:`Match.settle` applies a finished game's :class:`~minefield.rules.game.GameEnded`.
A match is rebuilt from its seed, settings, players and results with :meth:`Match.replay`
(also mid-way: the results of the games played so far).

The match seed is hidden information: every game's seed follows from it. A match is named in
public (views, the wire, logs) by :attr:`Match.id`, derived one-way from the seed.
The club's decisions where RULES.md is silent are in ``assets/match_decisions.md``:
``hands`` counts dealerships (a repeat does not advance it), ties share a place, sticks left
on the table when the match ends vanish.

>>> match = Match("0123456789abcdef0123456789abcdef", players=("ann", "bob"))
>>> match.game_number, match.hand_number, match.honba, match.scores
(1, 1, 0, {'ann': 25000, 'bob': 25000})
>>> sorted(match.seats.values())
['ann', 'bob']
>>> match.new_game().phase
'choosing'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from minefield.errors import MinefieldError
from minefield.rules.game import Game, GameEnded, GameTerms, Seat
from minefield.rules.seed import derive_int, derive_seed, parse_seed
from minefield.rules.settings import RuleSettings
from minefield.rules.wall import Deal

PAARENCHAN_REPEATS = 8  # R35
RYANSHI_STICKS = 4  # R34


class MatchError(MinefieldError, ValueError):
    """A match command that is not allowed now (settling twice, a game after the end...);
    the match is unchanged."""


class Standing(NamedTuple):
    """One line of the standings: the place (shared on a tie), the player and the points."""

    place: int
    player: str
    points: int


@dataclass(frozen=True)
class Settlement:
    """What one finished game did to the match (R31-R33), in numbers and in words.

    ``payments`` are by the seats of that game and sum to zero; ``scores`` are after it, by
    player. ``renchan`` is true when the dealer keeps the seat (R31).
    """

    game_number: int
    hand_number: int
    seats: dict[Seat, str]
    result: Literal["ron", "draw"]
    winner: Seat | None
    honba: int
    payments: dict[Seat, int]
    lines: tuple[str, ...]
    renchan: bool
    paarenchan: bool
    match_over: bool
    scores: dict[str, int]

    def __str__(self) -> str:
        return "\n".join(self.lines)


def match_id(seed: int | str) -> str:
    """The public id of the match ``seed`` (32 hex digits), derived one-way: knowing the id
    gives no shortcut to the seed or to any game's deal.

    >>> match_id(1) == Match(1, ("ann", "bob")).id != Match(1, ("ann", "bob")).seed
    True
    """
    return derive_seed(parse_seed(seed), "match id")


def _sticks(count: int) -> str:
    return f"{count} counter stick{'' if count == 1 else 's'}"


class Match:
    """A match between two players (R30-R35) from a seed (32 hex digits or a small number).

    ``players`` are two distinct names; ``settings`` default to the ``match`` preset. Use
    :meth:`new_game` to start each game and :meth:`settle` with its end; the properties
    (``seats``, ``dealer``, ``honba``, ``scores``...) describe the state before the next game.
    """

    def __init__(self, seed: int | str, players: Sequence[str],
                 settings: RuleSettings | None = None) -> None:
        names = tuple(players)
        if len(names) != 2 or not all(isinstance(n, str) and n.strip() for n in names):
            raise ValueError(f"a match needs two player names, got {names!r}")
        if names[0] == names[1]:
            raise ValueError(f"the two players of a match need distinct names, "
                             f"both are {names[0]!r}")
        self.seed = parse_seed(seed)
        #: The public name of the match: derived one-way from the seed, which it never reveals.
        self.id = match_id(self.seed)
        self.settings = settings or RuleSettings.preset("match")
        self.players: tuple[str, str] = (names[0], names[1])
        first = self.players[derive_int(self.seed, "first dealer") % 2]  # R30
        self.seats: dict[Seat, str] = {Seat.EAST: first, Seat.WEST: self._other(first)}
        self.scores: dict[str, int] = dict.fromkeys(self.players, self.settings.start_points)
        self.game_number = 1
        self.hand_number = 1
        self.honba = 0
        self.inherited = 0
        self.dealer_streak = 0
        self.over = False
        self.history: list[Settlement] = []
        self._clean_start = True  # R35: the dealer took the seat with no sticks on the table
        self._privilege_used = False  # R35: the paarenchan win was made in this dealership

    def __repr__(self) -> str:
        return (f"Match(game={self.game_number}, hand={self.hand_number}, "
                f"dealer={self.dealer!r}, honba={self.honba}, scores={self.scores}, "
                f"over={self.over})")

    # -- state ----------------------------------------------------------------------------------

    @property
    def dealer(self) -> str:
        """The player who is East (the dealer) in the next game."""
        return self.seats[Seat.EAST]

    @property
    def game_seed(self) -> str:
        """The seed of the next game, derived from the match seed and its number (R2)."""
        return derive_seed(self.seed, "game", self.game_number)

    @property
    def paarenchan(self) -> bool:
        """True when the dealer holds R35's privilege for the next game."""
        return (self.settings.paarenchan and self._clean_start and not self._privilege_used
                and self.dealer_streak >= PAARENCHAN_REPEATS)

    @property
    def terms(self) -> GameTerms:
        """What the next game needs beyond the settings (R23, R34, R35)."""
        return GameTerms(dealer_bonus=self.settings.dealer_bonus,
                         ryanshi=self.settings.ryanshi and self.honba >= RYANSHI_STICKS,
                         paarenchan=self.paarenchan)

    def seat_of(self, player: str) -> Seat:
        """The seat ``player`` takes in the next game."""
        for seat, name in self.seats.items():
            if name == player:
                return seat
        raise ValueError(f"{player!r} does not play in this match")

    def standings(self) -> list[Standing]:
        """The players by points, highest first; equal points share a place (no tie-break).

        >>> [tuple(line) for line in Match(1, ("ann", "bob")).standings()]
        [(1, 'ann', 25000), (1, 'bob', 25000)]
        """
        ordered = sorted(self.players, key=lambda name: -self.scores[name])
        return [Standing(1 + sum(self.scores[o] > self.scores[name] for o in self.players),
                         name, self.scores[name]) for name in ordered]

    def snapshot(self) -> dict[str, Any]:
        """The match part of a record's header: the state before the next game (public).

        ``id`` is :attr:`id`, derived one-way from the match seed: it names the match and gives
        no shortcut to any deal. The seed itself is not here (a record adds it under ``seed``).

        >>> sorted(Match(1, ("ann", "bob")).snapshot())
        ['dealer_streak', 'game', 'honba', 'id', 'players', 'scores']
        """
        return {
            "id": self.id,
            "game": self.game_number,
            "players": {"east": self.seats[Seat.EAST], "west": self.seats[Seat.WEST]},
            "dealer_streak": self.dealer_streak,
            "honba": self.honba,
            "scores": dict(self.scores),
        }

    # -- playing --------------------------------------------------------------------------------

    def new_game(self, deal: Deal | None = None) -> Game:
        """The next game, with its seed, the settings and the terms (``deal``: a prepared deal
        for tests). Asking again before :meth:`settle` gives the same game afresh."""
        if self.over:
            raise MatchError("the match is over: there is no next game")
        return Game(self.game_seed, self.settings, deal=deal, terms=self.terms)

    def settle(self, ended: GameEnded | Game) -> Settlement:
        """Apply the end of the current game (R31-R33) and return what it did.

        Raises :class:`MatchError`, changing nothing, when the match is over, the game has not
        ended, or the result is not the current game's (e.g. settled twice).
        """
        ended = self._check(ended)
        east, west = self.seats[Seat.EAST], self.seats[Seat.WEST]
        payments = {Seat.EAST: 0, Seat.WEST: 0}
        honba = self.honba
        privilege = self.paarenchan
        lines: list[str] = []
        if ended.result == "ron":
            assert ended.winner is not None and ended.value is not None
            winner, loser = ended.winner, ended.winner.other
            amount = ended.value.points + honba * self.settings.honba_points  # R32
            payments[winner], payments[loser] = amount, -amount
            pays = f"{self._who(loser)} pays {self._who(winner)} {ended.value.points}"
            if honba:
                pays += (f" + {_sticks(honba)} x {self.settings.honba_points} = {amount} "
                         "(R32)")
            lines.append(pays)
            renchan = winner is Seat.EAST
        else:
            tenpai = {seat: bool(ended.waits.get(seat)) for seat in Seat}  # R12
            if tenpai[Seat.EAST] != tenpai[Seat.WEST]:  # R33
                gets = Seat.EAST if tenpai[Seat.EAST] else Seat.WEST
                amount = self.settings.noten_payment
                payments[gets], payments[gets.other] = amount, -amount
                lines.append(f"Draw: {gets.value.title()} tenpai, {gets.other.value.title()} "
                             f"noten: {self._who(gets.other)} pays {self._who(gets)} "
                             f"{amount} (R33)")
            else:
                both = "both tenpai" if tenpai[Seat.EAST] else "both noten"
                lines.append(f"Draw: {both}, nobody pays (R33)")
            renchan = tenpai[Seat.EAST]
        game_number, hand_number = self.game_number, self.hand_number
        for seat, amount in payments.items():
            self.scores[self.seats[seat]] += amount
        advance = self._advance(ended, renchan, privilege)
        below = [name for name in self.players if self.scores[name] < 0]
        # The last game says the match is over, not who deals next (nobody does).
        if below:  # R30
            self.over = True
            lines.append(f"Match over: {' and '.join(below)} below zero (R30)")
        elif self.over:
            hands = self.settings.hands
            lines.append(f"Match over after {hands} hand{'s' if hands != 1 else ''} (R30)")
        else:
            lines.append(advance)
        settlement = Settlement(
            game_number=game_number, hand_number=hand_number,
            seats={Seat.EAST: east, Seat.WEST: west}, result=ended.result,
            winner=ended.winner, honba=honba, payments=payments, lines=tuple(lines),
            renchan=renchan, paarenchan=privilege and ended.winner is Seat.EAST,
            match_over=self.over, scores=dict(self.scores))
        self.history.append(settlement)
        return settlement

    def _check(self, ended: GameEnded | Game) -> GameEnded:
        if self.over:
            raise MatchError("the match is over: there is no game to settle")
        if isinstance(ended, Game):
            if ended.terms != self.terms or ended.settings != self.settings:
                raise MatchError("this game was not started by the match (other settings "
                                 "or terms): start games with Match.new_game")
            if ended.result is None:
                raise MatchError("the game has not ended yet: settle it after its last discard")
            ended = ended.result
        if ended.seed != self.game_seed:
            raise MatchError(f"this result is not game {self.game_number}'s (seed "
                             f"{ended.seed}): a game is settled once, in order")
        return ended

    def _advance(self, ended: GameEnded, renchan: bool, privilege: bool) -> str:
        """R31: keep or pass the deal, count the sticks; the words for it."""
        self.game_number += 1
        if renchan:
            self.honba += 1
            self.dealer_streak += 1
            if privilege and ended.winner is Seat.EAST:
                self._privilege_used = True  # R35: the dealer's wins are ordinary again
            return (f"{self._who(Seat.EAST)} stays dealer: {_sticks(self.honba)} "
                    "on the table (R31)")
        if ended.result == "ron":  # the non-dealer won: the sticks are cleared
            self.honba = self.inherited = 0
            words = "counter sticks cleared"
        else:  # the dealer was noten: the sticks go to the new dealer unchanged
            self.inherited = self.honba
            words = (f"{_sticks(self.honba)} inherited" if self.honba
                     else "no counter sticks")
        self.seats = {Seat.EAST: self.seats[Seat.WEST], Seat.WEST: self.seats[Seat.EAST]}
        self.dealer_streak = 0
        self._clean_start = self.honba == 0
        self._privilege_used = False
        if self.hand_number >= self.settings.hands:
            self.over = True
        else:
            self.hand_number += 1
        return f"The deal passes to {self.dealer}, {words} (R31)"

    # -- replay ---------------------------------------------------------------------------------

    @classmethod
    def replay(cls, seed: int | str, players: Sequence[str], settings: RuleSettings | None,
               results: Sequence[GameEnded]) -> Match:
        """Rebuild a match from its seed, players, settings and the games' ends, in order.

        ``results`` may be the games played so far (a match resumed mid-way, e.g. from its
        records: :func:`minefield.records.replay.load_match`); ``players`` in the order given
        when the match was made (:meth:`players_in_order` finds it from the first dealer).
        Raises :class:`MatchError` for a result that is not the next game's.
        """
        match = cls(seed, players, settings)
        for ended in results:
            match.settle(ended)
        return match

    @staticmethod
    def players_in_order(seed: int | str, east: str, west: str) -> tuple[str, str]:
        """The ``players`` order that makes ``east`` the first dealer of the match ``seed``
        (R30): what :meth:`replay` needs when only the first game's seats are known.

        >>> match = Match(5, ("ann", "bob"))
        >>> Match.players_in_order(5, match.dealer, match.seats[Seat.WEST])
        ('ann', 'bob')
        """
        first = derive_int(parse_seed(seed), "first dealer") % 2
        return (east, west) if first == 0 else (west, east)

    def state_key(self) -> tuple[Any, ...]:
        """A value that is equal for two matches in the same state (tests and records)."""
        return (self.seed, self.settings, self.players, tuple(self.seats.items()),
                tuple(self.scores.items()), self.game_number, self.hand_number, self.honba,
                self.inherited, self.dealer_streak, self.over, self._clean_start,
                self._privilege_used, tuple(self.history))

    # -- helpers --------------------------------------------------------------------------------

    def _other(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]

    def _who(self, seat: Seat) -> str:
        return f"{seat.value.title()} ({self.seats[seat]})"


__all__ = ["PAARENCHAN_REPEATS", "RYANSHI_STICKS", "Match", "MatchError", "Settlement",
           "Standing", "match_id"]
