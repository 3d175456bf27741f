"""Players of the SSH front door: their names, their keys and their ratings, in SQLite.

A player is an account with one name and one or more keys (each key's SHA256 fingerprint
belongs to one account). A name is 2 to 16 letters, digits, ``-`` or ``_``, unique without
regard to case, and not a reserved word (a bot's level, a command, ``bot``...). A name once
held stays the account's after a rename, so nobody else can take it and the records that
carry it still point at its player.

>>> check_name("Ann_2")
'Ann_2'
>>> check_name("strong")
Traceback (most recent call last):
...
minefield.frontdoor.accounts.NameRefused: 'strong' is reserved: choose another name
>>> accounts = Accounts(":memory:")
>>> ann = accounts.claim("SHA256:aaa", "Ann")
>>> accounts.claim("SHA256:bbb", "ANN")
Traceback (most recent call last):
...
minefield.frontdoor.accounts.NameRefused: the name 'ANN' is taken: choose another
>>> accounts.by_key("SHA256:aaa").name, accounts.by_name("ann").fingerprints
('Ann', ('SHA256:aaa',))
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from minefield.bots.base import LEVELS

#: What a name may be (ASCII only: no look-alike letters from other scripts).
NAME = re.compile(r"[A-Za-z0-9_-]{2,16}")
#: Names nobody may take: bots, the front door's commands, and words that mislead.
RESERVED = frozenset({
    *LEVELS, "bot", "bots", "ai", "cpu", "computer", "admin", "administrator", "root", "system",
    "server", "minefield", "moderator", "mod", "operator", "guest", "nobody", "anonymous",
    "waiting", "host", "join", "resume", "watch", "history", "whoami", "who", "ladder", "name",
    "key", "keys", "lobby", "help", "me", "you", "everyone", "all",
})
#: A new player's Glicko-2 rating, deviation and volatility (the usual starting values).
START_RATING, START_DEVIATION, START_VOLATILITY = 1500.0, 350.0, 0.06
#: A rating, its deviation and volatility.
Rating = tuple[float, float, float]
#: How many keys one account may hold.
MAX_KEYS = 8

_SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    created REAL NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS names (
    folded TEXT PRIMARY KEY,
    account INTEGER NOT NULL REFERENCES accounts(id)
);
CREATE TABLE IF NOT EXISTS keys (
    fingerprint TEXT PRIMARY KEY,
    account INTEGER NOT NULL REFERENCES accounts(id),
    added REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS rated_games (
    game TEXT PRIMARY KEY,
    rated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS game_ratings (
    game TEXT NOT NULL,
    place INTEGER NOT NULL,
    account INTEGER NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL,
    before REAL NOT NULL,
    after REAL NOT NULL,
    deviation REAL NOT NULL,
    PRIMARY KEY (game, place)
);
"""

#: One player's rating in a rated game: the name then, the rating before and after, the
#: deviation after.
Change = tuple[str, float, float, float]


class NameRefused(ValueError):
    """A name that cannot be taken (the message says why, on one line)."""


class KeyRefused(ValueError):
    """A key that cannot be added (the message says why, on one line)."""


@dataclass(frozen=True, slots=True)
class Account:
    """A player: the name shown, the keys that log in as them, their Glicko-2 rating."""

    id: int
    name: str
    fingerprints: tuple[str, ...]
    rating: float
    deviation: float
    volatility: float
    games: int


def check_name(text: str) -> str:
    """``text`` if it may be a name (case kept), else :class:`NameRefused`."""
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in text):
        raise NameRefused("a name has no control characters: letters, digits, '-' and '_'")
    if not NAME.fullmatch(text):
        shown = text if len(text) <= 20 else text[:17] + "..."
        raise NameRefused(f"{shown!r} is not a name: 2 to 16 letters, digits, '-' or '_'")
    if text.casefold() in RESERVED:
        raise NameRefused(f"{text!r} is reserved: choose another name")
    return text


