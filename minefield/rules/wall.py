"""The seeded wall, dead wall and deal (R1-R6).

The deal is derived from the 128-bit seed by SHAKE-256 (a cryptographic extendable-output
function): its output is the stream of a Fisher-Yates shuffle with rejection sampling. Knowing
one seat's 34 tiles gives no shortcut to the seed, and so none to the other seat's tiles or the
ura indicator (R2). The stream is fully specified, so a seed gives the same deal on every Python
forever: records and replays depend on it.

>>> deal = Deal.from_seed(7)
>>> len(deal.east_tiles), len(deal.west_tiles), len(deal.dead_wall)
(34, 34, 14)
>>> deal == Deal.from_seed("00000000000000000000000000000007")
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from minefield.rules.seed import parse_seed
from minefield.rules.tiles import FIVES, Tile, TileError

TOTAL_TILES = 136
DEAD_WALL_SIZE = 14
DEAL_SIZE = 34
#: Domain separation: a new shuffle scheme would get a new label (and old records keep theirs).
_DEAL_LABEL = b"minefield deal v2\x00"
_WORD = 4  # bytes per draw: 32-bit big-endian words


class ShakeStream:
    """Uniform integers from SHAKE-256 of a label and a seed (the deal's only source of chance).

    >>> ShakeStream(bytes(16)).below(136) == ShakeStream(bytes(16)).below(136)
    True
    """

    def __init__(self, seed: bytes, label: bytes = _DEAL_LABEL) -> None:
        self._xof = hashlib.shake_256(label + seed)
        self._buffer = b""
        self._position = 0

    def _word(self) -> int:
        if self._position + _WORD > len(self._buffer):
            # SHAKE's longer outputs extend its shorter ones, so reading more is a continuation.
            self._buffer = self._xof.digest(max(512, 2 * len(self._buffer)))
        word = int.from_bytes(self._buffer[self._position:self._position + _WORD], "big")
        self._position += _WORD
        return word

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        limit = (1 << 32) - ((1 << 32) % n)
        while True:
            value = self._word()
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

    seed: str
    east_tiles: tuple[int, ...]
    west_tiles: tuple[int, ...]
    dead_wall: tuple[int, ...]
    east_player: int

    @classmethod
    def from_seed(cls, seed: int | str) -> Deal:
        """Shuffle 136 tiles from ``seed`` (Fisher-Yates) and deal them (R2, R5, R6).

        ``seed`` is 32 hex digits or a small number (:func:`~minefield.rules.seed.parse_seed`).
        """
        seed = parse_seed(seed)
        rng = ShakeStream(bytes.fromhex(seed))
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
        return cls(seed=parse_seed(0), east_tiles=east_ids, west_tiles=west_ids, dead_wall=dead,
                   east_player=0)

    @property
    def dora_indicator_id(self) -> int:
        """R3: third tile of the top row."""
        return self.dead_wall[2]

    @property
    def ura_indicator_id(self) -> int:
        """R3: the tile beneath the dora indicator."""
        return self.dead_wall[7 + 2]

    def __repr__(self) -> str:
        return "Deal(<seed hidden>, <tiles hidden>)"
