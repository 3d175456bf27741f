"""How tiles and players are written on screen, for each tile style (no Textual here).

The suit letter is always written, so colour is never the only cue (and ``NO_COLOR`` works):

>>> from minefield.rules.tiles import Tile
>>> tile_label(Tile.parse("5p"), "box"), tile_label(Tile.parse("0p"), "text")
('5p', '0p')
>>> tile_label(Tile.parse("1z"), "unicode"), tile_label(Tile.parse("5z"), "box", "kanji")
('🀀 E ', '白')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from rich.cells import cell_len

from minefield.rules.names import HonorNames, tile_name
from minefield.rules.seats import Seat
from minefield.rules.tiles import SUIT_KINDS, Tile

if TYPE_CHECKING:  # the rules engine (and pydantic) load with the first game, not the menu
    from minefield.rules.game import FuritenCause

TileStyle = Literal["box", "text", "unicode"]
TILE_STYLES: tuple[TileStyle, ...] = ("box", "text", "unicode")

#: The screens' height classes: below 30 lines (80x24 first) the rows that need no
#: interaction are drawn one line high (the stylesheet's ``-short`` rules).
HEIGHT_BREAKPOINTS: list[tuple[int, str]] = [(0, "-short"), (30, "-tall")]

#: The face-down tile (dead wall).
BACK_LABEL = "▒▒"
#: An empty place in a row (a discard not made yet).
EMPTY_LABEL = "  "

# Unicode Mahjong Tiles: winds and dragons, then characters (man), bamboo (sou), circles (pin).
_HONOR_GLYPHS = "\U0001F000\U0001F001\U0001F002\U0001F003\U0001F006\U0001F005\U0001F004"
_SUIT_BASE = {0: 0x1F007, 1: 0x1F019, 2: 0x1F010}


def tile_glyph(tile: Tile) -> str:
    """The Unicode Mahjong Tiles character of a tile."""
    if tile.kind >= SUIT_KINDS:
        return _HONOR_GLYPHS[tile.kind - SUIT_KINDS]
    return chr(_SUIT_BASE[tile.kind // 9] + tile.kind % 9)


def tile_label(tile: Tile, style: TileStyle, names: HonorNames = "letters") -> str:
    """The text inside a tile: ``5p`` or an honor's name (box, text), or the glyph and the
    same text (unicode): ``🀆 Wh``, never ``🀆 5z`` unless the honors are called by number.

    Glyph labels are padded to four cells (the red dragon glyph is two cells wide, and so is
    a kanji name).
    """
    name = tile_name(tile, names)
    if style != "unicode":
        return name
    glyph = tile_glyph(tile)
    label = glyph + " " * (2 - cell_len(glyph)) + name
    return label + " " * (4 - cell_len(label))


def suit_class(tile: Tile) -> str:
    """The CSS class giving a tile its suit colour: ``-suit-m``, ``-suit-p``, ``-suit-s``, ..."""
    return f"-suit-{str(tile)[-1]}"


# -- players in sentences ------------------------------------------------------------------------

#: The name practice gives the player at the keyboard (``LocalSession.practice``): sentences
#: about that player are in the second person ("you win", "your 6m").
YOU = "You"


def seat_name(name: str, seat: Seat) -> str:
    """A player with their seat, each said once: ``Bot (normal), West`` or just ``West`` when
    the player is called by the seat (hot-seat).

    >>> seat_name("Bot (normal)", Seat.WEST), seat_name("West", Seat.WEST)
    ('Bot (normal), West', 'West')
    """
    wind = seat.value.title()
    return wind if name == wind else f"{name}, {wind}"


def possessive(name: str) -> str:
    """``your`` for the player at the keyboard, else ``East's``.

    >>> possessive("You"), possessive("Bot (normal)")
    ('your', "Bot (normal)'s")
    """
    return "your" if name == YOU else f"{name}'s"


def objective(name: str) -> str:
    """The player as an object: ``you`` or the name.

    >>> objective("You"), objective("West")
    ('you', 'West')
    """
    return "you" if name == YOU else name


def verb(name: str, plural: str, singular: str) -> str:
    """The verb that agrees with the player: ``You win``, ``West wins``."""
    return plural if name == YOU else singular


def furiten_reason(cause: FuritenCause, name: str, other: str, short: bool = False) -> str:
    """Why ``name`` became furiten, said from the point of view of someone reading about that
    player (the engine's ``cause.detail`` is written to the furiten player alone). ``other``
    is the opponent's name.

    >>> from minefield.rules.game import FuritenCause
    >>> cause = FuritenCause(kind="passed_wait", tile="7p", discard_number=2, detail="")
    >>> furiten_reason(cause, "Bot (normal)", "You")
    "7p from you was one of Bot (normal)'s waits, below mangan (R15b)"
    >>> furiten_reason(cause, "You", "Bot (normal)", short=True)
    'your wait 7p passed below mangan'
    >>> own = cause.model_copy(update={"kind": "own_discard"})
    >>> furiten_reason(own, "West", "East")
    'West discarded 7p, one of their own waits (R15a)'
    """
    whose = possessive(name)
    if cause.kind == "own_discard":
        own = "your" if name == YOU else "their"
        if short:
            return f"{objective(name)} discarded {own} wait {cause.tile}"
        return f"{objective(name)} discarded {cause.tile}, one of {own} own waits (R15a)"
    if short:
        return f"{whose} wait {cause.tile} passed below mangan"
    return (f"{cause.tile} from {objective(other)} was one of {whose} waits, below mangan "
            "(R15b)")
