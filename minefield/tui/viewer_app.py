"""The base of the small one-screen apps (``minefield replay FILE``, ``minefield review FILE``).

They look like the game: the same stylesheet as :class:`~minefield.tui.app.MinefieldApp`, and
the saved tile style and theme, applied by :func:`minefield.tui.look.apply_look` as in the
game; F1 shows the keys of their one screen; a crash exits without local variables.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from minefield.tui.config import Preferences, given_or_saved
from minefield.tui.crash import exit_with_report
from minefield.tui.look import STYLESHEET, apply_look
from minefield.tui.render import TileStyle
from minefield.tui.screens.help import HelpScreen, keys_markdown


class ViewerApp(App[None]):
    """One screen (``get_default_screen``) and its help; subclasses name the screen's keys."""

    CSS_PATH = STYLESHEET
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "help", "Help", key_display="F1"),
    ]
    HELP_TITLE: ClassVar[str] = ""
    """The heading of the screen's keys in the help."""
    SCREEN_BINDINGS: ClassVar[list[BindingType]] = []
    """The screen's own bindings, listed in the help."""

    def __init__(self, preferences: Preferences | None = None) -> None:
        super().__init__()
        self.preferences, self._startup_problem = given_or_saved(preferences)
        self.tile_style: TileStyle = self.preferences.tile_style

    def on_mount(self) -> None:
        apply_look(self, self.preferences.tile_style, self.preferences.theme)
        if self._startup_problem:
            # Not markup: the report quotes the file, brackets and all.
            self.notify(self._startup_problem, title="Settings", severity="warning", timeout=10,
                        markup=False)

    def action_help(self) -> None:
        """The keys of the screen, and those that work everywhere."""
        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(keys_markdown(self, [
            (self.HELP_TITLE, self.SCREEN_BINDINGS), ("Everywhere", self.BINDINGS)])))

    def _fatal_error(self) -> None:
        """Textual's exit after an error, without local variables in the traceback."""
        exit_with_report(self)


__all__ = ["ViewerApp"]
