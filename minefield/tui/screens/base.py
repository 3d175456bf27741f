"""What the screens of one seat share: the seat, the players' names and typed tiles."""

from __future__ import annotations

import math
from time import monotonic

from textual import events
from textual.screen import Screen
from textual.timer import Timer

from minefield.rules.game import PlayerView, Seat
from minefield.rules.names import KANJI, LETTERS, longer_names, name_prefixes, parse_tile_name
from minefield.rules.tiles import Tile, TileError
from minefield.session.protocol import MatchView, TableView
from minefield.tui.widgets.scoreboard import Scoreboard

#: Only these are tile digits: ``str.isdigit`` is also true of ``²`` (a key of AZERTY
#: keyboards) and of other scripts' digits, which are no tiles.
DIGIT_KEYS = "0123456789"
#: The suit letters, either case (``5P`` is ``5p``).
SUIT_KEYS = "mpszMPSZ"
#: The honors' letter names, lower case (``wh``), and the keys that begin one (``g``, ``r``).
NAME_KEYS = frozenset(name.lower() for name in LETTERS)
NAME_STARTS = name_prefixes()


def washizu_on(app: object) -> bool:
    """True when ``app``'s preferences show Washizu's stakes (cc of blood) beside points."""
    return bool(getattr(getattr(app, "preferences", None), "washizu", False))


def clock_text(seconds: float) -> str:
    """``2:05`` for 125 seconds: whole seconds rounded up, as a countdown shows them, never
    below zero.

    >>> clock_text(125.0), clock_text(124.2), clock_text(-3)
    ('2:05', '2:05', '0:00')
    """
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


#: The name the game server gives a seat nobody has taken yet (not "disconnected").
WAITING = "(waiting)"


class SeatScreen(Screen[None]):
    """A screen showing one seat's private view. Its repr never shows tiles."""

    def __init__(self, view: PlayerView, names: dict[Seat, str]) -> None:
        super().__init__()
        self.seat = view.seat
        self.view = view
        self.names = names
        self._typed_digit = ""
        self._typed_name = ""  # letters of an honor's name typed so far (``w``, ``g``)
        self.table: TableView | None = None
        self._table_at = 0.0
        self._ticker: Timer | None = None

    def update_view(self, view: PlayerView) -> None:
        """Show a newer view of the same seat."""
        self.view = view

    def update_table(self, table: TableView) -> None:
        """The players and clocks around the view: shown in the header while a clock runs or a
        player is away (R25), counting down between updates."""
        self.table = table
        self._table_at = monotonic()
        names = {seat: table.name(seat) for seat in Seat}
        if names != self.names:  # the second player took the waiting seat, say
            self.names = names
            self.names_changed()
        self.show_table_status()
        if table.match is not None:
            self.show_scoreboard(table.match)
        running = any(c.running for c in table.clocks.values()) or any(
            p.grace_left is not None for p in table.players.values())
        if running and self._ticker is None:
            self._ticker = self.set_interval(1.0, self.show_table_status)
        elif not running and self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    def names_changed(self) -> None:
        """The players' names changed (:attr:`names` holds the new ones): show them."""

    def show_scoreboard(self, match: MatchView) -> None:
        """The match's scoreboard under the header, for the whole game (R30-R35)."""
        self.query_one(Scoreboard).show(match, washizu_on(self.app))

    def show_table_status(self) -> None:
        """Both clocks and who is away, in the screen's header (nothing when neither)."""
        table = self.table
        if table is None:
            return
        elapsed = monotonic() - self._table_at
        parts = []
        away = {seat for seat, player in table.players.items()
                if not player.present and player.name != WAITING}
        for seat in (self.seat, self.seat.other):
            clock = table.clocks[seat]
            # An absent seat's clock runs only once its grace is spent (R25b): then it is
            # the clock of the automatic move to come, shown beside the absence.
            if clock.running and clock.remaining is not None:
                who = "You" if seat is self.seat and len(set(self.names.values())) > 1 else (
                    table.name(seat))
                parts.append(f"{who} {clock_text(clock.remaining - elapsed)}")
        for seat in sorted(away, key=lambda s: s is not self.seat.other):
            # Short enough for 80 columns: the grace period is what the absent seat has now.
            player = table.players[seat]
            gone = f"{player.name} disconnected"
            if player.grace_left is not None:
                gone += f", grace {clock_text(player.grace_left - elapsed)}"
            parts.append(gone)
        # The app's own line (opponent, rules, a room code) comes first, shortened to fit; the
        # opponent's name goes while they are away (the away part names them).
        line = self.app.sub_title.replace("Playing against ", "vs ")
        if self.seat.other in away and line.startswith(f"vs {table.name(self.seat.other)}"):
            line = line.removeprefix(f"vs {table.name(self.seat.other)}").lstrip(" ·")
        self.sub_title = " · ".join([p for p in (line, *parts) if p]) if parts else None

    def clear_private(self) -> None:
        """Empty every widget that shows private tiles (hot-seat curtain)."""

    def tile_typed(self, tile: Tile) -> None:
        """The player typed a tile such as ``5p``."""

    def tile_retyped(self, typed: Tile, tile: Tile) -> None:
        """The next key made a longer name of the tile just typed (``W`` then ``h`` is
        ``Wh``): ``tile`` instead of ``typed``."""
        self.tile_typed(tile)

    def typing_status(self, text: str) -> None:
        """Show what is being typed."""

    def on_key(self, event: events.Key) -> None:
        """A digit then a suit letter (``5`` ``p`` or ``P``) types a tile; ``0`` is a red five.
        An honor is typed by any of its names, in any case: ``1`` ``z``, ``E``, ``W`` ``h``
        (``W`` alone is West, taken at once; the ``h`` makes it White), ``東``."""
        char = event.character
        if char is None or len(char) != 1:
            return
        key, typed_name = char.lower(), self._typed_name
        self._typed_name = ""
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
        elif typed_name and typed_name + key in NAME_KEYS:
            event.stop()
            tile = parse_tile_name(typed_name + key)
            if typed_name in NAME_KEYS:  # W was West until the h came
                self.tile_retyped(parse_tile_name(typed_name), tile)
            else:
                self.tile_typed(tile)
        elif key in NAME_KEYS or char in KANJI:
            event.stop()
            self._typed_digit = ""
            self._typed_name = key if longer_names(key) else ""
            self.tile_typed(parse_tile_name(char))
        elif key in NAME_STARTS:
            event.stop()
            self._typed_digit = ""
            self._typed_name = key
            follow = " or ".join(name[len(key):] for name in LETTERS
                                 if name.lower().startswith(key))
            self.typing_status(f"Typing {char.upper()}… (then {follow})")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seat={self.seat.value}, <tiles hidden>)"
