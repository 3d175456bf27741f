"""Ratings: Glicko-2 (the ``glicko2`` package, as lichess uses the system), one game at a time.

Every finished network game between two players of the front door updates both ratings, each
from the other's rating before the game: a win scores 1, a draw (R13) 0.5 for both. A game
against a bot is not rated; neither is one with a player the front door does not know (a Unix
user of the OpenSSH route on the same daemon). A game abandoned by a disconnection is played
out by the daemon's clocks (R25b) and rated like any other. Each game of a match is rated.

The embedded daemon asks as soon as a game ends (:meth:`Rater.rate_game` is its
:data:`~minefield.server.rating.RateGame`, run in its record threads with a connection of
their own to the SQLite file) and tells both players, whose result screen shows each rating
before and after. :meth:`Rater.scan` also reads the records folder (the ``result`` line says a
game is over), so that a separate daemon's games and any game missed while the front door was
down are rated too; a game is rated once whichever comes first (one transaction,
:meth:`~minefield.frontdoor.accounts.Accounts.rate_once`).

>>> before = ((1500.0, 350.0, 0.06), (1500.0, 350.0, 0.06))
>>> [round(r) for r, _, _ in rate_pair(*before, score=1.0)]
[1662, 1338]
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import glicko2

from minefield.frontdoor.accounts import Account, Accounts, Change
from minefield.frontdoor.programs import programs_named
from minefield.protocol.messages import RatingChange
from minefield.records.reader import RecordError, read_record
from minefield.records.writer import RECORD_SUFFIX
from minefield.rules.game import Seat
from minefield.server.identity import display_name

log = logging.getLogger("minefield.frontdoor")

Rating = tuple[float, float, float]  # rating, deviation, volatility
FINISHED_FOLDER = "finished"


def rate_pair(first: Rating, second: Rating, score: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one game; ``score`` is the first player's (1, 0.5, 0)."""
    one = glicko2.Player(rating=first[0], rd=first[1], vol=first[2])
    two = glicko2.Player(rating=second[0], rd=second[1], vol=second[2])
    one.update_player([second[0]], [second[1]], [score])
    two.update_player([first[0]], [first[1]], [1.0 - score])
    return (one.rating, one.rd, one.vol), (two.rating, two.rd, two.vol)


class Rater:
    """Rates the finished games of a daemon's records folder, each once."""

    def __init__(self, accounts: Accounts, games_dir: Path, shared_account: str) -> None:
        self.accounts = accounts
        self.games_dir = games_dir
        self.suffix = f"@{shared_account}"
        self._done: set[str] = set()
        self._loaded = False

    def _account(self, player: str) -> Account | None:
        if not player.endswith(self.suffix):
            return None
        return self.accounts.by_name(display_name(player))

    def scan(self, stopping: Callable[[], bool] = lambda: False) -> int:
        """Rate every game that has ended since the last scan; how many were rated. The games
        already rated are read from the players' file once, at the first scan; each later scan
        lists the folders and reads only the records it has not seen end. ``stopping`` is
        asked between records (a first scan of many records stops with the server)."""
        if not self._loaded:
            self._done.update(self.accounts.rated_games())
            self._loaded = True
        rated = 0
        for folder in (self.games_dir, self.games_dir / FINISHED_FOLDER):
            try:
                with os.scandir(folder) as entries:
                    games = [entry.name.removesuffix(RECORD_SUFFIX) for entry in entries
                             if entry.name.endswith(RECORD_SUFFIX)]
            except OSError:
                continue
            for game in sorted(game for game in games if game not in self._done):
                if stopping():
                    return rated
                if self.accounts.is_rated(game):  # by the daemon, as the game ended
                    self._done.add(game)
                    continue
                rated += self._rate(game, folder / f"{game}{RECORD_SUFFIX}")
        return rated

    def _rate(self, game: str, path: Path) -> int:
        try:
            record = read_record(path)
        except RecordError:
            return 0  # being written, or damaged: the daemon says so in its own log
        if record.result is None:
            return 0  # still going on
        self._done.add(game)
        header = record.header
        east = self._account(header.players.east)
        west = self._account(header.players.west)
        casual = header.table is not None and not header.table.rated  # R36
        if (header.mode != "network" or east is None or west is None or east.id == west.id
                or casual):
            self.accounts.rate(game, [])  # a bot, a stranger, casual: not rated (seen)
            return 0
        result = record.result.result
        score = 0.5 if result.winner is None else (1.0 if result.winner == Seat.EAST else 0.0)
        self._rate_pair(game, east, west, score)
        return 1

    def _rate_pair(self, game: str, east: Account, west: Account, score: float
                   ) -> tuple[Change, Change] | None:
        def new(one: Account, two: Account) -> tuple[Rating, Rating]:
            return rate_pair((one.rating, one.deviation, one.volatility),
                             (two.rating, two.deviation, two.volatility), score)

        changes = self.accounts.rate_once(game, east.id, west.id, new)
        if changes is not None:
            (_, before_east, after_east, _), (_, before_west, after_west, _) = changes
            log.info("rated game %s: %s %.0f -> %.0f, %s %.0f -> %.0f", game, east.name,
                     before_east, after_east, west.name, before_west, after_west)
        return changes

    def ratings_of(self, players: list[str]) -> dict[str, int]:
        """The lobby's question (:data:`~minefield.server.lobby_state.RatingsOf`): the rating of
        each record name in ``players`` that is a player of this front door (others, such as
        a Unix user of the OpenSSH route, are left out), rounded."""
        names = {player: display_name(player) for player in players
                 if player.endswith(self.suffix)}
        ratings = self.accounts.ratings(list(names.values()))
        return {player: round(ratings[name]) for player, name in names.items()
                if name in ratings}

    def programs_of(self, players: list[str]) -> set[str]:
        """The lobby's question (:data:`~minefield.server.lobby_state.ProgramsOf`): those of
        the record names in ``players`` that are programs of this front door."""
        names = {player: display_name(player) for player in players
                 if player.endswith(self.suffix)}
        programs = programs_named(self.accounts, names.values())
        return {player for player, name in names.items() if name in programs}

    def rate_game(self, game: str, east: str, west: str, score: float
                  ) -> list[RatingChange] | None:
        """The daemon's question when a game ends (:data:`~minefield.server.rating.RateGame`):
        rate ``game`` between the record names ``east`` and ``west`` (East scored ``score``);
        each player's change, East first, or None when it is not rated (a player the front
        door does not know, one person in both seats)."""
        one, two = self._account(east), self._account(west)
        if one is None or two is None or one.id == two.id:
            return None
        changes = self._rate_pair(game, one, two, score)
        self._done.add(game)
        if changes is None:
            return None
        return [RatingChange(name=name, before=round(before), after=round(after),
                             deviation=round(deviation))
                for name, before, after, deviation in changes]


