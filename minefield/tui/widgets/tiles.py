"""Tiles and rows of tiles.

A :class:`TileWidget` shows one tile, face up or down, in the app's tile style; its look (box,
colour, chosen, cursor) is all in the stylesheet, driven by CSS classes. A :class:`TileRow` has a
fixed number of places, so that its layout never jumps while tiles come and go.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from textual import events
from textual.app import ComposeResult
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from minefield.rules.names import HonorNames, name_text
from minefield.rules.tiles import Tile
from minefield.tui.host import preferences_of, tile_style_of
from minefield.tui.render import BACK_LABEL, EMPTY_LABEL, TileStyle, suit_class, tile_label


def current_tile_style(widget: Widget) -> TileStyle:
    """The tile style the app is set to (``box`` when the app has none)."""
    return tile_style_of(widget.app)


def current_honor_names(widget: Widget) -> HonorNames:
    """How the app calls honors (``letters`` when the app does not say)."""
    return preferences_of(widget.app).honor_names


def named(widget: Widget, text: str) -> str:
    """``text`` with its honors (written ``5z`` by the rules and the trainer) called as the
    player chose: every sentence about tiles goes through this before it is shown."""
    return name_text(text, current_honor_names(widget))


class TileWidget(Widget):
    """One tile. ``tile`` None is an empty place; ``face_down`` shows the back."""

    tile: reactive[Tile | None] = reactive(None)
    face_down: reactive[bool] = reactive(False)

    @dataclass
    class Clicked(Message):
        """The player clicked this tile."""

        widget: TileWidget

    def __init__(self, tile: Tile | None = None, *, face_down: bool = False, id: str | None = None,
                 classes: str | None = None) -> None:
        self._base_classes = frozenset(classes.split()) if classes else frozenset()
        self._flags: set[str] = set()
        self.note = ""  # a short text under the face (the danger overlay's percentage)
        initial = self._wanted_classes(tile, face_down)
        super().__init__(id=id, classes=" ".join(sorted(initial)))
        self.set_reactive(TileWidget.tile, tile)
        self.set_reactive(TileWidget.face_down, face_down)

    def render(self) -> str:
        if self.face_down:
            return BACK_LABEL
        if self.tile is None:
            return EMPTY_LABEL
        style = current_tile_style(self)
        label = tile_label(self.tile, style, current_honor_names(self))
        if self.note:  # boxes: on the line of the bottom edge; a line: after the face
            return f"{label}\n{self.note}" if style == "box" else f"{label}{self.note}"
        return label

    def set_note(self, text: str) -> None:
        """Write ``text`` (at most two cells) under the face, in place of the bottom edge of a
        boxed tile ("" takes it away)."""
        if text != self.note:
            self.note = text
            self.set_flag("-noted", bool(text))
            self.refresh()

    def set_flag(self, css_class: str, on: bool) -> None:
        """Add or remove a state class (``-chosen``, ``-cursor``, ``-latest``)."""
        if (css_class in self._flags) != on:
            if on:
                self._flags.add(css_class)
            else:
                self._flags.discard(css_class)
            self._update_classes()

    def _update_classes(self) -> None:
        # All classes are set at once: each change of classes restyles the widget, and a tile
        # changes several at a time (speed: see benchmarks/bench_tui.py).
        wanted = self._wanted_classes(self.tile, self.face_down)
        if wanted != set(self.classes):
            self.classes = wanted

    def show_quietly(self, tile: Tile | None) -> bool:
        """Show ``tile`` without restyling now; True when the classes changed and the caller
        restyles this widget (with its row, at once: :meth:`TileRow.set_tiles`)."""
        if tile == self.tile:
            return False
        self.set_reactive(TileWidget.tile, tile)
        self.refresh()
        current = set(self.classes)
        wanted = self._wanted_classes(tile, self.face_down)
        if wanted == current:
            return False
        self.remove_class(*(current - wanted), update=False)
        self.add_class(*(wanted - current), update=False)
        return True

    def _wanted_classes(self, tile: Tile | None, face_down: bool) -> set[str]:
        wanted = set(self._base_classes) | self._flags
        if face_down:
            wanted.add("-back")
        elif tile is None:
            wanted.add("-empty")
        else:
            wanted.add(suit_class(tile))
        return wanted

    def watch_tile(self) -> None:
        self._update_classes()

    def watch_face_down(self) -> None:
        self._update_classes()

    def on_click(self, event: events.Click) -> None:
        event.stop()
        if self.tile is not None and not self.face_down:
            self.post_message(self.Clicked(self))

    def __repr__(self) -> str:
        return f"TileWidget(id={self.id!r}, <tile hidden>)"


class TileRow(Widget):
    """A row of ``size`` places. The screen marks places with :meth:`mark` and a cursor.

    Clicking a tile posts :class:`TileRow.Selected` with its index.
    """

    cursor: reactive[int | None] = reactive(None)

    @dataclass
    class Selected(Message):
        """The player clicked the tile at ``index``."""

        row: TileRow
        index: int

    def __init__(self, size: int, tiles: Sequence[Tile] = (), *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.capacity = size
        self._tiles: list[Tile] = list(tiles)[:size]
        self._places = [TileWidget(self._tiles[i] if i < len(self._tiles) else None)
                        for i in range(size)]

    def compose(self) -> ComposeResult:
        yield from self._places

    @property
    def places(self) -> list[TileWidget]:
        """The tile widgets, in order."""
        return self._places

    @property
    def columns(self) -> int:
        """Places per line as the row is laid out now: the stylesheet's grid size, which
        depends on the tile style (moving up or down steps by this many places)."""
        return max(1, min(self.capacity, self.styles.grid_size_columns))

    @property
    def tiles(self) -> list[Tile]:
        """The tiles shown, in order."""
        return list(self._tiles)

    def set_tiles(self, tiles: Iterable[Tile]) -> None:
        """Show these tiles in the first places and empty the rest."""
        self._tiles = list(tiles)[:self.capacity]
        # One restyle for the whole row (tiles alike share it), not one per tile: filling a
        # hand and a pool is most of a hot-seat hand-over (benchmarks/bench_handover.py).
        restyle = [place for index, place in enumerate(self.places) if place.show_quietly(
            self._tiles[index] if index < len(self._tiles) else None)]
        if restyle and self.is_attached:
            self.app.stylesheet.update_nodes(restyle, animate=False)
        if self.cursor is not None and self._tiles:
            self.cursor = min(self.cursor, len(self._tiles) - 1)
        self._show_cursor()

    def clear(self) -> None:
        """Empty every place (hot-seat privacy: nothing is left behind to be seen)."""
        self.set_tiles(())
        for place in self.places:
            for css_class in ("-chosen", "-latest", "-cursor"):
                place.set_flag(css_class, False)
        self.cursor = None

    def note(self, index: int, text: str) -> None:
        """Write ``text`` (two cells: the danger overlay's percentage) under one place's tile
        ("" takes it away)."""
        if 0 <= index < self.capacity:
            self._places[index].set_note(text)

    def mark(self, index: int, css_class: str, on: bool = True) -> None:
        """Add or remove a CSS class (``-chosen``, ``-win``, ...) on one place."""
        if 0 <= index < self.capacity:
            self._places[index].set_flag(css_class, on)

    def watch_cursor(self) -> None:
        self._show_cursor()

    def _show_cursor(self) -> None:
        for index, place in enumerate(self.places):
            place.set_flag("-cursor", index == self.cursor and index < len(self._tiles))

    def on_tile_widget_clicked(self, event: TileWidget.Clicked) -> None:
        event.stop()
        if event.widget in self._places:
            self.post_message(self.Selected(self, self._places.index(event.widget)))

    def __repr__(self) -> str:
        return f"TileRow(id={self.id!r}, <tiles hidden>)"
