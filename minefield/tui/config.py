"""The player's preferences, saved as JSON in the user config folder (no Textual here).

The file is :func:`minefield.paths.settings_path` (``MINEFIELD_CONFIG_DIR`` moves it). It
never stops the game: only a regular file of at most 64 KiB is read (a FIFO, a device or a huge
file is refused unread), a byte-order mark is accepted, and each setting is checked on its own,
so one bad value resets that setting only. A file with any problem is reported, kept as
``settings.json.broken`` (``.broken.1``, ``.broken.2``... for later ones) and replaced by a
valid file.

The game app reads a file this model would take as it is without importing pydantic
(:mod:`minefield.tui.saved_settings`, for the menu's first frame) and builds the model from it
when first needed; any other file comes here.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic_core import from_json

from minefield.bots.base import Level
from minefield.files import UnusableFileError, read_bounded
from minefield.paths import settings_path
from minefield.rules.names import HonorNames
from minefield.rules.settings import CLOCK_SETTINGS, PRESETS, RuleSettings, parse_clock
from minefield.tui.render import TileStyle
from minefield.tui.saved_settings import MAX_NAME_LENGTH, MAX_SETTINGS_BYTES, HintMode

#: The most settings remembered as changed over one preset (there are fewer settings).
MAX_RULE_CHANGES = 64
#: How many problems a report lists before "and N more".
MAX_REPORTED = 5


class Preferences(BaseModel):
    """Everything the settings screen changes."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tile_style: TileStyle = Field("box", description="boxes, compact text, or Unicode glyphs")
    honor_names: HonorNames = Field("letters", description="how honors are called on screen: "
                                    "E S W N Wh Gr Rd, 東 南 西 北 白 發 中, or 1z-7z")
    theme: str = Field("textual-dark", max_length=MAX_NAME_LENGTH,
                       description="a Textual theme name")
    hint: HintMode = Field("practice", description="show the bot's best hand while building")
    bot_level: Level = Field("normal", description="the practice opponent")
    rules: str = Field("standard", max_length=MAX_NAME_LENGTH,
                       description="the rule preset of new games")
    save_records: bool = Field(True, description="save every game's record (history, replay)")
    discard_feedback: bool = Field(False, description="the defense trainer's line after each of "
                                   "your discards (danger taken, the safest tile)")
    confirm_discards: bool = Field(False, description="a discard takes a second Enter (or "
                                   "click) on the same tile")
    washizu: bool = Field(False, description="Washizu's stakes: in a match, scores and payments "
                          "also in cc of blood (1,000 points = 100 cc)")
    clock: str = Field("off", max_length=MAX_NAME_LENGTH, description="the new-game form's "
                       "clocks (R25): off, or HAND+DISCARD seconds such as 180+15")
    rule_changes: dict[str, tuple[str, ...]] = Field(
        {}, description="the new-game form's settings changed over each preset with "
        "\"Rules...\" (NAME=VALUE, clocks apart)")

    @field_validator("rules")
    @classmethod
    def _known_preset(cls, value: str) -> str:
        if value not in PRESETS:
            raise ValueError(f"unknown rules preset {value!r}: choose one of {', '.join(PRESETS)}")
        return value


    @field_validator("clock")
    @classmethod
    def _valid_clock(cls, value: str) -> str:
        # SettingsError (a ValueError) says how to write it, or which limit it passes.
        RuleSettings.chosen("standard", parse_clock(value))
        return value

    @field_validator("rule_changes")
    @classmethod
    def _valid_changes(cls, value: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        for preset, changes in value.items():
            if preset not in PRESETS:
                raise ValueError(f"unknown rules preset {preset!r}: choose one of "
                                 f"{', '.join(PRESETS)}")
            if len(changes) > MAX_RULE_CHANGES:
                raise ValueError(f"more than {MAX_RULE_CHANGES} changes over {preset!r}")
            if any(change.partition("=")[0].strip() in CLOCK_SETTINGS for change in changes):
                raise ValueError("the clocks are the 'clock' setting, not a rule change")
            RuleSettings.chosen(preset, changes)  # SettingsError names the bad setting
        return value


def given_or_saved(preferences: Preferences | None) -> tuple[Preferences, str | None]:
    """``preferences`` if given (tests), else the saved ones with any problem reading them."""
    return (preferences, None) if preferences is not None else load_preferences()


def load_preferences() -> tuple[Preferences, str | None]:
    """The saved preferences, and a message when the file had problems and was replaced.

    A missing file gives the defaults silently; a file that cannot be opened (no permission)
    gives the defaults with a message and is left alone.
    """
    path = settings_path()
    try:
        data = read_settings_file(path)
    except FileNotFoundError:
        return Preferences(), None
    except UnusableFileError as problem:
        return Preferences(), _set_aside(path, Preferences(), [_unusable(problem)])
    except OSError as error:
        return Preferences(), f"Could not read {path}: {error.strerror}. Using the defaults."
    preferences, problems = parse_preferences(data)
    if not problems:
        return preferences, None
    return preferences, _set_aside(path, preferences, problems)


def read_settings_file(path: Path) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``MAX_SETTINGS_BYTES``;
    anything else raises :class:`~minefield.files.UnusableFileError` unread
    (:func:`minefield.files.read_bounded`)."""
    return read_bounded(path, MAX_SETTINGS_BYTES)


def _unusable(error: UnusableFileError) -> str:
    """Why the settings file is not one to read, in words."""
    if error.kind == "too large":
        return f"it is larger than {MAX_SETTINGS_BYTES // 1024} KiB"
    return "it is not a regular file"


def parse_preferences(data: bytes) -> tuple[Preferences, list[str]]:
    """The preferences in ``data`` and what was wrong with it (empty when nothing was).

    Each setting is validated on its own: a bad one is reset to its default and an unknown one
    dropped, the others are kept. Text that is not UTF-8 JSON holding an object gives the
    defaults. A UTF-8 byte-order mark is fine.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        return Preferences(), [f"it is not UTF-8 text: byte {data[error.start]:#04x} at "
                               f"offset {error.start}"]
    try:
        # pydantic's parser: no recursion error on deep nesting, no lone surrogates.
        value = from_json(text)
    except ValueError as error:
        return Preferences(), [f"it is not JSON: {error}"]
    if not isinstance(value, dict):
        return Preferences(), [f"it holds a JSON {_json_kind(value)}, not an object"]
    kept: dict[str, Any] = {}
    problems = []
    for key, setting in value.items():
        if key not in Preferences.model_fields:
            problems.append(f"unknown setting {_shorten(key)} dropped")
            continue
        try:
            Preferences.model_validate({key: setting})
        except ValidationError as error:
            reason = "; ".join(item["msg"].removeprefix("Value error, ")
                               for item in error.errors())
            default = Preferences.model_fields[key].default
            problems.append(f"setting {key!r}: {reason}; reset to {default!r}")
            continue
        kept[key] = setting
    return Preferences.model_validate(kept), problems


def _json_kind(value: object) -> str:
    if value is None:
        return "null"
    return {list: "array", str: "string", bool: "boolean"}.get(type(value), "number")


def _shorten(name: str, limit: int = 40) -> str:
    return repr(name if len(name) <= limit else name[:limit] + "…")


def _set_aside(path: Path, preferences: Preferences, problems: list[str]) -> str:
    """Keep the broken file under a new name, write ``preferences`` in its place, and say so."""
    shown = "; ".join(problems[:MAX_REPORTED])
    if len(problems) > MAX_REPORTED:
        shown += f"; and {len(problems) - MAX_REPORTED} more"
    kept = ("by the defaults" if preferences == Preferences()
            else "by a file keeping your valid settings")
    try:
        broken = _broken_name(path)
        os.replace(path, broken)  # moves a link itself, never what it points to
    except OSError as error:
        where = f"it could not be moved aside ({error.strerror}), so these settings are used now"
    else:
        failure = save_preferences(preferences)
        where = f"it was moved to {broken}" + (f"; {failure}" if failure else
                                                f" and replaced {kept}")
    return f"Your settings file {path} was not valid ({shown}); {where}."


def _broken_name(path: Path) -> Path:
    """The first free name of ``settings.json.broken``, ``.broken.1``, ``.broken.2``..."""
    first = candidate = path.with_name(path.name + ".broken")
    number = 0
    while os.path.lexists(candidate):  # a dangling link is taken too
        number += 1
        candidate = first.with_name(f"{first.name}.{number}")
    return candidate


def save_preferences(preferences: Preferences) -> str | None:
    """Write the preferences; returns a message when they could not be saved.

    The file is written whole to a new file, then moved into place: a crash never leaves half
    a file, and whatever stood there (a FIFO, a link to a device) is replaced, never written
    into. A link to a regular file (a dotfiles folder) is written through.
    """
    path = settings_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_whole(_save_target(path), (preferences.model_dump_json(indent=2) + "\n").encode())
    except OSError as error:
        return f"Could not save settings to {path}: {error.strerror}."
    return None


def _save_target(path: Path) -> Path:
    if path.is_symlink():
        target = Path(os.path.realpath(path))
        with contextlib.suppress(OSError):
            if stat.S_ISREG(os.stat(target).st_mode):
                return target
    return path


def _write_whole(path: Path, data: bytes) -> None:
    descriptor, temporary = tempfile.mkstemp(prefix=path.name + ".", suffix=".new",
                                             dir=path.parent)
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
