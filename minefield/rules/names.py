"""How honors are called on screen: by letters, by kanji or by number (no Textual here).

mpsz (``1z``-``7z``) stays the notation of records, the wire, ``--json`` and ``--jsonl``; these
names are for people. ``letters`` (the default) calls the winds E S W N and the dragons Wh Gr Rd,
``kanji`` writes 東 南 西 北 白 發 中 (each two cells wide in a terminal, as ``5z`` is), and
``numbers`` keeps ``1z``-``7z``. Whatever the setting, every name is understood when typed
(:func:`parse_tile_name`): ``E``, ``wh``, ``東`` and ``1z`` are the same tile.

>>> from minefield.rules.tiles import parse_tiles
>>> tile_name(Tile.parse("5z"), "letters"), tile_name(Tile.parse("5z"), "kanji")
('Wh', '白')
>>> tiles_text(parse_tiles("2335566p33s2255z"), "letters")
'2335566p33s S S Wh Wh'
>>> name_text("safest was 1z (3 seen); their hand 123m1112z", "kanji")
'safest was 東 (3 seen); their hand 123m 東東東南'
>>> parse_tile_name("wh") == parse_tile_name("5z") == parse_tile_name("白")
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from minefield.rules.tiles import (
    NUM_KINDS,
    Tile,
    TileError,
    quote_prefix,
    tiles_to_str,
)

HonorNames = Literal["letters", "kanji", "numbers"]
HONOR_NAMES: tuple[HonorNames, ...] = ("letters", "kanji", "numbers")
#: East, South, West, North, white, green, red (1z-7z).
LETTERS = ("E", "S", "W", "N", "Wh", "Gr", "Rd")
KANJI = ("東", "南", "西", "北", "白", "發", "中")
NUMBERS = tuple(f"{n}z" for n in range(1, 8))
#: The honors in words, for sentences that explain a name (the help, a typing status).
WORDS = ("East", "South", "West", "North", "White", "Green", "Red")

_BY_NAME: dict[str, int] = {}
for _index, _names in enumerate(zip(LETTERS, KANJI, NUMBERS, WORDS, strict=True)):
    for _name in _names:
        _BY_NAME[_name.lower()] = 27 + _index
_BY_NAME["発"] = 27 + 5  # the simplified form of 發 that Japanese input methods give

#: Honor groups inside a sentence: ``5z``, ``1112z``, or the honors after ``789s`` in
#: ``123m789s1112z``; never inside a longer word (a seed such as ``x5z`` is left alone).
_HONOR_GROUP = re.compile(r"(?:(?<![0-9A-Za-z])|(?<=[0-9][mps]))([1-7]+)z(?![0-9A-Za-z])")


def honor_name(kind: int, names: HonorNames) -> str:
    """The name of the honor ``kind`` (27-33): ``honor_name(27, "letters") == 'E'``."""
    if not 27 <= kind < NUM_KINDS:
        raise TileError(f"{kind} is not an honor (27-33)")
    table = {"letters": LETTERS, "kanji": KANJI, "numbers": NUMBERS}[names]
    return table[kind - 27]


def tile_name(tile: Tile, names: HonorNames) -> str:
    """A tile as people read it: ``5p``, ``0p`` (red five), or the honor's name."""
    return honor_name(tile.kind, names) if tile.kind >= 27 else str(tile)


def tiles_text(tiles: Iterable[Tile], names: HonorNames) -> str:
    """Tiles sorted and grouped: the suits in mpsz, then the honors by name (separated by
    spaces as letters, side by side as kanji, grouped as ``1112z`` as numbers)."""
    return name_text(tiles_to_str(tiles), names)


def name_text(text: str, names: HonorNames) -> str:
    """``text`` (a sentence, markup or not) with each honor written in mpsz renamed.

    >>> name_text("Ron on 7z; waits 5z 6p", "letters")
    'Ron on Rd; waits Wh 6p'
    >>> name_text("seed abc5z stays", "letters")
    'seed abc5z stays'
    """
    if names == "numbers" or "z" not in text:
        return text
    separator = " " if names == "letters" else ""

    def rename(found: re.Match[str]) -> str:
        group = separator.join(honor_name(26 + int(d), names) for d in found.group(1))
        after_suit = found.start() > 0 and text[found.start() - 1] in "mps"
        return (" " if after_suit else "") + group

    return _HONOR_GROUP.sub(rename, text)


