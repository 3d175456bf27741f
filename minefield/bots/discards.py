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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

from minefield.defense.danger import DEFAULT_PRIORS, DangerPriors, tile_dangers
from minefield.defense.fast import bot_dangers
from minefield.defense.position import Position
from minefield.rules.game import NEVER_DISCARDED, Discard, IllegalCommand, PlayerView
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
        """The danger of each kind (see :mod:`minefield.defense.danger`)."""
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


# ---------------------------------------------------------------------------------------------
# The planned discard (``strong``): keep the most dangerous whole kinds, discard the safest first

DangerSource = Callable[[DiscardSituation], Sequence[float]]


def heuristic_dangers(table: DiscardSituation) -> list[float]:
    """The danger weights of :mod:`minefield.defense.danger` (relative, not chances)."""
    return table.dangers()


def calibrated_dangers(table: DiscardSituation) -> list[float]:
    """The chance that each kind deals in now, by the bot's read of the calibrated fast
    estimate (:func:`minefield.defense.fast.bot_dangers`: fitted on games against ``normal``
    and ``strong`` together), from this seat's view only (R26)."""
    return list(bot_dangers(Position.from_view(table.seat_view)))


def keep_plan(copies: Sequence[int], danger: Sequence[float], capacity: int
              ) -> frozenset[int]:
    """The kinds to keep to the end of the game: whole kinds whose copies add up to at most
    ``capacity``, of the greatest total danger.

    A kind costs its danger once, when its first copy is discarded: if it passes, its other
    copies are safe for ever (R13, R15). So keeping two copies of a kind whose other copy must
    go anyway is a waste of the never-discarded places (R10), and keeping four copies of one
    dangerous kind can save more than keeping four single kinds. Kinds of no danger are never
    kept. Ties go to the lower kinds (the answer is the same for the same input).

    >>> from minefield.rules.tiles import NUM_KINDS
    >>> copies, danger = [0] * NUM_KINDS, [0.0] * NUM_KINDS
    >>> copies[0], danger[0] = 4, 0.3            # 1m four times
    >>> for kind in (9, 10, 11, 12):            # 1p 2p 3p 4p once each
    ...     copies[kind], danger[kind] = 1, 0.25
    >>> sorted(keep_plan(copies, danger, 4))
    [9, 10, 11, 12]
    >>> danger[0] = 1.1
    >>> sorted(keep_plan(copies, danger, 4))
    [0]
    """
    best: list[tuple[float, frozenset[int]]] = [(0.0, frozenset())] * (capacity + 1)
    for kind in range(len(copies)):
        size = copies[kind]
        if not size or size > capacity or danger[kind] <= 0:
            continue
        for room in range(capacity, size - 1, -1):
            value, kept = best[room - size]
            if value + danger[kind] > best[room][0] + 1e-12:
                best[room] = (value + danger[kind], kept | {kind})
    return max(best, key=lambda entry: entry[0])[1]


def planned_discard(table: DiscardSituation, rng: random.Random,
                    dangers: DangerSource = calibrated_dangers) -> Discard:
    """``strong``: plan which pool tiles are never discarded, then discard the safest of the
    others.

    The four tiles that stay (R10) are the own waits first (discarding one is furiten, R15a),
    then the whole kinds of greatest danger that fit (:func:`keep_plan`). Of the tiles left to
    discard it takes the one of least danger (ties at random): information only grows, a game
    that ends early never makes its late discards, and the plan is made again every turn.
    """
    danger = dangers(table)
    furiten = table.seat_view.own_furiten is not None
    copies = [0] * NUM_KINDS
    for tile in table.pool:
        copies[tile.kind] += 1
    guarded = frozenset() if furiten else table.own_waits
    capacity = NEVER_DISCARDED - sum(copies[k] for k in guarded)
    free = [n if k not in guarded else 0 for k, n in enumerate(copies)]
    kept = keep_plan(free, danger, capacity) if capacity > 0 else frozenset()
    allowed = one_per_kind(table.allowed())
    candidates = [t for t in allowed if t.kind not in kept] or allowed
    least = min(danger[t.kind] for t in candidates)
    best = [t for t in candidates if danger[t.kind] <= least + 1e-12]
    return Discard(tile=str(rng.choice(best)))
