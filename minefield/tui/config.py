"""The player's preferences, saved as JSON in the user config folder (no Textual here).

``MINEFIELD_CONFIG_DIR`` moves the folder (tests point it at a temporary directory). A file
that cannot be read or validated is reported, set aside as ``settings.json.broken`` and replaced
by the defaults: it never stops the game.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

import platformdirs
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from minefield.bots.base import Level
from minefield.rules.settings import PRESETS, describe_validation_error
from minefield.tui.render import TileStyle

CONFIG_ENV = "MINEFIELD_CONFIG_DIR"
SETTINGS_FILE = "settings.json"

HintMode = Literal["off", "practice", "always"]


class Preferences(BaseModel):
    """Everything the settings screen changes."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tile_style: TileStyle = Field("box", description="boxes, compact text, or Unicode glyphs")
    theme: str = Field("textual-dark", description="a Textual theme name")
    hint: HintMode = Field("practice", description="show the bot's best hand while building")
    bot_level: Level = Field("normal", description="the practice opponent")
    rules: str = Field("standard", description="the rule preset of new games")

    @field_validator("rules")
    @classmethod
    def _known_preset(cls, value: str) -> str:
        if value not in PRESETS:
            raise ValueError(f"unknown rules preset {value!r}: choose one of {', '.join(PRESETS)}")
        return value


def config_dir() -> Path:
    """The folder holding ``settings.json`` (and the error log)."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override)
    return Path(platformdirs.user_config_dir("minefield", appauthor=False))


def settings_path() -> Path:
    """Where the preferences are saved."""
    return config_dir() / SETTINGS_FILE


def load_preferences() -> tuple[Preferences, str | None]:
    """The saved preferences, and a message when the file was broken and replaced."""
    path = settings_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Preferences(), None
    except OSError as error:
        return Preferences(), f"Could not read {path}: {error.strerror}. Using the defaults."
    try:
        return Preferences.model_validate_json(text), None
    except ValidationError as error:
        problem = describe_validation_error(error, "setting")
    broken = path.with_name(SETTINGS_FILE + ".broken")
    try:
        path.replace(broken)
        save_preferences(Preferences())
        where = f"it was moved to {broken} and replaced by the defaults"
    except OSError:
        where = "the defaults are used"
    return Preferences(), f"Your settings file was not valid ({problem}); {where}."


def save_preferences(preferences: Preferences) -> str | None:
    """Write the preferences; returns a message when they could not be saved."""
    path = settings_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(preferences.model_dump_json(indent=2) + "\n", encoding="utf-8")
    except OSError as error:
        return f"Could not save settings to {path}: {error.strerror}."
    return None
