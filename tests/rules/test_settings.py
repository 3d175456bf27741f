"""Settings and presets (RULES.md presets; R1, R14, R20, R23, R25, R30-R35)."""

from __future__ import annotations

import re

import pytest

from minefield.rules.settings import (
    MATCH_PRESETS,
    RuleSettings,
    SettingsError,
    parse_rule,
    rule_arguments,
    rule_names,
    rule_text,
)


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
        rules.kiriage = False  # type: ignore[misc]  # frozen: the refusal is the test


def test_club_preset_is_the_dutch_clubs_match() -> None:
    """RULES.md presets: ``club`` is ``match`` with ryanshi and paarenchan on (R34, R35),
    counter sticks and the noten payment at 1000 (R32, R33)."""
    club = RuleSettings.preset("club")
    assert club == RuleSettings.preset("match", ryanshi=True, paarenchan=True)
    assert (club.dealer_bonus, club.honba_points, club.noten_payment) == (True, 1000, 1000)
    assert "club" in MATCH_PRESETS and "match" in MATCH_PRESETS


@pytest.mark.parametrize(("text", "name", "value"), [
    ("ryanshi=on", "ryanshi", True),           # R34
    ("paarenchan=TRUE", "paarenchan", True),   # R35, any case
    ("kiriage=off", "kiriage", False),         # R14
    ("dealer_bonus=false", "dealer_bonus", False),  # R23
    ("honba_points=300", "honba_points", 300),  # R32
    ("noten_payment= 3000", "noten_payment", 3000),  # R33
    ("hand_seconds=none", "hand_seconds", None),  # R25
    ("minimum=none", "minimum", "none"),  # R14
    ("minimum=mangan", "minimum", "mangan"),
])
def test_a_rule_setting_by_name_and_value(text: str, name: str, value: object) -> None:
    assert parse_rule(text) == (name, value)


def test_rules_go_over_the_preset_and_the_last_one_wins() -> None:
    rules = RuleSettings.chosen("club", ["ryanshi=off", "honba_points=300", "honba_points=500"])
    assert (rules.ryanshi, rules.paarenchan, rules.honba_points) == (False, True, 500)
    assert rule_arguments(rules, "club") == ["honba_points=500", "ryanshi=off"]
    assert RuleSettings.chosen("standard", rule_arguments(rules, "standard")) == rules


@pytest.mark.parametrize(("text", "message"), [
    ("ryanshi", "rule 'ryanshi': write NAME=VALUE"),
    ("=on", "rule '=on': write NAME=VALUE"),
    ("ryansi=on", "unknown setting 'ryansi': the settings are red_fives, "),
    ("ryanshi=1", "setting 'ryanshi': '1' is not on, off, true or false"),
    ("ryanshi=maybe", "setting 'ryanshi': 'maybe' is not on, off, true or false"),
    ("honba_points=lots", "setting 'honba_points': 'lots' is not a whole number"),
    ("hands=none", "setting 'hands': 'none' is not a whole number"),
    ("hand_seconds=soon", "setting 'hand_seconds': 'soon' is not a whole number or none"),
    ("minimum=haneman", "setting 'minimum': 'haneman' is not mangan or none"),
    # In words beside the setting's name, not the validation library's.
    ("honba_points=-100",
     "setting 'honba_points' (counter stick value): -100 is too small: give 0 or more"),
    ("hands=17", "setting 'hands' (hands in a match): 17 is too large: give at most 16"),
    ("discard_seconds=0",
     "setting 'discard_seconds' (discard clock): 0 is too small: give 1 or more"),
])
def test_a_bad_rule_is_an_error_that_names_it(text: str, message: str) -> None:
    with pytest.raises(SettingsError) as raised:
        RuleSettings.chosen("standard", [text])
    assert str(raised.value).startswith(message) and "\n" not in str(raised.value)


def test_every_setting_has_its_rule_number_and_a_line_of_explanation() -> None:
    for name in rule_names():
        assert re.fullmatch(r"R\d+b?: \S.{10,}", rule_text(name)), name
