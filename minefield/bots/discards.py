"""Discard policies: which pool tile to give up, from one seat's view (R10, R13, R15, R26).

>>> from minefield.rules.game import Game, Seat
>>> from minefield.rules.auto import auto_hand
>>> game = Game(seed=4)
>>> for seat in Seat:
...     _ = game.apply(seat, auto_hand(game.view(seat)))
>>> table = DiscardSituation.from_view(game.view(Seat.EAST))
>>> len(table.pool), table.discards_made
(21, 0)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from minefield.bots.danger import DEFAULT_PRIORS, DangerPriors, tile_dangers
from minefield.rules.game import Discard, IllegalCommand, PlayerView
from minefield.rules.hand import Hand, waits
from minefield.rules.tiles import NUM_KINDS, Tile, dora_from_indicator, parse_tiles


@dataclass(frozen=True)
class DiscardSituation:
    """What one seat sees in phase 2, as counts (R26)."""

    seat_view: PlayerView
    pool: tuple[Tile, ...]
    own_counts: tuple[int, ...]
    own_waits: frozenset[int]
    opponent_discards: tuple[int, ...]
    safe: frozenset[int]
    dora_indicator: int

    @classmethod
    def from_view(cls, view: PlayerView) -> DiscardSituation:
        """Read a phase-2 view; :class:`IllegalCommand` when there is nothing to discard."""
        if view.phase != "discarding" or not view.own_hand:
            raise IllegalCommand("there is no discard to make now")
        pool = tuple(sorted(parse_tiles(view.own_pool), key=lambda t: (t.kind, not t.red)))
        if not pool:
            raise IllegalCommand("no tile left to discard")
        counts = [0] * NUM_KINDS
        for tile in parse_tiles(view.own_tiles):
            counts[tile.kind] += 1
        own_waits = frozenset(waits(Hand.parse(view.own_hand).counts))
        opponent = tuple(Tile.parse(t).kind for t in view.discards[view.seat.other])
        safe = frozenset(Tile.parse(t).kind for row in view.discards.values() for t in row)
        return cls(view, pool, tuple(counts), own_waits, opponent, safe,
                   Tile.parse(view.dora_indicator).kind)

    @property
    def discards_made(self) -> int:
        """Discards made so far by both seats."""
        return self.seat_view.discards_made

    @cached_property
    def unseen(self) -> list[int]:
        """Copies of each kind this seat cannot see: the only ones the opponent can hold."""
        unseen = [4 - n for n in self.own_counts]
        unseen[self.dora_indicator] -= 1
        for kind in self.opponent_discards:
            unseen[kind] -= 1
        return [max(0, n) for n in unseen]

    @property
    def dora(self) -> int:
        """The dora kind (R4)."""
        return dora_from_indicator(self.dora_indicator)

    def allowed(self) -> list[Tile]:
        """Pool tiles that are not own waits; every pool tile when there are none, or when the
        hand is already furiten (R15: then its waits no longer matter)."""
        if self.seat_view.own_furiten is not None:
            return list(self.pool)
        free = [t for t in self.pool if t.kind not in self.own_waits]
        return free or list(self.pool)

    def dangers(self, priors: DangerPriors = DEFAULT_PRIORS) -> list[float]:
        """The danger of each kind (see :mod:`minefield.bots.danger`)."""
        return tile_dangers(self.unseen, self.safe, self.dora, priors,
                            self.seat_view.seat.other.wind, self.opponent_discards)


def one_per_kind(tiles: Sequence[Tile]) -> list[Tile]:
    """One tile per kind (a plain five rather than the red one), so that every kind is equally
    likely to be drawn at random however many copies the pool holds."""
    seen: dict[int, Tile] = {}
    for tile in tiles:
        if tile.kind not in seen or seen[tile.kind].red:
            seen[tile.kind] = tile
    return list(seen.values())


def random_discard(table: DiscardSituation, rng: random.Random) -> Discard:
    """``easy``: any tile that is not an own wait."""
    return Discard(tile=str(rng.choice(one_per_kind(table.allowed()))))


def genbutsu_discard(table: DiscardSituation, rng: random.Random) -> Discard:
    """``normal``: a tile already discarded by either seat if there is one, else any tile that
    is not an own wait."""
    allowed = one_per_kind(table.allowed())
    safe = [t for t in allowed if t.kind in table.safe]
    return Discard(tile=str(rng.choice(safe or allowed)))


def safest_discard(table: DiscardSituation, rng: random.Random,
                   priors: DangerPriors = DEFAULT_PRIORS) -> Discard:
    """``strong``: the allowed tile of least danger; ties are broken at random."""
    danger = table.dangers(priors)
    allowed = one_per_kind(table.allowed())
    least = min(danger[t.kind] for t in allowed)
    best = [t for t in allowed if danger[t.kind] <= least + 1e-9]
    return Discard(tile=str(rng.choice(best)))
