"""Helpers for bot tests: a seat's 34 tiles, scripted seats, playing a game out.

Prepared games, where the test knows every tile, are :mod:`minefield.rules.prepared`.
"""

from __future__ import annotations

from collections.abc import Sequence

from minefield.bots.base import Bot
from minefield.bots.hands import DealtTiles
from minefield.rules.game import ChooseHand, Discard, Game, PlayerView, Seat
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import NUM_KINDS, counts_of, kind_from_str, parse_tiles


def deal34(tiles: str, dora: str | None = None, seat: Seat = Seat.EAST) -> DealtTiles:
    """A seat's 34 tiles (and dora indicator) as the hand search sees them."""
    indicator = kind_from_str(dora) if dora else None
    return DealtTiles.from_tiles(parse_tiles(tiles), indicator, seat)


def is_sub_multiset(hand: Sequence[int], tiles: Sequence[int]) -> bool:
    """True when every kind of ``hand`` is held at most as often as in ``tiles``."""
    return all(hand[k] <= tiles[k] for k in range(NUM_KINDS))


def counts(tiles: str) -> tuple[int, ...]:
    """34 counts of an mpsz string."""
    return tuple(counts_of(parse_tiles(tiles)))


def play(game: Game, east: Bot, west: Bot,
         before: dict[Seat, list[PlayerView]] | None = None) -> Game:
    """Play to the end; ``before`` collects every view each bot acted on."""
    bots = {Seat.EAST: east, Seat.WEST: west}
    if game.phase == "choosing":
        for seat in Seat:
            game.apply(seat, bots[seat].act(game.view(seat)))
    while game.turn is not None:
        seat = game.turn
        view = game.view(seat)
        if before is not None:
            before.setdefault(seat, []).append(view)
        game.apply(seat, bots[seat].act(view))
    return game


def rules() -> RuleSettings:
    """The standard rules."""
    return RuleSettings()


class ScriptedBot:
    """A stand-in seat: keeps a given hand and discards the given tiles in order."""

    level = "easy"

    def __init__(self, hand: str, discards: Sequence[str]) -> None:
        self.hand = hand
        self.discards = list(discards)

    def act(self, view: PlayerView) -> ChooseHand | Discard:
        """The scripted command for this view."""
        if view.phase == "choosing":
            return ChooseHand(tiles=self.hand)
        return Discard(tile=self.discards[len(view.discards[view.seat])])
