"""Rule settings and presets (RULES.md settings; R1, R14, R20, R23, R25, R30-R35).

Settings are a frozen, validated pydantic model: an unknown key or a bad value is an error
that names the field.

>>> RuleSettings.preset("beginner").minimum
'none'
>>> RuleSettings.chosen("club", ["honba_points=300"]).honba_points
300
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, NamedTuple, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from minefield.errors import MinefieldError
from minefield.rules.presets import MATCH_PRESETS as MATCH_PRESETS  # re-exported
from minefield.rules.presets import PRESETS as PRESETS  # re-exported: where it always was

#: The settings of R25's clocks (a network game's are the server's).
CLOCK_SETTINGS = frozenset({"hand_seconds", "discard_seconds"})
#: How ``--rule NAME=VALUE`` writes a yes or no (R-settings that are on or off).
ON_WORDS = ("on", "true")
OFF_WORDS = ("off", "false")
MAX_HANDS = 16
"""The longest match a setting may ask for (R30): 16 dealerships, a long evening."""


class SettingsError(MinefieldError, ValueError):
    """A settings value or preset name that is not valid; the message names the field."""


class RuleSettings(BaseModel):
    """The rules of one game. Defaults are RULES.md's ``standard`` preset."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    red_fives: bool = Field(
        False, description="R1: one red five per suit (0m 0p 0s), each one dora")
    minimum: Literal["mangan", "none"] = Field(
        "mangan", description="R14: the value a ron must reach (none: every wait wins)")
    kiriage: bool = Field(True, description="R14: 4 han 30 fu and 3 han 60 fu are mangan")
    double_yakuman_waits: bool = Field(
        False, description="R20: 13-sided kokushi, 9-sided chuuren, suuankou tanki are double"
    )
    hand_seconds: int | None = Field(
        None, gt=0, description="R25: seconds to build the hand (none: no clock)")
    discard_seconds: int | None = Field(
        None, gt=0, description="R25: seconds for each discard (none: no clock)")
    dealer_bonus: bool = Field(
        False, description="R23: in a match East, the dealer, is paid 1.5x")
    hands: int = Field(4, ge=1, le=MAX_HANDS,
                       description="R30: dealerships in a match (a repeat does not count)")
    start_points: int = Field(25000, gt=0, description="R30: each player's points at the start")
    honba_points: int = Field(
        1000, ge=0, description="R32: paid per counter stick on a win (standard riichi: 300)")
    noten_payment: int = Field(
        1000, ge=0, description="R33: at a draw the noten player pays the tenpai one this")
    ryanshi: bool = Field(
        False, description="R34: with four or more sticks a win needs two han of yaku")
    paarenchan: bool = Field(
        False, description="R35: eight repeats from no sticks make the dealer's next ron a "
                           "yakuman")

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> RuleSettings:
        """Build a preset (``standard``, ``beginner``, ``match`` or ``club``), optionally with
        overrides.

        >>> RuleSettings.preset("match", honba_points=300).dealer_bonus
        True
        """
        if name not in PRESETS:
            raise SettingsError(
                f"unknown rules preset {name!r}: choose one of {', '.join(PRESETS)}"
            )
        return cls.validated({**PRESETS[name], **overrides})

    @classmethod
    def chosen(cls, preset: str, rules: Iterable[str] = ()) -> RuleSettings:
        """A preset with ``NAME=VALUE`` settings over it (``--rule``; the last one of a name
        wins). Raises :class:`SettingsError` naming the preset, setting or value at fault.

        >>> RuleSettings.chosen("match", ["ryanshi=on", "hand_seconds=none"]).ryanshi
        True
        """
        overrides = dict(parse_rule(text) for text in rules)
        return cls.preset(preset, **overrides)

    @classmethod
    def validated(cls, data: dict[str, Any]) -> RuleSettings:
        """Validate a mapping, turning pydantic's error into a one-line :class:`SettingsError`."""
        try:
            return cls.model_validate(data)
        except ValidationError as error:
            raise SettingsError(describe_validation_error(error, "setting")) from None


def rule_names() -> list[str]:
    """Every setting's name, in the rule book's order."""
    return list(RuleSettings.model_fields)


#: Each setting in words, as a player reads it; the setting's name (``red_fives``) is what
#: ``--rule`` takes and appears beside these words, never instead of them.
RULE_WORDS = {
    "red_fives": "red fives", "minimum": "minimum value", "kiriage": "kiriage mangan",
    "double_yakuman_waits": "double yakuman waits", "hand_seconds": "hand clock",
    "discard_seconds": "discard clock", "dealer_bonus": "dealer bonus",
    "hands": "hands in a match", "start_points": "starting points",
    "honba_points": "counter stick value", "noten_payment": "noten payment",
    "ryanshi": "ryanshi", "paarenchan": "paarenchan",
}


