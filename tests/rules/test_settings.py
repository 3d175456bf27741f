"""Settings and presets (RULES.md presets; R1, R14, R20, R23, R25)."""

from __future__ import annotations

import pytest

from minefield.rules.settings import RuleSettings, SettingsError


def test_standard_defaults_follow_the_rule_book() -> None:
    rules = RuleSettings.preset("standard")
    assert rules == RuleSettings()
    assert (rules.red_fives, rules.minimum, rules.kiriage, rules.double_yakuman_waits) == (
        False, "mangan", True, False)
    assert rules.hand_seconds is None and rules.discard_seconds is None


def test_beginner_turns_the_minimum_off() -> None:
    assert RuleSettings.preset("beginner").minimum == "none"


def test_unknown_preset_is_named() -> None:
    with pytest.raises(SettingsError, match="unknown rules preset 'match3'"):
        RuleSettings.preset("match3")


def test_unknown_setting_is_an_error_that_names_it() -> None:
    with pytest.raises(SettingsError, match="setting 'kiriagi': unknown setting"):
        RuleSettings.validated({"kiriagi": False})


@pytest.mark.parametrize(("data", "field"), [
    ({"minimum": "haneman"}, "minimum"),
    ({"kiriage": "maybe"}, "kiriage"),
    ({"discard_seconds": 0}, "discard_seconds"),
    ({"hand_seconds": -5}, "hand_seconds"),
])
def test_bad_values_name_their_field(data: dict[str, object], field: str) -> None:
    with pytest.raises(SettingsError, match=f"setting '{field}'"):
        RuleSettings.validated(data)


def test_settings_are_frozen_and_hashable() -> None:
    rules = RuleSettings()
    assert hash(rules) == hash(RuleSettings())
    with pytest.raises(ValueError):
        rules.kiriage = False  # type: ignore[misc]
