"""Settings and presets (RULES.md presets; R1, R14, R20, R23, R25, R30-R35)."""

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


def test_match_preset_turns_the_dealer_bonus_on() -> None:
    rules = RuleSettings.preset("match")
    assert rules.dealer_bonus and rules == RuleSettings(dealer_bonus=True)
    assert RuleSettings.preset("match", honba_points=300).honba_points == 300


def test_r30_r35_match_settings_follow_the_rule_book() -> None:
    rules = RuleSettings()
    assert (rules.hands, rules.start_points, rules.honba_points, rules.noten_payment) == (
        4, 25000, 1000, 1000)
    assert (rules.ryanshi, rules.paarenchan, rules.dealer_bonus) == (False, False, False)


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
    ({"hands": 0}, "hands"),
    ({"hands": 17}, "hands"),
    ({"start_points": 0}, "start_points"),
    ({"honba_points": -1}, "honba_points"),
    ({"noten_payment": -300}, "noten_payment"),
    ({"paarenchan": "often"}, "paarenchan"),
])
def test_bad_values_name_their_field(data: dict[str, object], field: str) -> None:
    with pytest.raises(SettingsError, match=f"setting '{field}'"):
        RuleSettings.validated(data)


def test_settings_are_frozen_and_hashable() -> None:
    rules = RuleSettings()
    assert hash(rules) == hash(RuleSettings())
    with pytest.raises(ValueError):
        rules.kiriage = False  # type: ignore[misc]
