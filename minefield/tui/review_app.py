"""A small app that shows the defense review of one record (``minefield review FILE``),
looking like the game (:class:`~minefield.tui.viewer_app.ViewerApp`)."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import BindingType
from textual.screen import Screen

from minefield.defense.calibration import DEFAULT_OPPONENT, Opponent
from minefield.rules.game import Seat
from minefield.trainer.defense_review import GameReview
from minefield.tui.config import Preferences
from minefield.tui.screens.review import ReviewScreen
from minefield.tui.viewer_app import ViewerApp


class ReviewApp(ViewerApp):
    """The review screen of one record, and its help; Escape or q quits."""

    TITLE = "Minefield review"
    HELP_TITLE = "Defense review"
    SCREEN_BINDINGS: ClassVar[list[BindingType]] = ReviewScreen.BINDINGS

    def __init__(self, review: GameReview, names: dict[Seat, str],
                 opponent: Opponent = DEFAULT_OPPONENT, *,
                 preferences: Preferences | None = None) -> None:
        super().__init__(preferences)
        self._review = review
        self._names = names
        self._opponent: Opponent = opponent

    def get_default_screen(self) -> Screen[Any]:
        """The review screen is the app's only one (help aside)."""
        return ReviewScreen({self._review.seat: self._review}, self._opponent, self._names,
                            quits=True)

    def __repr__(self) -> str:
        return "ReviewApp(<tiles hidden>)"


__all__ = ["ReviewApp"]
