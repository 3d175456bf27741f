"""The hand analyzer behind ``minefield analyze``: waits of a 13-tile hand and what each pays.

>>> result = analyze_request(AnalyzeRequest(hand="123m456p789s1112z"))
>>> result.tenpai, [w.tile for w in result.waits]
(True, ['2z'])
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

import orjson
from pydantic import BaseModel, ConfigDict, ValidationError

from minefield.rules.game import Seat
from minefield.rules.hand import HAND_SIZE, Hand
from minefield.rules.report import WaitReport, wait_report_fields, wait_row_fields
from minefield.rules.request import (
    RED_FIVES_UNUSED,
    RequestError,
    describe_request_error,
    rules_preset,
)
from minefield.rules.score import (
    Situation,
    WinContext,
    WinValue,
    analyze,
    analyze_rows,
    make_situation,
)
from minefield.rules.settings import PRESETS, RuleSettings
from minefield.rules.tiles import NUM_KINDS, SUITS, Tile, TileError, kind_str


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


class AnalyzeError(RequestError):
    """A request that cannot be analyzed; the message says what is wrong."""


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
    hand, values = _analysis(request.hand, request.seat, request.dora, request.ura,
                             request.discard, request.rules, rule)
    reports = [WaitReport.from_value(v) for v in values]
    return AnalyzeResult(hand=str(hand), tenpai=bool(reports), waits=reports)


def _analysis(hand_text: str, seat: Seat, dora: str | None, ura: str | None, discard: str,
              rules: str, rule: Sequence[str] = ()) -> tuple[Hand, tuple[WinValue, ...]]:
    """The hand and its scored waits; :class:`AnalyzeError` for a bad request."""
    settings = None if rule else _PRESETS.get(rules)
    if settings is None:
        settings = rules_preset(rules, AnalyzeError, rule)
    try:
        hand = Hand.parse(hand_text)
    except TileError as error:
        raise AnalyzeError(f"hand: {error}") from None
    if hand.reds and not settings.red_fives:
        raise AnalyzeError(f"hand: {RED_FIVES_UNUSED}")
    ctx = context_for(seat, discard, indicator_kind(dora, "dora", settings),
                      indicator_kind(ura, "ura", settings), settings)
    return hand, analyze(hand, ctx, settings)


def analyze_line(line: str) -> str:
    """One ``--jsonl`` request in, its result's JSON out; :class:`AnalyzeError` for a bad one.

    The answer is ``analyze_request(request).model_dump_json()``, byte for byte (a test keeps
    it so), written without building the models: for a tool called in bulk they would cost
    more than the analysis. A line that is anything but a plain request is validated by
    :class:`AnalyzeRequest`, which words its errors; a plain request whose hand and
    indicators are plain tiles in mpsz notation (no red fives, spaces or capitals) is read
    without building tiles (:func:`_plain_hand`); anything else goes the full way, which
    words the errors.
    """
    plain = _plain_request(line)
    if plain is None:
        try:
            request = AnalyzeRequest.model_validate_json(line)
        except ValidationError as error:
            raise AnalyzeError(describe_request_error(error)) from None
        plain = (request.hand, request.seat, request.dora, request.ura, request.discard,
                 request.rules)
    answer = _quick_answer(*plain)
    if answer is not None:
        return answer
    hand, values = _analysis(*plain)
    return _answer_json(str(hand), values)


def _answer_json(hand: str, values: tuple[WinValue, ...]) -> str:
    return orjson.dumps({"hand": hand, "tenpai": bool(values),
                         "waits": [wait_report_fields(v) for v in values]}).decode()


def _quick_answer(hand_text: str, seat: Seat, dora: str | None, ura: str | None,
                  discard: str, rules: str) -> str | None:
    """The answer of a request of a preset's rules, a plain hand and plain indicators (see
    :func:`analyze_line`); None for any other request, left to :func:`_analysis`."""
    settings = _PRESETS.get(rules)
    if settings is None or (dora is not None and dora not in _PLAIN_INDICATORS) or (
            ura is not None and ura not in _PLAIN_INDICATORS):
        return None
    hand = _plain_hand(hand_text)
    if hand is None:
        return None
    key = (seat, discard, dora, ura, rules)
    situation = _SITUATIONS.get(key)
    if situation is None:
        if discard == "last" and seat is Seat.WEST:
            return None  # an error, worded by _analysis
        ctx = context_for(seat, discard, None if dora is None else _PLAIN_INDICATORS[dora],
                          None if ura is None else _PLAIN_INDICATORS[ura], settings)
        situation = _SITUATIONS[key] = make_situation(ctx, settings)
    rows = analyze_rows(hand[0], situation)
    return orjson.dumps({"hand": hand[1], "tenpai": bool(rows),
                         "waits": [wait_row_fields(row) for row in rows]}).decode()


def _plain_hand(text: str) -> tuple[tuple[int, ...], str] | None:
    """The 34 counts of a hand written in plain mpsz notation (digits 1-9 before a small
    ``m``, ``p``, ``s`` or ``z``: no red fives, spaces or capitals), and the hand as
    :class:`Hand` writes it; None for any other text, or one that is not 13 tiles of which
    there are that many (:meth:`Hand.parse` then says what is wrong).

    A hand already written as :class:`Hand` writes it (each suit once, in order, its digits
    sorted: what other tools send) is read suit by suit, each suit's digits looked up in a
    table of the suits seen (:func:`_written_suit`); any other is read tile by tile.
    """
    match = _WRITTEN.fullmatch(text)
    if match is not None:
        man, pin, sou, honors = groups = match.groups()
        m = _EMPTY_SUIT if man is None else _WRITTEN_SUITS.get(man) or _written_suit(man)
        p = _EMPTY_SUIT if pin is None else _WRITTEN_SUITS.get(pin) or _written_suit(pin)
        s = _EMPTY_SUIT if sou is None else _WRITTEN_SUITS.get(sou) or _written_suit(sou)
        z = (_EMPTY_HONORS if honors is None
             else _WRITTEN_HONORS.get(honors) or _written_suit(honors, 7))
        # the digits are the text but for its suit letters
        if (m is not None and p is not None and s is not None and z is not None
                and len(text) - 4 + groups.count(None) == HAND_SIZE):
            return m + p + s + z, text
    return _any_plain_hand(text)


def _written_suit(digits: str, kinds: int = 9) -> tuple[int, ...] | None:
    """The counts of one suit's digits when they are sorted and hold at most 4 of each
    number (kept in :data:`_WRITTEN_SUITS` or :data:`_WRITTEN_HONORS`), else None."""
    if len(digits) > HAND_SIZE or list(digits) != sorted(digits):
        return None
    counts = [0] * kinds
    for digit in digits:
        counts[_DIGITS[digit]] += 1
    if max(counts) > 4:
        return None
    found = tuple(counts)
    (_WRITTEN_SUITS if kinds == 9 else _WRITTEN_HONORS)[digits] = found
    return found


def _any_plain_hand(text: str) -> tuple[tuple[int, ...], str] | None:
    """:func:`_plain_hand` of a hand in any order, read tile by tile."""
    counts = [0] * NUM_KINDS
    digits: list[int] = []
    previous_kind = previous_base = -1
    written = True  # the text is already as Hand writes it: suits in order, digits sorted
    for char in text:
        digit = _DIGITS.get(char)
        if digit is not None:
            digits.append(digit)
            continue
        base = _SUIT_BASES.get(char)
        if base is None or not digits or (base == HONOR_BASE and max(digits) > 6):
            return None
        if base <= previous_base:
            written = False
        previous_base = base
        for digit in digits:
            kind = base + digit
            if kind < previous_kind:
                written = False
            previous_kind = kind
            counts[kind] += 1
        digits = []
    if digits or sum(counts) != HAND_SIZE or max(counts) > 4:
        return None
    found = tuple(counts)
    return found, text if written else "".join(
        "".join(_DIGIT_TEXT[offset] * found[base + offset] for offset in range(size)) + suit
        for base, size, suit in _SUIT_RANGES if any(found[base:base + size]))


HONOR_BASE = 27
_WRITTEN = re.compile(r"(?:([1-9]+)m)?(?:([1-9]+)p)?(?:([1-9]+)s)?(?:([1-7]+)z)?")
"""A hand as :class:`Hand` writes it, each suit's digits in a group (sorted or not)."""
_WRITTEN_SUITS: dict[str, tuple[int, ...]] = {}
"""Sorted digits of a numbered suit seen -> the suit's 9 counts (at most 405,350 of them)."""
_WRITTEN_HONORS: dict[str, tuple[int, ...]] = {}
_EMPTY_SUIT, _EMPTY_HONORS = (0,) * 9, (0,) * 7
_DIGITS = {str(digit + 1): digit for digit in range(9)}
_SUIT_BASES = {suit: 9 * index for index, suit in enumerate(SUITS)}
_SUIT_RANGES = ((0, 9, "m"), (9, 9, "p"), (18, 9, "s"), (27, 7, "z"))
_DIGIT_TEXT = "123456789"
_PLAIN_INDICATORS: dict[str, int | None] = {kind_str(kind): kind for kind in range(NUM_KINDS)}
_PLAIN_INDICATORS["none"] = None
_SITUATIONS: dict[tuple[Seat, str, str | None, str | None, str], Situation] = {}
"""What the scorer needs of a plain request besides its hand (:func:`make_situation`), made
once: (seat, discard, dora and ura indicators, preset)."""


