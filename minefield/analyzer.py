"""The hand analyzer behind ``minefield analyze``: waits of a 13-tile hand and what each pays.

>>> result = analyze_request(AnalyzeRequest(hand="123m456p789s1112z"))
>>> result.tenpai, [w.tile for w in result.waits]
(True, ['2z'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from minefield.rules.game import Seat
from minefield.rules.hand import Hand
from minefield.rules.report import WaitReport
from minefield.rules.score import WinContext, analyze
from minefield.rules.settings import PRESETS, RuleSettings, SettingsError
from minefield.rules.tiles import Tile, TileError, quote_prefix

RED_FIVES_UNUSED = "red fives (0m/0p/0s) are not used in these rules (R1)"
MAX_PROBLEMS = 3  # problems of one request named in its error message


class AnalyzeRequest(BaseModel):
    """One analysis request (a ``--jsonl`` line or the command's arguments)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    hand: str
    seat: Seat = Seat.EAST
    dora: str | None = None
    ura: str | None = None
    discard: Literal["first", "middle", "last"] = "middle"
    rules: str = "standard"


class AnalyzeResult(BaseModel):
    """The analyzer's answer; ``waits`` in tile order."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    hand: str
    tenpai: bool
    waits: list[WaitReport]


class RequestError(ValueError):
    """A request (command-line arguments or a ``--jsonl`` line) that cannot be answered.

    The message says what is wrong and where, quoting at most a short prefix of the input.
    """


class AnalyzeError(RequestError):
    """A request that cannot be analyzed; the message says what is wrong."""


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


def indicator_kind(value: str | None, what: str, settings: RuleSettings) -> int | None:
    """The kind of a dora or ura indicator (``None`` or ``"none"``: no indicator).

    Raises :class:`AnalyzeError` for bad notation, and for a red five (``0m``) under rules
    without red fives (R1), worded as for a hand.
    """
    if value is None or value.lower() == "none":
        return None
    try:
        tile = Tile.parse(value)
    except TileError as error:
        raise AnalyzeError(f"{what} indicator: {error}") from None
    if tile.red and not settings.red_fives:
        raise AnalyzeError(f"{what} indicator: {RED_FIVES_UNUSED}")
    return tile.kind


def context_for(seat: Seat, discard: str, dora: int | None, ura: int | None,
                settings: RuleSettings | None = None) -> WinContext:
    """The win context for a ron on the ``first``, a ``middle`` or the ``last`` discard, under
    ``settings`` (default: the standard rules).

    ``first`` is the opponent's first discard (ippatsu, R16); ``last`` is discard 34 (houtei,
    R17), which only East can win on. With ``dealer_bonus`` (the ``match`` preset) East is the
    dealer and paid dealer values (R23).
    """
    if discard == "last" and seat is Seat.WEST:
        raise AnalyzeError("west cannot win on the last discard: discard 34 is west's own (R17)")
    dealer = settings is not None and settings.dealer_bonus and seat is Seat.EAST
    return WinContext(seat_wind=seat.wind, ippatsu=discard == "first", houtei=discard == "last",
                      dora_indicator=dora, ura_indicator=ura, dealer=dealer)


def analyze_request(request: AnalyzeRequest, rule: Sequence[str] = ()) -> AnalyzeResult:
    """Analyze one request under its preset with the ``NAME=VALUE`` settings ``rule`` over it
    (``--rule``); raises :class:`AnalyzeError` with a clear message."""
    settings = rules_preset(request.rules, AnalyzeError, rule)
    try:
        hand = Hand.parse(request.hand)
    except TileError as error:
        raise AnalyzeError(f"hand: {error}") from None
    if hand.reds and not settings.red_fives:
        raise AnalyzeError(f"hand: {RED_FIVES_UNUSED}")
    ctx = context_for(request.seat, request.discard,
                      indicator_kind(request.dora, "dora", settings),
                      indicator_kind(request.ura, "ura", settings), settings)
    reports = [WaitReport.from_value(v) for v in analyze(hand, ctx, settings)]
    return AnalyzeResult(hand=str(hand), tenpai=bool(reports), waits=reports)


def analyze_line(line: str) -> str:
    """One ``--jsonl`` request in, its result's JSON out; :class:`AnalyzeError` for a bad one."""
    try:
        request = AnalyzeRequest.model_validate_json(line)
    except ValidationError as error:
        raise AnalyzeError(describe_request_error(error)) from None
    return analyze_request(request).model_dump_json()
