"""The Session protocol: everything a screen needs from a game, wherever the game runs.

A session *pushes*: after :meth:`Session.open`, :meth:`Session.updates` yields
the :mod:`~minefield.protocol.messages` messages of the seats played at this terminal, whatever
happens (the opponent moves, a clock runs out, a link drops) while the local player is idle.
Commands go out with :meth:`Session.send` and come back as ``applied`` or ``rejected`` updates.
A screen knows the session only through its :class:`SessionTraits`, never whether the other
seat is a bot, a person at this keyboard or one far away.
"""

from __future__ import annotations

import traceback
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

from minefield.errors import MinefieldError
from minefield.protocol.messages import ServerMessageType
from minefield.rules.game import ChooseHand, Discard, Seat
from minefield.rules.settings import RuleSettings

if TYPE_CHECKING:  # the bots load only where one plays
    from minefield.bots.base import Level

SessionMode = Literal["practice", "hotseat", "network"]


@dataclass(frozen=True, slots=True)
class SessionTraits:
    """What a screen may know about a session, and nothing more.

    ``shared_screen``: both seats play at this keyboard (a curtain goes between them).
    ``hints_allowed``: the hand builder may offer the bot's best hand. ``resumable``: leaving
    does not end the game (it can be joined again). ``trainer_aids``: the defense trainer's
    danger overlay and discard feedback may be offered (practice; hot-seat when both players
    agreed; never a network game, where the other player would not have them).
    ``bot_level``: the level of the bot the local player faces (practice), None for a person;
    the trainer's estimate is fitted for it.
    """

    mode: SessionMode
    shared_screen: bool
    hints_allowed: bool
    resumable: bool
    trainer_aids: bool = False
    bot_level: Level | None = None


class Session(Protocol):
    """A game seen from this terminal. Implementations keep tiles out of their repr."""

    @property
    def traits(self) -> SessionTraits:
        """What kind of session this is, as far as screens may know."""
        ...

    @property
    def local_seats(self) -> tuple[Seat, ...]:
        """The seats played at this terminal, East first."""
        ...

    @property
    def settings(self) -> RuleSettings:
        """The rules of this game."""
        ...

    async def open(self) -> None:
        """Start: the first update of each local seat is a snapshot of its table."""
        ...

    def updates(self) -> AsyncIterator[ServerMessageType]:
        """Every message for the local seats, in order, until the session closes."""
        ...

    async def send(self, seat: Seat, command: ChooseHand | Discard,
                   command_id: str | None = None) -> str:
        """Play a local seat's command (its outcome arrives as an update); returns its id."""
        ...

    async def draft(self, seat: Seat, tiles: str) -> None:
        """The hand builder's current tiles (R25's automatic hand keeps them)."""
        ...

    async def close(self) -> None:
        """Leave: the updates end."""
        ...


@runtime_checkable
class MatchSession(Protocol):
    """A session that plays a whole match (R30): after each game the next one starts when
    :meth:`next_game` is called (over a network, once both players asked). The match's state
    arrives in every table's ``match``."""

    async def next_game(self) -> None:
        """Start (or, over a network, ask for) the match's next game."""
        ...


@runtime_checkable
class RoomSession(Protocol):
    """A network room's session: the code to share while the room waits for its second player
    (None once both are in), and a rematch asked for after a game."""

    code: str | None

    async def rematch(self) -> None:
        """After the game: ask for a rematch (or accept the other player's request)."""
        ...


@runtime_checkable
class ChosenPreset(Protocol):
    """A session that knows the rules preset its player chose (a local game: the new-game
    form's, ``--rules``'); a network game's arrives in a
    :class:`~minefield.protocol.messages.RulesChosen` update instead."""

    @property
    def preset(self) -> str | None:
        """The preset chosen (None: not said; it is guessed from the settings then)."""
        ...


@runtime_checkable
class SharedKeyboard(Protocol):
    """A session whose two seats share one keyboard (hot-seat): a seat's clock (R25) runs only
    once its player says they are at the keyboard."""

    async def at_keyboard(self, seat: Seat) -> None:
        """``seat``'s player is at the keyboard (the curtain between the players lifted)."""
        ...


class SeatFailed(MinefieldError):
    """The other seat (the bot; later a remote peer) failed.

    It keeps the failure's type and where it was raised (file, line, function), never its
    message, traceback or locals: those may hold that seat's hidden tiles, and this error is
    written to the error log and to the terminal.
    """

    def __init__(self, seat: Seat, kind: str, where: tuple[str, ...] = ()) -> None:
        self.seat = seat
        self.kind = kind
        self.where = where
        lines = [f"the {seat.value} seat failed with {kind}"]
        if where:
            lines += ["raised at (innermost last):", *(f"  {place}" for place in where)]
        super().__init__("\n".join(lines))

    @classmethod
    def of(cls, seat: Seat, error: BaseException) -> SeatFailed:
        """``error`` of ``seat`` reduced to its type name and the places it went through."""
        frames = traceback.extract_tb(error.__traceback__)
        return cls(seat, type(error).__qualname__,
                   tuple(f"{frame.filename}:{frame.lineno} in {frame.name}" for frame in frames))
