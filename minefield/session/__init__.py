"""Sessions: how the TUI reaches a game (ARCHITECTURE 4).

A screen never touches :class:`~minefield.rules.game.Game`: it reads the updates a
:class:`Session` pushes and sends its local seats' commands. :class:`LocalSession` runs the
engine in this process (hot-seat and practice against a bot); a network session takes its place
without any screen changing.
"""

from minefield.session.base import (
    MatchSession,
    SeatFailed,
    Session,
    SessionMode,
    SessionTraits,
)
from minefield.session.local import LocalSession

__all__ = ["LocalSession", "MatchSession", "SeatFailed", "Session", "SessionMode", "SessionTraits"]
