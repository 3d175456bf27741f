"""Panels around the tiles: the dead wall, the analysis, furiten, the discard rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.css.styles import RulesMap
from textual.geometry import Size
from textual.markup import escape
from textual.widget import Widget
from textual.widgets import Label, Static

from minefield.rules.game import FuritenCause
from minefield.rules.names import HonorNames, tile_name
from minefield.rules.tiles import Tile, dora_from_indicator
from minefield.tui.analysis import HandAnalysis, WaitLine
from minefield.tui.render import BACK_LABEL
from minefield.tui.widgets.phrases import PhraseStatic, wrap_phrases
from minefield.tui.widgets.tiles import TileRow, current_honor_names, named

DORA_PLACE = 2
WALL_ROW = 7


class DeadWall(Static):
    """The dead wall as two rows of seven (R3): the dora indicator is the third tile of the top
    row, face up; the ura indicator beneath it shows only at the end. One widget, drawn in the
    compact style whatever the tile style, so that the table keeps its room."""

    def __init__(self, dora_indicator: Tile, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._dora_indicator = dora_indicator
        self._ura_indicator: Tile | None = None

    def on_mount(self) -> None:
        self._draw()

    def set_indicators(self, dora_indicator: Tile, ura_indicator: Tile | None = None) -> None:
        """Another game's dead wall (a match's next game, seen by a watcher); ``ura_indicator``
        face up once that game has ended."""
        self._dora_indicator, self._ura_indicator = dora_indicator, ura_indicator
        self._draw()

    def reveal_ura(self, ura_indicator: Tile) -> None:
        """Turn the ura indicator face up (after a win or a draw, R18, R26)."""
        self._ura_indicator = ura_indicator
        self._draw()

    def _draw(self) -> None:
        def row(face_up: Tile | None) -> str:
            places = [BACK_LABEL] * WALL_ROW
            if face_up is not None:
                name = tile_name(face_up, names)  # two cells, as the backs (E is one)
                places[DORA_PLACE] = f"[reverse b]{name}{' ' * (2 - cell_len(name))}[/]"
            return " ".join(places)

        names = current_honor_names(self)
        dora = tile_name(Tile(dora_from_indicator(self._dora_indicator.kind)), names)
        self.update(f"[dim]Dead wall · dora {dora}[/]\n{row(self._dora_indicator)}\n"
                    f"{row(self._ura_indicator)}")


def yaku_name(name: str) -> str:
    """A yaku as players write it: ``sanshoku doujun``, not ``sanshoku_doujun``."""
    return name.replace("_", " ")


@dataclass(frozen=True, slots=True)
class WaitEntry:
    """One wait as shown: its columns (``prefix``, markup) and its yaku, each yaku with its han
    (``tokens``, plain text, never split across lines)."""

    prefix: str
    tokens: tuple[str, ...]


def wait_entries(waits: Sequence[WaitLine], names: HonorNames = "numbers",
                 furiten: bool = False) -> list[WaitEntry]:
    """The waits as aligned columns: tile (honors called by ``names``), live copies, ron
    verdict, value, points and limit, then the yaku (and dora) that make the value. A
    ``furiten`` hand can no longer win (R15): no wait says "ron ok", each says "furiten"."""
    limit_width = max((len(w.report.limit) + 1 for w in waits
                       if w.report.limit and w.report.eligible), default=0)
    value_width = max((len(f"{w.report.han_without_ura} han {w.report.fu} fu") for w in waits),
                      default=0)  # "12 han 30 fu" keeps the next columns in line too
    entries = []
    for wait in waits:
        report = wait.report
        verdict = ("[$text-error]furiten[/]" if furiten else
                   "[$text-success]ron ok[/]" if report.eligible else "[$text-error]no ron[/]")
        value = f"{report.han_without_ura} han {report.fu} fu"
        limit = f" {report.limit}" if report.limit and report.eligible else ""
        live = f"{wait.live} live" if wait.live is not None else ""
        tile = tile_name(Tile.parse(wait.tile), names)
        tile += " " * (3 - cell_len(tile))
        prefix = (f"[b]{tile}[/] {live:<7} {verdict}  {value:<{max(11, value_width)}} "
                  f"{report.points_without_ura:>6}{limit:<{limit_width}}  ")
        tokens = [f"{yaku_name(y.name)} {y.han}" for y in report.yaku]
        tokens += [f"dora {report.dora}"] if report.dora else []
        tokens += [f"aka {report.aka}"] if report.aka else []
        entries.append(WaitEntry(prefix, tuple(tokens)))
    return entries


#: A wait's yaku continue under the yaku column while it is at least this wide; else further
#: left, under a small indent.
MIN_YAKU_COLUMN = 16
YAKU_INDENT = 4
#: The width a wait is laid out in before the panel has one (its first layout).
UNWRAPPED = 1000


def wrap_wait(entry: WaitEntry, width: int) -> list[str]:
    """The lines (markup) of one wait in ``width`` cells: the yaku fill the rest of the line
    and continue under the yaku column, breaking only between two yaku (never "pinfu" on one
    line and its "1" on the next)."""
    start = Content.from_markup(entry.prefix).cell_length
    indent = start if width - start >= MIN_YAKU_COLUMN else YAKU_INDENT
    lines: list[list[str]] = [[]]
    used = start
    for index, token in enumerate(entry.tokens):
        needed = len(token) + (2 if lines[-1] else 0)  # ", " before all but the first
        # the comma that ends the line when the next yaku goes to the next one
        comma = 1 if index < len(entry.tokens) - 1 else 0
        if lines[-1] and used + needed + comma > width:
            lines[-1][-1] += ","
            lines.append([])
            used, needed = indent, len(token)
        lines[-1].append(token)
        used += needed
    text = [f"[dim]{escape(', '.join(tokens))}[/]" if tokens else "" for tokens in lines]
    return [entry.prefix + text[0], *(" " * indent + line for line in text[1:])]


class WaitPanel(Widget):
    """Lines of prose and waits. The prose wraps between phrases (never inside a figure); each
    wait keeps its columns and its yaku continue under the yaku column, so every wait stays
    readable at 80 columns."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._parts: list[str | WaitEntry] = []
        self._cache: tuple[int, Content] | None = None

    @property
    def parts(self) -> list[str | WaitEntry]:
        """What the panel shows: lines and waits."""
        return list(self._parts)

    def set_parts(self, parts: Sequence[str | WaitEntry], layout: bool = True) -> None:
        """Show these lines (markup) and waits, in order."""
        self._parts = list(parts)
        self._cache = None
        self.refresh(layout=layout)

    def content_for(self, width: int) -> Content:
        """What the panel shows at ``width`` cells."""
        if self._cache is None or self._cache[0] != width:
            lines: list[str] = []
            for part in self._parts:
                if isinstance(part, WaitEntry):  # (width 0: not laid out yet)
                    lines.extend(wrap_wait(part, width or UNWRAPPED))
                else:
                    lines.append(named(self, part))
            content = Content.from_markup("\n".join(lines))  # the prose between phrases
            self._cache = (width, wrap_phrases(content, width) if width else content)
        return self._cache[1]

    def render(self) -> Content:
        return self.content_for(self.content_size.width)

    def height_for(self, width: int) -> int:
        """Lines the panel needs at ``width`` cells."""
        # The styles are the rules, as Textual's own Widget.get_content_height passes them.
        return self.content_for(width).get_height(cast("RulesMap", self.styles), width)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.height_for(width) if width else 0


