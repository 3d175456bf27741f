"""The club's moderation in SQLite: its admins, its bans, its message of the day, and a log
of every admin action with who did it.

It lives in the club's one SQLite file (``players.sqlite`` of ``minefield ssh-server``, next to
the accounts whose ids it names), written by the one process that writes that file. A ban
names an account (every key of that player, those added later too) or one key's SHA256
fingerprint; it ends at a moment or never (``ends`` None: permanent), and is lifted early by
``unban``. A lifted or ended ban stays in the table (the log of what was done), never active.

>>> store = ModerationStore(":memory:", clock=lambda: 1000.0)
>>> store.ban(account=7, fingerprint=None, target="bob", reason="spam", ends=4600.0,
...           by="ann").target
'bob'
>>> store.ban_for(None, 7).reason, store.ban_for("SHA256:x", None)
('spam', None)
>>> store.set_motd("Club night on Friday", by="ann")
True
>>> store.motd()
'Club night on Friday'
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

_SCHEMA = """
CREATE TABLE IF NOT EXISTS admins (
    account INTEGER PRIMARY KEY,  -- an account's id (accounts.id)
    added REAL NOT NULL,
    added_by TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS bans (
    id INTEGER PRIMARY KEY,
    account INTEGER,       -- the banned player (every key of theirs), or NULL
    fingerprint TEXT,      -- the banned key, or NULL
    target TEXT NOT NULL,  -- as the admin named it: the player's name then, or the key
    reason TEXT NOT NULL,
    since REAL NOT NULL,
    ends REAL,             -- NULL: permanent
    banned_by TEXT NOT NULL,
    lifted REAL,           -- unbanned early (NULL: not lifted)
    lifted_by TEXT,
    CHECK ((account IS NULL) != (fingerprint IS NULL))
);
CREATE INDEX IF NOT EXISTS bans_by_account ON bans (account) WHERE lifted IS NULL;
CREATE INDEX IF NOT EXISTS bans_by_key ON bans (fingerprint) WHERE lifted IS NULL;
CREATE TABLE IF NOT EXISTS motd (
    only INTEGER PRIMARY KEY CHECK (only = 1),
    text TEXT NOT NULL,
    since REAL NOT NULL,
    set_by TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS moderation_log (
    at REAL NOT NULL,
    by TEXT NOT NULL,   -- the admin (their name and key) or the host's user
    action TEXT NOT NULL
);
"""

_BAN_COLUMNS = "id, account, fingerprint, target, reason, since, ends, banned_by"


@dataclass(frozen=True, slots=True)
class Ban:
    """A ban: of the account ``account`` or of the key ``fingerprint`` (the other is None),
    as the admin ``by`` named its ``target``; from ``since`` to ``ends`` (None: permanent)."""

    id: int
    account: int | None
    fingerprint: str | None
    target: str
    reason: str
    since: float
    ends: float | None
    by: str

    def active(self, now: float) -> bool:
        """True while it holds (it has not ended)."""
        return self.ends is None or now < self.ends


class ModerationStore:
    """The moderation tables of the club's SQLite file at ``path`` (``clock`` gives the time;
    tests move it). A connection belongs to the thread that made it."""

    def __init__(self, path: Path | str, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.db = sqlite3.connect(str(path), isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA busy_timeout=5000")
        self.db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    def log(self, by: str, action: str) -> None:
        """Note an admin action: who did it and what (the table ``moderation_log``)."""
        self.db.execute("INSERT INTO moderation_log (at, by, action) VALUES (?, ?, ?)",
                        (self.clock(), by, action))

    def logged(self, limit: int = 100) -> list[tuple[float, str, str]]:
        """The latest admin actions, newest first: ``(at, by, action)``."""
        return [(at, by, action) for at, by, action in self.db.execute(
            "SELECT at, by, action FROM moderation_log ORDER BY at DESC, rowid DESC LIMIT ?",
            (limit,))]

    # -- admins --------------------------------------------------------------------------------

    def is_admin(self, account: int) -> bool:
        """True when the account ``account`` is an admin."""
        return self.db.execute("SELECT 1 FROM admins WHERE account = ?",
                               (account,)).fetchone() is not None

    def admins(self) -> list[tuple[int, float, str]]:
        """The admins, in the order they were made admins: their account's id, when, and who
        made them."""
        return [(account, added, by) for account, added, by in self.db.execute(
            "SELECT account, added, added_by FROM admins ORDER BY added, rowid")]

    def add_admin(self, account: int, by: str) -> bool:
        """Make the account an admin (False: it was one already)."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            added = self.db.execute("INSERT OR IGNORE INTO admins (account, added, added_by) "
                                    "VALUES (?, ?, ?)", (account, self.clock(), by)).rowcount
        return bool(added)

    def remove_admin(self, account: int) -> bool:
        """The account is no longer an admin (False: it was not one)."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            removed = self.db.execute("DELETE FROM admins WHERE account = ?",
                                      (account,)).rowcount
        return bool(removed)

    # -- bans ----------------------------------------------------------------------------------

    def _bans(self, where: str, args: tuple[object, ...]) -> list[Ban]:
        now = self.clock()
        rows = self.db.execute(
            f"SELECT {_BAN_COLUMNS} FROM bans WHERE lifted IS NULL AND (ends IS NULL OR "
            f"ends > ?) AND ({where}) ORDER BY since, id", (now, *args)).fetchall()
        return [Ban(*row) for row in rows]

    def active_bans(self) -> list[Ban]:
        """Every ban that holds now, oldest first."""
        return self._bans("1", ())

    def ban_for(self, fingerprint: str | None, account: int | None) -> Ban | None:
        """The ban that keeps out the key ``fingerprint`` of the account ``account`` (either
        may be None: a key without a name, a player known by name only), the one that lasts
        longest when several do; None when neither is banned."""
        bans = self._bans("fingerprint = ? OR account = ?", (fingerprint, account))
        if not bans:
            return None
        return max(bans, key=lambda ban: float("inf") if ban.ends is None else ban.ends)

    def ban(self, *, account: int | None, fingerprint: str | None, target: str, reason: str,
            ends: float | None, by: str) -> Ban:
        """Ban the account ``account`` or the key ``fingerprint`` (exactly one of them) until
        ``ends`` (None: permanent); a ban of the same target that held is replaced by this
        one. The new ban."""
        if (account is None) == (fingerprint is None):
            raise ValueError("a ban names an account or a key, not both")
        now = self.clock()
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("UPDATE bans SET lifted = ?, lifted_by = ? WHERE lifted IS NULL "
                            "AND (account = ? OR fingerprint = ?)",
                            (now, by, account, fingerprint))
            cursor = self.db.execute(
                "INSERT INTO bans (account, fingerprint, target, reason, since, ends, "
                "banned_by) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (account, fingerprint, target, reason, now, ends, by))
            ban_id = cursor.lastrowid
        assert ban_id is not None
        return Ban(ban_id, account, fingerprint, target, reason, now, ends, by)

    def unban(self, *, account: int | None, fingerprint: str | None, by: str) -> list[Ban]:
        """Lift the bans of the account ``account`` or of the key ``fingerprint`` that hold
        now; those lifted (none: there was none)."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            lifted = self._bans("account = ? OR fingerprint = ?", (account, fingerprint))
            self.db.executemany("UPDATE bans SET lifted = ?, lifted_by = ? WHERE id = ?",
                                [(self.clock(), by, ban.id) for ban in lifted])
        return lifted

    # -- the message of the day ------------------------------------------------------------------

    def motd(self) -> str | None:
        """The message of the day shown in the lobby (None: none)."""
        row = self.db.execute("SELECT text FROM motd WHERE only = 1").fetchone()
        return None if row is None else str(row[0])

    def set_motd(self, text: str | None, by: str) -> bool:
        """Set the message of the day (None: clear it); False when clearing found none."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            if text is None:
                return bool(self.db.execute("DELETE FROM motd").rowcount)
            self.db.execute("INSERT OR REPLACE INTO motd (only, text, since, set_by) "
                            "VALUES (1, ?, ?, ?)", (text, self.clock(), by))
        return True


__all__ = ["Ban", "ModerationStore"]
