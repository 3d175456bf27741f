"""The game app's preferences, its look and its first frame: :class:`AppPreferences`, held by
:class:`~minefield.tui.app.MinefieldApp`.

The saved preferences are read without pydantic when the file is one the model takes as it is
(:mod:`minefield.tui.saved_settings`), and the model is built when first asked for, so the
menu's first frame does without pydantic. The parsed stylesheet an earlier start
kept is loaded before the first parse and saved after the first frame
(:mod:`minefield.tui.css_cache`).
"""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING, Any

from textual.app import App

from minefield.tui import css_cache
from minefield.tui.look import apply_look
from minefield.tui.render import TileStyle
from minefield.tui.saved_settings import SavedSettings, read_saved_settings
from minefield.tui.widgets.tiles import TileWidget

if TYPE_CHECKING:
    from minefield.tui.config import Preferences

__all__ = ["AppPreferences"]


class AppPreferences:
    """``app``'s player preferences: ``preferences`` if given, else the saved ones (without
    pydantic when the file allows; a problem with the file is kept in :attr:`startup_problem`
    to be told), their look on every tile of ``app``, and the work its first frame leaves for
    after it. Made before the app's first parse of its stylesheet: what earlier starts parsed
    of it is loaded here."""

    def __init__(self, app: App[Any], preferences: Preferences | None) -> None:
        self._app = app
        self._preferences = preferences
        self._saved: SavedSettings | None = None
        self.startup_problem: str | None = None
        if preferences is None and (saved := read_saved_settings()) is not None:
            self._saved = saved
        elif preferences is None:
            from minefield.tui.config import load_preferences

            self._preferences, self.startup_problem = load_preferences()
        look = self._saved or self._preferences
        assert look is not None
        #: How tiles are drawn now.
        self.tile_style: TileStyle = look.tile_style
        self._theme_name = look.theme
        self._css_variables = app.get_css_variables()
        self._css_loaded = css_cache.load(app.stylesheet, self._css_variables)

    @property
    def model_built(self) -> bool:
        """True once the preferences model is built (the menu's first frame does without)."""
        return self._preferences is not None

    @property
    def preferences(self) -> Preferences:
        """The player's preferences (the model is built from the saved settings when first
        asked for: the menu's first frame does without pydantic)."""
        if self._preferences is None:
            from minefield.tui.config import Preferences

            assert self._saved is not None
            self._preferences = Preferences.model_validate(dict(self._saved.values))
        return self._preferences

    def show_first_look(self) -> None:
        """On mount: the saved look, and the theme chosen anywhere saved from now on."""
        self._show_look(self.tile_style, self._theme_name)
        self._app.theme_changed_signal.subscribe(self._app, self._theme_changed)

    def after_first_frame(self, game_on: bool) -> None:
        """Once the first frame is drawn: the garbage collector back on if the command turned
        it off for the start (``minefield.cli.game.run``), with what the start made frozen
        (never scanned again: later passes are shorter); the parsed stylesheet kept for the
        next start if something was new (:mod:`minefield.tui.css_cache`; not when the theme
        changed meanwhile); and with the menu on screen (no ``game_on``), what its first keys
        want, which the first frame did without: the preferences model and the new-game form
        (pydantic and the rules)."""
        if not gc.isenabled():
            gc.freeze()
            gc.enable()
        app = self._app
        if app.get_css_variables() == self._css_variables:  # parsed with these variables
            css_cache.save(app.stylesheet, self._css_variables, self._css_loaded)
        if not game_on:
            import minefield.tui.screens.new_game  # noqa: F401  (loaded for what it loads)

            _ = self.preferences

    def apply(self, preferences: Preferences, save: bool = True) -> None:
        """Use ``preferences`` now (the look, every tile) and save them."""
        renamed = preferences.honor_names != self.preferences.honor_names
        self._preferences = preferences
        self._show_look(preferences.tile_style, preferences.theme)
        if renamed:  # sentences already shown name the honors again (tiles redraw themselves)
            for screen in self._app.screen_stack:
                rename = getattr(screen, "honors_renamed", None)
                if callable(rename):
                    rename()
        if save:
            from minefield.tui.config import save_preferences

            if problem := save_preferences(preferences):
                self._app.notify(problem, title="Settings", severity="error", markup=False)

    def _show_look(self, tile_style: TileStyle, theme: str) -> None:
        self.tile_style = tile_style
        apply_look(self._app, tile_style, theme)
        for screen in self._app.screen_stack:
            for tile in screen.query(TileWidget):
                tile.refresh(layout=True)

    def _theme_changed(self, theme: object) -> None:
        if self._app.theme != self.preferences.theme:
            self.apply(self.preferences.model_copy(update={"theme": self._app.theme}))
