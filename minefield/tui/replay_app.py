"""A small app that shows one record in the replay viewer (``minefield replay FILE``), looking
like the game (:class:`~minefield.tui.viewer_app.ViewerApp`)."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import BindingType
from textual.screen import Screen

from minefield.records.reader import ReadRecord
from minefield.records.replay import Replay
from minefield.tui.config import Preferences
from minefield.tui.screens.replay import Perspective, ReplayScreen
from minefield.tui.viewer_app import ViewerApp


class ReplayApp(ViewerApp):
    """The replay viewer of one record, and its help; q quits."""

    TITLE = "Minefield replay"
    HELP_TITLE = "Replay"
    SCREEN_BINDINGS: ClassVar[list[BindingType]] = ReplayScreen.BINDINGS

    def __init__(self, record: ReadRecord, replay: Replay, *,
                 preferences: Preferences | None = None,
                 perspective: Perspective | None = None) -> None:
        super().__init__(preferences)
        self._record = record
        self._replay = replay
        self._perspective = perspective  # None: the player's seat

    def get_default_screen(self) -> Screen[Any]:
        """The replay screen is the app's only one (help aside)."""
        return ReplayScreen(self._record, self._replay, self._perspective)

    def __repr__(self) -> str:
        return "ReplayApp(<tiles hidden>)"


__all__ = ["ReplayApp"]