class Accounts:
    """The players' database (one SQLite file in the front door's data folder)."""

    def __init__(self, path: Path | str) -> None:
        self.db = sqlite3.connect(str(path), isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    def _account(self, account_id: int) -> Account:
        row = self.db.execute("SELECT id, name, rating, deviation, volatility, games "
                              "FROM accounts WHERE id = ?", (account_id,)).fetchone()
        keys = tuple(k for (k,) in self.db.execute(
            "SELECT fingerprint FROM keys WHERE account = ? ORDER BY added", (account_id,)))
        return Account(id=row[0], name=row[1], fingerprints=keys, rating=row[2],
                       deviation=row[3], volatility=row[4], games=row[5])

    def by_key(self, fingerprint: str) -> Account | None:
        """The account of a key's fingerprint, None for a key not seen before."""
        row = self.db.execute("SELECT account FROM keys WHERE fingerprint = ?",
                              (fingerprint,)).fetchone()
        return None if row is None else self._account(row[0])

    def by_name(self, name: str) -> Account | None:
        """The account that holds (or once held) ``name``, in any case."""
        row = self.db.execute("SELECT account FROM names WHERE folded = ?",
                              (name.casefold(),)).fetchone()
        return None if row is None else self._account(row[0])

    def ratings(self, names: list[str]) -> dict[str, float]:
        """The rating of each of ``names`` that an account holds (or once held), by the name
        as given (in any case; a name nobody holds is left out)."""
        folded: dict[str, list[str]] = {}
        for name in names:
            folded.setdefault(name.casefold(), []).append(name)
        found: dict[str, float] = {}
        keys = list(folded)
        for start in range(0, len(keys), 500):  # SQLite's limit on ? in one statement
            chunk = keys[start:start + 500]
            rows = self.db.execute(
                "SELECT names.folded, accounts.rating FROM names JOIN accounts "
                f"ON accounts.id = names.account WHERE names.folded IN "
                f"({', '.join('?' * len(chunk))})", chunk)
            for key, rating in rows:
                for name in folded[key]:
                    found[name] = rating
        return found

    def _take_name(self, account_id: int, name: str) -> None:
        holder = self.db.execute("SELECT account FROM names WHERE folded = ?",
                                 (name.casefold(),)).fetchone()
        if holder is not None and holder[0] != account_id:
            raise NameRefused(f"the name {name!r} is taken: choose another")
        if holder is None:
            self.db.execute("INSERT INTO names (folded, account) VALUES (?, ?)",
                            (name.casefold(), account_id))

    def claim(self, fingerprint: str, name: str) -> Account:
        """A new account named ``name`` for a key not seen before."""
        check_name(name)
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            if self.by_key(fingerprint) is not None:
                raise NameRefused("this key already has a name: use 'name NEW' to change it")
            cursor = self.db.execute(
                "INSERT INTO accounts (name, created, rating, deviation, volatility) "
                "VALUES (?, ?, ?, ?, ?)",
                (name, time.time(), START_RATING, START_DEVIATION, START_VOLATILITY))
            account_id = cursor.lastrowid
            assert account_id is not None
            self._take_name(account_id, name)
            self.db.execute("INSERT INTO keys (fingerprint, account, added) VALUES (?, ?, ?)",
                            (fingerprint, account_id, time.time()))
        return self._account(account_id)

    def rename(self, account_id: int, name: str) -> Account:
        """Give the account a new name (its former names stay its own)."""
        check_name(name)
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self._take_name(account_id, name)
            self.db.execute("UPDATE accounts SET name = ? WHERE id = ?", (name, account_id))
        return self._account(account_id)

    def add_key(self, account_id: int, fingerprint: str) -> Account:
        """Let another key log in as this account."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            owner = self.db.execute("SELECT account FROM keys WHERE fingerprint = ?",
                                    (fingerprint,)).fetchone()
            if owner is not None:
                raise KeyRefused("that key is already yours" if owner[0] == account_id
                                 else "that key already belongs to another player")
            count = self.db.execute("SELECT count(*) FROM keys WHERE account = ?",
                                    (account_id,)).fetchone()[0]
            if count >= MAX_KEYS:
                raise KeyRefused(f"an account holds at most {MAX_KEYS} keys")
            self.db.execute("INSERT INTO keys (fingerprint, account, added) VALUES (?, ?, ?)",
                            (fingerprint, account_id, time.time()))
        return self._account(account_id)

    def ladder(self) -> list[Account]:
        """The players who have played a rated game, best rating first."""
        ids = [i for (i,) in self.db.execute(
            "SELECT id FROM accounts WHERE games > 0 ORDER BY rating DESC, name")]
        return [self._account(i) for i in ids]

    def is_rated(self, game: str) -> bool:
        """True once the game ``game`` (a record's id) has been rated or judged unrated."""
        return self.db.execute("SELECT 1 FROM rated_games WHERE game = ?",
                               (game,)).fetchone() is not None

    def rate_once(self, game: str, first: int, second: int,
                  new: Callable[[Account, Account], tuple[Rating, Rating]]
                  ) -> tuple[Change, Change] | None:
        """Rate ``game`` between the accounts ``first`` and ``second`` with ``new`` (their
        ratings after, from both accounts as they are now), all in one transaction; each
        player's :data:`Change`. A game already rated is not rated again: its changes are
        given again (None when it was judged unrated)."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            if self.is_rated(game):
                rows = self.db.execute(
                    "SELECT name, before, after, deviation FROM game_ratings WHERE game = ? "
                    "ORDER BY place", (game,)).fetchall()
                return (tuple(rows[0]), tuple(rows[1])) if len(rows) == 2 else None
            one, two = self._account(first), self._account(second)
            after_one, after_two = new(one, two)
            self.db.execute("INSERT INTO rated_games (game, rated) VALUES (?, ?)",
                            (game, time.time()))
            changes: list[Change] = []
            for place, (account, after) in enumerate(((one, after_one), (two, after_two))):
                self.db.execute("UPDATE accounts SET rating = ?, deviation = ?, volatility = ?,"
                                " games = games + 1 WHERE id = ?", (*after, account.id))
                self.db.execute("INSERT INTO game_ratings (game, place, account, name, before,"
                                " after, deviation) VALUES (?, ?, ?, ?, ?, ?, ?)",
                                (game, place, account.id, account.name, account.rating,
                                 after[0], after[1]))
                changes.append((account.name, account.rating, after[0], after[1]))
        return changes[0], changes[1]

    def rate(self, game: str, updates: list[tuple[int, float, float, float]]) -> None:
        """Mark ``game`` done and store each ``(account, rating, deviation, volatility)``,
        adding a game to each (all at once: a game is rated once or not at all)."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("INSERT OR IGNORE INTO rated_games (game, rated) VALUES (?, ?)",
                            (game, time.time()))
            for account_id, rating, deviation, volatility in updates:
                self.db.execute("UPDATE accounts SET rating = ?, deviation = ?, volatility = ?,"
                                " games = games + 1 WHERE id = ?",
                                (rating, deviation, volatility, account_id))


__all__ = ["MAX_KEYS", "NAME", "RESERVED", "Account", "Accounts", "Change", "KeyRefused",
           "NameRefused", "Rating", "check_name"]
