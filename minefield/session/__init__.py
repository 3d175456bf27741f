"""Sessions: how the TUI reaches a game.

A screen never touches :class:`~minefield.rules.game.Game`: it reads the updates a
:class:`Session` pushes and sends its local seats' commands. :class:`LocalSession` runs the
engine in this process (hot-seat and practice against a bot); a network session takes its place
without any screen changing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minefield._lazy import lazy_exports

if TYPE_CHECKING:
    from minefield.session.base import (
        MatchSession,
        SeatFailed,
        Session,
        SessionMode,
        SessionTraits,
    )
    from minefield.session.local import LocalSession

#: Each exported name and its module, imported when the name is first used (PEP 562).
_EXPORTS = {
    "MatchSession": "minefield.session.base",
    "SeatFailed": "minefield.session.base",
    "Session": "minefield.session.base",
    "SessionMode": "minefield.session.base",
    "SessionTraits": "minefield.session.base",
    "LocalSession": "minefield.session.local",
}
if not TYPE_CHECKING:  # type checkers read the imports above
    __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

__all__ = ["LocalSession", "MatchSession", "SeatFailed", "Session", "SessionMode", "SessionTraits"]
