"""What screens and the table ask of the app that hosts them, as typed protocols.

A screen never reaches into the app by attribute names (``getattr(self.app, ...)``): it asks
its host through one of these, and a screen shown by another app (the replay and review
viewers, a test's bare app) gets the defaults. :class:`~minefield.tui.app.MinefieldApp` is a
:class:`GameHost` and a :class:`TableHost`; :class:`~minefield.tui.viewer_app.ViewerApp` is a
:class:`LookHost`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from textual.screen import Screen

from minefield.rules.seats import Seat
from minefield.tui.render import TileStyle

if TYPE_CHECKING:  # a type only: the viewers, which import this, never load the trainer
    from minefield.tui.config import Preferences
    from minefield.tui.scores import RunningScore
    from minefield.tui.trainer import Trainer


@runtime_checkable
class LookHost(Protocol):
    """Every app of Minefield: the player's preferences and the tile style in use."""

    @property
    def preferences(self) -> Preferences:
        """The player's saved preferences."""
        ...

    @property
    def tile_style(self) -> TileStyle:
        """How tiles are drawn now."""
        ...


@runtime_checkable
class GameHost(LookHost, Protocol):
    """The game app, as the game's screens see it."""

    @property
    def trainer(self) -> Trainer:
        """The defense trainer of this app's games (overlay, feedback, progress)."""
        ...


class TableHost(Protocol):
    """The game app, as the :class:`~minefield.tui.table_controller.TableController` sees it."""

    @property
    def preferences(self) -> Preferences:
        """The player's saved preferences."""
        ...

    @property
    def scores(self) -> RunningScore:
        """The running score the next result joins (a resumed room's is read from disk)."""
        ...

    def feedback_notes(self, seats: tuple[Seat, ...]) -> dict[int, str]:
        """The trainer's feedback lines of ``seats``' discards in the game on the table, by
        discard number (empty when feedback is off), for the result's log."""
        ...

    async def show_game_screen(self, screen: Screen[None]) -> None:
        """Show ``screen`` in place of the game's screen (straight, no screen in between)."""
        ...

    def recover_from(self, error: Exception) -> None:
        """An unexpected error: log it, tell the player, keep the game."""
        ...


def preferences_of(app: object) -> Preferences:
    """``app``'s preferences (the defaults for an app that has none)."""
    if isinstance(app, LookHost):
        return app.preferences
    from minefield.tui.config import Preferences  # pydantic: not on the menu's first frame

    return Preferences()


def tile_style_of(app: object) -> TileStyle:
    """The tile style ``app`` draws with (``box`` for an app that has none)."""
    return app.tile_style if isinstance(app, LookHost) else "box"


def trainer_of(app: object) -> Trainer | None:
    """``app``'s defense trainer (None outside the game app)."""
    return app.trainer if isinstance(app, GameHost) else None


def washizu_on(app: object) -> bool:
    """True when ``app``'s preferences show Washizu's stakes (cc of blood) beside points."""
    return preferences_of(app).washizu


__all__ = ["GameHost", "LookHost", "TableHost", "preferences_of", "tile_style_of", "trainer_of",
           "washizu_on"]
