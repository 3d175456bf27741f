"""The footer of every screen, fitted to the terminal's width: each key whole.

Textual's :class:`~textual.widgets.Footer` lays its keys out in one line and cuts what does
not fit (at 80 columns "f Feedback" read "f Fee" and "F1 Help" was gone). This one counts the
cells its keys need before it lays them out: when they do not fit, it draws them in the
compact style (a cell less each), and when that is not enough it leaves out the command
palette's key (Ctrl+P still opens the palette; the help says so).
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.events import Resize
from textual.widgets import Footer

from minefield.tui.textual_private import footer_key_styled

#: Cells of a key beyond its key and description: the normal style pads both, the compact
#: style puts one cell between them and one after.
NORMAL_PADDING, COMPACT_PADDING = 3, 2
#: Cells of the command palette's key beyond its text (its left border and padding).
PALETTE_PADDING = 2


class KeysFooter(Footer):
    """Textual's footer, its keys made in its style (:func:`footer_key_styled`): Textual's own
    restyles each key with the whole stylesheet once or twice when it is mounted, and makes
    its keys anew at every change of the bindings (a key pressed, a screen shown)."""

    def compose(self) -> ComposeResult:
        compact = self.compact
        for widget in super().compose():
            footer_key_styled(widget, compact)
            yield widget


class FitFooter(KeysFooter):
    """A footer whose keys are whole at any width (see the module's docstring)."""

    _fitted_width = 0

    def shown_keys(self) -> list[tuple[str, str]]:
        """The keys the footer shows now (key as displayed, description), palette aside."""
        seen: dict[str, tuple[str, str]] = {}
        for _node, binding, _enabled, _tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in seen:
                seen[binding.action] = (self.app.get_key_display(binding), binding.description)
        return list(seen.values())

    def _palette_cells(self) -> int:
        binding = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if binding is None or not self.app.ENABLE_COMMAND_PALETTE:
            return 0
        return (cell_len(self.app.get_key_display(binding[1])) + cell_len(binding[1].description)
                + 1 + PALETTE_PADDING)

    def compose(self) -> ComposeResult:
        width = self.app.size.width
        self._fitted_width = width
        if self._bindings_ready:
            keys = [cell_len(key) + cell_len(description) for key, description in
                    self.shown_keys()]
            normal = sum(cells + NORMAL_PADDING for cells in keys)
            compact = sum(cells + COMPACT_PADDING for cells in keys)
            palette = self._palette_cells()
            fit_compact = normal + palette > width
            self.set_reactive(Footer.compact, fit_compact)
            self.set_class(fit_compact, "-compact")
            self.set_reactive(Footer.show_command_palette,
                              compact + palette - 1 <= width if fit_compact else True)
        yield from super().compose()

    def on_resize(self, event: Resize) -> None:
        """Lay the keys out again for a terminal of another width."""
        if self.app.size.width != self._fitted_width:
            self.call_after_refresh(self.recompose)


__all__ = ["FitFooter", "KeysFooter"]