class AnalysisPanel(WaitPanel):
    """The live analysis of a 13-tile choice: tenpai, waits, values and warnings."""

    def show(self, analysis: HandAnalysis | None, needed: int = 13) -> None:
        """Show ``analysis`` (None: empty, e.g. behind the hot-seat curtain)."""
        if analysis is None:
            self._show([])
            return
        if not analysis.complete:
            self._show([f"Choose {needed - analysis.chosen} more tile"
                        f"{'s' if needed - analysis.chosen != 1 else ''} to see your waits."])
            return
        parts: list[str | WaitEntry] = []
        if analysis.tenpai:
            count = len(analysis.waits)
            parts.append(f"[b]Tenpai[/], {count} wait{'s' if count != 1 else ''} "
                         "(value without ura, and without ippatsu):")
            parts.extend(wait_entries(analysis.waits, current_honor_names(self)))
        for warning in analysis.warnings:
            parts.append(f"[$text-warning]! {escape(warning)}[/]")
        self._show(parts)

    def _show(self, parts: list[str | WaitEntry]) -> None:
        # A new layout of the whole screen is the costliest part of a toggle: skip it while
        # the text surely stays within the panel's minimum height (see the stylesheet).
        width = self.content_size.width
        minimum = self.styles.min_height.value if self.styles.min_height else 0
        self._parts, self._cache = parts, None
        fits = bool(width) and self.height_for(width) <= minimum
        self.refresh(layout=not (fits and self._fitted))
        self._fitted = fits

    _fitted = False


class FuritenPanel(PhraseStatic):
    """The own furiten state and its cause (R27)."""

    def show(self, cause: FuritenCause | None, hidden: bool = False,
             detail: str | None = None) -> None:
        """Show the cause (in ``detail``'s words when given), or that the player is not
        furiten (``hidden``: empty)."""
        self.set_class(cause is not None and not hidden, "-furiten")
        if hidden:
            self.update("")
        elif cause is None:
            self.update("Not furiten.")
        else:
            # Two lines at 80 columns: the waits under it say none can win (R15).
            self.update(named(self, f"[b]FURITEN[/] since discard {cause.discard_number}: "
                              f"{escape(detail or cause.detail)} (R15)."))


class DiscardRow(Widget):
    """One player's discards in order, 17 places (R10), under a title of two lines: the
    player's name, then the seat and the count (the stylesheet may show the name alone)."""

    def __init__(self, title: str, tiles: Sequence[Tile] = (), *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._title = title
        self._tiles = tiles

    def compose(self) -> ComposeResult:
        name, _, detail = self._title.partition("\n")
        with Vertical(classes="row-title"):
            yield Label(name, classes="row-name")
            yield Label(detail, classes="row-detail")
        yield TileRow(17, self._tiles, classes="discards")

    def show(self, tiles: Sequence[Tile], title: str | None = None) -> None:
        """Show these discards (the newest is marked); ``title`` is ``name\\ndetail``."""
        row = self.query_one(TileRow)
        row.set_tiles(tiles)
        for index in range(row.capacity):
            row.mark(index, "-latest", index == len(tiles) - 1)
        if title is not None:
            name, _, detail = title.partition("\n")
            self.query_one(".row-name", Label).update(name)
            self.query_one(".row-detail", Label).update(detail)
