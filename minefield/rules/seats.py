"""The two seats (R6), kept apart from :mod:`minefield.rules.game` (and pydantic) so that the
menu and the command line name a seat without loading the rules engine (the menu's first
frame waits for every import). :mod:`minefield.rules.game` re-exports :class:`Seat`: it is the
same class.

>>> Seat.EAST.other, Seat.WEST.wind
(<Seat.WEST: 'west'>, 29)
"""

from __future__ import annotations

from enum import StrEnum

from minefield.rules.tiles import EAST, WEST


class Seat(StrEnum):
    """The two seats (R6). East discards first."""

    EAST = "east"
    WEST = "west"

    @property
    def other(self) -> Seat:
        """The opponent's seat."""
        return Seat.WEST if self is Seat.EAST else Seat.EAST

    @property
    def wind(self) -> int:
        """The seat wind's tile kind (1z or 3z)."""
        return EAST if self is Seat.EAST else WEST

    def __str__(self) -> str:
        return self.value


__all__ = ["Seat"]
