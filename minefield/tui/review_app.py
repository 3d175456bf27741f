"""A small app that shows the defense review of one record (``minefield review FILE``), with
the game's stylesheet and the saved tile style and theme."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen

from minefield.defense.position import Method
from minefield.defense.review import GameReview
from minefield.rules.game import Seat
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences, given_or_saved
from minefield.tui.crash import exit_with_report
from minefield.tui.look import apply_look
from minefield.tui.render import TileStyle
from minefield.tui.screens.help import HelpScreen, keys_markdown
from minefield.tui.screens.review import ReviewScreen


class ReviewApp(App[None]):
    """The review screen of one record, and its help; Escape or q quits."""

    CSS_PATH = MinefieldApp.CSS_PATH
    TITLE = "Minefield review"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "help", "Help"),
    ]

    def __init__(self, review: GameReview, names: dict[Seat, str], method: Method = "posterior",
                 *, preferences: Preferences | None = None) -> None:
        super().__init__()
        self.preferences, self._startup_problem = given_or_saved(preferences)
        self.tile_style: TileStyle = self.preferences.tile_style
        self._review = review
        self._names = names
        self._method: Method = method

    def get_default_screen(self) -> Screen[Any]:
        """The review screen is the app's only one (help aside)."""
        return ReviewScreen({self._review.seat: self._review}, self._method, self._names,
                            quits=True)

    def on_mount(self) -> None:
        apply_look(self, self.preferences)
        if self._startup_problem:
            self.notify(self._startup_problem, title="Settings", severity="warning", timeout=10,
                        markup=False)

    def action_help(self) -> None:
        """The keys of the review."""
        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(keys_markdown(self, [
            ("Defense review", ReviewScreen.BINDINGS), ("Everywhere", self.BINDINGS)])))

    def _fatal_error(self) -> None:
        """Textual's exit after an error, without local variables in the traceback."""
        exit_with_report(self)

    def __repr__(self) -> str:
        return "ReviewApp(<tiles hidden>)"


__all__ = ["ReviewApp"]