def parse_tile_name(text: str) -> Tile:
    """One tile from any of its names, in any case: ``5p``, ``0p``, ``1z``, ``E``, ``Wh``,
    ``east``, ``東``. Raises :class:`TileError` saying what was not understood."""
    key = text.strip().lower()
    kind = _BY_NAME.get(key)
    if kind is not None:
        return Tile(kind)
    try:
        return Tile.parse(key)
    except TileError:
        raise TileError(f"{quote_prefix(text)} is not a tile: write it as 5p, 0p (a red five), "
                        "1z-7z, E S W N Wh Gr Rd or 東 南 西 北 白 發 中") from None


def to_mpsz(text: str) -> str:
    """``text`` typed by a person with every honor name turned into mpsz, for the parsers of
    :mod:`minefield.rules.tiles` (a drill's answer): words such as ``E`` or ``wh`` and each
    kanji. Anything else is left as it was.

    >>> to_mpsz("123m Wh wh 5p e"), to_mpsz("東東南 9s")
    ('123m 5z 5z 5p 1z', '1z1z2z 9s')
    """
    text = _KANJI_CHAR.sub(lambda found: f"{_BY_NAME[found.group()]- 26}z", text)
    return _NAME_WORD.sub(lambda found: f"{_BY_NAME[found.group().lower()] - 26}z", text)


_KANJI_CHAR = re.compile("[" + "".join(KANJI) + "発]")
_NAME_WORD = re.compile(r"(?<![0-9A-Za-z])(" + "|".join(
    sorted((n for n in _BY_NAME if n.isascii() and not n[0].isdigit()), key=len, reverse=True))
    + r")(?![0-9A-Za-z])", re.IGNORECASE)


def hand_to_mpsz(text: str) -> str:
    """A hand typed by a person, honors by any of their names, in mpsz: ``E``, ``Wh``,
    ``東`` and ``1z`` alike, side by side or apart (a letter right after digits is their
    suit, as in ``789s``). Anything else is left for :func:`~minefield.rules.tiles.parse_tiles`
    to word.

    >>> hand_to_mpsz("123m456p789s EEE S"), hand_to_mpsz("123m456p789s東東東南")
    ('123m456p789s 1z1z1z 2z', '123m456p789s1z1z1z2z')
    >>> hand_to_mpsz("23m456m345p678sWhWh")
    '23m456m345p678s5z5z'
    """
    out: list[str] = []
    index = 0
    while index < len(text):
        group = _MPSZ_GROUP.match(text, index)
        if group is not None:
            out.append(group.group())
            index = group.end()
            continue
        name = _HAND_NAME.match(text, index)
        if name is not None and not (out and out[-1][-1].isdigit()):  # "11E": left to word
            out.append(f"{_BY_NAME[name.group().lower()] - 26}z")
            index = name.end()
            continue
        out.append(text[index])
        index += 1
    return "".join(out)


_MPSZ_GROUP = re.compile(r"[0-9]+[mpszMPSZ]?")
_HAND_NAME = re.compile("|".join(sorted((re.escape(n) for n in _BY_NAME
                                          if not n[0].isdigit()), key=len, reverse=True)),
                        re.IGNORECASE)


def name_prefixes() -> frozenset[str]:
    """Every beginning of a letter name that is not yet a whole name (``g``, ``r``): a key
    that waits for the next one."""
    return frozenset(n[:i].lower() for n in LETTERS for i in range(1, len(n))
                     if n[:i].lower() not in {m.lower() for m in LETTERS})


def longer_names(prefix: str) -> tuple[str, ...]:
    """The letter names that go on from a whole name (``w`` goes on to ``Wh``)."""
    key = prefix.lower()
    return tuple(n for n in LETTERS if n.lower().startswith(key) and n.lower() != key)


__all__ = ["HONOR_NAMES", "KANJI", "LETTERS", "NUMBERS", "WORDS", "HonorNames", "hand_to_mpsz",
           "honor_name",
           "longer_names", "name_prefixes", "name_text", "parse_tile_name", "tile_name",
           "tiles_text", "to_mpsz"]
