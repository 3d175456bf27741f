"""One danger report per position: the chances of an estimator with the reasons in words.

>>> from minefield.rules.game import Seat
>>> from minefield.rules.hand import Hand
>>> from minefield.rules.tiles import Tile, parse_tiles
>>> position = Position(
...     seat=Seat.EAST, tiles=tuple(parse_tiles("1112345678999m11223344556677p1234567s")),
...     hand=Hand.parse("1112345678999m"), dora_indicator=Tile.parse("9s"),
...     discards={Seat.EAST: (Tile.parse("1p"),), Seat.WEST: (Tile.parse("2p"),)})
>>> report = estimate(position)
>>> report.discard, report.of("2p").danger, report.safest().tile
(3, 0.0, '1p')
"""

from __future__ import annotations

import importlib

from minefield.defense.fast import fast_dangers
from minefield.defense.position import DangerReport, Estimate, Method, Position, TileDanger
from minefield.defense.reasons import reasons_for
from minefield.rules.tiles import kind_str


def _estimate_of(position: Position, method: Method) -> Estimate:
    if method == "fast":
        return fast_dangers(position)
    if method == "posterior":
        try:  # imported by name: the posterior module is written separately and may be missing
            module = importlib.import_module("minefield.defense.posterior")
        except ModuleNotFoundError as error:
            if error.name != "minefield.defense.posterior":
                raise
            raise NotImplementedError("the posterior estimate is not available yet") from None
        result = module.posterior_dangers(position)
        if not isinstance(result, Estimate):
            raise TypeError("posterior_dangers must return an Estimate")
        return result
    raise ValueError(f"unknown method {method!r}: choose fast or posterior")


def estimate(position: Position, method: Method = "fast") -> DangerReport:
    """The danger of each kind left in the pool, in tile order, with its reasons.

    ``fast`` is the calibrated heuristic of :mod:`minefield.defense.fast`; ``posterior`` the
    estimate of :mod:`minefield.defense.posterior` (NotImplementedError while it is missing).
    """
    found = _estimate_of(position, method)
    reasons = reasons_for(position, found.opponent_furiten)
    tiles = tuple(
        TileDanger(tile=kind_str(kind), danger=found.danger[kind], loss=round(found.loss[kind]),
                   reasons=reasons[kind])
        for kind in position.pool_kinds)
    return DangerReport(discard=position.number, opponent_furiten=found.opponent_furiten,
                        tiles=tiles, method=method)


def percent(chance: float) -> str:
    """A chance as a whole percentage, ``"<1%"`` for a small non-zero one."""
    if 0 < chance < 0.005:
        return "<1%"
    return f"{round(chance * 100)}%"


def feedback(report: DangerReport, tile: str) -> str:
    """One line about a chosen discard and the safest one, e.g.
    ``5p: 14% (suji of 2p (covers ryanmen 34p), but ...); safest was 1z (genbutsu)``.

    The chosen tile is followed by its first reason, the safest by that reason's label (the
    words before its colon); KeyError when ``tile`` is not in the pool.
    """
    chosen = report.of(tile)
    safest = report.safest()
    first = f" ({chosen.reasons[0]})" if chosen.reasons else ""
    line = f"{chosen.tile}: {percent(chosen.danger)}{first}"
    if safest.danger >= chosen.danger:
        return line + "; that was the safest tile"
    chance = f" {percent(safest.danger)}" if safest.danger else ""
    label = f" ({safest.reasons[0].partition(':')[0]})" if safest.reasons else ""
    return f"{line}; safest was {safest.tile}{chance}{label}"
