"""R25: the move the engine makes for a player whose clock ran out.

A pure function of that seat's view; the clocks belong to whoever runs the game.

>>> from minefield.rules.game import Game, Seat
>>> game = Game(seed=3)
>>> command = auto_command(game.view(Seat.EAST), chosen="")
>>> command.type, len(parse_tiles(command.tiles))
('choose_hand', 13)
"""

from __future__ import annotations

from collections.abc import Callable

from minefield.rules.game import ChooseHand, Discard, IllegalCommand, PlayerView
from minefield.rules.hand import HAND_SIZE, Hand, waits
from minefield.rules.tiles import Tile, TileError, parse_tiles, tiles_to_str


def auto_hand(view: PlayerView, chosen: str = "") -> ChooseHand:
    """Phase 1: keep the tiles chosen so far and fill up with the lowest unchosen tiles."""
    own = sorted(parse_tiles(view.own_tiles), key=lambda t: (t.kind, not t.red))
    try:
        kept = parse_tiles(chosen)
    except TileError:
        kept = []
    remaining = list(own)
    hand: list[Tile] = []
    for tile in kept[:HAND_SIZE]:
        if tile in remaining:
            remaining.remove(tile)
            hand.append(tile)
    hand.extend(remaining[:HAND_SIZE - len(hand)])
    return ChooseHand(tiles=tiles_to_str(hand))


def genbutsu_kinds(view: PlayerView) -> set[int]:
    """Kinds that can never win for the opponent: their own discards, and every tile this seat
    discarded that they let pass (they are permanently in riichi, so it is not a wait or it left
    them furiten)."""
    return {Tile.parse(t).kind for row in view.discards.values() for t in row}


def auto_discard(view: PlayerView) -> Discard:
    """Phase 2: the safest tile it can name: a genbutsu, else a tile that is not one of the
    player's own waits, else the lowest (R25). Among genbutsu, one that is not an own wait."""
    pool = sorted(parse_tiles(view.own_pool), key=lambda t: (t.kind, not t.red))
    if not pool:
        raise IllegalCommand("no tile left to discard")
    own_waits = set(waits(Hand.parse(view.own_hand).counts)) if view.own_hand else set()
    safe = genbutsu_kinds(view)
    preferences: tuple[Callable[[Tile], bool], ...] = (
        lambda t: t.kind in safe and t.kind not in own_waits,
        lambda t: t.kind in safe,
        lambda t: t.kind not in own_waits,
    )
    for wanted in preferences:
        for tile in pool:
            if wanted(tile):
                return Discard(tile=str(tile))
    return Discard(tile=str(pool[0]))


def auto_command(view: PlayerView, chosen: str = "") -> ChooseHand | Discard:
    """The R25 move for this view: a hand in phase 1, a discard in phase 2."""
    if view.phase == "choosing":
        return auto_hand(view, chosen)
    if view.phase == "discarding":
        return auto_discard(view)
    raise IllegalCommand("the game has ended: there is no move to make")
