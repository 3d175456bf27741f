"""The record's last line, written once the game has ended: how it ended (R11, R13, R18),
with a match's payments for a game of a match, and the revealed deal (R3, R5) (the format:
:mod:`minefield.records.format`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from minefield.records.format import hidden_args, tiles_in_order
from minefield.rules.game import FuritenCause, Game, Seat
from minefield.rules.match import Settlement
from minefield.rules.report import YakuEntry
from minefield.rules.tiles import Tile, parse_tiles, tiles_to_str
from minefield.rules.wall import DEAD_WALL_SIZE, DEAL_SIZE, tile_from_id

#: Where the dora and ura indicators lie in the dead wall string (R3).
DORA_INDEX, URA_INDEX = 2, 7 + 2


class FuritenBySeat(BaseModel):
    """Each seat's furiten cause at the end (R15), or None."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    east: FuritenCause | None
    west: FuritenCause | None


class RecordResult(BaseModel):
    """How the game ended (R11, R13, R18).

    ``discard`` is the number (1-34) of the discard that ended the game, for a ron and for a
    draw (always 34). A draw has no winner or tile, 0 points, han and fu, no limit, no yaku and
    0 dora and ura. ``aka`` (red fives, R1) is written only when it is not 0.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    kind: Literal["ron", "draw"]
    winner: Seat | None
    tile: str | None
    discard: int | None = Field(ge=1, le=34)
    points: int = Field(ge=0)
    han: int = Field(ge=0)
    fu: int = Field(ge=0)
    limit: str | None
    yaku: list[YakuEntry]
    dora: int = Field(ge=0)
    aka: int = Field(0, ge=0)
    ura: int = Field(ge=0)
    furiten: FuritenBySeat
    payments: dict[Seat, int] | None = None
    match_over: bool | None = None

    @model_serializer(mode="wrap")
    def _drop_zero_aka(self, handler: SerializerFunctionWrapHandler,
                       info: SerializationInfo) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if data.get("aka") == 0:
            del data["aka"]
        for key in ("payments", "match_over"):  # a game of a match only
            if key in data and data[key] is None:
                del data[key]
        return data

    @model_validator(mode="after")
    def _check_kind(self) -> RecordResult:
        if self.kind == "ron" and (self.winner is None or self.tile is None):
            raise ValueError("a ron needs a winner and a tile")
        if self.kind == "draw" and (self.winner is not None or self.tile is not None):
            raise ValueError("a draw has no winner and no tile")
        if (self.payments is None) != (self.match_over is None):
            raise ValueError("a game of a match has both payments and match_over")
        if self.payments is not None:
            if set(self.payments) != set(Seat):
                raise ValueError("the payments name both seats")
            if sum(self.payments.values()) != 0:
                raise ValueError("the payments do not sum to zero")
        return self

    def without_match(self) -> RecordResult:
        """This result without the match's additions (what replaying the game alone gives)."""
        return self.model_copy(update={"payments": None, "match_over": None})

    @classmethod
    def of_game(cls, game: Game, settlement: Settlement | None = None) -> RecordResult:
        """The result of an ended ``game``, with ``settlement``'s payments and match_over for
        a game of a match; ValueError if it has not ended."""
        end = game.result
        if end is None:
            raise ValueError("the game has not ended")
        value = end.value
        extra: dict[str, Any] = {}
        if settlement is not None:
            if settlement.result != end.result or settlement.winner != end.winner:
                raise ValueError("the settlement is not this game's")
            extra = {"payments": dict(settlement.payments),
                     "match_over": settlement.match_over}
        return cls(**extra,
            kind=end.result, winner=end.winner, tile=end.win_tile, discard=end.discard_number,
            points=value.points if value else 0, han=value.han if value else 0,
            fu=value.fu if value else 0, limit=value.limit if value else None,
            yaku=list(value.yaku) if value else [], dora=value.dora if value else 0,
            aka=value.aka if value else 0, ura=value.ura if value else 0,
            furiten=FuritenBySeat(east=end.furiten[Seat.EAST], west=end.furiten[Seat.WEST]),
        )


def _canonical(value: str, count: int, what: str, keep_order: bool = False) -> str:
    tiles = parse_tiles(value)
    if len(tiles) != count:
        raise ValueError(f"{what} has {len(tiles)} tiles, expected {count}")
    return tiles_in_order(tiles) if keep_order else tiles_to_str(tiles)


class RecordDeal(BaseModel):
    """The deal, revealed at the end: both seats' 34 tiles and the dead wall in order (R3, R5).

    Its repr hides the tiles (a traceback must not show them; the file itself is private).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    east: str
    west: str
    dora_indicator: str
    ura_indicator: str
    dead_wall: str

    @field_validator("east", "west")
    @classmethod
    def _check_seat_tiles(cls, value: str) -> str:
        return _canonical(value, DEAL_SIZE, "a seat's deal")

    @field_validator("dora_indicator", "ura_indicator")
    @classmethod
    def _check_indicator(cls, value: str) -> str:
        return _canonical(value, 1, "an indicator")

    @field_validator("dead_wall")
    @classmethod
    def _check_dead_wall(cls, value: str) -> str:
        return _canonical(value, DEAD_WALL_SIZE, "the dead wall", keep_order=True)

    @model_validator(mode="after")
    def _check_indicators(self) -> RecordDeal:
        dead = parse_tiles(self.dead_wall)
        if str(dead[DORA_INDEX]) != self.dora_indicator:
            raise ValueError(f"the dora indicator {self.dora_indicator} is not the dead wall's "
                             f"third tile ({dead[DORA_INDEX]}, R3)")
        if str(dead[URA_INDEX]) != self.ura_indicator:
            raise ValueError(f"the ura indicator {self.ura_indicator} is not the tile beneath "
                             f"the dora indicator ({dead[URA_INDEX]}, R3)")
        return self

    @classmethod
    def of_game(cls, game: Game) -> RecordDeal:
        """The deal of ``game`` (hidden information: write it only once the game has ended)."""
        red = game.settings.red_fives
        deal = game.deal

        def tiles(ids: tuple[int, ...]) -> list[Tile]:
            return [tile_from_id(i, red) for i in ids]

        return cls(east=tiles_to_str(tiles(deal.east_tiles)),
                   west=tiles_to_str(tiles(deal.west_tiles)),
                   dora_indicator=str(game.dora_indicator), ura_indicator=str(game.ura_indicator),
                   dead_wall=tiles_in_order(tiles(deal.dead_wall)))

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        yield from hidden_args(self, set(type(self).model_fields))

    def __repr__(self) -> str:
        return "RecordDeal(<tiles hidden>)"


class ResultLine(BaseModel):
    """The last line: the result and the revealed deal."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    result: RecordResult
    deal: RecordDeal

    @classmethod
    def of_game(cls, game: Game, settlement: Settlement | None = None) -> ResultLine:
        """The last line of an ended ``game`` (with ``settlement`` for a game of a match);
        ValueError if it has not ended."""
        return cls(result=RecordResult.of_game(game, settlement), deal=RecordDeal.of_game(game))


__all__ = [
    "DORA_INDEX",
    "URA_INDEX",
    "FuritenBySeat",
    "RecordDeal",
    "RecordResult",
    "ResultLine",
]
