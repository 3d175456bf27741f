"""What the screens of one seat share: the seat, the players' names and typed tiles."""

from __future__ import annotations

import math
from time import monotonic
from typing import TYPE_CHECKING, Any

from textual import events
from textual.screen import Screen
from textual.timer import Timer

from minefield.protocol.messages import WAITING_NAME, MatchView, TableView
from minefield.rules.game import PlayerView, Seat
from minefield.rules.names import KANJI, LETTERS, longer_names, name_prefixes, parse_tile_name
from minefield.rules.tiles import Tile, TileError
from minefield.tui.widgets.scoreboard import Scoreboard

if TYPE_CHECKING:
    from minefield.tui.host import PreferencesSource

#: Only these are tile digits: ``str.isdigit`` is also true of ``²`` (a key of AZERTY
#: keyboards) and of other scripts' digits, which are no tiles.
DIGIT_KEYS = "0123456789"
#: The suit letters, either case (``5P`` is ``5p``).
SUIT_KEYS = "mpszMPSZ"
#: The most digits a typed group holds (a hand is 13 tiles).
MAX_TYPED_GROUP = 13
#: The honors' letter names, lower case (``wh``), and the keys that begin one (``g``, ``r``).
NAME_KEYS = frozenset(name.lower() for name in LETTERS)
NAME_STARTS = name_prefixes()


def clock_text(seconds: float) -> str:
    """``2:05`` for 125 seconds: whole seconds rounded up, as a countdown shows them, never
    below zero.

    >>> clock_text(125.0), clock_text(124.2), clock_text(-3)
    ('2:05', '2:05', '0:00')
    """
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def size_classes(screen: Screen[Any], width: int, height: int) -> set[str]:
    """The breakpoint classes Textual gives ``screen`` at ``width`` x ``height`` (its, else
    the app's, ``HORIZONTAL_BREAKPOINTS`` and ``VERTICAL_BREAKPOINTS``: the largest threshold
    reached on each axis).

    >>> class Tall(Screen[None]):
    ...     HORIZONTAL_BREAKPOINTS = []
    ...     VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    >>> sorted(size_classes(Tall(), 80, 24)), sorted(size_classes(Tall(), 80, 40))
    (['-short'], ['-tall'])
    """
    classes = set()
    for size, breakpoints in (
            (width, screen.HORIZONTAL_BREAKPOINTS if screen.HORIZONTAL_BREAKPOINTS is not None
             else screen.app.HORIZONTAL_BREAKPOINTS),
            (height, screen.VERTICAL_BREAKPOINTS if screen.VERTICAL_BREAKPOINTS is not None
             else screen.app.VERTICAL_BREAKPOINTS)):
        reached = [(threshold, name) for threshold, name in breakpoints or [] if size >= threshold]
        if reached:
            classes.add(max(reached)[1])
    return classes


class SeatScreen(Screen[None]):
    """A screen showing one seat's private view. Its repr never shows tiles.

    ``table`` (the players, clocks and match around the view) is shown from the first frame:
    a screen never appears without its scoreboard. ``prefs``: the player's preferences as they
    are now (the scoreboard's stakes, each screen's own)."""

    def __init__(self, view: PlayerView, names: dict[Seat, str],
                 table: TableView | None = None, *, prefs: PreferencesSource) -> None:
        super().__init__()
        self.prefs = prefs
        self.seat = view.seat
        self.view = view
        self.names = names
        self._typed_digit = ""
        self._typed_name = ""  # letters of an honor's name typed so far (``w``, ``g``)
        self.table: TableView | None = table
        #: Both seats play at this screen (hot-seat): clocks go by name, both shown.
        self.shared_screen = False
        self._table_at = 0.0
        self._ticker: Timer | None = None
        # The size classes Textual sets on the first resize, set before the first styling:
        # set after, they would restyle every widget again (half the time of a hot-seat
        # hand-over; benchmarks/bench_handover.py).
        self.set_class(True, *size_classes(self, self.app.size.width, self.app.size.height))

    def _on_mount(self, event: events.Mount) -> None:
        if self.table is not None:
            self.update_table(self.table)

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
        self.query_one(Scoreboard).show(match, self.prefs.preferences.washizu)

    def show_table_status(self) -> None:
        """Both clocks and who is away, in the screen's header (nothing when neither)."""
        table = self.table
        if table is None:
            return
        elapsed = monotonic() - self._table_at
        parts = []
        away = {seat for seat, player in table.players.items()
                if not player.present and player.name != WAITING_NAME}
        for seat in (self.seat, self.seat.other):
            clock = table.clocks[seat]
            # An absent seat's clock runs only once its grace is spent (R25b): then it is
            # the clock of the automatic move to come, shown beside the absence.
            if clock.running and clock.remaining is not None:
                who = "You" if (seat is self.seat and len(set(self.names.values())) > 1
                                and not self.shared_screen) else table.name(seat)
                parts.append(f"{who} {clock_text(clock.remaining - elapsed)}")
            elif self.shared_screen and clock.remaining is not None and any(
                    c.running for c in table.clocks.values()):
                # Hot-seat: the other player's clock too, stopped until their turn (R25).
                parts.append(f"{table.name(seat)} {clock_text(clock.remaining)}")
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

    def tiles_typed(self, tiles: list[Tile], text: str) -> None:
        """The player typed a group such as ``234p`` (``text``); one tile is :meth:`tile_typed`.
        Screens that take one tile at a time say so."""
        if len(tiles) == 1:
            self.tile_typed(tiles[0])
        else:
            self.typing_status(f"{text}: type one tile at a time here (such as 5p).")

    def tile_retyped(self, typed: Tile, tile: Tile) -> None:
        """The next key made a longer name of the tile just typed (``W`` then ``h`` is
        ``Wh``): ``tile`` instead of ``typed``."""
        self.tile_typed(tile)

    def typing_status(self, text: str) -> None:
        """Show what is being typed."""

    def on_key(self, event: events.Key) -> None:
        """Digits then a suit letter type tiles: ``5`` ``p`` (or ``P``) is 5p, ``2`` ``3``
        ``4`` ``p`` the group 2p 3p 4p; ``0`` is a red five. An honor is typed by any of its
        names, in any case: ``1`` ``z``, ``E``, ``W`` ``h`` (``W`` alone is West, taken at
        once; the ``h`` makes it White), ``東``."""
        char = event.character
        if char is None or len(char) != 1:
            return
        key, typed_name = char.lower(), self._typed_name
        self._typed_name = ""
        if char in DIGIT_KEYS:
            self._typed_digit = (self._typed_digit + char)[-MAX_TYPED_GROUP:]
            self.typing_status(f"Typing {self._typed_digit}… (then m, p, s or z)")
            event.stop()
        elif char.isdigit():  # ² or another script's digit: said, never taken for a tile's
            self._typed_digit = ""
            self.typing_status(f"{char} is not a tile digit: type 0 to 9, then m, p, s or z.")
            event.stop()
        elif char in SUIT_KEYS and self._typed_digit:
            suit = char.lower()
            text = self._typed_digit + suit
            self._typed_digit = ""
            event.stop()
            tiles = []
            for digit in text[:-1]:
                try:
                    tiles.append(Tile.parse(digit + suit))
                except TileError:
                    self.typing_status(f"{digit}{suit} is not a tile"
                                       + (f" (in {text})." if len(text) > 2 else "."))
                    return
            self.tiles_typed(tiles, text)
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
