"""What screens and the table ask of the app that hosts them, as typed protocols.

A screen never reaches into the app by attribute names (``getattr(self.app, ...)``): what a
game's screens need (the trainer's doors, the preferences as a :class:`PreferencesSource`) is
passed to them, and a widget drawn in any app asks that app for its look through
:class:`LookHost` (an app that is none, a test's bare app, gives the defaults).
:class:`~minefield.tui.app.MinefieldApp` is a :class:`LookHost` and a :class:`TableHost`;
:class:`~minefield.tui.viewer_app.ViewerApp` is a :class:`LookHost`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from textual.screen import Screen

from minefield.tui.render import TileStyle

if TYPE_CHECKING:  # types only: the preferences' model (pydantic) loads when first asked for
    from minefield.tui.config import Preferences
    from minefield.tui.scores import RunningScore


class PreferencesSource(Protocol):
    """The player's preferences as they are now (the settings may change them during a game):
    what a screen given them reads at each use."""

    @property
    def preferences(self) -> Preferences:
        """The player's saved preferences."""
        ...


class PreferencesKeeper(PreferencesSource, Protocol):
    """The player's preferences, which a screen's key may change (and save)."""

    def apply(self, preferences: Preferences, save: bool = True) -> None:
        """Use ``preferences`` from now on (and save them unless ``save`` is False)."""
        ...


@runtime_checkable
class LookHost(PreferencesSource, Protocol):
    """Every app of Minefield: the player's preferences and the tile style in use."""

    @property
    def tile_style(self) -> TileStyle:
        """How tiles are drawn now."""
        ...


class TableHost(Protocol):
    """The game app, as the :class:`~minefield.tui.table_controller.TableController` sees it."""

    @property
    def scores(self) -> RunningScore:
        """The running score the next result joins (a resumed room's is read from disk)."""
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


__all__ = ["LookHost", "PreferencesKeeper", "PreferencesSource", "TableHost", "preferences_of",
           "tile_style_of"]
