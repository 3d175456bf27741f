"""Sessions: how the TUI reaches a game (ARCHITECTURE 4).

A screen never touches :class:`~minefield.rules.game.Game`: it asks a :class:`Session` for the
view of a seat and sends that seat's commands. :class:`LocalSession` runs the engine in this
process (hot-seat and practice against a bot); a network session can take its place without any
screen changing.
"""

from minefield.session.base import Session, SessionMode
from minefield.session.local import LocalSession

__all__ = ["LocalSession", "Session", "SessionMode"]
