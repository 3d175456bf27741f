"""Settings: tile style, honor names, theme, hint, bot level, rule preset, saving games and the
stakes of matches (Washizu's cc of blood), saved at once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, Select, Static

from minefield.bots.base import LEVELS
from minefield.rules.names import HONOR_NAMES
from minefield.rules.settings import PRESETS
from minefield.tui.config import Preferences
from minefield.tui.render import TILE_STYLES

HINTS = (("off", "off"), ("practice", "in practice"), ("always", "always (also hot-seat)"))
HONOR_CHOICES = {"letters": "letters: E S W N Wh Gr Rd", "kanji": "kanji: 東 南 西 北 白 發 中",
                 "numbers": "numbers: 1z-7z"}
STYLE_NAMES = {"box": "boxes (default)", "text": "compact text", "unicode": "Unicode glyphs "
               "(may misalign in some terminals)"}


class SettingsScreen(ModalScreen[None]):
    """Edit the preferences; every change is validated and saved by the app."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close settings")]

    @dataclass
    class Changed(Message):
        """The player changed the preferences."""

        preferences: Preferences

    def __init__(self, preferences: Preferences, themes: list[str]) -> None:
        super().__init__()
        self.preferences = preferences
        self._themes = themes

    def compose(self) -> ComposeResult:
        prefs = self.preferences
        with Vertical(id="settings-box"):
            yield Static("Settings", classes="dialog-title")
            with Grid(id="settings-grid"):
                yield Label("Tiles")
                yield Select([(STYLE_NAMES[s], s) for s in TILE_STYLES], value=prefs.tile_style,
                             allow_blank=False, id="tile_style")
                yield Label("Honor names")
                yield Select([(HONOR_CHOICES[n], n) for n in HONOR_NAMES],
                             value=prefs.honor_names, allow_blank=False, id="honor_names")
                yield Label("Theme")
                # A saved theme the app does not know (removed, or a typo) is not used: show
                # the one in use, as the Select refuses a value it does not list.
                theme = prefs.theme if prefs.theme in self._themes else self.app.theme
                yield Select([(t, t) for t in self._themes], value=theme,
                             allow_blank=False, id="theme")
                yield Label("Hint")
                yield Select([(label, key) for key, label in HINTS], value=prefs.hint,
                             allow_blank=False, id="hint")
                yield Label("Bot level")
                yield Select([(level, level) for level in LEVELS], value=prefs.bot_level,
                             allow_blank=False, id="bot_level")
                yield Label("Rules")
                yield Select([(name, name) for name in PRESETS], value=prefs.rules,
                             allow_blank=False, id="rules")
                yield Label("Stakes")
                yield Select([("points", False),
                              ("Washizu: points and cc of blood (1,000 = 100 cc)", True)],
                             value=prefs.washizu, allow_blank=False, id="washizu")
                yield Label("Save games")
                yield Select([("yes, for history and replay", True), ("no", False)],
                             value=prefs.save_records, allow_blank=False, id="save_records")
            yield Static("Changes are saved at once; rules and bot level apply to the next game.",
                         classes="note")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#tile_style", Select).focus()

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
