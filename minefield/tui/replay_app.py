"""A small app that shows one record in the replay viewer (``minefield replay FILE``).

It looks like the game: the same stylesheet as :class:`~minefield.tui.app.MinefieldApp`, and
the saved tile style and theme, applied by :func:`minefield.tui.look.apply_look` as in the
game.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen

from minefield.records.reader import ReadRecord
from minefield.records.replay import Replay
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences, given_or_saved
from minefield.tui.crash import exit_with_report
from minefield.tui.look import apply_look
from minefield.tui.render import TileStyle
from minefield.tui.screens.help import HelpScreen, keys_markdown
from minefield.tui.screens.replay import Perspective, ReplayScreen


class ReplayApp(App[None]):
    """The replay viewer of one record, and its help; q quits."""

    CSS_PATH = MinefieldApp.CSS_PATH
    TITLE = "Minefield replay"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "help", "Help"),
    ]

    def __init__(self, record: ReadRecord, replay: Replay, *,
                 preferences: Preferences | None = None,
                 perspective: Perspective = "east") -> None:
        super().__init__()
        self.preferences, self._startup_problem = given_or_saved(preferences)
        preferences = self.preferences
        self.tile_style: TileStyle = preferences.tile_style
        self._record = record
        self._replay = replay
        self._perspective: Perspective = perspective

    def get_default_screen(self) -> Screen[Any]:
        """The replay screen is the app's only one (help aside)."""
        return ReplayScreen(self._record, self._replay, self._perspective)

    def on_mount(self) -> None:
        apply_look(self, self.preferences)
        if self._startup_problem:
            # Not markup: the report quotes the file, brackets and all.
            self.notify(self._startup_problem, title="Settings", severity="warning", timeout=10,
                        markup=False)

    def action_help(self) -> None:
        """The rules in brief and every key."""
        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(keys_markdown(self, [
            ("Replay", ReplayScreen.BINDINGS), ("Everywhere", self.BINDINGS)])))

    def _fatal_error(self) -> None:
        """Textual's exit after an error, without local variables in the traceback."""
        exit_with_report(self)

    def __repr__(self) -> str:
        return "ReplayApp(<tiles hidden>)"


__all__ = ["ReplayApp"]
