"""The saved settings' fast path (the menu's first frame without pydantic) against the
model: whatever the fast reader accepts, :class:`Preferences` reads as the same settings with
no problem; everything else goes to the model's own loader, which reports and repairs."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences, parse_preferences
from minefield.tui.saved_settings import (
    ACCEPTS,
    DEFAULTS,
    FORM_CLOCKS,
    MAX_NAME_LENGTH,
    MAX_SETTINGS_BYTES,
    read_saved_settings,
    settings_from,
)

#: Each setting's values the model takes (its Literal's choices, or a few valid names); the
#: new-game form's clock and rule changes: those the fast path takes (the form's offered
#: clocks, no changes; others, valid too, go to the model's loader).
VALID: dict[str, list[Any]] = {
    name: list(FORM_CLOCKS) if name == "clock" else [{}] if name == "rule_changes" else (
        list(get_args(field.annotation)) or (
            [True, False] if field.annotation is bool else
            ["standard", "beginner", "match", "club"] if name == "rules" else
            ["textual-dark", "nord", "x" * MAX_NAME_LENGTH, "é"]))
    for name, field in Preferences.model_fields.items()
}

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=70),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                  max_size=3),
    max_leaves=5)
#: Values near the valid ones: other types, case, length, lone surrogates, words for yes/no.
NEAR_VALUES: list[Any] = [
    "Box", "box ", "true", "1", 1, 0, None, "x" * (MAX_NAME_LENGTH + 1), "\ud800", "nord\ud800",
    "", "strong ", ["box"], {"theme": "nord"}, 1.0, "practice", "kanji", "off", "é" * 65]
NEAR = st.sampled_from(NEAR_VALUES)


def _settings(data: dict[str, Any]) -> bytes:
    return json.dumps(data).encode()


def test_the_defaults_are_the_models() -> None:
    assert Preferences().model_dump() == DEFAULTS
    assert set(ACCEPTS) == set(Preferences.model_fields)


def test_every_valid_value_is_taken_by_the_fast_path() -> None:
    """The fast path is the one taken for every file the app itself writes."""
    for name, values in VALID.items():
        for value in values:
            saved = settings_from(_settings({name: value}))
            assert saved is not None, (name, value)
            assert Preferences.model_validate(dict(saved.values)) == Preferences(**{name: value})
    saved = settings_from((Preferences(tile_style="unicode", theme="nord").model_dump_json(
        indent=2) + "\n").encode())
    assert saved is not None and (saved.tile_style, saved.theme) == ("unicode", "nord")


def same_as_the_model(raw: bytes) -> bool:
    """Whether the fast path took ``raw``; when it did, the model read the same settings from
    it with no problem to report (no report or repair skipped) and the same look."""
    saved = settings_from(raw)
    model, problems = parse_preferences(raw)
    if saved is None:
        return False
    assert problems == [], raw
    assert Preferences.model_validate(dict(saved.values)) == model
    assert (saved.tile_style, saved.theme) == (model.tile_style, model.theme)
    return True


def test_each_setting_with_each_near_value() -> None:
    for name in Preferences.model_fields:
        for value in [*VALID[name], *NEAR_VALUES]:
            valid = any(type(value) is type(v) and value == v for v in VALID[name])
            assert same_as_the_model(_settings({name: value})) or not valid, (name, value)


@settings(max_examples=300, deadline=None)
@given(st.fixed_dictionaries({}, optional={
    **{name: st.one_of(st.sampled_from(values), NEAR, JSON_VALUES)
       for name, values in VALID.items()},
    "unknown": JSON_VALUES, "Theme": st.sampled_from(VALID["theme"])}))
def test_what_the_fast_path_accepts_the_model_reads_the_same(data: dict[str, Any]) -> None:
    same_as_the_model(_settings(data))


@pytest.mark.parametrize("raw", [
    b'{"theme": "nord", "theme": "dracula"}',  # a key twice
    b'{"theme": "\\ud800"}',  # a lone surrogate, which pydantic's parser refuses
    b'{"tile_style": "box"',  # not JSON
    b'["box"]', b"null", b"",
    b'{"hint": "off", "washizu": "yes"}',  # one bad value: the model reports it
    b'{"save_records": 1}',  # lax: the model turns it into True
    b'{"tile_style": "text", "colour": "red"}',  # an unknown setting: dropped with a report
    b"\xff\xfe{}",  # not UTF-8
    b'{"rules": "chess"}',
    b'{"theme": NaN}',
    b'{"clock": "90+5"}',  # valid, but checked against the rules by the model
    b'{"rule_changes": {"club": ["ryanshi=off"]}}',
])
def test_anything_doubtful_goes_to_the_models_loader(raw: bytes) -> None:
    assert settings_from(raw) is None


def test_a_byte_order_mark_is_fine_on_both_paths() -> None:
    raw = "\ufeff".encode() + b'{"tile_style": "text"}'
    saved = settings_from(raw)
    assert saved is not None and saved.tile_style == "text"
    assert parse_preferences(raw) == (Preferences(tile_style="text"), [])


def test_a_missing_file_is_the_defaults(config_dir: Path) -> None:
    saved = read_saved_settings()
    assert saved is not None and dict(saved.values) == {}
    assert (saved.tile_style, saved.theme) == ("box", "textual-dark")


def test_files_that_are_not_settings_go_to_the_loader(config_dir: Path) -> None:
    config_dir.mkdir(parents=True)
    path = config_dir / "settings.json"
    path.write_bytes(b" " * (MAX_SETTINGS_BYTES + 1))
    assert read_saved_settings() is None
    path.unlink()
    os.mkfifo(path)  # never opened for reading: it would wait for a writer
    assert read_saved_settings() is None


async def test_the_app_shows_the_saved_look_and_builds_the_model_later(config_dir: Path) -> None:
    config_dir.mkdir(parents=True)
    (config_dir / "settings.json").write_text(json.dumps(
        {"tile_style": "text", "theme": "nord", "bot_level": "strong", "washizu": True}))
    app = MinefieldApp(think_seconds=0, catch_errors=False)
    assert not app.prefs.model_built  # read by the fast path: no model yet
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == "nord" and app.has_class("-tiles-text")
        assert app.tile_style == "text"
        assert app.preferences == Preferences(tile_style="text", theme="nord",
                                              bot_level="strong", washizu=True)
    assert (config_dir / "settings.json").read_text() == json.dumps(
        {"tile_style": "text", "theme": "nord", "bot_level": "strong", "washizu": True})
