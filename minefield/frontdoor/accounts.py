"""Players of the SSH front door: their names, their keys and their ratings, in SQLite.

A player is an account with one name and one or more keys (each key's SHA256 fingerprint
belongs to one account). A name is 2 to 16 letters, digits, ``-`` or ``_``, unique without
regard to case, and not a reserved word (a bot's level, a command, ``bot``...). A name is
changed at most :data:`RENAMES_PER_DAY` times in 24 hours; the last :data:`KEPT_NAMES` former
names stay the account's (nobody else can take them, and the records that carry them still
point at its player); an older one is released, as an operator may release one
(:meth:`Accounts.release`).

A second key joins an account only with proof that its holder wants it: the account offers it a
single-use code (:meth:`Accounts.offer_key`, valid :data:`CODE_SECONDS`), and only a login with
that key that gives the code adds it (:meth:`Accounts.confirm_key`). The codes are kept here
(their SHA-256 only), so a restart does not lose a pending one and a used one stays used.

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

import hashlib
import re
import secrets
import sqlite3
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from minefield.bots.base import LEVELS
from minefield.errors import MinefieldError

#: What a name may be (ASCII only: no look-alike letters from other scripts).
NAME = re.compile(r"[A-Za-z0-9_-]{2,16}")
#: Names nobody may take: bots, the front door's commands, and words that mislead.
RESERVED = frozenset({
    *LEVELS, "bot", "bots", "ai", "cpu", "computer", "admin", "administrator", "root", "system",
    "server", "minefield", "moderator", "mod", "operator", "guest", "nobody", "anonymous",
    "waiting", "host", "join", "resume", "watch", "history", "whoami", "who", "ladder", "name",
    "key", "keys", "lobby", "help", "me", "you", "everyone", "all", "games", "record", "stats",
})
#: A new player's Glicko-2 rating, deviation and volatility (the usual starting values).
START_RATING, START_DEVIATION, START_VOLATILITY = 1500.0, 350.0, 0.06
#: A rating, its deviation and volatility.
Rating = tuple[float, float, float]
#: How many keys one account may hold (those waiting for their code count too).
MAX_KEYS = 8
#: How many times a name may be changed in any 24 hours.
RENAMES_PER_DAY = 5
#: How many former names an account keeps reserved (the oldest is released past this).
KEPT_NAMES = 3
#: How long a key's code is valid, in seconds.
CODE_SECONDS = 600
#: The letters of a key's code: no 0/O, 1/I/L, so it is read and typed without doubt.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: How long a key's code is (31 ** 10: about 8e14 codes).
CODE_LENGTH = 10
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


class NameRefused(MinefieldError, ValueError):
    """A name that cannot be taken (the message says why, on one line)."""


class RenameLimited(NameRefused):
    """A name change past :data:`RENAMES_PER_DAY` (the message says when the next may be)."""


class KeyRefused(MinefieldError, ValueError):
    """A key that cannot be added, confirmed or removed (the message says why, on one line)."""


class CodeRefused(KeyRefused):
    """A key's code that is wrong, expired or used (the message says which, on one line)."""


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


@dataclass(frozen=True, slots=True)
class KeyOffer:
    """A key an account has offered to take: its code, for that key's login to give."""

    fingerprint: str
    code: str
    expires: float


@dataclass(frozen=True, slots=True)
class AccountKey:
    """One key of an account (``pending``: offered, waiting for its code; ``since`` is when it
    was added, or when its code expires)."""

    fingerprint: str
    since: float
    pending: bool = False


def character(ch: str) -> str:
    """A character as a message names it.

    >>> character("\u0430")
    'U+0430 CYRILLIC SMALL LETTER A'
    """
    return f"U+{ord(ch):04X} {unicodedata.name(ch, 'UNNAMED CHARACTER')}"


def _invisible(ch: str) -> bool:
    """True for a character that shows nothing, or only space (marks, spaces, format...)."""
    return unicodedata.category(ch) in ("Cf", "Cn", "Co", "Cs", "Zs", "Zl", "Zp")


