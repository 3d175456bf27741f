"""The hand a bot keeps from 34 tiles, as a request and a result (``minefield bot-hand``).

>>> request = BotHandRequest(tiles="123456789m123456789p123456789s1234567z", level="easy")
>>> bot_hand(request)[0].tenpai
True
"""

from __future__ import annotations

import random

from pydantic import BaseModel, ConfigDict, ValidationError

from minefield.bots.base import Level
from minefield.bots.hands import DealtTiles
from minefield.bots.levels import HAND_POLICIES
from minefield.rules.game import Seat
from minefield.rules.hand import Hand
from minefield.rules.report import WaitReport
from minefield.rules.request import (
    RED_FIVES_UNUSED,
    RequestError,
    describe_request_error,
    rules_preset,
)
from minefield.rules.score import analyze
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import Tile, TileError, parse_tiles


class BotHandRequest(BaseModel):
    """One ``bot-hand`` request (a ``--jsonl`` line or the command's arguments)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tiles: str
    seat: Seat = Seat.EAST
    dora: str | None = None
    level: Level = "strong"
    rules: str = "standard"


class BotHandResult(BaseModel):
    """The hand a bot keeps: its waits exactly as ``minefield analyze`` reports them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    hand: str
    tenpai: bool
    waits: list[WaitReport]
    candidates: int


class BotHandError(RequestError):
    """A request that cannot be answered; the message says what is wrong."""


def bot_hand(request: BotHandRequest, settings: RuleSettings | None = None
             ) -> tuple[BotHandResult, DealtTiles]:
    """The hand the bot of ``request.level`` keeps from the 34 tiles, under ``settings``
    (default: the preset ``request.rules`` names; East is paid dealer values under
    ``dealer_bonus``, R23)."""
    if settings is None:
        settings = rules_preset(request.rules, BotHandError)
    try:
        tiles = parse_tiles(request.tiles)
    except TileError as error:
        raise BotHandError(f"tiles: {error}") from None
    if any(t.red for t in tiles) and not settings.red_fives:
        raise BotHandError(f"tiles: {RED_FIVES_UNUSED}")
    indicator = None
    if request.dora is not None and request.dora.lower() != "none":
        try:
            tile = Tile.parse(request.dora)
        except TileError as error:
            raise BotHandError(f"dora indicator: {error}") from None
        if tile.red and not settings.red_fives:
            raise BotHandError(f"dora indicator: {RED_FIVES_UNUSED}")
        indicator = tile.kind
    try:
        deal = DealtTiles.from_tiles(tiles, indicator, request.seat, settings)
    except TileError as error:
        raise BotHandError(f"tiles: {error}") from None
    choice = HAND_POLICIES[request.level](deal, random.Random(0))
    hand = Hand.parse(deal.hand_tiles(choice.hand))
    reports = [WaitReport.from_value(v) for v in analyze(hand, deal.context, settings)]
    result = BotHandResult(hand=str(hand), tenpai=bool(reports), waits=reports,
                           candidates=choice.candidates)
    return result, deal


def bot_hand_line(line: str) -> str:
    """One ``--jsonl`` request in, its result's JSON out; :class:`BotHandError` for a bad one."""
    try:
        request = BotHandRequest.model_validate_json(line)
    except ValidationError as error:
        raise BotHandError(describe_request_error(error)) from None
    return bot_hand(request)[0].model_dump_json()
