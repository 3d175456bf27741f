"""Prepared deals and games: the caller chooses every tile (tests, drills, benchmarks).

A seeded game deals from its seed (R2); these build the same :class:`Game` from tiles written
in mpsz notation, so that a test or a drill knows what each seat holds.

* :func:`deal_from_tiles`: the 34 tiles of each seat and the two indicators;
* :func:`game_from_tiles`: a game of such a deal, in phase 1 (hands not chosen yet);
* :func:`choose_hands`: both seats choose the given hands, the game is in phase 2;
* :func:`game_with_hands`: a game in phase 2 from the two hands alone, the pools filled up
  with tiles that are waits of neither hand (so that no discard is an accidental ron).

>>> from minefield.rules.tiles import kinds_to_str
>>> game = game_with_hands("23m456m345p678s55s", "123m456p789s3332z", east_pool="1m", dora="2m")
>>> game.phase, game.turn, kinds_to_str(game.waits_of(Seat.EAST))
('discarding', <Seat.EAST: 'east'>, '147m')
"""

from __future__ import annotations

from minefield.rules.game import POOL_SIZE, ChooseHand, Game, Seat
from minefield.rules.hand import Hand, waits
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import NUM_KINDS, Tile, parse_tiles, tiles_to_str
from minefield.rules.wall import Deal


def deal_from_tiles(east: str, west: str, dora: str, ura: str, red_fives: bool = False) -> Deal:
    """A deal of 34 given tiles per seat and the dora and ura indicators (R3, R5).

    ``red_fives``: a plain five is then never given the red copy of its kind (R1).
    Raises :class:`~minefield.rules.tiles.TileError` when the tiles are not 34 each or use
    more copies than exist.

    >>> deal = deal_from_tiles("123456789m" * 3 + "1234567z", "123456789p" * 3 + "1234567z",
    ...                        dora="5s", ura="9s")
    >>> len(deal.east_tiles), deal.dora_indicator_id // 4 == Tile.parse("5s").kind
    (34, True)
    """
    return Deal.from_tiles(parse_tiles(east), parse_tiles(west), Tile.parse(dora),
                           Tile.parse(ura), red_fives=red_fives)


def game_from_tiles(east: str, west: str, dora: str, ura: str,
                    settings: RuleSettings | None = None) -> Game:
    """A game in phase 1 (choosing hands) whose 34 tiles per seat are given.

    >>> game = game_from_tiles("123456789m" * 3 + "1234567z", "123456789p" * 3 + "1234567z",
    ...                        dora="5s", ura="9s")
    >>> game.phase, str(game.dora_indicator)
    ('choosing', '5s')
    """
    settings = settings or RuleSettings()
    return Game(seed=0, settings=settings,
                deal=deal_from_tiles(east, west, dora, ura, red_fives=settings.red_fives))


def choose_hands(game: Game, east_hand: str, west_hand: str) -> Game:
    """Both seats choose the given 13 tiles (East first): the game is then in phase 2."""
    game.apply(Seat.EAST, ChooseHand(tiles=east_hand))
    game.apply(Seat.WEST, ChooseHand(tiles=west_hand))
    return game


def safe_pools(east_hand: str, west_hand: str, east_pool: str = "", west_pool: str = "",
               dora: str = "2z", ura: str = "3z") -> tuple[str, str]:
    """Both pools filled up to 21 tiles with tiles that are waits of neither hand.

    The given pool tiles come first; the fillers are the highest kinds still free after the
    hands, the given pools and the indicators.

    >>> safe_pools("23m456m345p678s55s", "123m456p789s3332z", east_pool="1m")
    ('1m11114444555566667777z', '233334444556667788999s')
    """
    forbidden = set(waits(Hand.parse(east_hand).counts)) | set(waits(Hand.parse(west_hand).counts))
    used = [0] * NUM_KINDS
    for tile in parse_tiles(east_hand + west_hand + east_pool + west_pool + dora + ura):
        used[tile.kind] += 1
    fillers = [Tile(k) for k in range(NUM_KINDS) if k not in forbidden for _ in range(4 - used[k])]
    pools = []
    for given in (east_pool, west_pool):
        pool = parse_tiles(given)
        while len(pool) < POOL_SIZE:
            pool.append(fillers.pop())
        pools.append(tiles_to_str(pool))
    return pools[0], pools[1]


def game_with_hands(east_hand: str, west_hand: str, east_pool: str = "", west_pool: str = "",
                    dora: str = "2z", ura: str = "3z",
                    settings: RuleSettings | None = None) -> Game:
    """A game in phase 2 (East to discard) with the given hands.

    Each pool starts with the given tiles and is filled up to 21 by :func:`safe_pools`.
    """
    east_full, west_full = safe_pools(east_hand, west_hand, east_pool, west_pool, dora, ura)
    game = game_from_tiles(east_hand + east_full, west_hand + west_full, dora, ura, settings)
    return choose_hands(game, tiles_to_str(parse_tiles(east_hand)),
                        tiles_to_str(parse_tiles(west_hand)))
