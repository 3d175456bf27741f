"""The browser door's sign-ins: one-time links and browser sessions, in the players' SQLite file.

``ssh HOST web`` gives a player a link, ``PUBLIC_URL/login/TOKEN``: the token is 128 random
bits, valid :data:`LINK_SECONDS`, and serves once. Opening it (and pressing *Sign in*) starts a
browser session: a cookie holding another 256 random bits. Only the SHA-256 of a token or a
cookie is kept, so the file alone signs nobody in; both live in the same file as the accounts,
so a restart loses neither a pending link nor a session, and a used link stays used.
A session is checked here on every page and websocket, so ending it (``ssh HOST web
--sign-out-all``) takes effect at once.

>>> clock = [1000.0]
>>> logins = WebLogins(":memory:", clock=lambda: clock[0])
>>> token, _expires = logins.issue(7)
>>> logins.peek(token)
7
>>> cookie = logins.redeem(token)[1]
>>> logins.session(cookie).account
7
>>> logins.redeem(token)
Traceback (most recent call last):
...
minefield.frontdoor.web_logins.LinkRefused: this link was used already
>>> logins.sign_out_all(7), logins.session(cookie)
(1, None)
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from minefield.errors import MinefieldError

#: How long a sign-in link is valid, in seconds.
LINK_SECONDS = 600
#: Random bytes in a link's token (128 bits) and in a session's cookie (256 bits).
TOKEN_BYTES = 16
COOKIE_BYTES = 32
#: How long a browser session lasts without being used, in seconds (the cookie's Max-Age).
SESSION_SECONDS = 30 * 86400
#: Links a player may have waiting at once (each ``ssh HOST web`` makes one).
MAX_WAITING_LINKS = 5
#: Used and expired links are kept this long (a used link must say "used", not "unknown").
KEEP_SECONDS = 86400.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS web_links (
    digest TEXT PRIMARY KEY,
    account INTEGER NOT NULL,
    expires REAL NOT NULL,
    used REAL
);
CREATE INDEX IF NOT EXISTS web_links_by_account ON web_links (account);
CREATE TABLE IF NOT EXISTS web_sessions (
    digest TEXT PRIMARY KEY,
    account INTEGER NOT NULL,
    started REAL NOT NULL,
    seen REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS web_sessions_by_account ON web_sessions (account);
"""


class LinkRefused(MinefieldError, ValueError):
    """A sign-in link that signs nobody in (one line: why, and what to do)."""


@dataclass(frozen=True, slots=True)
class WebSession:
    """A browser's session: whose it is, and its id for the log and the caps (the digest's
    first characters, never the cookie)."""

    account: int
    digest: str

    @property
    def tag(self) -> str:
        """A short name for this session (log lines, the session caps)."""
        return f"web-{self.digest[:12]}"


def digest(secret: str) -> str:
    """What is kept of a token or cookie: its SHA-256, in hex."""
    return hashlib.sha256(secret.encode("utf-8", "surrogateescape")).hexdigest()


class WebLogins:
    """Links and browser sessions, in the SQLite file at ``path`` (the players' file);
    ``clock`` gives the time (tests move it)."""

    def __init__(self, path: Path | str, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.db = sqlite3.connect(str(path), isolation_level=None)
        self.db.execute("PRAGMA busy_timeout=5000")
        self.db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the file."""
        self.db.close()

    def issue(self, account: int) -> tuple[str, float]:
        """A new link's token for ``account`` and when it expires. The oldest waiting links
        past :data:`MAX_WAITING_LINKS` stop working."""
        now = self.clock()
        token = secrets.token_urlsafe(TOKEN_BYTES)
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("DELETE FROM web_links WHERE expires < ?", (now - KEEP_SECONDS,))
            self.db.execute("INSERT INTO web_links (digest, account, expires) VALUES (?, ?, ?)",
                            (digest(token), account, now + LINK_SECONDS))
            self.db.execute(
                "UPDATE web_links SET expires = ? WHERE account = ? AND used IS NULL AND "
                "expires >= ? AND digest NOT IN (SELECT digest FROM web_links WHERE account = ? "
                "AND used IS NULL AND expires >= ? ORDER BY expires DESC LIMIT ?)",
                (now - 1, account, now, account, now, MAX_WAITING_LINKS))
        return token, now + LINK_SECONDS

    def _check(self, token: str) -> int:
        """The account a waiting link signs in (LinkRefused if it signs nobody in)."""
        row = self.db.execute("SELECT account, expires, used FROM web_links WHERE digest = ?",
                              (digest(token),)).fetchone()
        if row is None:
            raise LinkRefused("this link is not one this server gave")
        account, expires, used = row
        if used is not None:
            raise LinkRefused("this link was used already")
        if expires < self.clock():
            raise LinkRefused("this link has expired (a link serves for 10 minutes)")
        return int(account)

    def peek(self, token: str) -> int:
        """The account a link would sign in, leaving it unused (LinkRefused if none)."""
        return self._check(token)

    def redeem(self, token: str) -> tuple[int, str]:
        """Use a link: its account and the new session's cookie (LinkRefused if it signs
        nobody in; it then stays as it was)."""
        now = self.clock()
        cookie = secrets.token_urlsafe(COOKIE_BYTES)
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            account = self._check(token)
            self.db.execute("UPDATE web_links SET used = ? WHERE digest = ?",
                            (now, digest(token)))
            self.db.execute("DELETE FROM web_sessions WHERE seen < ?", (now - SESSION_SECONDS,))
            self.db.execute("INSERT INTO web_sessions (digest, account, started, seen) VALUES "
                            "(?, ?, ?, ?)", (digest(cookie), account, now, now))
        return account, cookie

    def start_session(self, account: int) -> str:
        """A new browser session for ``account`` (a passkey signed it in): its cookie."""
        now = self.clock()
        cookie = secrets.token_urlsafe(COOKIE_BYTES)
        self.db.execute("INSERT INTO web_sessions (digest, account, started, seen) VALUES "
                        "(?, ?, ?, ?)", (digest(cookie), account, now, now))
        return cookie

    def session(self, cookie: str | None) -> WebSession | None:
        """The live session of a cookie (None: no cookie, a forged or ended one); using it
        keeps it alive :data:`SESSION_SECONDS` more."""
        if not cookie or len(cookie) > 200:
            return None
        now = self.clock()
        key = digest(cookie)
        row = self.db.execute("SELECT account, seen FROM web_sessions WHERE digest = ?",
                              (key,)).fetchone()
        if row is None or row[1] < now - SESSION_SECONDS:
            return None
        if now - row[1] > 60.0:
            self.db.execute("UPDATE web_sessions SET seen = ? WHERE digest = ?", (now, key))
        return WebSession(int(row[0]), key)

    def sign_out(self, session: WebSession) -> None:
        """End one session."""
        self.db.execute("DELETE FROM web_sessions WHERE digest = ?", (session.digest,))

    def sign_out_all(self, account: int) -> int:
        """End every browser session of ``account``, and the links it has waiting; how many
        sessions there were."""
        now = self.clock()
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            count = self.db.execute(
                "SELECT count(*) FROM web_sessions WHERE account = ? AND seen >= ?",
                (account, now - SESSION_SECONDS)).fetchone()[0]
            self.db.execute("DELETE FROM web_sessions WHERE account = ?", (account,))
            self.db.execute("UPDATE web_links SET expires = ? WHERE account = ? AND used IS NULL",
                            (now - 1, account))
        return int(count)


__all__ = ["LINK_SECONDS", "LinkRefused", "WebLogins", "WebSession", "digest"]