def rule_words(name: str) -> str:
    """A setting in words: ``rule_words("red_fives") == 'red fives'`` (its name when it has
    none)."""
    return RULE_WORDS.get(name, name.replace("_", " "))


def rule_value_words(name: str, value: object) -> str:
    """A setting and its value in words: ``hand clock 60 s``, ``red fives on``,
    ``minimum value none``.

    >>> rule_value_words("hand_seconds", 60), rule_value_words("dealer_bonus", True)
    ('hand clock 60 s', 'dealer bonus on')
    """
    if isinstance(value, bool):
        shown = "on" if value else "off"
    elif value is None:
        shown = "none"
    else:
        shown = f"{value} s" if name.endswith("_seconds") else str(value)
    return f"{rule_words(name)} {shown}"


def rule_text(name: str) -> str:
    """A setting's rule number and line of explanation (``R34: two han of yaku ...``)."""
    return RuleSettings.model_fields[name].description or ""


def rule_value_text(value: object) -> str:
    """A setting's value as ``--rule`` writes it: ``on``/``off``, a number, ``none``, a word.

    >>> rule_value_text(True), rule_value_text(None), rule_value_text(300)
    ('on', 'none', '300')
    """
    if isinstance(value, bool):
        return "on" if value else "off"
    return "none" if value is None else str(value)


def rule_arguments(settings: RuleSettings, preset: str = "standard") -> list[str]:
    """The ``NAME=VALUE`` settings by which ``settings`` differ from ``preset``.

    >>> rule_arguments(RuleSettings.chosen("club", ["honba_points=300"]), "club")
    ['honba_points=300']
    """
    base = RuleSettings.preset(preset)
    return [f"{name}={rule_value_text(getattr(settings, name))}" for name in rule_names()
            if getattr(settings, name) != getattr(base, name)]


class ChosenRules(NamedTuple):
    """The rules of a game as a player chose them: a preset and the ``NAME=VALUE`` settings
    changed over it. ``str()`` gives them as ``host`` asks for them (``beginner red_fives=on``).
    """

    preset: str
    changes: tuple[str, ...] = ()

    @property
    def exact(self) -> bool:
        """True for the preset itself, nothing changed over it."""
        return not self.changes

    def __str__(self) -> str:
        return " ".join([self.preset, *self.changes])


def without_clocks(settings: RuleSettings) -> RuleSettings:
    """``settings`` with R25's clocks off: a preset never sets them, so they are left out of
    what a game's rules are called."""
    return settings.model_copy(update=dict.fromkeys(CLOCK_SETTINGS))


def chosen_rules(settings: RuleSettings, preset: str | None = None, *,
                 match: bool | None = None) -> ChosenRules:
    """The preset a game's ``settings`` were chosen from and what was changed over it.

    ``preset`` is the name carried from where the rules were chosen (the new-game form,
    ``--rules``, a room, a record's header, the wire's ``rules`` line): the rules are shown
    as chosen. Only when it is missing or unknown (a record, a server or a client older than
    the name) is the preset guessed, here and nowhere else: the nearest one (the fewest
    settings changed, the first in RULES.md's order on a tie), among the match presets for
    a match and the others for a single game when ``match`` says which.

    >>> beginner = RuleSettings.preset("beginner")
    >>> chosen_rules(beginner), chosen_rules(beginner, "standard")
    (ChosenRules(preset='beginner', changes=()), ChosenRules(preset='standard', \
changes=('minimum=none',)))
    >>> str(chosen_rules(RuleSettings.chosen("beginner", ["red_fives=on"]), match=False))
    'beginner red_fives=on'
    """
    if preset is not None and preset in PRESETS:
        return ChosenRules(preset, tuple(rule_arguments(settings, preset)))
    names = [name for name in PRESETS
             if match is None or (name in MATCH_PRESETS) == match] or list(PRESETS)
    guess = min(names, key=lambda name: len(rule_arguments(settings, name)))
    return ChosenRules(guess, tuple(rule_arguments(settings, guess)))


