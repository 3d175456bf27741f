"""Difficulty levels (placeholder: every level plays like ``easy`` for now)."""

from __future__ import annotations

import random

from minefield.bots.base import LEVELS, Bot, Level
from minefield.rules.auto import auto_hand
from minefield.rules.game import ChooseHand, Discard, IllegalCommand, PlayerView
from minefield.rules.hand import Hand, waits
from minefield.rules.tiles import parse_tiles


class EasyBot:
    """Keeps a hand and discards a random tile that is not one of its own waits."""

    level: Level = "easy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def act(self, view: PlayerView) -> ChooseHand | Discard:
        """Its hand in phase 1, a discard in phase 2."""
        if view.phase == "choosing":
            return auto_hand(view)
        if view.phase != "discarding" or not view.own_hand:
            raise IllegalCommand("the bot has no move to make now")
        own_waits = set(waits(Hand.parse(view.own_hand).counts))
        pool = sorted(parse_tiles(view.own_pool))
        safe = [t for t in pool if t.kind not in own_waits] or pool
        return Discard(tile=str(self._rng.choice(safe)))


def make_bot(level: str, seed: int = 0) -> Bot:
    """A bot of ``level`` (easy, normal or strong), deterministic given ``seed``."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}: choose one of {', '.join(LEVELS)}")
    bot = EasyBot(seed)
    return bot
