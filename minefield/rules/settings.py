"""Rule settings and presets (RULES.md settings; R1, R14, R20, R23, R25, R30-R35).

Settings are a frozen, validated pydantic model: an unknown key or a bad value is an error
that names the field.

>>> RuleSettings.preset("beginner").minimum
'none'
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from minefield.rules.presets import PRESETS as PRESETS  # re-exported: where it always was

MAX_HANDS = 16
"""The longest match a setting may ask for (R30): 16 dealerships, a long evening."""


class SettingsError(ValueError):
    """A settings value or preset name that is not valid; the message names the field."""


class RuleSettings(BaseModel):
    """The rules of one game. Defaults are RULES.md's ``standard`` preset."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    red_fives: bool = Field(False, description="R1: one red five per suit, each one dora")
    minimum: Literal["mangan", "none"] = Field(
        "mangan", description="R14: the value a ron must reach"
    )
    kiriage: bool = Field(True, description="R14: 4 han 30 fu and 3 han 60 fu are mangan")
    double_yakuman_waits: bool = Field(
        False, description="R20: 13-sided kokushi, 9-sided chuuren, suuankou tanki are double"
    )
    hand_seconds: int | None = Field(None, gt=0, description="R25: time to build the hand")
    discard_seconds: int | None = Field(None, gt=0, description="R25: time for each discard")
    dealer_bonus: bool = Field(False, description="R23: East is paid dealer values (matches)")
    hands: int = Field(4, ge=1, le=MAX_HANDS,
                       description="R30: dealerships in a match (a repeat does not count)")
    start_points: int = Field(25000, gt=0, description="R30: each player's points at the start")
    honba_points: int = Field(1000, ge=0, description="R32: paid per counter stick on a win")
    noten_payment: int = Field(1000, ge=0, description="R33: the noten player pays the tenpai one")
    ryanshi: bool = Field(False, description="R34: two han of yaku with four or more sticks")
    paarenchan: bool = Field(False, description="R35: eight repeats make the dealer's next ron "
                                                "a yakuman")

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> RuleSettings:
        """Build a preset (``standard``, ``beginner`` or ``match``), optionally with overrides.

        >>> RuleSettings.preset("match", honba_points=300).dealer_bonus
        True
        """
        if name not in PRESETS:
            raise SettingsError(
                f"unknown rules preset {name!r}: choose one of {', '.join(PRESETS)}"
            )
        return cls.validated({**PRESETS[name], **overrides})

    @classmethod
    def validated(cls, data: dict[str, Any]) -> RuleSettings:
        """Validate a mapping, turning pydantic's error into a one-line :class:`SettingsError`."""
        try:
            return cls.model_validate(data)
        except ValidationError as error:
            raise SettingsError(describe_validation_error(error, "setting")) from None


def describe_validation_error(error: ValidationError, what: str) -> str:
    """A short message naming each bad field: ``setting 'kiriage': Input should be ...``."""
    parts = []
    for item in error.errors():
        message = item["msg"].removeprefix("Value error, ")
        if item["type"] == "extra_forbidden":
            message = f"unknown {what}"
        where = ".".join(str(p) for p in item["loc"])
        parts.append(f"{what} {where!r}: {message}" if where else message)
    return "; ".join(parts)
