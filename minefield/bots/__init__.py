"""Minefield bots: hand search, discard policies and difficulty levels.

>>> from minefield.bots import make_bot
>>> from minefield.rules.game import Game, Seat
>>> bot = make_bot("easy", seed=1)
>>> bot.act(Game(seed=1).view(Seat.EAST)).type
'choose_hand'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minefield._lazy import lazy_exports

if TYPE_CHECKING:
    from minefield.bots.base import LEVELS, Bot, Level
    from minefield.bots.levels import make_bot

#: Each exported name and its module, imported when the name is first used (PEP 562).
_EXPORTS = {
    "LEVELS": "minefield.bots.base",
    "Bot": "minefield.bots.base",
    "Level": "minefield.bots.base",
    "make_bot": "minefield.bots.levels",
}
if not TYPE_CHECKING:  # type checkers read the imports above
    __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

__all__ = ["LEVELS", "Bot", "Level", "make_bot"]
