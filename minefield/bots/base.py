"""The seat interface every bot implements: a view in, a command out.

A bot never peeks: it gets the same :class:`~minefield.rules.game.PlayerView` a human gets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:  # the level names are read by the command line before any game is loaded
    from minefield.records.header import RecordHeader
    from minefield.rules.game import ChooseHand, Discard, PlayerView, Seat

Level = Literal["easy", "normal", "strong"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "strong")


def bot_name(level: str) -> str:
    """How a bot of ``level`` is called at the table and in records: ``Bot (normal)``."""
    return f"Bot ({level})"


#: Each bot's name and its level, for reading a name back (a record's players).
_LEVEL_OF_NAME: dict[str, Level] = {bot_name(level): level for level in LEVELS}


def bot_level(name: str) -> Level | None:
    """The level of the bot called ``name`` (None: not a bot's name).

    >>> bot_level("Bot (strong)"), bot_level("Bot (wizard)"), bot_level("bob")
    ('strong', None, None)
    """
    return _LEVEL_OF_NAME.get(name)


def player_seat(header: RecordHeader) -> Seat:
    """The seat of the record's player: in a practice game the human's (the other is the bot),
    else East (a replay and a review open from it)."""
    from minefield.rules.game import Seat

    if header.mode == "practice":
        for seat in Seat:
            if bot_level(header.players.of(seat)) is None:
                return seat
    return Seat.EAST


class Bot(Protocol):
    """A seat played by the computer."""

    level: Level

    def act(self, view: PlayerView) -> ChooseHand | Discard:
        """The bot's command for this view: its hand in phase 1, a discard in phase 2."""
        ...
