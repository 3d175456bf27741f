"""The saved preferences read without pydantic, for the menu's first frame.

:class:`minefield.tui.config.Preferences` (a pydantic model) defines the settings and checks
them. Importing pydantic and building that model cost the menu about a fifth of its imports,
and the menu's first frame needs only the look (tile style and theme). So the app first reads
``settings.json`` here, with the standard library, and takes this fast path only when the
model would take the file as it is: a regular file, UTF-8 JSON holding an object, every
setting a known one with a value the model accepts unchanged (the exact JSON type, one of its
choices, a name short enough). The app then builds the model from these values when it first
needs it (after the first frame). Anything else, a bad file or one this reader is not sure of,
returns None and the app reads the file through :func:`minefield.tui.config.load_preferences`,
which reports and repairs it as before; a missing file is the defaults, silently, as there.

``tests/tui/test_saved_settings.py`` holds this reader to the model: whatever it accepts, the
model reads as the same values with no problem.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from minefield.bots.base import LEVELS
from minefield.files import UnusableFileError, read_bounded
from minefield.paths import settings_path
from minefield.rules.names import HONOR_NAMES
from minefield.rules.presets import PRESETS
from minefield.tui.render import TILE_STYLES, TileStyle

#: The largest settings file read: a real one is a few hundred bytes.
MAX_SETTINGS_BYTES = 64 * 1024
#: The longest theme or preset name accepted.
MAX_NAME_LENGTH = 64

HintMode = Literal["off", "practice", "always"]

#: Every setting's default, as :class:`~minefield.tui.config.Preferences` has them (a test
#: keeps the two equal).
DEFAULTS: Mapping[str, object] = {
    "tile_style": "box", "honor_names": "letters", "theme": "textual-dark", "hint": "practice",
    "bot_level": "normal", "rules": "standard", "save_records": True,
    "discard_feedback": False, "confirm_discards": False, "washizu": False, "clock": "off",
    "rule_changes": {},
}
#: The new-game form's offered clocks (R25): another one, or a remembered change of the rules,
#: is read by the model (which checks it against the rules).
FORM_CLOCKS = ("off", "180+15", "60+10", "30+5")


def _one_of(choices: tuple[str, ...]) -> Callable[[object], bool]:
    return lambda value: type(value) is str and value in choices


def _name(value: object) -> bool:
    """A name the model keeps as it is: a string of at most ``MAX_NAME_LENGTH`` characters
    that is valid Unicode (pydantic's JSON parser refuses lone surrogates, ``json`` takes
    them)."""
    if type(value) is not str or len(value) > MAX_NAME_LENGTH:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _flag(value: object) -> bool:
    return type(value) is bool


#: What each setting's value must be for the model to keep it unchanged.
ACCEPTS: Mapping[str, Callable[[object], bool]] = {
    "tile_style": _one_of(TILE_STYLES),
    "honor_names": _one_of(HONOR_NAMES),
    "theme": _name,
    "hint": _one_of(get_args(HintMode)),
    "bot_level": _one_of(LEVELS),
    "rules": lambda value: _name(value) and value in PRESETS,
    "save_records": _flag,
    "discard_feedback": _flag,
    "confirm_discards": _flag,
    "washizu": _flag,
    "clock": _one_of(FORM_CLOCKS),
    "rule_changes": lambda value: value == {},
}


@dataclass(frozen=True)
class SavedSettings:
    """The settings of a file the model takes as it is: ``values`` holds the file's settings
    (the others are their defaults); the look is given apart for the first frame."""

    values: Mapping[str, object]
    tile_style: TileStyle
    theme: str


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("a setting is given twice")
    return dict(pairs)


def settings_from(data: bytes) -> SavedSettings | None:
    """The settings in ``data`` (the bytes of a settings file) if the model takes every one
    as it is; None when it would not, or when this reader cannot tell."""
    try:
        value = json.loads(data.decode("utf-8-sig"), object_pairs_hook=_unique_keys)
    except ValueError:  # not UTF-8, not JSON, a key given twice (UnicodeDecodeError included)
        return None
    if not isinstance(value, dict):
        return None
    for key, setting in value.items():
        accepts = ACCEPTS.get(key)
        if accepts is None or not accepts(setting):
            return None
    chosen = {**DEFAULTS, **value}
    style = next(style for style in TILE_STYLES if style == chosen["tile_style"])
    return SavedSettings(values=value, tile_style=style, theme=str(chosen["theme"]))


def read_saved_settings() -> SavedSettings | None:
    """The saved settings by the fast path (``{}`` when there is no file: the defaults), or
    None when the file must be read by :func:`minefield.tui.config.load_preferences`."""
    try:
        data = read_bounded(settings_path(), MAX_SETTINGS_BYTES)
    except FileNotFoundError:
        data = b"{}"
    except (OSError, UnusableFileError):
        return None
    return settings_from(data)


__all__ = ["DEFAULTS", "FORM_CLOCKS", "MAX_NAME_LENGTH", "MAX_SETTINGS_BYTES", "HintMode",
           "SavedSettings", "read_saved_settings", "settings_from"]
