"""What a player's name may be: 2 to 16 letters, digits, ``-`` or ``_``, not a reserved word
(a bot's level, a command, ``bot``...); :func:`check_name` says why a name is refused, naming
a look-alike letter from another script or an invisible character.

Whether a name is free (unique without regard to case, a former name kept reserved) is the
players' file's to say (:class:`~minefield.frontdoor.accounts.Accounts`).

>>> check_name("Ann_2")
'Ann_2'
>>> check_name("strong")
Traceback (most recent call last):
...
minefield.frontdoor.account_names.NameRefused: 'strong' is reserved: choose another name
"""

from __future__ import annotations

import re
import unicodedata

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


class NameRefused(MinefieldError, ValueError):
    """A name that cannot be taken (the message says why, on one line)."""


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


__all__ = ["NAME", "RESERVED", "NameRefused", "character", "check_name"]
