"""Which players are programs: those whose key has ever connected over ``ssh HOST wire``.

A bot brought to the club is a player like any other (a key, a name, a rating); what marks it
is how it came: a key that speaks the protocol itself (``wire``) is a program's. The mark is
kept by account in the players' file, beside the accounts (a table of its own, made here when
first needed), and stays when the player is renamed. ``ladder``, ``stats``, ``who`` and the
lobby show it as ``"program": true``.

>>> from minefield.frontdoor.accounts import Accounts
>>> accounts = Accounts(":memory:")
>>> bot, ann = accounts.claim("SHA256:b", "Robo"), accounts.claim("SHA256:a", "Ann")
>>> mark_program(accounts, bot.id)
>>> is_program(accounts, bot.id), is_program(accounts, ann.id), program_ids(accounts)
(True, False, {1})
>>> programs_named(accounts, ["robo", "Ann", "nobody"])
{'robo'}
"""

from __future__ import annotations

from collections.abc import Iterable

from minefield.frontdoor.accounts import Accounts

_SCHEMA = """
CREATE TABLE IF NOT EXISTS programs (
    account INTEGER PRIMARY KEY REFERENCES accounts(id),
    first REAL NOT NULL,  -- its first connection over wire
    last REAL NOT NULL    -- its latest
)
"""


def _ready(accounts: Accounts) -> None:
    accounts.db.execute(_SCHEMA)


def mark_program(accounts: Accounts, account_id: int) -> None:
    """The account has connected over ``wire`` now: it is a program's from now on."""
    _ready(accounts)
    now = accounts.clock()
    accounts.db.execute("INSERT INTO programs (account, first, last) VALUES (?, ?, ?) "
                        "ON CONFLICT (account) DO UPDATE SET last = excluded.last",
                        (account_id, now, now))


def is_program(accounts: Accounts, account_id: int) -> bool:
    """True when the account has ever connected over ``wire``."""
    _ready(accounts)
    return accounts.db.execute("SELECT 1 FROM programs WHERE account = ?",
                               (account_id,)).fetchone() is not None


def program_ids(accounts: Accounts) -> set[int]:
    """The ids of every program's account."""
    _ready(accounts)
    return {account for (account,) in accounts.db.execute("SELECT account FROM programs")}


def programs_named(accounts: Accounts, names: Iterable[str]) -> set[str]:
    """Those of ``names`` (as given, any case) that a program holds, its name now or a former
    one kept for it."""
    _ready(accounts)
    wanted: dict[str, list[str]] = {}
    for name in names:
        wanted.setdefault(name.casefold(), []).append(name)
    found: set[str] = set()
    keys = list(wanted)
    for start in range(0, len(keys), 500):  # SQLite's limit on ? in one statement
        chunk = keys[start:start + 500]
        rows = accounts.db.execute(
            "SELECT names.folded FROM names JOIN programs ON programs.account = names.account "
            f"WHERE names.folded IN ({', '.join('?' * len(chunk))})", chunk)
        for (folded,) in rows:
            found.update(wanted[folded])
    return found


__all__ = ["is_program", "mark_program", "program_ids", "programs_named"]
