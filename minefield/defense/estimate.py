"""One danger report per position: the calibrated chances with the reasons in words.

There is one estimate, the fast one (:mod:`minefield.defense.fast`), fitted per opponent: a bot
of a level (``easy``, ``normal``, ``strong``) or a ``person`` (a blend of the levels).

>>> from minefield.rules.game import Seat
>>> from minefield.rules.hand import Hand
>>> from minefield.rules.tiles import Tile, parse_tiles
>>> position = Position(
...     seat=Seat.EAST, tiles=tuple(parse_tiles("1112345678999m11223344556677p1234567s")),
...     hand=Hand.parse("1112345678999m"), dora_indicator=Tile.parse("9s"),
...     discards={Seat.EAST: (Tile.parse("1p"),), Seat.WEST: (Tile.parse("2p"),)})
>>> report = estimate(position)
>>> report.discard, report.of("2p").danger, report.safest().tile, report.opponent
(3, 0.0, '1p', 'strong')
"""

from __future__ import annotations

from minefield.defense.calibration import DEFAULT_OPPONENT, OPPONENTS, Opponent
from minefield.defense.fast import fast_dangers
from minefield.defense.position import DangerReport, Position, TileDanger
from minefield.defense.reasons import reasons_for
from minefield.rules.tiles import kind_str

#: How each opponent is named on screen ("the danger against ...").
OPPONENT_NAMES: dict[Opponent, str] = {
    "easy": "the easy bot", "normal": "the normal bot", "strong": "the strong bot",
    "person": "a person",
}


def estimate(position: Position, opponent: Opponent = DEFAULT_OPPONENT) -> DangerReport:
    """The danger of each kind left in the pool, in tile order, with its reasons: the
    calibrated fast estimate of :mod:`minefield.defense.fast` for ``opponent``.

    ValueError for an opponent that is not one of :data:`OPPONENTS`.
    """
    if opponent not in OPPONENTS:
        raise ValueError(f"unknown opponent {opponent!r}: choose one of {', '.join(OPPONENTS)}")
    found = fast_dangers(position, opponent)
    reasons = reasons_for(position, found.opponent_furiten, opponent=opponent,
                          danger=found.danger)
    tiles = tuple(
        TileDanger(tile=kind_str(kind), danger=found.danger[kind], loss=round(found.loss[kind]),
                   reasons=reasons[kind])
        for kind in position.pool_kinds)
    return DangerReport(discard=position.number, opponent_furiten=found.opponent_furiten,
                        tiles=tiles, opponent=opponent)


def estimate_name(opponent: Opponent) -> str:
    """The estimate as a screen names it.

    >>> estimate_name("normal")
    'fast estimate against the normal bot'
    """
    return f"fast estimate against {OPPONENT_NAMES[opponent]}"


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
