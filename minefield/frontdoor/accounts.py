"""Players of the SSH front door: their names, their keys and their ratings, in SQLite.

A player is an account with one name and one or more keys (each key's SHA256 fingerprint
belongs to one account). A name is 2 to 16 letters, digits, ``-`` or ``_``, unique without
regard to case, and not a reserved word (a bot's level, a command, ``bot``...). A name is
changed at most :data:`RENAMES_PER_DAY` times in 24 hours; the last :data:`KEPT_NAMES` former
names stay the account's (nobody else can take them, and the records that carry them still
point at its player); an older one is released, as an operator may release one
(:meth:`Accounts.release`).

What a name may be is :mod:`.account_names`'s to say. A second key joins an account only with
proof that its holder wants it, a code: :attr:`Accounts.keys`, the keys' side of this file
(:class:`.account_keys.AccountKeys`).

>>> accounts = Accounts(":memory:")
>>> ann = accounts.claim("SHA256:aaa", "Ann")
>>> accounts.claim("SHA256:bbb", "ANN")
Traceback (most recent call last):
...
minefield.frontdoor.account_names.NameRefused: the name 'ANN' is taken: choose another
>>> accounts.by_key("SHA256:aaa").name, accounts.by_name("ann").fingerprints
('Ann', ('SHA256:aaa',))
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from minefield.frontdoor.account_keys import AccountKeys
from minefield.frontdoor.account_names import NameRefused, check_name

#: A new player's Glicko-2 rating, deviation and volatility (the usual starting values).
START_RATING, START_DEVIATION, START_VOLATILITY = 1500.0, 350.0, 0.06
#: A rating, its deviation and volatility.
Rating = tuple[float, float, float]
#: How many times a name may be changed in any 24 hours.
RENAMES_PER_DAY = 5
#: How many former names an account keeps reserved (the oldest is released past this).
KEPT_NAMES = 3
#: A day, in seconds (the name changes' window).
DAY = 86400.0

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
    account INTEGER NOT NULL REFERENCES accounts(id),
    dropped REAL  -- when it stopped being the account's name (NULL: its name now)
);
CREATE TABLE IF NOT EXISTS renames (
    account INTEGER NOT NULL REFERENCES accounts(id),
    at REAL NOT NULL,
    old TEXT NOT NULL,
    new TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS renames_by_account ON renames (account, at);
CREATE TABLE IF NOT EXISTS key_codes (
    digest TEXT PRIMARY KEY,  -- SHA-256 of the code: the code itself is never stored
    account INTEGER NOT NULL REFERENCES accounts(id),
    fingerprint TEXT NOT NULL,
    asked_by TEXT NOT NULL,
    expires REAL NOT NULL,
    used REAL
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
CREATE INDEX IF NOT EXISTS game_ratings_by_account ON game_ratings (account);
"""

#: One player's rating in a rated game: the name then, the rating before and after, the
#: deviation after.
Change = tuple[str, float, float, float]


class RenameLimited(NameRefused):
    """A name change past :data:`RENAMES_PER_DAY` (the message says when the next may be)."""


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


def utc(moment: float) -> str:
    """A moment as players read it, to the minute.

    >>> utc(0)
    '1970-01-01 00:00 UTC'
    """
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d %H:%M UTC")