class ThreadRaters:
    """How the embedded daemon rates a game as it ends (its result screen shows the ratings at
    once) and finds the ratings its lobby shows: a :class:`Rater` with a connection to the
    players' SQLite file of its own in each of the daemon's record threads (a connection
    belongs to one thread). The names and ratings stay the front door's: the daemon only asks.

    :meth:`rate_game` is a :data:`~minefield.server.rating.RateGame` and :meth:`ratings_of` a
    :data:`~minefield.server.lobby_state.RatingsOf`, given to the daemon as it is made.
    """

    def __init__(self, accounts_path: Path, games_dir: Path, shared_account: str) -> None:
        self.accounts_path = accounts_path
        self.games_dir = games_dir
        self.shared_account = shared_account
        self._local = threading.local()

    def _rater(self) -> Rater:
        found: Rater | None = getattr(self._local, "rater", None)
        if found is None:
            found = self._local.rater = Rater(Accounts(self.accounts_path), self.games_dir,
                                              self.shared_account)
        return found

    def rate_game(self, game: str, east: str, west: str, score: float
                  ) -> list[RatingChange] | None:
        """:meth:`Rater.rate_game`, in this thread's connection."""
        return self._rater().rate_game(game, east, west, score)

    def ratings_of(self, players: list[str]) -> dict[str, int]:
        """:meth:`Rater.ratings_of`, in this thread's connection."""
        return self._rater().ratings_of(players)

    def programs_of(self, players: list[str]) -> set[str]:
        """:meth:`Rater.programs_of`, in this thread's connection."""
        return self._rater().programs_of(players)

    def scan(self, stopping: Callable[[], bool] = lambda: False) -> int:
        """:meth:`Rater.scan`, in this thread's connection."""
        return self._rater().scan(stopping)


class RatingScanner:
    """The front door's periodic :meth:`Rater.scan`, in a thread of its own: with thousands
    of records (a first start on a restored data folder) a first scan reads every record for
    seconds, and every later one lists the folders; the event loop, which answers every
    player, never waits on either. One thread, so the games are rated in order and each once;
    :meth:`stop` ends a long scan between two records."""

    def __init__(self, accounts_path: Path, games_dir: Path, shared_account: str) -> None:
        self._raters = ThreadRaters(accounts_path, games_dir, shared_account)
        self._stopping = threading.Event()
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="minefield-rating")

    async def scan(self) -> int:
        """Rate the games that have ended since the last scan (in the scanner's thread); how
        many were rated."""
        return await asyncio.get_running_loop().run_in_executor(
            self._thread, self._raters.scan, self._stopping.is_set)

    def stop(self) -> None:
        """Stop: a scan under way ends after its current record, none starts."""
        self._stopping.set()
        self._thread.shutdown(wait=False, cancel_futures=True)


__all__ = ["Rater", "Rating", "RatingScanner", "ThreadRaters", "rate_pair"]
