"""Bot-against-bot games and their statistics (``minefield simulate``).

Two players, A and B, each a bot level, play ``games`` single games. A sits East in even games
and West in odd ones, so both sit in each seat equally often. Every game's deal and both
bots' seeds come from the master seed and the game's number alone, so the same seed gives the
same results whatever the number of worker processes.

With ``--match`` (:func:`simulate_matches`), A and B play whole matches (R30-R35) instead:
the match seed of match ``i`` is derived from the master seed, the match draws the first
dealer, and every game's record carries the match header and the settlement.

>>> records = simulate(2, "easy", "easy", seed=5, jobs=1)
>>> [r.index for r in records], records == simulate(2, "easy", "easy", seed=5, jobs=1)
([0, 1], True)
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from minefield.bots.base import Bot
from minefield.bots.levels import make_bot
from minefield.records.header import MatchHeader, Players
from minefield.records.writer import write_game
from minefield.rules.game import Game, GameEnded, Seat
from minefield.rules.match import Match
from minefield.rules.seed import derive_int, derive_seed, parse_seed
from minefield.rules.settings import RuleSettings

Side = Literal["a", "b"]
BotFactory = Callable[[str, int], Bot]


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """The outcome of one simulated game, from player A's side."""

    index: int
    seed: str
    a_seat: Seat
    winner: Side | None
    points: int
    discard_number: int
    a_furiten: bool
    b_furiten: bool

    @property
    def a_points(self) -> int:
        """What A gained (+) or paid (-)."""
        if self.winner is None:
            return 0
        return self.points if self.winner == "a" else -self.points


def game_seed(master: int | str, index: int) -> str:
    """The deal seed of game ``index`` of a simulation (32 hex digits)."""
    return derive_seed(parse_seed(master), "simulate", index, "deal")


def bot_seed(master: int | str, index: int, side: Side) -> int:
    """The seed of player ``side``'s bot in game ``index``."""
    return derive_int(parse_seed(master), "simulate", index, side)


def play_game(game: Game, east: Bot, west: Bot) -> GameEnded:
    """Play ``game`` to its end with two bots (each sees only its own view)."""
    bots = {Seat.EAST: east, Seat.WEST: west}
    for seat in Seat:
        game.apply(seat, bots[seat].act(game.view(seat)))
    while game.turn is not None:
        seat = game.turn
        game.apply(seat, bots[seat].act(game.view(seat)))
    assert game.result is not None
    return game.result


def play_one(index: int, master_seed: int | str, level_a: str, level_b: str,
             settings: RuleSettings | None = None,
             factory: BotFactory = make_bot, record_folder: Path | None = None) -> GameOutcome:
    """Play game ``index`` of a simulation; with ``record_folder``, save its record there
    (players ``A <level>`` and ``B <level>``)."""
    seed = game_seed(master_seed, index)
    bot_a = factory(level_a, bot_seed(master_seed, index, "a"))
    bot_b = factory(level_b, bot_seed(master_seed, index, "b"))
    a_seat = Seat.EAST if index % 2 == 0 else Seat.WEST
    east, west = (bot_a, bot_b) if a_seat is Seat.EAST else (bot_b, bot_a)
    game = Game(seed, settings)
    end = play_game(game, east, west)
    if record_folder is not None:
        names = {a_seat: f"A {level_a}", a_seat.other: f"B {level_b}"}
        write_game(game, "simulate", Players(east=names[Seat.EAST], west=names[Seat.WEST]),
                   record_folder)
    winner: Side | None = None
    if end.winner is not None:
        winner = "a" if end.winner is a_seat else "b"
    return GameOutcome(
        index=index, seed=seed, a_seat=a_seat, winner=winner,
        points=end.value.points if end.value else 0, discard_number=end.discard_number,
        a_furiten=end.furiten[a_seat] is not None,
        b_furiten=end.furiten[a_seat.other] is not None,
    )


def _play_chunk(args: tuple[Sequence[int], int | str, str, str, RuleSettings | None,
                             Path | None]) -> list[GameOutcome]:
    indices, master_seed, level_a, level_b, settings, folder = args
    return [play_one(i, master_seed, level_a, level_b, settings, record_folder=folder)
            for i in indices]


