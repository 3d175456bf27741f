"""Panels around the tiles: the dead wall, the analysis, furiten, the discard rows."""

from __future__ import annotations

from collections.abc import Sequence

from rich.markup import escape
from textual.app import ComposeResult
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Label, Static

from minefield.rules.game import FuritenCause
from minefield.rules.report import WaitReport
from minefield.rules.tiles import Tile, dora_from_indicator, kind_str
from minefield.tui.analysis import HandAnalysis
from minefield.tui.render import BACK_LABEL
from minefield.tui.widgets.tiles import TileRow

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

    def reveal_ura(self, ura_indicator: Tile) -> None:
        """Turn the ura indicator face up (after a win or a draw, R18, R26)."""
        self._ura_indicator = ura_indicator
        self._draw()

    def _draw(self) -> None:
        def row(face_up: Tile | None) -> str:
            places = [BACK_LABEL] * WALL_ROW
            if face_up is not None:
                places[DORA_PLACE] = f"[reverse b]{face_up}[/]"
            return " ".join(places)

        dora = kind_str(dora_from_indicator(self._dora_indicator.kind))
        self.update(f"[dim]Dead wall · dora {dora}[/]\n{row(self._dora_indicator)}\n"
                    f"{row(self._ura_indicator)}")


def yaku_name(name: str) -> str:
    """A yaku as players write it: ``sanshoku doujun``, not ``sanshoku_doujun``."""
    return name.replace("_", " ")


def wait_row(line_tile: str, live: int | None, report: WaitReport) -> str:
    """One wait in markup: tile, live copies, ron verdict, value and yaku."""
    verdict = "[$text-success]ron ok[/]" if report.eligible else "[$text-error]no ron[/]"
    value = f"{report.han_without_ura} han {report.fu} fu"
    points = report.points_without_ura
    limit = f" {report.limit}" if report.limit and report.eligible else ""
    yaku = ", ".join(f"{yaku_name(y.name)} {y.han}" for y in report.yaku)
    extras = f", dora {report.dora}" if report.dora else ""
    extras += f", aka {report.aka}" if report.aka else ""
    live_text = f"{live} live" if live is not None else ""
    return (f"[b]{line_tile:<3}[/] {live_text:<7} {verdict}  {value:<11} {points:>6}{limit}"
            f"  [dim]{escape(yaku)}{extras}[/]")


class AnalysisPanel(Static):
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
        lines: list[str] = []
        if analysis.tenpai:
            count = len(analysis.waits)
            lines.append(f"[b]Tenpai[/], {count} wait{'s' if count != 1 else ''}"
                         f" (value without ura; a ron on the first discard adds ippatsu):")
            lines.extend(wait_row(w.tile, w.live, w.report) for w in analysis.waits)
        for warning in analysis.warnings:
            lines.append(f"[$text-warning]! {escape(warning)}[/]")
        self._show(lines)

    def _show(self, lines: list[str]) -> None:
        # A new layout of the whole screen is the costliest part of a toggle: skip it while
        # the text surely stays within the panel's minimum height (see the stylesheet).
        width = self.size.width
        rows = sum(-(-Content.from_markup(line).cell_length // width) or 1 for line in lines) \
            if width else None
        fits = rows is not None and rows <= (self.styles.min_height.value
                                             if self.styles.min_height else 0)
        self.update("\n".join(lines), layout=not (fits and self._fitted))
        self._fitted = fits

    _fitted = False


class FuritenPanel(Static):
    """The own furiten state and its cause (R27)."""

    def show(self, cause: FuritenCause | None, hidden: bool = False) -> None:
        """Show the cause, or that the player is not furiten (``hidden``: empty)."""
        self.set_class(cause is not None and not hidden, "-furiten")
        if hidden:
            self.update("")
        elif cause is None:
            self.update("Not furiten.")
        else:
            self.update(f"[b]FURITEN[/] since discard {cause.discard_number}: "
                        f"{escape(cause.detail)}. You can no longer win this game (R15).")


class DiscardRow(Widget):
    """One player's discards in order, 17 places (R10)."""

    def __init__(self, title: str, tiles: Sequence[Tile] = (), *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._title = title
        self._tiles = tiles

    def compose(self) -> ComposeResult:
        yield Label(self._title, classes="row-title")
        yield TileRow(17, self._tiles, classes="discards")

    def show(self, tiles: Sequence[Tile], title: str | None = None) -> None:
        """Show these discards (the newest is marked)."""
        row = self.query_one(TileRow)
        row.set_tiles(tiles)
        for index in range(row.capacity):
            row.mark(index, "-latest", index == len(tiles) - 1)
        if title is not None:
            self.query_one(".row-title", Label).update(title)
