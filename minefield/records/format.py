"""The game record format: one JSONL file per game.

A record has three kinds of line, each one JSON object:

1. the header, line 1: ``{"record": "minefield", "version": 1, "seed": ..., "rules": {...},
   "mode": ..., "players": {"east": ..., "west": ...}, "started": ...}``
   (:class:`~minefield.records.header.RecordHeader`);
2. one line per accepted command: ``{"seq": 1, "seat": "east", "command": {"type":
   "choose_hand", "tiles": ...}, "at": ...}`` (``seq`` counts from 1; :class:`CommandLine`);
3. once the game has ended, the result and the revealed deal: ``{"result": {...},
   "deal": {...}}`` (:class:`~minefield.records.result.ResultLine`).

A game of a match (R30-R35) has two additions. The header gets ``"match": {"id": ...,
"game": 3, "players": {"east": ..., "west": ...}, "dealer_streak": 1, "honba": 1, "scores":
{"<name>": 25000, "<name>": 25000}}``, the match before the game
(:class:`~minefield.records.header.MatchHeader`), with three extension keys: ``seed`` (the
match seed, hidden in every repr: it deals every game), ``hand`` (the hand number, R30) and
``terms`` (the game's :class:`~minefield.rules.game.GameTerms`). The result gets
``"payments": {"east": 9000, "west": -9000}`` (counter sticks and draw payments included) and
``"match_over": true | false``. Both are absent from a single game's record.

A network game's header also says what table it was played at: ``"table": {"kind":
"public", "rated": true}`` (:class:`~minefield.records.header.TableHeader`; ``"tournament":
NAME`` for a game of a tournament). Records written before tables were rated or casual lack it
(they were rated). A network game that follows another at the same table (a rematch, a
match's next game) names it: ``"follows": "<game id>"`` (the record's name without its
suffix); a table's first game, and every record written before games were linked, has none.

Times are ISO 8601 in UTC (``2025-01-02T03:04:05.678Z``); tiles are mpsz. The dead wall is
written tile by tile in its order (``"1m5p7z..."``, each tile with its own suit letter, which
:func:`~minefield.rules.tiles.parse_tiles` reads back in order): the top row of seven, then the
row beneath, so index 2 is the dora indicator and index 9 the ura indicator (R3).

Every model forbids unknown keys; a later version may add optional keys with defaults, which
old files simply lack. Models that hold the seed or hidden tiles never show them in a repr.

This module holds what every line shares (the clock of records, tiles in order, hidden reprs,
:func:`dump_line`) and the command line; the header is :mod:`minefield.records.header`, the
last line :mod:`minefield.records.result`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from minefield.rules.game import Command, Seat
from minefield.rules.tiles import Tile

if TYPE_CHECKING:
    from minefield.records.header import RecordHeader
    from minefield.records.result import ResultLine

#: The longest line a record may have (a real one is under 2 KiB); the reader skips longer ones.
MAX_LINE_BYTES = 64 * 1024


def utc_now() -> datetime:
    """The current time in UTC, to the millisecond (the clock of records)."""
    return _to_utc(datetime.now(UTC))


def _to_utc(value: datetime) -> datetime:
    # Milliseconds, as written: a time read back equals the time written.
    value = value.astimezone(UTC)
    return value.replace(microsecond=value.microsecond // 1000 * 1000)


def format_time(value: datetime) -> str:
    """ISO 8601 in UTC with milliseconds: ``2025-01-02T03:04:05.678Z``."""
    return _to_utc(value).isoformat(timespec="milliseconds").replace("+00:00", "Z")


UtcTime = Annotated[AwareDatetime, AfterValidator(_to_utc), PlainSerializer(format_time)]
"""A timezone-aware time, kept in UTC and written as :func:`format_time` does."""


def tiles_in_order(tiles: Iterable[Tile]) -> str:
    """Tiles one by one, each with its suit letter, keeping their order: ``'1m5p7z1m'``."""
    return "".join(str(tile) for tile in tiles)


def hidden_args(model: BaseModel, hidden: set[str]) -> Iterator[tuple[str | None, Any]]:
    """The fields of ``model`` for its repr, each named in ``hidden`` shown as ``<hidden>``."""
    for name in type(model).model_fields:
        yield name, "<hidden>" if name in hidden else getattr(model, name)


#: A client's id for a command (the wire's ``command_id``), as a record keeps it.
CommandId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]


class CommandLine(BaseModel):
    """One accepted command: its number in the game (from 1), the seat and when.

    Two keys are optional and left out when they do not apply (older records never have
    them): ``command_id``, the id the player's client sent the command with (network games:
    a restarted daemon still knows which ids it applied), and ``automatic``, true for a move
    played for the seat when its clock ran out (R25, R25b), never by the player.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    seq: int = Field(ge=1)
    seat: Seat
    command: Command
    at: UtcTime
    command_id: CommandId | None = None
    automatic: bool = False

    @model_serializer(mode="wrap")
    def _drop_defaults(self, handler: SerializerFunctionWrapHandler,
                       info: SerializationInfo) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if data.get("command_id", False) is None:
            del data["command_id"]
        if data.get("automatic", True) is False:
            del data["automatic"]
        return data


def dump_line(line: RecordHeader | CommandLine | ResultLine) -> bytes:
    """One line of a record: compact JSON and a newline, UTF-8."""
    return line.model_dump_json().encode() + b"\n"


__all__ = [
    "MAX_LINE_BYTES",
    "CommandLine",
    "UtcTime",
    "dump_line",
    "format_time",
    "hidden_args",
    "tiles_in_order",
    "utc_now",
]
