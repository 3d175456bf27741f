"""The tournaments as kept: the daemon's SQLite tables of tournaments, players, rounds and
pairings (:class:`Store`), and a pairing as stored (:class:`Board`).

The club's SQLite file (:attr:`~minefield.server.config.ServerConfig.database_path`) in WAL
mode with ``synchronous=FULL``: every change is committed before anyone hears of it, so a
restart, ``kill -9`` included, loses nothing. The daemon is its one writer
(:mod:`minefield.server.tournaments`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from minefield.server.tournament_pairing import Game, Result

#: A tournament's ``status``: open to join, running its rounds, finished.
Status = Literal["open", "running", "finished"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    name TEXT PRIMARY KEY COLLATE NOCASE, organizer TEXT NOT NULL, format TEXT NOT NULL,
    rules TEXT NOT NULL, rule TEXT NOT NULL, match INTEGER NOT NULL, casual INTEGER NOT NULL,
    max_players INTEGER, rounds INTEGER, status TEXT NOT NULL, round INTEGER NOT NULL,
    created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    tournament TEXT NOT NULL COLLATE NOCASE, key TEXT NOT NULL, name TEXT NOT NULL,
    joined REAL NOT NULL, rating REAL, seed INTEGER, PRIMARY KEY (tournament, key));
CREATE TABLE IF NOT EXISTS rounds (
    tournament TEXT NOT NULL COLLATE NOCASE, round INTEGER NOT NULL, started REAL NOT NULL,
    ended REAL, PRIMARY KEY (tournament, round));
CREATE TABLE IF NOT EXISTS pairings (
    tournament TEXT NOT NULL COLLATE NOCASE, round INTEGER NOT NULL, board INTEGER NOT NULL,
    east TEXT NOT NULL, west TEXT, game TEXT, result TEXT, forfeit INTEGER NOT NULL DEFAULT 0,
    points INTEGER NOT NULL DEFAULT 0, east_seated INTEGER NOT NULL DEFAULT 0,
    west_seated INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (tournament, round, board));
"""


@dataclass(slots=True)
class Board:
    """A pairing as stored (players by identity key)."""

    round: int
    board: int
    east: str
    west: str | None
    game: str | None
    result: Result | None
    forfeit: bool
    points: int
    east_seated: bool
    west_seated: bool

    def as_game(self) -> Game:
        """The pairing as the standings see it."""
        return Game(self.round, self.east, self.west, self.result, self.forfeit, self.points)


class Store:
    """The tournaments' SQLite database (WAL; ``synchronous=FULL``: a commit survives a
    crash)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    def tournament(self, name: str) -> sqlite3.Row | None:
        """The tournament called ``name`` (any case), or None."""
        row: sqlite3.Row | None = self.db.execute(
            "SELECT * FROM tournaments WHERE name = ?", (name,)).fetchone()
        return row

    def all(self) -> list[sqlite3.Row]:
        """Every tournament, newest first."""
        return list(self.db.execute("SELECT * FROM tournaments ORDER BY created DESC"))

    def players(self, name: str) -> list[sqlite3.Row]:
        """A tournament's players: by their seed once it started, by joining before."""
        return list(self.db.execute(
            "SELECT * FROM players WHERE tournament = ? ORDER BY seed, joined", (name,)))

    def pairings(self, name: str) -> list[Board]:
        """Every pairing of a tournament, round by round, board by board."""
        rows = self.db.execute("SELECT * FROM pairings WHERE tournament = ? "
                               "ORDER BY round, board", (name,))
        return [Board(r["round"], r["board"], r["east"], r["west"], r["game"], r["result"],
                         bool(r["forfeit"]), r["points"], bool(r["east_seated"]),
                         bool(r["west_seated"])) for r in rows]

    def round_started(self, name: str, number: int) -> float | None:
        """When round ``number`` began (wall clock), or None."""
        row = self.db.execute("SELECT started FROM rounds WHERE tournament = ? AND round = ?",
                              (name, number)).fetchone()
        return float(row["started"]) if row is not None else None

    def execute(self, sql: str, *args: Any) -> None:
        """One change, committed."""
        self.db.execute(sql, args)

    def transaction(self, statements: Iterable[tuple[str, tuple[Any, ...]]]) -> None:
        """Several changes committed together (all or none)."""
        with self.db:
            self.db.execute("BEGIN")
            for sql, args in statements:
                self.db.execute(sql, args)


__all__ = ["Board", "Status", "Store"]
