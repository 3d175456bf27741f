"""What every one-shot request command (``analyze``, ``bot-hand``, ``danger``) shares: the
error a bad request raises, pydantic's complaint in one short line, and the rules preset a
request names.

>>> rules_preset("standard", RequestError).red_fives
False
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import ValidationError

from minefield.errors import MinefieldError
from minefield.rules.settings import PRESETS, RuleSettings, SettingsError
from minefield.rules.tiles import quote_prefix

RED_FIVES_UNUSED = "red fives (0m/0p/0s) are not used in these rules (R1)"
MAX_PROBLEMS = 3  # problems of one request named in its error message


class RequestError(MinefieldError, ValueError):
    """A request (command-line arguments or a ``--jsonl`` line) that cannot be answered.

    The message says what is wrong and where, quoting at most a short prefix of the input.
    """


def describe_request_error(error: ValidationError) -> str:
    """pydantic's complaint about a request as one short line.

    The wording is :func:`minefield.rules.settings.describe_validation_error`'s
    (``field 'colour': unknown field``), but a field name is quoted by its first 40 characters
    only and at most three problems are named: a ``--jsonl`` line may hold a huge key, or
    thousands of them.
    """
    problems = error.errors()
    parts = []
    for item in problems[:MAX_PROBLEMS]:
        message = item["msg"].removeprefix("Value error, ")
        if item["type"] == "extra_forbidden":
            message = "unknown field"
        where = ".".join(str(p) for p in item["loc"])
        parts.append(f"field {quote_prefix(where)}: {message}" if where else message)
    if len(problems) > MAX_PROBLEMS:
        parts.append(f"… ({len(problems)} problems in all)")
    return "; ".join(parts)


def rules_preset(name: str, error: type[RequestError], rule: Sequence[str] = ()) -> RuleSettings:
    """The settings of the preset ``name`` with the ``NAME=VALUE`` settings ``rule`` over it
    (``--rule``); ``error`` (a :class:`RequestError` class) naming the presets when there is no
    such preset, quoting only a short prefix of ``name``, or naming the setting at fault."""
    if name not in PRESETS:  # SettingsError would quote the whole name
        raise error(f"unknown rules preset {quote_prefix(name)}: choose one of "
                    f"{', '.join(PRESETS)}")
    try:
        return RuleSettings.chosen(name, rule)
    except SettingsError as problem:
        raise error(str(problem)) from None