def check_name(text: str) -> str:
    """``text`` if it may be a name (case kept), else :class:`NameRefused`, whose one line
    says why: a look-alike letter from another script or an invisible character is named."""
    if any(ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 for ch in text):
        raise NameRefused("a name has no control characters: letters, digits, '-' and '_'")
    hidden = next((ch for ch in text if ord(ch) > 0x7F and _invisible(ch)), None)
    if hidden is not None:
        raise NameRefused(f"a name has no invisible characters (it has {character(hidden)}):"
                          " letters, digits, '-' and '_'")
    if not NAME.fullmatch(text):
        shown = text if len(text) <= 20 else text[:17] + "..."
        foreign = next((ch for ch in text if ord(ch) > 0x7F), None)
        if foreign is not None:
            raise NameRefused(f"{shown!r} is not a name: it has {character(foreign)}, not a "
                              "plain ASCII letter (2 to 16 letters, digits, '-' or '_')")
        raise NameRefused(f"{shown!r} is not a name: 2 to 16 letters, digits, '-' or '_'")
    if text.casefold() in RESERVED:
        raise NameRefused(f"{text!r} is reserved: choose another name")
    return text


def utc(moment: float) -> str:
    """A moment as players read it, to the minute.

    >>> utc(0)
    '1970-01-01 00:00 UTC'
    """
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d %H:%M UTC")


def normalize_code(text: str) -> str:
    """A key's code as typed (any case, dashes and spaces left out) in its stored form.

    >>> normalize_code("k7qp-3xwm 2b")
    'K7QP3XWM2B'
    """
    return "".join(ch for ch in text.upper() if ch not in "- ")


