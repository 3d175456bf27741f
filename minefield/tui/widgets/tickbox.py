"""A checkbox whose mark shows whether it is ticked: ``▐X▌`` on, ``▐ ▌`` off.

Textual's :class:`~textual.widgets.Checkbox` draws ``▐X▌`` either way and tells on from off by
colour only, which a player took for ticked. Every checkbox of the app is a
:class:`TickBox`.
"""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Checkbox

#: The mark inside the box, ticked and not.
TICKED = "X"
UNTICKED = " "


class TickBox(Checkbox):
    """A :class:`~textual.widgets.Checkbox` whose mark is ``X`` when ticked, blank when not."""

    def render(self) -> Content:
        """The box with its mark for the value now, then the label."""
        self.BUTTON_INNER = TICKED if self.value else UNTICKED
        return super().render()


__all__ = ["TICKED", "UNTICKED", "TickBox"]
