"""The seat interface every bot implements: a view in, a command out (ARCHITECTURE 5).

A bot never peeks: it gets the same :class:`~minefield.rules.game.PlayerView` a human gets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:  # the level names are read by the command line before any game is loaded
    from minefield.rules.game import ChooseHand, Discard, PlayerView

Level = Literal["easy", "normal", "strong"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "strong")


class Bot(Protocol):
    """A seat played by the computer."""

    level: Level

    def act(self, view: PlayerView) -> ChooseHand | Discard:
        """The bot's command for this view: its hand in phase 1, a discard in phase 2."""
        ...
