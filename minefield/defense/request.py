"""The request and result of ``minefield danger`` (command line, ``--json`` and ``--jsonl``).

A request is what the discarding seat sees (R26)::

    {"seat": "east", "tiles": "<own 34>", "hand": "<own 13>", "dora": "<indicator>",
     "discards": {"east": ["5p", "1z"], "west": ["2s"]}, "method": "fast",
     "opponent": "strong", "rules": "standard"}

``method`` may be left out (``fast`` is the only estimate; ``posterior`` was removed and is
refused with a line naming ``fast``); ``opponent`` is whom the seat plays against, ``easy``,
``normal`` or ``strong`` (a bot, the default) or ``person`` (a blend of the levels).

and the result names the discard about to be made and one entry per kind left in the pool::

    {"discard": 4, "opponent_furiten": 0.08,
     "tiles": [{"tile": "5p", "danger": 0.14, "loss": 1470, "reasons": ["..."]}, ...]}

Every bad request raises :class:`DangerRequestError` with one line naming what is wrong and
where (quoting at most a short prefix of the input).
"""

from __future__ import annotations

from typing import Any

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from minefield.defense.calibration import DEFAULT_OPPONENT, Opponent
from minefield.defense.estimate import estimate
from minefield.defense.position import DangerReport, Method, Position, PositionError
from minefield.rules.game import DISCARDS_PER_SEAT, Seat
from minefield.rules.hand import Hand
from minefield.rules.request import (
    RED_FIVES_UNUSED,
    RequestError,
    describe_request_error,
    rules_preset,
)
from minefield.rules.tiles import NUM_KINDS, Tile, TileError, check_copies, kind_str, parse_tiles

DIGITS = 4  # decimals of a chance in a result


class DangerRequestError(RequestError):
    """A danger request that cannot be answered; the message says what and where."""


class DangerRequest(BaseModel):
    """One position to estimate (a ``--jsonl`` line or the command's arguments)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seat: Seat
    tiles: str
    hand: str
    dora: str
    discards: dict[Seat, list[str]] = Field(default_factory=dict)
    method: Method = "fast"
    opponent: Opponent = DEFAULT_OPPONENT
    rules: str = "standard"

    @field_validator("method", mode="before")
    @classmethod
    def _removed_method(cls, value: Any) -> Any:
        if value == "posterior":
            raise ValueError("the posterior estimate was removed: use \"fast\" (the one "
                             "estimate) or leave method out")
        return value

    def position(self) -> Position:
        """The position this request describes, under the rules it names (the ``match``
        preset pays an East opponent dealer values, R23); :class:`DangerRequestError` when it
        cannot occur."""
        settings = rules_preset(self.rules, DangerRequestError)
        tiles = _tiles(self.tiles, "tiles")
        try:
            hand = Hand.parse(self.hand)
        except TileError as error:
            raise DangerRequestError(f"hand: {error}") from None
        if hand.reds:
            raise DangerRequestError(f"hand: {RED_FIVES_UNUSED}")
        dora = _tile(self.dora, "dora indicator")
        discards = {seat: tuple(_tile(text, f"discards.{seat}[{index}]")
                                for index, text in enumerate(row))
                    for seat, row in self.discards.items()}
        for seat, row in discards.items():
            if len(row) > DISCARDS_PER_SEAT:
                raise DangerRequestError(f"discards.{seat}: {len(row)} discards, a seat makes "
                                         f"{DISCARDS_PER_SEAT} (R10)")
        _check_turn(self.seat, discards)
        _check_visible(tiles, dora, discards.get(self.seat.other, ()), self.seat.other)
        try:
            return Position(seat=self.seat, tiles=tuple(tiles), hand=hand, dora_indicator=dora,
                            discards=discards, settings=settings)
        except PositionError as error:
            raise DangerRequestError(str(error)) from None


def _tiles(text: str, what: str) -> list[Tile]:
    try:
        tiles = parse_tiles(text)
        check_copies(tiles)
    except TileError as error:
        raise DangerRequestError(f"{what}: {error}") from None
    if any(tile.red for tile in tiles):
        raise DangerRequestError(f"{what}: {RED_FIVES_UNUSED}")
    return tiles


def _tile(text: str, what: str) -> Tile:
    try:
        tile = Tile.parse(text)
    except TileError as error:
        raise DangerRequestError(f"{what}: {error}") from None
    if tile.red:
        raise DangerRequestError(f"{what}: {RED_FIVES_UNUSED}")
    return tile


def _check_turn(seat: Seat, discards: dict[Seat, tuple[Tile, ...]]) -> None:
    """East discards first and the seats alternate (R10), so the rows' lengths say whose turn
    it is; checked before the rows' tiles, so that a wrong seat is named as such."""
    east = len(discards.get(Seat.EAST, ()))
    west = len(discards.get(Seat.WEST, ()))
    if east not in (west, west + 1):
        raise DangerRequestError(f"discards: east made {east} and west {west}; East discards "
                                 "first and they alternate (R10)")
    expected = Seat.EAST if east == west else Seat.WEST
    if seat is not expected:
        raise DangerRequestError(f"seat: it is {expected}'s turn to discard, not {seat}'s")


