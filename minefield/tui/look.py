"""The player's chosen look (tile style, theme) and the stylesheet, given to any of the apps."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import Any

from textual.app import App

from minefield.tui.render import TILE_STYLES, TileStyle


def _asset(name: str) -> str:
    """The path of ``name`` beside the assets package's ``__init__`` (not through
    ``importlib.resources``, whose readers load ``zipfile`` and slow the start)."""
    where = import_module("minefield.assets").__file__
    assert where is not None
    return str(Path(where).with_name(name))


#: The one stylesheet of every app (the game and the viewers).
STYLESHEET = _asset("minefield.tcss")


def apply_look(app: App[Any], tile_style: TileStyle, theme: str) -> None:
    """Give ``app`` the preferences' look: the ``-tiles-<style>`` class the stylesheet's tile
    rules hang on, and the ``theme`` (if Textual knows it). Tiles read the style itself from
    the app's ``tile_style``."""
    for style in TILE_STYLES:
        app.set_class(style == tile_style, f"-tiles-{style}")
    if theme in app.available_themes and app.theme != theme:
        app.theme = theme
