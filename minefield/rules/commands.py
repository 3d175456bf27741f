"""What a seat tells the game (R7, R10), and the two ways the game refuses it.

A command is a pydantic model: :class:`ChooseHand` (phase 1) or :class:`Discard` (phase 2).
Strings and dicts become commands at the edges (:func:`parse_command`, :func:`parse_seat`),
where a malformed one is an :class:`InvalidCommand`; :meth:`Game.apply
<minefield.rules.game.Game.apply>` takes only typed commands and refuses a well-formed one
that the rules do not allow now with an :class:`IllegalCommand`. Both are
:class:`CommandError`, and neither changes the game.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from minefield.errors import MinefieldError
from minefield.rules.hand import HAND_SIZE
from minefield.rules.seats import Seat
from minefield.rules.settings import describe_validation_error
from minefield.rules.tiles import parse_tiles, tiles_to_str


class CommandError(MinefieldError, ValueError):
    """A command the game does not apply (either kind below); the game state is unchanged."""


class InvalidCommand(CommandError):
    """A command that is malformed: not a command at all, an unknown field, tiles that are not
    tiles, a seat that is not a seat. Said where it is read (a record, the wire, a form)."""


class IllegalCommand(CommandError):
    """A well-formed command that is not allowed now (the game's rules refuse it)."""


def _canonical_tiles(value: str, expected: int | None) -> str:
    tiles = parse_tiles(value)
    if expected is not None and len(tiles) != expected:
        raise ValueError(f"hand has {len(tiles)} tiles, expected {expected}")
    return tiles_to_str(tiles)


class ChooseHand(BaseModel):
    """Phase 1: keep these 13 of your 34 tiles as your hand (R7)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    type: Literal["choose_hand"] = "choose_hand"
    tiles: str

    @field_validator("tiles")
    @classmethod
    def _check_tiles(cls, value: str) -> str:
        return _canonical_tiles(value, HAND_SIZE)

    def __repr__(self) -> str:
        return "ChooseHand(<tiles hidden>)"

    def __rich_repr__(self) -> Iterator[Any]:
        yield "tiles", "<hidden>"


class Discard(BaseModel):
    """Phase 2: discard one tile of your pool (R10)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    type: Literal["discard"] = "discard"
    tile: str

    @field_validator("tile")
    @classmethod
    def _check_tile(cls, value: str) -> str:
        return _canonical_tiles(value, 1)


Command = Annotated[ChooseHand | Discard, Field(discriminator="type")]
COMMAND_ADAPTER: TypeAdapter[ChooseHand | Discard] = TypeAdapter(
    Command, config=ConfigDict(defer_build=True))


def parse_command(data: Any) -> ChooseHand | Discard:
    """A command from a dict or a JSON string; :class:`InvalidCommand` if malformed.

    >>> parse_command({"type": "discard", "tile": "0m"})
    Discard(type='discard', tile='0m')
    >>> parse_command('{"type": "discard", "tile": "10m"}')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    minefield.rules.commands.InvalidCommand: command field 'discard.tile': ... expected 1
    """
    try:
        if isinstance(data, (str, bytes)):
            return COMMAND_ADAPTER.validate_json(data)
        return COMMAND_ADAPTER.validate_python(data)
    except ValidationError as error:
        raise InvalidCommand(describe_validation_error(error, "command field")) from None


def parse_seat(text: Seat | str) -> Seat:
    """A seat from its name; :class:`InvalidCommand` if it names none.

    >>> parse_seat("west")
    <Seat.WEST: 'west'>
    >>> parse_seat("north")
    Traceback (most recent call last):
    ...
    minefield.rules.commands.InvalidCommand: 'north' is not a seat: use east or west
    """
    try:
        return Seat(text)
    except ValueError:
        raise InvalidCommand(f"{text!r} is not a seat: use east or west") from None


__all__ = ["COMMAND_ADAPTER", "ChooseHand", "Command", "CommandError", "Discard",
           "IllegalCommand", "InvalidCommand", "parse_command", "parse_seat"]
