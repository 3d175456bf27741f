"""An account's keys after its first: a second key joins only with proof that its holder wants
it, and a key is listed and removed (:class:`AccountKeys`, the keys' side of the players' file).

The account offers the new key a single-use code (:meth:`AccountKeys.offer`, valid
:data:`CODE_SECONDS`), and only a login with that key that gives the code adds it
(:meth:`AccountKeys.confirm`). The codes are kept in the players' file (their SHA-256 only), so
a restart does not lose a pending one and a used one stays used.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from minefield.errors import MinefieldError

if TYPE_CHECKING:
    from minefield.frontdoor.accounts import Account, Accounts

#: How many keys one account may hold (those waiting for their code count too).
MAX_KEYS = 8
#: How long a key's code is valid, in seconds.
CODE_SECONDS = 600
#: The letters of a key's code: no 0/O, 1/I/L, so it is read and typed without doubt.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: How long a key's code is (31 ** 10: about 8e14 codes).
CODE_LENGTH = 10
#: How long after it expires a code is kept: until then a used or expired code is told apart
#: from a wrong one.
PURGE_SECONDS = 86400.0


class KeyRefused(MinefieldError, ValueError):
    """A key that cannot be added, confirmed or removed (the message says why, on one line)."""


class CodeRefused(KeyRefused):
    """A key's code that is wrong, expired or used (the message says which, on one line)."""


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


def normalize_code(text: str) -> str:
    """A key's code as typed (any case, dashes and spaces left out) in its stored form.

    >>> normalize_code("k7qp-3xwm 2b")
    'K7QP3XWM2B'
    """
    return "".join(ch for ch in text.upper() if ch not in "- ")


def _digest(code: str) -> str:
    return hashlib.sha256(normalize_code(code).encode()).hexdigest()


class AccountKeys:
    """The keys of the players of ``accounts`` (their file, its clock): offered a code,
    confirmed with it, listed, removed."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.db = accounts.db
        self.clock = accounts.clock

    def _purge_codes(self) -> None:
        """Forget the codes expired a day ago (until then a used or expired code is told
        apart from a wrong one)."""
        self.db.execute("DELETE FROM key_codes WHERE expires < ?", (self.clock() - PURGE_SECONDS,))

    def offer(self, account_id: int, fingerprint: str, asked_by: str) -> KeyOffer:
        """A code for the key ``fingerprint`` to join the account with, asked for by the
        account's key ``asked_by``: the key joins only when a login with it gives the code
        (:meth:`confirm`). A key of another player is refused; a new offer for the same
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

    def confirm(self, fingerprint: str, code: str) -> tuple[Account, str]:
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
            owner = self.accounts.by_key(fingerprint)
            if owner is not None:
                raise KeyRefused(f"this key already logs in as {owner.name}" +
                                 ("" if owner.id == account_id else
                                  ": it cannot join another player"))
            keys = self.db.execute("SELECT count(*) FROM keys WHERE account = ?",
                                   (account_id,)).fetchone()[0]
            if keys >= MAX_KEYS:
                raise KeyRefused(f"{self.accounts.account(account_id).name} holds {MAX_KEYS} keys "
                                 "already: they must key remove one first")
            self.db.execute("UPDATE key_codes SET used = ? WHERE digest = ?",
                            (self.clock(), _digest(code)))
            self.db.execute("INSERT INTO keys (fingerprint, account, added) VALUES (?, ?, ?)",
                            (fingerprint, account_id, self.clock()))
        return self.accounts.account(account_id), asked_by

    def listed(self, account_id: int) -> list[AccountKey]:
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

    def remove(self, account_id: int, fingerprint: str) -> bool:
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


__all__ = ["CODE_SECONDS", "MAX_KEYS", "PURGE_SECONDS", "AccountKey", "AccountKeys",
           "CodeRefused", "KeyOffer", "KeyRefused", "normalize_code"]