def _digest(code: str) -> str:
    return hashlib.sha256(normalize_code(code).encode()).hexdigest()


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

    def _account(self, account_id: int) -> Account:
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
            return self._account(account_id)
        return None

    def by_key(self, fingerprint: str) -> Account | None:
        """The account of a key's fingerprint, None for a key not seen before."""
        row = self.db.execute("SELECT account FROM keys WHERE fingerprint = ?",
                              (fingerprint,)).fetchone()
        return None if row is None else self._account(row[0])

    def by_name(self, name: str) -> Account | None:
        """The account that holds ``name`` (or holds it reserved, a former name), in any
        case."""
        row = self.db.execute("SELECT account FROM names WHERE folded = ?",
                              (name.casefold(),)).fetchone()
        return None if row is None else self._account(row[0])

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
        return self._account(account_id)

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
            old = self._account(account_id).name
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
        return self._account(account_id), released

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
            account = self._account(row[0])
            if row[1] is None:
                raise NameRefused(f"{account.name!r} is a player's name now, not a former one: "
                                  "only former names are released")
            self.db.execute("DELETE FROM names WHERE folded = ?", (name.casefold(),))
        return account

    # -- keys ----------------------------------------------------------------------------------

    def _purge_codes(self) -> None:
        """Forget the codes expired a day ago (until then a used or expired code is told
        apart from a wrong one)."""
        self.db.execute("DELETE FROM key_codes WHERE expires < ?", (self.clock() - DAY,))

    def offer_key(self, account_id: int, fingerprint: str, asked_by: str) -> KeyOffer:
        """A code for the key ``fingerprint`` to join the account with, asked for by the
        account's key ``asked_by``: the key joins only when a login with it gives the code
        (:meth:`confirm_key`). A key of another player is refused; a new offer for the same
        key replaces the last."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self._purge_codes()
            owner = self.db.execute("SELECT account FROM keys WHERE fingerprint = ?",
                                    (fingerprint,)).fetchone()
            if owner is not None:
                raise KeyRefused("that key is already yours" if owner[0] == account_id
                                 else "that key already belongs to another player")
            now = self.clock()
            self.db.execute("DELETE FROM key_codes WHERE account = ? AND fingerprint = ? AND "
                            "used IS NULL", (account_id, fingerprint))
            keys = self.db.execute("SELECT count(*) FROM keys WHERE account = ?",
                                   (account_id,)).fetchone()[0]
            waiting = self.db.execute(
                "SELECT count(DISTINCT fingerprint) FROM key_codes WHERE account = ? AND "
                "used IS NULL AND expires > ? AND fingerprint NOT IN (SELECT fingerprint FROM "
                "keys)", (account_id, now)).fetchone()[0]
            if keys + waiting >= MAX_KEYS:
                raise KeyRefused(f"an account holds at most {MAX_KEYS} keys (with those "
                                 "waiting for their code): key remove one first")
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            expires = now + CODE_SECONDS
            self.db.execute("INSERT INTO key_codes (digest, account, fingerprint, asked_by, "
                            "expires) VALUES (?, ?, ?, ?, ?)",
                            (_digest(code), account_id, fingerprint, asked_by, expires))
        return KeyOffer(fingerprint, code, expires)

    def confirm_key(self, fingerprint: str, code: str) -> tuple[Account, str]:
        """Add the key ``fingerprint`` to the account that offered it ``code``; that account,
        and the key that asked. :class:`CodeRefused` for a code that is not this key's, has
        expired or was used (each code serves once); :class:`KeyRefused` for a key that is a
        player's already."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            row = self.db.execute("SELECT account, fingerprint, asked_by, expires, used FROM "
                                  "key_codes WHERE digest = ?", (_digest(code),)).fetchone()
            if row is None or row[1] != fingerprint:
                raise CodeRefused("that code is not one for this key: check it, or ask for "
                                  "a new one with key add")
            account_id, _, asked_by, expires, used = row
            if used is not None:
                raise CodeRefused("that code has been used already: a code serves once")
            if self.clock() >= expires:
                raise CodeRefused(f"that code has expired (a code lasts {CODE_SECONDS // 60} "
                                  "minutes): ask for a new one with key add")
            owner = self.by_key(fingerprint)
            if owner is not None:
                raise KeyRefused(f"this key already logs in as {owner.name}" +
                                 ("" if owner.id == account_id else
                                  ": it cannot join another player"))
            keys = self.db.execute("SELECT count(*) FROM keys WHERE account = ?",
                                   (account_id,)).fetchone()[0]
            if keys >= MAX_KEYS:
                raise KeyRefused(f"{self._account(account_id).name} holds {MAX_KEYS} keys "
                                 "already: they must key remove one first")
            self.db.execute("UPDATE key_codes SET used = ? WHERE digest = ?",
                            (self.clock(), _digest(code)))
            self.db.execute("INSERT INTO keys (fingerprint, account, added) VALUES (?, ?, ?)",
                            (fingerprint, account_id, self.clock()))
        return self._account(account_id), asked_by

    def keys_of(self, account_id: int) -> list[AccountKey]:
        """The account's keys, oldest first, then those waiting for their code (and not
        another player's since)."""
        keys = [AccountKey(fingerprint, added) for fingerprint, added in self.db.execute(
            "SELECT fingerprint, added FROM keys WHERE account = ? ORDER BY added",
            (account_id,))]
        keys += [AccountKey(fingerprint, expires, pending=True)
                 for fingerprint, expires in self.db.execute(
                     "SELECT fingerprint, max(expires) FROM key_codes WHERE account = ? AND "
                     "used IS NULL AND expires > ? AND fingerprint NOT IN (SELECT fingerprint "
                     "FROM keys) GROUP BY fingerprint ORDER BY 2",
                     (account_id, self.clock()))]
        return keys

    def remove_key(self, account_id: int, fingerprint: str) -> bool:
        """Remove a key from the account (True), or withdraw a key's waiting code (False).
        :class:`KeyRefused` for the account's last key and for a key not its own."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            keys = [k for (k,) in self.db.execute(
                "SELECT fingerprint FROM keys WHERE account = ?", (account_id,))]
            if fingerprint in keys:
                if len(keys) == 1:
                    raise KeyRefused("that is your last key: add another (key add) before "
                                     "removing it")
                self.db.execute("DELETE FROM keys WHERE fingerprint = ?", (fingerprint,))
                return True
            withdrawn = self.db.execute(
                "DELETE FROM key_codes WHERE account = ? AND fingerprint = ? AND used IS NULL "
                "AND expires > ?", (account_id, fingerprint, self.clock())).rowcount
            if not withdrawn:
                raise KeyRefused(f"the key {fingerprint} is not one of yours (key list shows "
                                 "them)")
            return False

    def ladder(self) -> list[Account]:
        """The players who have played a rated game, best rating first."""
        ids = [i for (i,) in self.db.execute(
            "SELECT id FROM accounts WHERE games > 0 ORDER BY rating DESC, name")]
        return [self._account(i) for i in ids]

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
            one, two = self._account(first), self._account(second)
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


__all__ = ["CODE_SECONDS", "KEPT_NAMES", "MAX_KEYS", "NAME", "RENAMES_PER_DAY", "RESERVED",
           "Account", "AccountKey", "Accounts", "Change", "CodeRefused", "KeyOffer",
           "KeyRefused", "NameRefused", "Rating", "RenameLimited", "character", "check_name",
           "normalize_code", "utc"]