def iter_games(games: int, level_a: str, level_b: str, seed: int | str = 0,
               jobs: int | None = None, settings: RuleSettings | None = None,
               record_folder: Path | None = None) -> Iterator[GameOutcome]:
    """Play the games, yielding records in game order (in ``jobs`` worker processes); with
    ``record_folder``, each game's record file is written in that folder by its worker."""
    cores = os.cpu_count() or 1
    jobs = min(jobs or cores, cores, -(-games // 4))  # no more workers than cores or chunks
    if jobs <= 1 or games <= 1:
        for index in range(games):
            yield play_one(index, seed, level_a, level_b, settings,
                           record_folder=record_folder)
        return
    chunk = 4
    work = [(range(start, min(games, start + chunk)), seed, level_a, level_b, settings,
             record_folder)
            for start in range(0, games, chunk)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for records in pool.map(_play_chunk, work):
            yield from records


def simulate(games: int, level_a: str, level_b: str, seed: int | str = 0,
             jobs: int | None = None, settings: RuleSettings | None = None,
             record_folder: Path | None = None) -> list[GameOutcome]:
    """All records of :func:`iter_games` as a list."""
    return list(iter_games(games, level_a, level_b, seed, jobs, settings, record_folder))


# ---------------------------------------------------------------------------------------------
# Matches


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """The outcome of one simulated match, from player A's side.

    ``winner`` is None for a drawn match (equal points: ties share a place). ``id`` is the
    match's public id (the seed stays hidden).
    """

    index: int
    id: str
    games: int
    draws: int
    a_points: int
    b_points: int
    a_first_dealer: bool

    @property
    def winner(self) -> Side | None:
        """The side with more points at the end; None on a tie."""
        if self.a_points == self.b_points:
            return None
        return "a" if self.a_points > self.b_points else "b"


def match_seed(master: int | str, index: int) -> str:
    """The seed of match ``index`` of a simulation (32 hex digits)."""
    return derive_seed(parse_seed(master), "simulate", "match", index)


def side_names(level_a: str, level_b: str) -> tuple[str, str]:
    """The players' names in a simulation's matches and records: ``A <level>``, ``B <level>``."""
    return f"A {level_a}", f"B {level_b}"


def play_match(index: int, master_seed: int | str, level_a: str, level_b: str,
               settings: RuleSettings | None = None, factory: BotFactory = make_bot,
               record_folder: Path | None = None) -> MatchOutcome:
    """Play match ``index`` of a simulation to its end (settings: the ``match`` preset
    unless given); with ``record_folder``, save every game's record there, with its match
    header and settlement."""
    seed = match_seed(master_seed, index)
    name_a, name_b = side_names(level_a, level_b)
    match = Match(seed, (name_a, name_b), settings or RuleSettings.preset("match"))
    levels = {name_a: ("a", level_a), name_b: ("b", level_b)}
    first_dealer = match.dealer
    draws = 0
    while not match.over:
        header = MatchHeader.of_match(match)
        game = match.new_game()
        bots = {}
        for seat, name in match.seats.items():
            side, level = levels[name]
            bots[seat] = factory(level, derive_int(seed, "bot", match.game_number, side))
        end = play_game(game, bots[Seat.EAST], bots[Seat.WEST])
        draws += end.result == "draw"
        settlement = match.settle(game)
        if record_folder is not None:
            write_game(game, "simulate", header.players, record_folder, match=header,
                       settlement=settlement)
    return MatchOutcome(index=index, id=match.id, games=len(match.history), draws=draws,
                        a_points=match.scores[name_a], b_points=match.scores[name_b],
                        a_first_dealer=first_dealer == name_a)


def _play_match(args: tuple[int, int | str, str, str, RuleSettings | None, Path | None]
                ) -> MatchOutcome:
    index, master_seed, level_a, level_b, settings, folder = args
    return play_match(index, master_seed, level_a, level_b, settings, record_folder=folder)


def iter_matches(matches: int, level_a: str, level_b: str, seed: int | str = 0,
                 jobs: int | None = None, settings: RuleSettings | None = None,
                 record_folder: Path | None = None) -> Iterator[MatchOutcome]:
    """Play the matches, yielding outcomes in match order (in ``jobs`` worker processes, at
    most the cores); the same seed gives the same matches whatever ``jobs``."""
    cores = os.cpu_count() or 1
    jobs = min(jobs or cores, cores, matches)
    work = [(index, seed, level_a, level_b, settings, record_folder)
            for index in range(matches)]
    if jobs <= 1:
        yield from map(_play_match, work)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_play_match, work)


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """Totals over simulated matches: matches won by each side and drawn, A's share of the
    decided matches, final points per side, games and drawn games per match."""

    matches: int
    a_wins: int
    b_wins: int
    tied: int
    a_share: Interval
    a_points: Interval
    b_points: Interval
    games: Interval
    draws: int
    total_games: int


def summarize_matches(outcomes: Sequence[MatchOutcome]) -> MatchSummary:
    """The totals of :class:`MatchSummary` with 95% intervals.

    >>> summary = summarize_matches(simulate_matches(2, "easy", "easy", seed=3, jobs=1))
    >>> summary.matches, summary.a_wins + summary.b_wins + summary.tied
    (2, 2)
    """
    a_wins = sum(1 for o in outcomes if o.winner == "a")
    b_wins = sum(1 for o in outcomes if o.winner == "b")
    return MatchSummary(
        matches=len(outcomes), a_wins=a_wins, b_wins=b_wins,
        tied=len(outcomes) - a_wins - b_wins, a_share=share_interval(a_wins, a_wins + b_wins),
        a_points=mean_interval([float(o.a_points) for o in outcomes]),
        b_points=mean_interval([float(o.b_points) for o in outcomes]),
        games=mean_interval([float(o.games) for o in outcomes]),
        draws=sum(o.draws for o in outcomes), total_games=sum(o.games for o in outcomes))


def simulate_matches(matches: int, level_a: str, level_b: str, seed: int | str = 0,
                     jobs: int | None = None, settings: RuleSettings | None = None,
                     record_folder: Path | None = None) -> list[MatchOutcome]:
    """All outcomes of :func:`iter_matches` as a list."""
    return list(iter_matches(matches, level_a, level_b, seed, jobs, settings, record_folder))


# ---------------------------------------------------------------------------------------------
# Statistics


@dataclass(frozen=True, slots=True)
class Interval:
    """An estimate with its 95% confidence interval."""

    value: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.value:.3g} [{self.low:.3g}, {self.high:.3g}]"


def mean_interval(values: Sequence[float]) -> Interval:
    """The mean with a normal-approximation 95% interval."""
    n = len(values)
    if n == 0:
        return Interval(0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return Interval(mean, mean, mean)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = 1.96 * math.sqrt(variance / n)
    return Interval(mean, mean - half, mean + half)


def share_interval(successes: int, trials: int) -> Interval:
    """A proportion with its Wilson 95% interval."""
    if trials == 0:
        return Interval(0.0, 0.0, 1.0)
    z = 1.96
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class SideSummary:
    """One player's totals over a simulation."""

    label: str
    wins: int
    deal_ins: int
    draws: int
    furiten: int
    points: Interval


@dataclass(frozen=True, slots=True)
class Summary:
    """Both players' totals and A's share of the decided games."""

    games: int
    a: SideSummary
    b: SideSummary
    a_share: Interval


def summarize(records: Sequence[GameOutcome], label_a: str, label_b: str) -> Summary:
    """Totals per player: wins, deal-ins, draws, furiten games, points per game."""
    wins_a = sum(1 for r in records if r.winner == "a")
    wins_b = sum(1 for r in records if r.winner == "b")
    draws = sum(1 for r in records if r.winner is None)
    a_points = [float(r.a_points) for r in records]
    a = SideSummary(label_a, wins_a, wins_b, draws, sum(1 for r in records if r.a_furiten),
                    mean_interval(a_points))
    b = SideSummary(label_b, wins_b, wins_a, draws, sum(1 for r in records if r.b_furiten),
                    mean_interval([-p for p in a_points]))
    return Summary(len(records), a, b, share_interval(wins_a, wins_a + wins_b))
