"""Messages that screens post up to the app: intents, never changes to the game.

Only the app turns them into session commands.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.message import Message

from minefield.rules.seats import Seat

if TYPE_CHECKING:  # the rules and the wire models load with the first game, not with the menu
    from minefield.protocol.messages import ServerMessageType
    from minefield.rules.game import ChooseHand, Discard
    from minefield.tui.games import GameRequest


class TableIntent(Message):
    """What a player wants of the game on the table; the app hands every one to its
    :class:`~minefield.tui.table_controller.TableController`."""


@dataclass
class CommandChosen(TableIntent):
    """A local player chose their hand or a discard."""

    seat: Seat
    command: ChooseHand | Discard

    def __repr__(self) -> str:
        return f"CommandChosen(seat={self.seat.value}, <command hidden>)"


@dataclass
class DraftChanged(TableIntent):
    """The hand builder's choice changed (the clock's automatic hand keeps it, R25)."""

    seat: Seat
    tiles: str

    def __repr__(self) -> str:
        return f"DraftChanged(seat={self.seat.value}, <tiles hidden>)"


@dataclass
class TurnPassed(TableIntent):
    """Hot-seat: the player who just discarded hands the keyboard over."""

    seat: Seat


@dataclass
class CurtainLifted(TableIntent):
    """Hot-seat: the next player is at the keyboard."""

    seat: Seat


@dataclass
class NewGameRequested(Message):
    """Start a game: ``mode`` is ``practice`` or ``hotseat``; ``again`` repeats the last one."""

    mode: str
    again: bool = False


@dataclass
class GameChosen(Message):
    """The menu's form chose a new game."""

    request: GameRequest


class NextGameRequested(TableIntent):
    """A match's game has ended: start its next game (R30)."""


class MenuRequested(Message):
    """Leave the game (if any) and go back to the menu."""


@dataclass
class SessionUpdate(Message):
    """One update pushed by the game's session, delivered on the app's loop.

    ``table`` is the controller that read it (an update of a game already left is dropped).
    """

    table: Any
    update: ServerMessageType

    def __repr__(self) -> str:
        return f"SessionUpdate({self.update.type}, <tiles hidden>)"

    def __rich_repr__(self) -> Iterator[Any]:
        yield "type", self.update.type
        yield "tiles", "<hidden>"
