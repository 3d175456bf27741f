"""Settings: tile style, honor names, theme, hint, bot level, rule preset, the stakes of
matches (Washizu's cc of blood), confirming discards and saving games, saved at once; all on
one 80x24 screen."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Label, Select, Static

from minefield.bots.base import LEVELS
from minefield.rules.names import HONOR_NAMES
from minefield.rules.settings import PRESETS
from minefield.tui.config import Preferences
from minefield.tui.render import TILE_STYLES
from minefield.tui.screens.dialogs import FORM_FOCUS_KEYS
from minefield.tui.widgets.footer import KeysFooter

HINTS = (("off", "off"), ("practice", "in practice"), ("always", "always (also hot-seat)"))
HONOR_CHOICES = {"letters": "letters: E S W N Wh Gr Rd", "kanji": "kanji: 東 南 西 北 白 發 中",
                 "numbers": "numbers: 1z-7z"}
STYLE_NAMES = {"box": "boxes (default)", "text": "compact text", "unicode": "Unicode glyphs "
               "(may misalign in some terminals)"}


def theme_words(theme: str) -> str:
    """A theme's name in words: ``dark`` for ``textual-dark``, ``tokyo night`` for
    ``tokyo-night``."""
    return theme.removeprefix("textual-").replace("-", " ")


class SettingsScreen(ModalScreen[None]):
    """Edit the preferences; every change is validated and saved by the app."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close settings"),
                                              *FORM_FOCUS_KEYS]

    @dataclass
    class Changed(Message):
        """The player changed the preferences."""

        preferences: Preferences

    def __init__(self, preferences: Preferences, themes: list[str]) -> None:
        super().__init__()
        self.preferences = preferences
        self._themes = themes

    def rows(self) -> list[tuple[str, str, list[tuple[str, Any]], Any]]:
        """Each setting: its label, its preference, its choices (shown, value) and its value.
        Each choice says what it sets, so that an open list read beside the next row's label
        is not taken for that row's."""
        prefs = self.preferences
        # A saved theme the app does not know (removed, or a typo) is not used: show the one in
        # use, as the Select refuses a value it does not list.
        theme = prefs.theme if prefs.theme in self._themes else self.app.theme
        return [
            ("Tiles", "tile_style", [(f"tiles: {STYLE_NAMES[s]}", s) for s in TILE_STYLES],
             prefs.tile_style),
            ("Honor names", "honor_names", [(f"honors in {HONOR_CHOICES[n]}", n)
                                            for n in HONOR_NAMES], prefs.honor_names),
            ("Theme", "theme", [(f"theme: {theme_words(t)}", t) for t in self._themes], theme),
            ("Hint", "hint", [(f"hint: {label}", key) for key, label in HINTS], prefs.hint),
            ("Bot level", "bot_level", [(f"{level} bot", level) for level in LEVELS],
             prefs.bot_level),
            ("Rules", "rules", [(f"{name} rules", name) for name in PRESETS], prefs.rules),
            ("Stakes", "washizu", [("stakes: points", False), ("stakes: Washizu, points and "
                                   "cc of blood (1,000 = 100 cc)", True)], prefs.washizu),
            ("Discards", "confirm_discards", [("discard at the first Enter or second click",
                                               False),
                                              ("confirm: a second Enter or click", True)],
             prefs.confirm_discards),
            ("Save games", "save_records", [("save games, for history and replay", True),
                                            ("do not save games", False)], prefs.save_records),
        ]

    def compose(self) -> ComposeResult:
        with Vertical(id="settings-box"):
            yield Static("Settings", classes="dialog-title")
            with Grid(id="settings-grid"):
                for label, key, choices, value in self.rows():
                    yield Label(label, id=f"label-{key}")
                    yield Select(choices, value=value, allow_blank=False, id=key, compact=True)
            yield Static("Changes are saved at once; rules and bot level apply to the next game.",
                         classes="note")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#tile_style", Select).focus()
        for select in self.query(Select):
            self.watch(select, "expanded", partial(self._show_open, select), init=False)

    def _show_open(self, select: Select[Any], expanded: bool) -> None:
        """The label of the list that is open stands out (the list covers the rows below)."""
        self.query_one(f"#label-{select.id}", Label).set_class(expanded, "-open")

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        if event.select.id is None or event.value is Select.BLANK:
            return
        update: dict[str, Any] = {event.select.id: event.value}
        if getattr(self.preferences, event.select.id) == event.value:
            return
        self.preferences = Preferences.model_validate(
            {**self.preferences.model_dump(), **update})
        self.post_message(self.Changed(self.preferences))

    def action_close(self) -> None:
        """Back to where the player was."""
        self.dismiss(None)
