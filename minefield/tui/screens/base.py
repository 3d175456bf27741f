"""What the screens of one seat share: the seat, the players' names and typed tiles."""

from __future__ import annotations

from textual import events
from textual.screen import Screen

from minefield.rules.game import PlayerView, Seat
from minefield.rules.tiles import Tile, TileError

#: Only these are tile digits: ``str.isdigit`` is also true of ``²`` (a key of AZERTY
#: keyboards) and of other scripts' digits, which are no tiles.
DIGIT_KEYS = "0123456789"
#: The suit letters, either case (``5P`` is ``5p``).
SUIT_KEYS = "mpszMPSZ"


class SeatScreen(Screen[None]):
    """A screen showing one seat's private view. Its repr never shows tiles."""

    def __init__(self, view: PlayerView, names: dict[Seat, str]) -> None:
        super().__init__()
        self.seat = view.seat
        self.view = view
        self.names = names
        self._typed_digit = ""

    def update_view(self, view: PlayerView) -> None:
        """Show a newer view of the same seat."""
        self.view = view

    def clear_private(self) -> None:
        """Empty every widget that shows private tiles (hot-seat curtain)."""

    def tile_typed(self, tile: Tile) -> None:
        """The player typed a tile such as ``5p``."""

    def typing_status(self, text: str) -> None:
        """Show what is being typed."""

    def on_key(self, event: events.Key) -> None:
        """A digit then a suit letter (``5`` ``p`` or ``P``) types a tile; ``0`` is a red five."""
        char = event.character
        if char is None or len(char) != 1:
            return
        if char in DIGIT_KEYS:
            self._typed_digit = char
            self.typing_status(f"Typing {char}… (then m, p, s or z)")
            event.stop()
        elif char in SUIT_KEYS and self._typed_digit:
            text = self._typed_digit + char.lower()
            self._typed_digit = ""
            event.stop()
            try:
                tile = Tile.parse(text)
            except TileError:
                self.typing_status(f"{text} is not a tile.")
                return
            self.tile_typed(tile)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seat={self.seat.value}, <tiles hidden>)"
