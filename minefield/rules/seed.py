"""Game seeds (R2): 128 bits, written as 32 lowercase hex digits everywhere they appear.

A seed fixes a deal forever (records and replays depend on it). A game started without a chosen
seed gets :func:`random_seed`, 128 bits from the operating system's CSPRNG, and the deal is
derived from the seed by SHAKE-256 (:mod:`minefield.rules.wall`), so one player's tiles give no
shortcut to the seed. A small integer is accepted where a person types a seed (tests, puzzles)
and means the same as its 32-digit hex form.

>>> parse_seed(7)
'00000000000000000000000000000007'
>>> parse_seed("7") == parse_seed(7) == parse_seed("00000000000000000000000000000007")
True
>>> len(random_seed()), random_seed() != random_seed()
(32, True)
>>> derive_seed(parse_seed(7), "bot") != parse_seed(7)
True
"""

from __future__ import annotations

import hashlib
import secrets

from minefield.errors import MinefieldError

SEED_BITS = 128
SEED_DIGITS = SEED_BITS // 4
_HEX = frozenset("0123456789abcdef")
_DECIMAL = frozenset("0123456789")


class SeedError(MinefieldError, ValueError):
    """Text that is not a seed; the message says what a seed looks like."""


def parse_seed(value: int | str) -> str:
    """The canonical form of a seed: 32 lowercase hex digits.

    Accepts the 32-digit hex form (any case) or a non-negative decimal integer below 2**128
    (as an ``int`` or as ASCII digits). Raises :class:`SeedError` for anything else.
    """
    if isinstance(value, bool):
        raise SeedError("a seed is a number, not true or false")
    if isinstance(value, int):
        number = value
    else:
        text = value.strip().lower()
        if len(text) == SEED_DIGITS and set(text) <= _HEX:
            return text
        if not text or not set(text) <= _DECIMAL or len(text) > 39:
            shown = text if len(text) <= 40 else text[:40] + "..."
            raise SeedError(f"{shown!r} is not a seed: give 32 hex digits or a small number")
        number = int(text)
    if not 0 <= number < 1 << SEED_BITS:
        raise SeedError(f"a seed is a number from 0 to 2**{SEED_BITS} - 1")
    return format(number, f"0{SEED_DIGITS}x")


def random_seed() -> str:
    """A fresh, unguessable seed (128 bits from :mod:`secrets`).

    The only source of chance in the game: the engine itself never calls it; whoever starts a
    game without a chosen seed does.
    """
    return secrets.token_hex(SEED_BITS // 8)


def derive_seed(seed: str, *labels: str | int) -> str:
    """Another seed derived from ``seed`` and ``labels`` (keyed BLAKE2b).

    Used for what must follow from a seed without revealing it: a practice bot's seed, the
    games of a simulation. Knowing the derived seed gives no shortcut to ``seed``.
    """
    digest = hashlib.blake2b("\x1f".join(str(label) for label in labels).encode(),
                             key=bytes.fromhex(parse_seed(seed)), digest_size=SEED_BITS // 8,
                             person=b"minefield-seed")
    return digest.hexdigest()


def derive_int(seed: str, *labels: str | int) -> int:
    """A 63-bit integer derived from ``seed`` and ``labels`` (for a bot's own generator)."""
    return int(derive_seed(seed, *labels)[:16], 16) >> 1
