"""The difficulty levels: each is a :class:`~minefield.bots.base.Bot` (a view in, a command out).

* ``easy``: a random tenpai hand, then a random discard that is not one of its own waits.
* ``normal``: the hand with the most live copies of waits it can win on, then a tile already
  discarded by either seat when there is one (genbutsu), else a random non-wait.
* ``strong``: the hand of highest expected value (:mod:`minefield.bots.hands`), its pool's
  danger included, then a planned discard (:func:`~minefield.bots.discards.planned_discard`):
  the most dangerous whole kinds are kept for the four tiles never discarded (R10) and the
  least dangerous of the others goes, by the bot's read of the calibrated estimate of
  :mod:`minefield.defense.fast` (:func:`~minefield.defense.fast.bot_dangers`: fitted on games
  against ``normal`` and ``strong`` together, since the bot cannot know whom it plays).

The first ``strong`` policies (before its planned discard) stay reachable as
:data:`PREVIOUS_STRONG` (for paired benchmarks only; no level plays them).

A bot's choices depend only on its seed and the view it is given (it never peeks):
every decision draws from a generator seeded by the seed and the view, so asking twice
gives the same answer.

>>> from minefield.rules.game import Game, Seat
>>> game = Game(seed=2)
>>> bot = make_bot("normal", seed=7)
>>> command = bot.act(game.view(Seat.WEST))
>>> command == make_bot("normal", seed=7).act(game.view(Seat.WEST))
True
"""

from __future__ import annotations

import random
from collections.abc import Callable

from minefield.bots.base import LEVELS, Bot, Level
from minefield.bots.discards import (
    DiscardSituation,
    genbutsu_discard,
    planned_discard,
    random_discard,
    safest_discard,
)
from minefield.bots.hands import (
    PREVIOUS_MODEL,
    DealtTiles,
    HandChoice,
    choose_best,
    choose_most_live,
    choose_random,
)
from minefield.rules.game import ChooseHand, Discard, IllegalCommand, PlayerView

HandPolicy = Callable[[DealtTiles, random.Random], HandChoice]
DiscardPolicy = Callable[[DiscardSituation, random.Random], Discard]

HAND_POLICIES: dict[Level, HandPolicy] = {
    "easy": choose_random,
    "normal": lambda deal, _rng: choose_most_live(deal),
    "strong": lambda deal, _rng: choose_best(deal),
}
DISCARD_POLICIES: dict[Level, DiscardPolicy] = {
    "easy": random_discard,
    "normal": genbutsu_discard,
    "strong": planned_discard,
}

#: The first ``strong``: the hand search of :data:`~minefield.bots.hands.PREVIOUS_MODEL`
#: and the discard of least :mod:`minefield.defense.danger` weight. For paired benchmarks
#: (``benchmarks/bench_defense.py``); no level plays it.
PREVIOUS_STRONG: tuple[HandPolicy, DiscardPolicy] = (
    lambda deal, _rng: choose_best(deal, PREVIOUS_MODEL),
    safest_discard,
)


class LevelBot:
    """A bot that plays one level's hand and discard policies."""

    def __init__(self, level: Level, seed: int = 0, hand_policy: HandPolicy | None = None,
                 discard_policy: DiscardPolicy | None = None) -> None:
        self.level: Level = level
        self._seed = seed  # private: in practice it is derived from the game's seed
        self._hand_policy = hand_policy or HAND_POLICIES[level]
        self._discard_policy = discard_policy or DISCARD_POLICIES[level]
        self._last_hand: tuple[str, ChooseHand] | None = None

    def __repr__(self) -> str:
        return f"LevelBot({self.level!r}, <seed hidden>)"

    def _rng(self, view: PlayerView) -> random.Random:
        rows = "|".join(",".join(view.discards[s]) for s in sorted(view.discards))
        return random.Random(f"{self._seed}:{view.seat}:{view.own_tiles}:{view.own_hand}:{rows}")

    def choose_hand(self, view: PlayerView) -> ChooseHand:
        """Phase 1: the 13 tiles to keep (the same answer for the same view, computed once)."""
        key = f"{view.seat}:{view.own_tiles}:{view.dora_indicator}"
        if self._last_hand is not None and self._last_hand[0] == key:
            return self._last_hand[1]
        deal = DealtTiles.from_view(view)
        choice = self._hand_policy(deal, self._rng(view))
        command = ChooseHand(tiles=deal.hand_tiles(choice.hand))
        self._last_hand = (key, command)
        return command

    def discard(self, view: PlayerView) -> Discard:
        """Phase 2: the tile to discard."""
        return self._discard_policy(DiscardSituation.from_view(view), self._rng(view))

    def act(self, view: PlayerView) -> ChooseHand | Discard:
        """The bot's command for this view: its hand in phase 1, a discard in phase 2."""
        if view.phase == "choosing":
            return self.choose_hand(view)
        if view.phase == "discarding":
            return self.discard(view)
        raise IllegalCommand("the game has ended: there is no move to make")


def previous_strong(seed: int = 0) -> LevelBot:
    """A ``strong`` bot playing the policies of :data:`PREVIOUS_STRONG` (the first ``strong``).

    >>> previous_strong(3).level
    'strong'
    """
    hand, discard = PREVIOUS_STRONG
    return LevelBot("strong", seed, hand_policy=hand, discard_policy=discard)


def make_bot(level: str, seed: int = 0) -> Bot:
    """A bot of ``level`` (easy, normal or strong), deterministic given ``seed`` and its views.

    >>> make_bot("strong", seed=3).level
    'strong'
    """
    for known in LEVELS:
        if level == known:
            return LevelBot(known, seed)
    raise ValueError(f"unknown bot level {level!r}: choose one of {', '.join(LEVELS)}")
