"""The app's preferences, its look and its first frame (a part of
:class:`~minefield.tui.app.MinefieldApp`).

The saved preferences are read without pydantic when the file is one the model takes as it is
(:mod:`minefield.tui.saved_settings`), and the model is built when first asked for, so the
menu's first frame does without pydantic. The parsed stylesheet an earlier start
kept is loaded before the first parse and saved after the first frame
(:mod:`minefield.tui.css_cache`).
"""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING

from textual.app import App

from minefield.tui import css_cache
from minefield.tui.look import apply_look
from minefield.tui.render import TileStyle
from minefield.tui.saved_settings import SavedSettings, read_saved_settings
from minefield.tui.widgets.tiles import TileWidget

if TYPE_CHECKING:
    from minefield.tui.config import Preferences
    from minefield.tui.table_controller import TableController

__all__ = ["PreferencesApp"]


class PreferencesApp(App[int]):
    """An app with the player's ``preferences`` (read at start by :meth:`read_preferences`),
    their look on every tile, and the work its first frame leaves for after it."""

    tile_style: TileStyle
    table: TableController | None
    _preferences: Preferences | None
    _saved: SavedSettings | None
    _startup_problem: str | None

    def read_preferences(self, preferences: Preferences | None) -> None:
        """At start: ``preferences`` if given, else the saved ones (without pydantic when the
        file allows; a problem with the file is kept in ``_startup_problem`` to be told);
        then what earlier starts parsed of the stylesheet, loaded before the first parse."""
        self._preferences = preferences
        self._saved = None
        self._startup_problem = None
        if preferences is None and (saved := read_saved_settings()) is not None:
            self._saved = saved
        elif preferences is None:
            from minefield.tui.config import load_preferences

            self._preferences, self._startup_problem = load_preferences()
        look = self._saved or self._preferences
        assert look is not None
        self.tile_style = look.tile_style
        self._theme_name = look.theme
        self._css_variables = self.get_css_variables()
        self._css_loaded = css_cache.load(self.stylesheet, self._css_variables)

    @property
    def preferences(self) -> Preferences:
        """The player's preferences (the model is built from the saved settings when first
        asked for: the menu's first frame does without pydantic)."""
        if self._preferences is None:
            from minefield.tui.config import Preferences

            assert self._saved is not None
            self._preferences = Preferences.model_validate(dict(self._saved.values))
        return self._preferences

    @preferences.setter
    def preferences(self, preferences: Preferences) -> None:
        self._preferences = preferences

    def show_first_look(self) -> None:
        """On mount: the saved look, and the theme chosen anywhere saved from now on."""
        self._show_look(self.tile_style, self._theme_name)
        self.theme_changed_signal.subscribe(self, self._theme_changed)

    def _after_first_frame(self) -> None:
        """Once the first frame is drawn: the garbage collector back on if the command turned
        it off for the start (``minefield.cli.game.run``), with what the start made frozen
        (never scanned again: later passes are shorter); the parsed stylesheet kept for the
        next start if something was new (:mod:`minefield.tui.css_cache`; not when the theme
        changed meanwhile); and with the menu on screen, what its first keys want, which the
        first frame did without: the preferences model and the new-game form (pydantic and
        the rules)."""
        if not gc.isenabled():
            gc.freeze()
            gc.enable()
        if self.get_css_variables() == self._css_variables:  # parsed with these variables
            css_cache.save(self.stylesheet, self._css_variables, self._css_loaded)
        if self.table is None:
            import minefield.tui.screens.new_game  # noqa: F401  (loaded for what it loads)

            _ = self.preferences

    def apply_preferences(self, preferences: Preferences, save: bool = True) -> None:
        """Use ``preferences`` now (the look, every tile) and save them."""
        renamed = preferences.honor_names != self.preferences.honor_names
        self.preferences = preferences
        self._show_look(preferences.tile_style, preferences.theme)
        if renamed:  # sentences already shown name the honors again (tiles redraw themselves)
            for screen in self.screen_stack:
                rename = getattr(screen, "honors_renamed", None)
                if callable(rename):
                    rename()
        if save:
            from minefield.tui.config import save_preferences

            if problem := save_preferences(preferences):
                self.notify(problem, title="Settings", severity="error", markup=False)

    def _show_look(self, tile_style: TileStyle, theme: str) -> None:
        self.tile_style = tile_style
        apply_look(self, tile_style, theme)
        for screen in self.screen_stack:
            for tile in screen.query(TileWidget):
                tile.refresh(layout=True)

    def _theme_changed(self, theme: object) -> None:
        if self.theme != self.preferences.theme:
            self.apply_preferences(self.preferences.model_copy(update={"theme": self.theme}))
