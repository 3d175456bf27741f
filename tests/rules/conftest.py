"""Helpers for rules tests: prepared deals where the test knows every tile."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from minefield.rules.game import ChooseHand, Game, Seat
from minefield.rules.hand import Hand, waits
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import NUM_KINDS, Tile, parse_tiles, tiles_to_str
from minefield.rules.wall import Deal

PreparedGame = Callable[..., Game]


def prepared_game(east_hand: str, west_hand: str, east_pool: str = "", west_pool: str = "",
                  dora: str = "2z", ura: str = "3z",
                  settings: RuleSettings | None = None) -> Game:
    """A game in phase 2 with known hands; pools start with the given tiles and are filled up
    to 21 with tiles that are waits of neither hand (so no accidental ron)."""
    hands = {Seat.EAST: Hand.parse(east_hand), Seat.WEST: Hand.parse(west_hand)}
    used = [0] * NUM_KINDS
    fixed = [*parse_tiles(east_hand), *parse_tiles(west_hand), *parse_tiles(east_pool),
             *parse_tiles(west_pool), Tile.parse(dora), Tile.parse(ura)]
    for tile in fixed:
        used[tile.kind] += 1
    forbidden = set(waits(hands[Seat.EAST].counts)) | set(waits(hands[Seat.WEST].counts))
    fillers = [Tile(k) for k in range(NUM_KINDS) if k not in forbidden for _ in range(4 - used[k])]
    pools = {Seat.EAST: parse_tiles(east_pool), Seat.WEST: parse_tiles(west_pool)}
    for seat in Seat:
        while len(pools[seat]) < 21:
            pools[seat].append(fillers.pop())
    deal = Deal.from_tiles(parse_tiles(east_hand) + pools[Seat.EAST],
                           parse_tiles(west_hand) + pools[Seat.WEST],
                           Tile.parse(dora), Tile.parse(ura))
    game = Game(seed=0, settings=settings, deal=deal)
    game.apply(Seat.EAST, ChooseHand(tiles=tiles_to_str(parse_tiles(east_hand))))
    game.apply(Seat.WEST, ChooseHand(tiles=tiles_to_str(parse_tiles(west_hand))))
    return game


@pytest.fixture
def make_game() -> PreparedGame:
    """The :func:`prepared_game` factory as a fixture."""
    return prepared_game
