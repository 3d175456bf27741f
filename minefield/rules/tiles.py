"""Tiles and mpsz notation (RULES.md, notation section and R1, R4).

A tile *kind* is an int 0..33: 0-8 man (1m-9m), 9-17 pin, 18-26 sou, 27-33 honors
(1z East, 2z South, 3z West, 4z North, 5z white, 6z green, 7z red). A :class:`Tile` is a kind
plus a red flag (red fives, written ``0m/0p/0s``, exist only with ``red_fives`` on).

>>> parse_tiles("23m55s")
[Tile.parse('2m'), Tile.parse('3m'), Tile.parse('5s'), Tile.parse('5s')]
>>> tiles_to_str(parse_tiles("3m2m1z"))
'23m1z'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from minefield.errors import MinefieldError

SUITS = "mpsz"
NUM_KINDS = 34
#: The suited kinds (man, pin, sou: 9 each) come first; the honors (``1z``-``7z``) follow.
SUIT_KINDS = 27
EAST, SOUTH, WEST, NORTH, HAKU, HATSU, CHUN = range(27, 34)
DRAGONS = (HAKU, HATSU, CHUN)
WINDS = (EAST, SOUTH, WEST, NORTH)
TERMINALS_AND_HONORS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
FIVES = (4, 13, 22)
QUOTE_LIMIT = 40  # characters of input an error message quotes


class TileError(MinefieldError, ValueError):
    """A tile string that is not valid mpsz notation, or an impossible set of tiles."""


def quote_prefix(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``repr`` of at most ``limit`` characters of ``text``, with ``…`` after a longer one.

    Error messages quote input this way, so a huge input is never echoed back whole.

    >>> quote_prefix("123m"), quote_prefix("1234567890", limit=4)
    ("'123m'", "'1234'…")
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}…"


def is_honor(kind: int) -> bool:
    """True for winds and dragons (``1z``-``7z``)."""
    return kind >= SUIT_KINDS


def is_terminal_or_honor(kind: int) -> bool:
    """True for 1s, 9s and honors (yaochuuhai)."""
    return kind >= SUIT_KINDS or kind % 9 in (0, 8)


def suit_of(kind: int) -> int:
    """0 man, 1 pin, 2 sou, 3 honors."""
    return kind // 9


def kind_str(kind: int) -> str:
    """The mpsz name of a kind: ``kind_str(0) == '1m'``, ``kind_str(33) == '7z'``."""
    if not 0 <= kind < NUM_KINDS:
        raise TileError(f"{kind} is not a tile kind (0-33)")
    return _KIND_NAMES[kind]


_KIND_NAMES = tuple(f"{kind % 9 + 1}{SUITS[kind // 9]}" for kind in range(NUM_KINDS))


def kind_from_str(text: str) -> int:
    """Parse a single kind such as ``'5p'`` (a red ``'0p'`` gives the kind of 5p)."""
    return Tile.parse(text).kind


def dora_from_indicator(indicator: int) -> int:
    """R4: the dora is the kind after its indicator, wrapping within its group.

    >>> kind_str(dora_from_indicator(kind_from_str("9m")))
    '1m'
    >>> kind_str(dora_from_indicator(kind_from_str("4z")))
    '1z'
    >>> kind_str(dora_from_indicator(kind_from_str("7z")))
    '5z'
    """
    if indicator < 27:
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    if indicator < 31:
        return 27 + (indicator - 27 + 1) % 4
    return 31 + (indicator - 31 + 1) % 3


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """One tile: a kind (0-33) and whether it is a red five."""

    kind: int
    red: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.kind < NUM_KINDS:
            raise TileError(f"{self.kind} is not a tile kind (0-33)")
        if self.red and self.kind not in FIVES:
            raise TileError(f"only fives can be red, not {kind_str(self.kind)}")

    @classmethod
    def parse(cls, text: str) -> Tile:
        """``Tile.parse('0p')`` is the red five of pin."""
        tiles = parse_tiles(text)
        if len(tiles) != 1:
            raise TileError(f"{quote_prefix(text)} is not a single tile")
        return tiles[0]

    def __str__(self) -> str:
        if self.red:
            return f"0{SUITS[self.kind // 9]}"
        return kind_str(self.kind)

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"


#: Every tile, made once: tiles are immutable, so parsing hands out these.
_PLAIN = tuple(Tile(kind) for kind in range(NUM_KINDS))
_RED = {five: Tile(five, red=True) for five in FIVES}


def parse_tiles(text: str) -> list[Tile]:
    """Parse mpsz notation into tiles, in the order written.

    Digits (ASCII ``0``-``9`` only) are grouped before their suit letter (``23m456m345p55s``);
    spaces are ignored. Raises :class:`TileError` naming the first problem and where it is
    (quoting at most the first 40 characters of ``text``).
    """
    tiles: list[Tile] = []
    pending: list[int] = []  # digits waiting for their suit letter
    for pos, char in enumerate(text):
        if char.isspace():
            continue
        if char in _DIGITS:
            pending.append(_DIGITS[char])
            continue
        suit = _SUIT_LETTERS.get(char)
        if suit is None:
            raise TileError(f"unexpected {char!r} at position {pos + 1} of {quote_prefix(text)}: "
                            "tiles are digits followed by m, p, s or z")
        if not pending:
            raise TileError(f"suit letter {char!r} at position {pos + 1} of "
                            f"{quote_prefix(text)} has no digits before it")
        base = SUITS.index(suit) * 9
        for digit in pending:
            if suit == "z":
                if not 1 <= digit <= 7:
                    raise TileError(f'"{digit}z" is not a tile (honors are 1z-7z)')
                tiles.append(_PLAIN[base + digit - 1])
            elif digit == 0:
                tiles.append(_RED[base + 4])
            else:
                tiles.append(_PLAIN[base + digit - 1])
        pending = []
    if pending:
        raise TileError(f"digits at the end of {quote_prefix(text)} have no suit letter "
                        "(m, p, s or z)")
    return tiles


def tiles_to_str(tiles: Iterable[Tile]) -> str:
    """Write tiles in sorted, grouped mpsz notation (red fives as ``0``, before the 5s)."""
    digits: list[list[str]] = [[], [], [], []]
    for tile in sorted(tiles, key=_written_order):
        digits[tile.kind // 9].append("0" if tile.red else _DIGIT_OF[tile.kind])
    return "".join("".join(row) + suit for row, suit in zip(digits, SUITS, strict=True) if row)


def _written_order(tile: Tile) -> tuple[int, bool]:
    return tile.kind, not tile.red


_DIGIT_OF = tuple(str(kind % 9 + 1) for kind in range(NUM_KINDS))


def kinds_to_str(kinds: Iterable[int]) -> str:
    """Write plain kinds in grouped mpsz notation."""
    return tiles_to_str(Tile(k) for k in kinds)


def counts_of(tiles: Iterable[Tile]) -> list[int]:
    """34 counts, one per kind."""
    counts = [0] * NUM_KINDS
    for tile in tiles:
        counts[tile.kind] += 1
    return counts


def check_copies(tiles: Iterable[Tile]) -> None:
    """Raise :class:`TileError` when a set of tiles holds more than exists (R1)."""
    counts = [0] * NUM_KINDS
    reds = [0, 0, 0]
    for tile in tiles:
        counts[tile.kind] += 1
        if tile.red:
            reds[tile.kind // 9] += 1
    for kind, count in enumerate(counts):
        if count > 4:
            raise TileError(f"{_count_word(count)} copies of {kind_str(kind)}: there are only four")
    for suit, count in enumerate(reds):
        if count > 1:
            raise TileError(f"{count} red fives of {SUITS[suit]}: there is only one")


def _count_word(count: int) -> str:
    """``five`` to ``eight`` in words, any other count in digits (``140``)."""
    return _COUNT_WORDS.get(count, str(count))


_COUNT_WORDS = {5: "five", 6: "six", 7: "seven", 8: "eight"}
# Notation is ASCII: str.isdigit() would also take '²' or '٣', which int() then refuses.
_DIGITS = {str(d): d for d in range(10)}
_SUIT_LETTERS = {c: c for c in SUITS} | {c.upper(): c for c in SUITS}
