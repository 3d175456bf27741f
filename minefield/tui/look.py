"""The player's chosen look (tile style, theme) and the stylesheet, given to any of the apps."""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from textual.app import App

from minefield.tui.config import Preferences
from minefield.tui.render import TILE_STYLES

#: The one stylesheet of every app (the game and the viewers).
STYLESHEET = str(files("minefield.assets") / "minefield.tcss")


def apply_look(app: App[Any], preferences: Preferences) -> None:
    """Give ``app`` the preferences' look: the ``-tiles-<style>`` class the stylesheet's tile
    rules hang on, and the theme (if Textual knows it). Tiles read the style itself from the
    app's ``tile_style``."""
    for style in TILE_STYLES:
        app.set_class(style == preferences.tile_style, f"-tiles-{style}")
    if preferences.theme in app.available_themes and app.theme != preferences.theme:
        app.theme = preferences.theme
