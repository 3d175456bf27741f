"""The defense trainer's danger overlay: each pool tile's chance of dealing in written on it
(``12`` in the bottom edge of a 5p: 12%), and a panel with the highlighted tile's chance and
reasons (:mod:`minefield.defense.estimate`).

The tiles are also shaded by a CSS class (``-danger-safe``, ``-danger-low``, ``-danger-mid``,
``-danger-high``, styled in the stylesheet); the number is the cue, the colour only helps.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.markup import escape
from textual.widgets import Static

from minefield.defense.estimate import percent
from minefield.defense.position import DangerReport
from minefield.rules.tiles import Tile, kind_str
from minefield.tui.widgets.phrases import PhraseStatic
from minefield.tui.widgets.tiles import TileRow, named

DANGER_CLASSES = ("-danger-safe", "-danger-low", "-danger-mid", "-danger-high")
#: The upper bounds of the low and mid shades (chances of dealing in now).
LOW, MID = 0.05, 0.15
#: How many of the safest tiles the panel lists.
SAFEST_SHOWN = 3


def danger_class(chance: float) -> str:
    """The shade of a chance: safe (0), low (under 5%), mid (under 15%) or high.

    >>> [danger_class(c) for c in (0.0, 0.02, 0.1, 0.3)]
    ['-danger-safe', '-danger-low', '-danger-mid', '-danger-high']
    """
    if chance <= 0:
        return DANGER_CLASSES[0]
    if chance < LOW:
        return DANGER_CLASSES[1]
    return DANGER_CLASSES[2] if chance < MID else DANGER_CLASSES[3]


def tile_percent(chance: float) -> str:
    """A chance as it fits on a tile: whole percent in two cells, rounded as the panel rounds
    it (``<1`` for a chance that rounds to none but is not none, ``99`` at most).

    >>> [tile_percent(c) for c in (0.0, 0.004, 0.123, 0.5, 1.0)]
    ['0', '<1', '12', '50', '99']
    """
    if chance <= 0:
        return "0"
    whole = round(chance * 100)  # as the panel's percent rounds it
    return "<1" if whole == 0 else str(min(99, whole))


def shade(row: TileRow, tiles: Sequence[Tile], report: DangerReport | None) -> None:
    """Write each tile's chance of dealing in (``report``) on it, in its bottom edge, and
    shade it by that chance (None: neither)."""
    for index in range(row.capacity):
        wanted, chance = None, ""
        if report is not None and index < len(tiles):
            try:
                danger = report.of(kind_str(tiles[index].kind)).danger
            except KeyError:
                pass
            else:
                wanted, chance = danger_class(danger), tile_percent(danger)
        for css_class in DANGER_CLASSES:
            row.mark(index, css_class, css_class == wanted)
        row.note(index, chance)


def danger_lines(report: DangerReport, tile: Tile | None) -> list[str]:
    """The panel's text (markup). The highlighted tile's chance comes first, on the title
    line, then its first reason, then the safest tiles of the pool, then its expected loss
    and other reasons: the smallest terminal (three lines) shows the chance and the first
    reason of every tile."""
    ranked = sorted(report.tiles, key=lambda t: (t.danger, t.loss))[:SAFEST_SHOWN]
    safest = "Safest: " + " · ".join(f"{t.tile} {percent(t.danger)}" for t in ranked)
    title = f"[b]Danger[/] [dim]({report.method})[/]"
    if tile is not None:
        try:
            entry = report.of(kind_str(tile.kind))
        except KeyError:
            entry = None
        if entry is not None:
            reasons = [f"· {escape(reason)}" for reason in entry.reasons]
            loss = [f"[dim]expected loss {entry.loss}[/]"] if entry.loss else []
            return [f"{title} · [b]{entry.tile} {percent(entry.danger)}[/]", *reasons[:1],
                    safest, *loss, *reasons[1:]]
    return [title, safest]


class DangerPanel(VerticalScroll, can_focus=False):
    """The reasons beside the pool while the overlay is on. It never takes the focus (the
    arrows belong to the tiles)."""

    def compose(self) -> ComposeResult:
        yield PhraseStatic(id="danger-text")

    _shown: Tile | None = None

    def show(self, report: DangerReport | None, tile: Tile | None) -> None:
        """Show ``report`` for the highlighted ``tile`` (None: empty). Another tile's reasons
        start at their top (its chance and first reason in sight)."""
        text = "\n".join(danger_lines(report, tile)) if report is not None else ""
        self.query_one("#danger-text", Static).update(named(self, text))
        if tile != self._shown:
            self._shown = tile
            self.scroll_home(animate=False, immediate=True)

    def clear(self) -> None:
        """Empty the panel (hot-seat curtain)."""
        self.show(None, None)

    def __repr__(self) -> str:
        return "DangerPanel(<tiles hidden>)"


__all__ = ["DANGER_CLASSES", "DangerPanel", "danger_class", "danger_lines", "shade",
           "tile_percent"]