_SEATS = {"east": Seat.EAST, "west": Seat.WEST}
_DISCARDS = frozenset(("first", "middle", "last"))
_REQUEST_KEYS = frozenset(("hand", "seat", "dora", "ura", "discard", "rules"))
_PRESETS = {name: RuleSettings.chosen(name, ()) for name in PRESETS}  # made once
_PlainRequest = tuple[str, Seat, str | None, str | None, str, str]


def _plain_request(line: str) -> _PlainRequest | None:
    """The fields of a line that is a JSON object of the request's own keys, each a string of
    an allowed value (``dora`` and ``ura`` may be null): exactly what :class:`AnalyzeRequest`
    accepts without complaint. None for any other line."""
    try:
        data = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    if type(data) is not dict or not data.keys() <= _REQUEST_KEYS:
        return None
    hand = data.get("hand")
    seat = data.get("seat", "east")
    dora = data.get("dora")
    ura = data.get("ura")
    discard = data.get("discard", "middle")
    rules = data.get("rules", "standard")
    if (type(hand) is not str or type(seat) is not str or seat not in _SEATS
            or type(discard) is not str or discard not in _DISCARDS
            or type(rules) is not str or (dora is not None and type(dora) is not str)
            or (ura is not None and type(ura) is not str)):
        return None
    return hand, _SEATS[seat], dora, ura, discard, rules