def _check_visible(tiles: list[Tile], dora: Tile, opponent: tuple[Tile, ...],
                   opponent_seat: Seat) -> None:
    """The seat's 34 tiles, the indicator and the opponent's discards are different tiles, so
    together they hold at most four copies of a kind (R1)."""
    counts = [0] * NUM_KINDS
    for tile in tiles:
        counts[tile.kind] += 1
    counts[dora.kind] += 1
    if counts[dora.kind] > 4:
        raise DangerRequestError(f"dora indicator: a fifth {dora}, with four in the seat's tiles")
    for index, tile in enumerate(opponent):
        counts[tile.kind] += 1
        if counts[tile.kind] > 4:
            raise DangerRequestError(
                f"discards.{opponent_seat}[{index}]: a fifth {kind_str(tile.kind)}, with the "
                "seat's tiles and the dora indicator (there are only four)")


class DangerTile(BaseModel):
    """One kind left in the pool: the chance of dealing in, the expected loss, the reasons."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tile: str
    danger: float
    loss: int
    reasons: list[str]


class DangerResult(BaseModel):
    """The answer: the discard's number (1-34), the opponent's furiten chance, the tiles."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    discard: int
    opponent_furiten: float
    tiles: list[DangerTile]

    @classmethod
    def from_report(cls, report: DangerReport) -> DangerResult:
        """The result of a report, chances rounded to four decimals."""
        return cls.model_validate(result_fields(report))


def result_fields(report: DangerReport) -> dict[str, Any]:
    """The fields of :meth:`DangerResult.from_report`'s result as plain values, in the
    model's order: what its ``model_dump()`` gives (``--jsonl`` writes it straight to JSON;
    a test keeps the two the same)."""
    return {"discard": report.discard,
            "opponent_furiten": round(report.opponent_furiten, DIGITS),
            "tiles": [{"tile": t.tile, "danger": round(t.danger, DIGITS), "loss": t.loss,
                       "reasons": list(t.reasons)} for t in report.tiles]}


def danger_report(request: DangerRequest) -> DangerReport:
    """The report for one request; :class:`DangerRequestError` for a bad one."""
    return estimate(request.position(), request.opponent)


def danger_request(request: DangerRequest) -> DangerResult:
    """Answer one request; :class:`DangerRequestError` for a bad one."""
    return DangerResult.from_report(danger_report(request))


def danger_line(line: str, opponent: Opponent = DEFAULT_OPPONENT) -> str:
    """One ``--jsonl`` request in, its result's JSON out (``opponent`` for a request that names
    none); :class:`DangerRequestError` for a bad one."""
    try:
        request = DangerRequest.model_validate_json(line)
    except ValidationError as error:
        raise DangerRequestError(describe_request_error(error)) from None
    if "opponent" not in request.model_fields_set:
        request = request.model_copy(update={"opponent": opponent})
    # The result's JSON without building its models: the same bytes as
    # ``danger_request(request).model_dump_json()`` (a test keeps it so), for less.
    return orjson.dumps(result_fields(danger_report(request))).decode()