def parse_rule(text: str) -> tuple[str, bool | int | str | None]:
    """One ``NAME=VALUE`` setting (``--rule``): the name and its value, typed.

    On/off settings take ``on``, ``off``, ``true`` or ``false``; numbers are whole numbers;
    ``none`` turns off a setting that may be off (a clock, the minimum). The value's range is
    checked with the whole settings (:meth:`RuleSettings.chosen`). Raises
    :class:`SettingsError` naming the setting or the value.

    >>> parse_rule("ryanshi=on"), parse_rule("honba_points=300"), parse_rule("minimum=none")
    (('ryanshi', True), ('honba_points', 300), ('minimum', 'none'))
    """
    name, equals, raw = text.partition("=")
    name, raw = name.strip(), raw.strip()
    if not equals or not name:
        raise SettingsError(f"rule {_short(text)!r}: write NAME=VALUE, e.g. ryanshi=on")
    field = RuleSettings.model_fields.get(name)
    if field is None:
        raise SettingsError(f"unknown setting {_short(name)!r}: the settings are "
                            f"{', '.join(rule_names())}")
    word = raw.lower()
    kinds = get_args(field.annotation) or (field.annotation,)
    if field.annotation is bool:
        if word in ON_WORDS or word in OFF_WORDS:
            return name, word in ON_WORDS
        raise SettingsError(f"setting {name!r}: {_short(raw)!r} is not on, off, true or false")
    if word == "none" and (type(None) in kinds or "none" in kinds):
        return name, None if type(None) in kinds else "none"
    if int in kinds:
        try:
            return name, int(raw)
        except ValueError:
            can_be_none = " or none" if type(None) in kinds else ""
            raise SettingsError(f"setting {name!r}: {_short(raw)!r} is not a whole "
                                f"number{can_be_none}") from None
    if word in kinds:
        return name, word
    choices = " or ".join(str(k) for k in kinds)
    raise SettingsError(f"setting {name!r}: {_short(raw)!r} is not {choices}")


def parse_clock(text: str) -> list[str]:
    """A clock written ``HAND+DISCARD`` in seconds (R25) as the two clock settings; ``off``
    (or ``none``) turns both off. Raises :class:`SettingsError` saying how to write it.

    >>> parse_clock("180+15"), parse_clock("off")
    (['hand_seconds=180', 'discard_seconds=15'], ['hand_seconds=none', 'discard_seconds=none'])
    """
    word = text.strip().lower()
    if word in ("off", "none"):
        return ["hand_seconds=none", "discard_seconds=none"]
    hand, plus, discard = (part.strip() for part in word.partition("+"))
    if plus and all(part.isascii() and part.isdigit() and int(part) > 0
                    for part in (hand, discard)):
        return [f"hand_seconds={int(hand)}", f"discard_seconds={int(discard)}"]
    raise SettingsError(f"clock {_short(text, 20)!r}: write HAND+DISCARD in seconds, both above "
                        "0, such as 180+15 (or off)")


def clock_words(settings: RuleSettings) -> str:
    """The clocks as ``HAND+DISCARD`` (``off`` when neither runs; ``none`` for one that does
    not)."""
    if settings.hand_seconds is None and settings.discard_seconds is None:
        return "off"
    return f"{rule_value_text(settings.hand_seconds)}+{rule_value_text(settings.discard_seconds)}"


def _short(text: str, limit: int = 40) -> str:
    """At most ``limit`` characters of ``text`` (a message quotes what was typed, not a page)."""
    return text if len(text) <= limit else text[:limit] + "…"


#: A whole number out of its range, in words: what it must be (pydantic's error type).
_RANGES = {"greater_than": lambda c: f"{c['gt'] + 1} or more",
           "greater_than_equal": lambda c: f"{c['ge']} or more",
           "less_than": lambda c: f"at most {c['lt'] - 1}",
           "less_than_equal": lambda c: f"at most {c['le']}"}


def describe_validation_error(error: ValidationError, what: str) -> str:
    """A short message naming each bad field: ``setting 'kiriage': Input should be ...``; a
    setting's number out of range in words, beside the setting's name: ``setting
    'honba_points' (counter stick value): -5 is too small: give 0 or more``."""
    parts = []
    for item in error.errors():
        message = item["msg"].removeprefix("Value error, ")
        if item["type"] == "extra_forbidden":
            message = f"unknown {what}"
        where = ".".join(str(p) for p in item["loc"])
        wanted = _RANGES.get(item["type"])
        if wanted is not None and what == "setting" and where in RULE_WORDS:
            size = "small" if item["type"].startswith("greater") else "large"
            message = f"{item['input']} is too {size}: give {wanted(item.get('ctx', {}))}"
            where_words = f"{where!r} ({rule_words(where)})"
            parts.append(f"{what} {where_words}: {message}")
            continue
        parts.append(f"{what} {where!r}: {message}" if where else message)
    return "; ".join(parts)
