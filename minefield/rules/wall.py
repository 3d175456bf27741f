"""The seeded wall, dead wall and deal (R1-R6).

The shuffle uses its own small generator (splitmix64), not :mod:`random`, so that a seed gives
the same deal on every Python version forever: records and replays depend on it (R2).

>>> deal = Deal.from_seed(7)
>>> len(deal.east_tiles), len(deal.west_tiles), len(deal.dead_wall)
(34, 34, 14)
>>> deal == Deal.from_seed(7)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from minefield.rules.tiles import FIVES, Tile, TileError

TOTAL_TILES = 136
DEAD_WALL_SIZE = 14
DEAL_SIZE = 34
_MASK = (1 << 64) - 1


class SplitMix64:
    """A tiny, fully specified 64-bit generator (Steele, Lea and Flood's splitmix64)."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next()
            if value < limit:
                return value % n


def tile_from_id(tile_id: int, red_fives: bool) -> Tile:
    """Physical tile ``0..135``: kind ``id // 4``; copy 0 of each five is red when enabled (R1)."""
    kind = tile_id // 4
    return Tile(kind, red=red_fives and kind in FIVES and tile_id % 4 == 0)


@dataclass(frozen=True, slots=True)
class Deal:
    """The shuffled wall of one game: both players' 34 tiles and the dead wall.

    The dead wall is two rows of seven (R3): ``dead_wall[0:7]`` the top row and
    ``dead_wall[7:14]`` the one beneath. The dora indicator is the third tile of the top row,
    the ura indicator the tile beneath it.
    """

    seed: int
    east_tiles: tuple[int, ...]
    west_tiles: tuple[int, ...]
    dead_wall: tuple[int, ...]
    east_player: int

    @classmethod
    def from_seed(cls, seed: int) -> Deal:
        """Shuffle 136 tiles from ``seed`` (Fisher-Yates) and deal them (R2, R5, R6)."""
        rng = SplitMix64(seed)
        wall = list(range(TOTAL_TILES))
        for i in range(TOTAL_TILES - 1, 0, -1):
            j = rng.below(i + 1)
            wall[i], wall[j] = wall[j], wall[i]
        east_player = rng.below(2)
        return cls(
            seed=seed,
            east_tiles=tuple(wall[:DEAL_SIZE]),
            west_tiles=tuple(wall[DEAL_SIZE:2 * DEAL_SIZE]),
            dead_wall=tuple(wall[-DEAD_WALL_SIZE:]),
            east_player=east_player,
        )

    @classmethod
    def from_tiles(cls, east: Sequence[Tile], west: Sequence[Tile], dora_indicator: Tile,
                   ura_indicator: Tile, red_fives: bool = False) -> Deal:
        """A prepared deal (tests, puzzles): 34 tiles each and the two indicators.

        Raises :class:`TileError` when the tiles are not 34 each or use more than exist.
        """
        if len(east) != DEAL_SIZE or len(west) != DEAL_SIZE:
            raise TileError(f"a deal needs {DEAL_SIZE} tiles each, got {len(east)} and {len(west)}")
        free = list(range(TOTAL_TILES))

        def take(tile: Tile) -> int:
            for tile_id in free:
                if tile_from_id(tile_id, red_fives) == tile:
                    free.remove(tile_id)
                    return tile_id
            raise TileError(f"no copy of {tile} is left for this deal")

        east_ids = tuple(take(t) for t in east)
        west_ids = tuple(take(t) for t in west)
        dora_id, ura_id = take(dora_indicator), take(ura_indicator)
        rest = free[:DEAD_WALL_SIZE - 2]
        dead = (*rest[:2], dora_id, *rest[2:6], *rest[6:8], ura_id, *rest[8:12])
        return cls(seed=0, east_tiles=east_ids, west_tiles=west_ids, dead_wall=dead, east_player=0)

    @property
    def dora_indicator_id(self) -> int:
        """R3: third tile of the top row."""
        return self.dead_wall[2]

    @property
    def ura_indicator_id(self) -> int:
        """R3: the tile beneath the dora indicator."""
        return self.dead_wall[7 + 2]

    def __repr__(self) -> str:
        return f"Deal(seed={self.seed}, <tiles hidden>)"
