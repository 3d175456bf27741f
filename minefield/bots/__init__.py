"""Minefield bots: hand search, discard policies and difficulty levels (issue 3).

>>> from minefield.rules.game import Game, Seat
>>> bot = make_bot("easy", seed=1)
>>> bot.act(Game(seed=1).view(Seat.EAST)).type
'choose_hand'
"""

from __future__ import annotations

from minefield.bots.base import LEVELS, Bot, Level
from minefield.bots.levels import make_bot

__all__ = ["LEVELS", "Bot", "Level", "make_bot"]