class Accounts:
    """The players' database (one SQLite file in the front door's data folder). ``clock``
    gives the time (tests move it)."""

    def __init__(self, path: Path | str, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.db = sqlite3.connect(str(path), isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA busy_timeout=5000")
        self._migrate()
        self.db.executescript(_SCHEMA)
        #: The accounts' keys after their first: offered a code, confirmed, listed, removed.
        self.keys = AccountKeys(self)

    def _migrate(self) -> None:
        """A file made before former names were counted: mark them (their order is the order
        they were taken) and keep the last :data:`KEPT_NAMES` of each account."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            columns = {row[1] for row in self.db.execute("PRAGMA table_info(names)")}
            if not columns or "dropped" in columns:
                return
            self.db.execute("ALTER TABLE names ADD COLUMN dropped REAL")
            self.db.execute("UPDATE names SET dropped = 0 WHERE folded NOT IN "
                            "(SELECT lower(name) FROM accounts)")
            for (account_id,) in self.db.execute("SELECT id FROM accounts").fetchall():
                self._release_old_names(account_id)

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    def account(self, account_id: int) -> Account:
        """The account with this id (one that exists)."""
        row = self.db.execute("SELECT id, name, rating, deviation, volatility, games "
                              "FROM accounts WHERE id = ?", (account_id,)).fetchone()
        keys = tuple(k for (k,) in self.db.execute(
            "SELECT fingerprint FROM keys WHERE account = ? ORDER BY added", (account_id,)))
        return Account(id=row[0], name=row[1], fingerprints=keys, rating=row[2],
                       deviation=row[3], volatility=row[4], games=row[5])

    def by_id(self, account_id: int) -> Account | None:
        """The account with this id (None: there is none, e.g. a browser session's account
        that was since removed)."""
        if self.db.execute("SELECT 1 FROM accounts WHERE id = ?", (account_id,)).fetchone():
            return self.account(account_id)
        return None

    def by_key(self, fingerprint: str) -> Account | None:
        """The account of a key's fingerprint, None for a key not seen before."""
        row = self.db.execute("SELECT account FROM keys WHERE fingerprint = ?",
                              (fingerprint,)).fetchone()
        return None if row is None else self.account(row[0])

    def by_name(self, name: str) -> Account | None:
        """The account that holds ``name`` (or holds it reserved, a former name), in any
        case."""
        row = self.db.execute("SELECT account FROM names WHERE folded = ?",
                              (name.casefold(),)).fetchone()
        return None if row is None else self.account(row[0])

    def former_names(self, account_id: int) -> list[str]:
        """The account's reserved former names (folded), the latest given up first."""
        return [folded for (folded,) in self.db.execute(
            "SELECT folded FROM names WHERE account = ? AND dropped IS NOT NULL "
            "ORDER BY dropped DESC, rowid DESC", (account_id,))]

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
        else:  # a former name of its own, taken back
            self.db.execute("UPDATE names SET dropped = NULL WHERE folded = ?",
                            (name.casefold(),))

    def _release_old_names(self, account_id: int) -> list[str]:
        """Release the former names past the :data:`KEPT_NAMES` latest; the names released."""
        released = self.former_names(account_id)[KEPT_NAMES:]
        for folded in released:
            self.db.execute("DELETE FROM names WHERE folded = ?", (folded,))
        return released

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
                (name, self.clock(), START_RATING, START_DEVIATION, START_VOLATILITY))
            account_id = cursor.lastrowid
            assert account_id is not None
            self._take_name(account_id, name)
            self.db.execute("INSERT INTO keys (fingerprint, account, added) VALUES (?, ?, ?)",
                            (fingerprint, account_id, self.clock()))
        return self.account(account_id)

    def next_rename(self, account_id: int) -> float | None:
        """When the account may change its name again (None: now)."""
        now = self.clock()
        times = [at for (at,) in self.db.execute(
            "SELECT at FROM renames WHERE account = ? AND at > ? ORDER BY at DESC LIMIT ?",
            (account_id, now - DAY, RENAMES_PER_DAY))]
        return None if len(times) < RENAMES_PER_DAY else times[-1] + DAY

    def rename(self, account_id: int, name: str, limited: bool = True
               ) -> tuple[Account, list[str]]:
        """Give the account a new name; the account, and the former names this released (the
        :data:`KEPT_NAMES` latest former names stay its own). :class:`RenameLimited` past
        :data:`RENAMES_PER_DAY` changes in 24 hours (``limited``; an admin's rename is not)."""
        check_name(name)
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            old = self.account(account_id).name
            if name == old:
                raise NameRefused(f"you are already {name!r}")
            allowed = self.next_rename(account_id) if limited else None
            if allowed is not None:
                wait = max(60.0, allowed - self.clock())
                raise RenameLimited(
                    f"at most {RENAMES_PER_DAY} name changes a day: the next is allowed at "
                    f"{utc(allowed)} (in {int(wait // 3600)} h {int(wait % 3600 // 60)} min)")
            self._take_name(account_id, name)
            if old.casefold() != name.casefold():
                self.db.execute("UPDATE names SET dropped = ? WHERE folded = ?",
                                (self.clock(), old.casefold()))
            self.db.execute("UPDATE accounts SET name = ? WHERE id = ?", (name, account_id))
            self.db.execute("INSERT INTO renames (account, at, old, new) VALUES (?, ?, ?, ?)",
                            (account_id, self.clock(), old, name))
            released = self._release_old_names(account_id)
        return self.account(account_id), released

    def release(self, name: str) -> Account:
        """Release a reserved former name (an operator's ``release NAME``), so that anyone may
        take it; the account that held it. :class:`NameRefused` for a name nobody holds or one
        that is a player's name now."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            row = self.db.execute("SELECT account, dropped FROM names WHERE folded = ?",
                                  (name.casefold(),)).fetchone()
            if row is None:
                raise NameRefused(f"nobody holds the name {name!r}")
            account = self.account(row[0])
            if row[1] is None:
                raise NameRefused(f"{account.name!r} is a player's name now, not a former one: "
                                  "only former names are released")
            self.db.execute("DELETE FROM names WHERE folded = ?", (name.casefold(),))
        return account

    def ladder(self) -> list[Account]:
        """The players who have played a rated game, best rating first."""
        ids = [i for (i,) in self.db.execute(
            "SELECT id FROM accounts WHERE games > 0 ORDER BY rating DESC, name")]
        return [self.account(i) for i in ids]

    def rating_history(self, account_id: int) -> dict[str, float]:
        """The account's rating after each of its rated games, by game id."""
        return {game: after for game, after in self.db.execute(
            "SELECT game, after FROM game_ratings WHERE account = ?", (account_id,))}

    def is_rated(self, game: str) -> bool:
        """True once the game ``game`` (a record's id) has been rated or judged unrated."""
        return self.db.execute("SELECT 1 FROM rated_games WHERE game = ?",
                               (game,)).fetchone() is not None

    def rated_games(self) -> set[str]:
        """Every game (a record's id) rated or judged unrated so far."""
        return {game for (game,) in self.db.execute("SELECT game FROM rated_games")}

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
            one, two = self.account(first), self.account(second)
            after_one, after_two = new(one, two)
            self.db.execute("INSERT INTO rated_games (game, rated) VALUES (?, ?)",
                            (game, self.clock()))
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
                            (game, self.clock()))
            for account_id, rating, deviation, volatility in updates:
                self.db.execute("UPDATE accounts SET rating = ?, deviation = ?, volatility = ?,"
                                " games = games + 1 WHERE id = ?",
                                (rating, deviation, volatility, account_id))


__all__ = ["DAY", "KEPT_NAMES", "RENAMES_PER_DAY", "Account", "Accounts", "Change", "Rating",
           "RenameLimited", "utc"]
