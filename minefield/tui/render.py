"""How a tile is written on screen, for each tile style (no Textual here).

The suit letter is always written, so colour is never the only cue (and ``NO_COLOR`` works):

>>> from minefield.rules.tiles import Tile
>>> tile_label(Tile.parse("5p"), "box"), tile_label(Tile.parse("0p"), "text")
('5p', '0p')
>>> tile_label(Tile.parse("1z"), "unicode")
'🀀 1z'
"""

from __future__ import annotations

from typing import Literal

from rich.cells import cell_len

from minefield.rules.tiles import Tile

TileStyle = Literal["box", "text", "unicode"]
TILE_STYLES: tuple[TileStyle, ...] = ("box", "text", "unicode")

#: The face-down tile (dead wall).
BACK_LABEL = "▒▒"
#: An empty place in a row (a discard not made yet).
EMPTY_LABEL = "  "

# Unicode Mahjong Tiles: winds and dragons, then characters (man), bamboo (sou), circles (pin).
_HONOR_GLYPHS = "\U0001F000\U0001F001\U0001F002\U0001F003\U0001F006\U0001F005\U0001F004"
_SUIT_BASE = {0: 0x1F007, 1: 0x1F019, 2: 0x1F010}


def tile_glyph(tile: Tile) -> str:
    """The Unicode Mahjong Tiles character of a tile."""
    if tile.kind >= 27:
        return _HONOR_GLYPHS[tile.kind - 27]
    return chr(_SUIT_BASE[tile.kind // 9] + tile.kind % 9)


def tile_label(tile: Tile, style: TileStyle) -> str:
    """The text inside a tile: ``5p`` (box, text) or the glyph and ``5p`` (unicode).

    Glyph labels are padded to four cells (the red dragon glyph is two cells wide).
    """
    if style != "unicode":
        return str(tile)
    glyph = tile_glyph(tile)
    return glyph + " " * (2 - cell_len(glyph)) + str(tile)


def suit_class(tile: Tile) -> str:
    """The CSS class giving a tile its suit colour: ``-suit-m``, ``-suit-p``, ``-suit-s``, ..."""
    return f"-suit-{str(tile)[-1]}"
