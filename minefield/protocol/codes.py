"""Room codes: 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L).

31 symbols give about 30 bits: guessing a live code is hopeless once wrong codes are rate
limited per person. Codes are read without case, spaces or dashes.

>>> len(new_code(set())), set(new_code(set())) <= set(ALPHABET)
(6, True)
>>> normalize_code(" k7q-3px "), normalize_code("K7Q3P0")
('K7Q3PX', None)
"""

from __future__ import annotations

import secrets
from collections.abc import Container

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
_ALLOWED = frozenset(ALPHABET)


def new_code(taken: Container[str]) -> str:
    """A fresh random code that is not in ``taken``."""
    while True:
        code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


def normalize_code(text: str) -> str | None:
    """The canonical form of a typed code (upper case, no spaces or dashes), or None if it
    cannot be a code."""
    code = text.strip().upper().replace("-", "").replace(" ", "")
    if len(code) != CODE_LENGTH or not set(code) <= _ALLOWED:
        return None
    return code


__all__ = ["ALPHABET", "CODE_LENGTH", "new_code", "normalize_code"]
