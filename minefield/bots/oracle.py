"""An all-seeing defender: a measuring stick for the discard policies, never a playing level.

Every bot a player meets is a seat like a human: it gets a view and never peeks.
This one does: it reads the opponent's hand from the :class:`~minefield.rules.game.Game`
itself, so it knows which of its pool tiles would be won on. Its deal-in rate is the floor the
real policies are measured against (``benchmarks/bench_defense.py``), and defence drills can use
it to show the best discard in hindsight. It is not in :data:`~minefield.bots.base.LEVELS` and
:func:`~minefield.bots.levels.make_bot` never builds it.

Its choice, among one tile of each kind of its pool:

1. a tile the opponent waits on but cannot win with (below mangan, R14), which freezes the
   opponent's hand for ever (R15b), unless it is one of its own waits;
2. else a tile the opponent does not win on, keeping its own waits (R15a);
3. else a tile the opponent does not win on, even one of its own waits (furiten beats dealing
   in);
4. else any tile: five or more winning tiles among 21 (R10) force a deal-in.

Within a step it takes the least dangerous tile by :mod:`minefield.defense.danger`, as ``strong``
does (ties drawn at random).

>>> import random
>>> from minefield.bots.discards import DiscardSituation
>>> from minefield.rules.prepared import game_with_hands
>>> from minefield.rules.tiles import Tile
>>> game = game_with_hands("23m456m345p678s55s", "123m456p789s3332z", east_pool="2z",
...                        dora="9m")
>>> table = DiscardSituation.from_view(game.view(Seat.EAST))
>>> Tile.parse("2z") in table.pool
True
>>> oracle_discard(game, Seat.EAST)(table, random.Random(1)).tile
'4z'

West waits on 2z alone, and a ron on East's first discard has ippatsu (R16): riichi, ippatsu
and West's wind are 4 han 40 fu, a mangan. East keeps its 2z.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from minefield.bots.discards import DiscardSituation, one_per_kind
from minefield.bots.levels import DiscardPolicy
from minefield.rules.game import Discard, Game, Seat, ron_context
from minefield.rules.score import score_win


def oracle_discard(game: Game, seat: Seat) -> DiscardPolicy:
    """The all-seeing discard policy of ``seat`` in ``game`` (see the module docstring).

    It peeks at ``game`` each time it is asked, so it follows the game as it is played; pass it
    as ``discard_policy`` of a :class:`~minefield.bots.levels.LevelBot`.
    """

    def choose(table: DiscardSituation, rng: random.Random) -> Discard:
        opponent = seat.other
        hand = game.hand_of(opponent)
        winning: set[int] = set()
        freezing: set[int] = set()
        if hand is not None and game.furiten_of(opponent) is None:
            number = game.discard_count + 1
            ctx = ron_context(opponent, number, game.dora_indicator.kind,
                              game.ura_indicator.kind)
            for wait in game.waits_of(opponent):
                value = score_win(hand, wait, ctx, game.settings)
                (winning if value is not None and value.eligible else freezing).add(wait)
        own = table.own_waits if table.seat_view.own_furiten is None else frozenset()
        pool = one_per_kind(table.pool)
        danger = table.dangers()
        preferences: tuple[Callable[[int], bool], ...] = (
            lambda kind: kind in freezing and kind not in own,
            lambda kind: kind not in winning and kind not in own,
            lambda kind: kind not in winning,
        )
        for wanted in preferences:
            choice = [t for t in pool if wanted(t.kind)]
            if choice:
                least = min(danger[t.kind] for t in choice)
                return Discard(tile=str(rng.choice(
                    [t for t in choice if danger[t.kind] <= least + 1e-9])))
        return Discard(tile=str(rng.choice(pool)))

    return choose
