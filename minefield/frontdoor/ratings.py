"""Ratings: Glicko-2 (the ``glicko2`` package, as lichess uses the system), one game at a time.

Every finished network game between two players of the front door updates both ratings, each
from the other's rating before the game: a win scores 1, a draw (R13) 0.5 for both. A game
against a bot is not rated; neither is one with a player the front door does not know (a Unix
user of the OpenSSH route on the same daemon). A game abandoned by a disconnection is played
out by the daemon's clocks (R25b) and rated like any other. Each game of a match is rated.

The daemon says a game is over by its record (``result`` line); :class:`Rater` reads the
records folder, so it works for the embedded daemon and, given its folder, a separate one.

>>> before = ((1500.0, 350.0, 0.06), (1500.0, 350.0, 0.06))
>>> [round(r) for r, _, _ in rate_pair(*before, score=1.0)]
[1662, 1338]
"""

from __future__ import annotations

import logging
from pathlib import Path

import glicko2

from minefield.frontdoor.accounts import Account, Accounts
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

    def _account(self, player: str) -> Account | None:
        if not player.endswith(self.suffix):
            return None
        return self.accounts.by_name(display_name(player))

    def scan(self) -> int:
        """Rate every game that has ended since the last scan; how many were rated."""
        rated = 0
        for folder in (self.games_dir, self.games_dir / FINISHED_FOLDER):
            try:
                paths = sorted(folder.glob(f"*{RECORD_SUFFIX}"))
            except OSError:
                continue
            for path in paths:
                game = path.name.removesuffix(RECORD_SUFFIX)
                if game in self._done:
                    continue
                if self.accounts.is_rated(game):
                    self._done.add(game)
                    continue
                rated += self._rate(game, path)
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
        if header.mode != "network" or east is None or west is None or east.id == west.id:
            self.accounts.rate(game, [])  # a bot, a stranger: not rated (remembered as seen)
            return 0
        result = record.result.result
        score = 0.5 if result.winner is None else (1.0 if result.winner == Seat.EAST else 0.0)
        new_east, new_west = rate_pair((east.rating, east.deviation, east.volatility),
                                       (west.rating, west.deviation, west.volatility), score)
        self.accounts.rate(game, [(east.id, *new_east), (west.id, *new_west)])
        log.info("rated game %s: %s %.0f -> %.0f, %s %.0f -> %.0f", game, east.name,
                 east.rating, new_east[0], west.name, west.rating, new_west[0])
        return 1


__all__ = ["Rater", "Rating", "rate_pair"]
