"""What a readable wait cost, in expected points, and which of the seat's discards gave it
away: the measure behind the "readable wait" drills from the player's own games.

The game review's "How readable your wait was" (:mod:`minefield.trainer.readable`) runs the
danger estimate from the opponent's seat, on the opponent's own pool, at each of their
discards (what they saw then, R26). Here that rating becomes points. At each of their
discards, for each of the seat's waits that they held (only a held tile can be thrown) while
the seat could still win on it (not furiten, R15; a ron that reaches mangan, R14):

* ``chance`` is what their view gave the wait; an unreadable wait would have been given what
  the other tiles they could fear were given on average (``usual``: the mean chance of the
  kinds that could deal in at all by their view, held or not, the seat's waits left out);
* the excess (``chance - usual``, when positive) is how much more they had reason to hold the
  wait back than a tile they knew nothing about; times what the seat's ron on it would have
  paid (the engine's own scorer, R14, R16, R17, R23, no ura) it is the **expected points**
  the readable wait cost at that discard.

A game's readable-wait position is its costliest such moment (:func:`wait_moment`), priced at
that one discard: the sum over all their discards is no expectation of points, since it
exceeds what the hand can pay (West in seed 6 of the tests' bot games: 19,972 summed over 30
ratings, for a hand whose best ron pays 12,000), while one moment's cost is, like a regret's,
a chance difference times what the ron pays.

Which discard gave the wait away is asked of the estimate too: the seat's discards so far
are taken out of their view one at a time (the tile unseen again, the discard count kept),
and the excess is rated again. The discard whose removal lowers the excess most made the wait
readable (:func:`discard_effects`). A discard three away in the wait's suit makes the wait look
suji, so its removal raises the excess instead: that discard hid it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from minefield.defense.calibration import Opponent
from minefield.defense.estimate import estimate
from minefield.defense.fast import fast_dangers
from minefield.defense.position import Position
from minefield.rules.game import ron_context
from minefield.rules.hand import Hand
from minefield.rules.score import analyze
from minefield.rules.tiles import Tile, kind_from_str, kind_str
from minefield.trainer.defense_review import GameReview, ReviewStep

__all__ = ["MIN_CLUE", "MIN_SHOWN", "DiscardEffect", "WaitCost", "WaitMoment", "discard_effects",
           "excess_of", "ron_points", "wait_costs", "wait_moment"]


@dataclass(frozen=True)
class WaitCost:
    """One of the seat's waits at one of the opponent's discards (``number``): the chance
    their view gave it, what the other tiles they could fear were given on average
    (``usual``), what the seat's ron on it would have paid (``points``) and the expected points
    the reading cost (``cost``: the excess chance times the points, 0 when not above usual)."""

    number: int
    wait: str
    chance: float
    usual: float
    points: int

    @property
    def excess(self) -> float:
        """How much more the wait was feared than an unreadable one (0 at the least)."""
        return max(0.0, self.chance - self.usual)

    @property
    def cost(self) -> int:
        """Expected points the readable wait cost at this discard."""
        return round(self.excess * self.points)


@dataclass(frozen=True)
class DiscardEffect:
    """What one of the seat's discards (its ``index`` in the seat's row, ``number`` in the
    game, the ``tile``) did to a wait at one reading: with it taken out of their view, the
    wait would have been rated ``chance`` against a usual ``usual``; ``shown`` and ``hidden``
    are the excess chance with the discard seen and without it; ``points`` is what lowering
    the excess by the difference was worth (positive: the discard gave the wait away)."""

    index: int
    number: int
    tile: str
    shown: float
    hidden: float
    points: int
    chance: float = 0.0
    usual: float = 0.0


def ron_points(review: GameReview, number: int) -> dict[str, int]:
    """What the seat's ron on each of its waits would have paid on discard ``number``, by the
    engine's scorer (R14: 0 for a wait below mangan; R16 ippatsu, R17 houtei, R23)."""
    hand_text = review.end.hands.get(review.seat)
    if not hand_text:
        return {}
    hand = Hand.parse(hand_text)
    dealer = review.settings.dealer_bonus and review.seat.value == "east"
    ctx = ron_context(review.seat, number, Tile.parse(review.dora_indicator).kind,
                      dealer=dealer)
    return {kind_str(v.tile): (v.paid.points if v.eligible else 0)
            for v in analyze(hand, ctx, review.settings)}


def _usual(danger: Sequence[float], waits: Sequence[int]) -> float:
    """The mean chance of the kinds that could deal in at all, ``waits`` left out."""
    feared = [d for k, d in enumerate(danger) if k not in waits and d > 0]
    return sum(feared) / len(feared) if feared else 0.0


def excess_of(position: Position, reader: Opponent, wait: str,
              waits: Sequence[str]) -> tuple[float, float]:
    """The chance the reader's view (``position``, theirs) gives ``wait`` and the usual chance
    of the other kinds they could fear (``waits`` left out)."""
    found = fast_dangers(position, reader)
    kinds = [kind_from_str(w) for w in waits]
    return found.danger[kind_from_str(wait)], _usual(found.danger, kinds)


def _live(review: GameReview, number: int) -> bool:
    """Whether the seat could still win on a discard ``number`` (not furiten before it)."""
    furiten = review.end.furiten.get(review.seat)
    return furiten is None or furiten.discard_number >= number


def wait_costs(review: GameReview, reader: Opponent) -> list[WaitCost]:
    """Each of the seat's waits at each of the opponent's discards, where they held it and the
    seat could still win on it (empty when the seat was not tenpai), in game order; ``reader``
    is whom the opponent was reading (the estimate fitted for them)."""
    waits = review.waits
    found: list[WaitCost] = []
    if not waits:
        return found
    kinds = [kind_from_str(w) for w in waits]
    for step in review.their_steps:
        if not _live(review, step.number):
            break
        points = ron_points(review, step.number)
        pool = step.position.pool_kinds
        held = [w for w, k in zip(waits, kinds, strict=True) if k in pool and points.get(w)]
        if not held:
            continue
        danger = fast_dangers(step.position, reader).danger
        usual = _usual(danger, kinds)
        found.extend(WaitCost(step.number, w, danger[kind_from_str(w)], usual, points[w])
                     for w in held)
    return found


class _Unshown(Position):
    """The opponent's view with one of the seat's discards taken out (a counterfactual: the
    tile is unseen again, the discard count is kept, so the turn checks do not apply)."""

    def __init__(self, view: Position, index: int) -> None:
        seat = view.opponent
        row = view.discards.get(seat, ())
        discards = dict(view.discards)
        discards[seat] = row[:index] + row[index + 1:]
        for name, value in (("seat", view.seat), ("tiles", view.tiles), ("hand", view.hand),
                            ("dora_indicator", view.dora_indicator), ("discards", discards),
                            ("settings", view.settings)):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_number", view.number)

    @property
    def number(self) -> int:
        """The discard about to be made, as in the view shown."""
        return int(self.__dict__["_number"])


def discard_effects(review: GameReview, step: ReviewStep, reader: Opponent, wait: str,
                    points: int) -> list[DiscardEffect]:
    """What each of the seat's discards seen at the opponent's ``step`` (their view) did to
    ``wait``: the excess with it and without it, and that difference times ``points``; the
    discards in the order made."""
    view = step.position
    chance, usual = excess_of(view, reader, wait, review.waits)
    shown = max(0.0, chance - usual)
    row = view.discards.get(review.seat, ())
    first = 1 if review.seat.value == "east" else 2
    effects = []
    for index, tile in enumerate(row):
        hidden_chance, hidden_usual = excess_of(_Unshown(view, index), reader, wait,
                                                review.waits)
        hidden = max(0.0, hidden_chance - hidden_usual)
        effects.append(DiscardEffect(index=index, number=first + 2 * index,
                                     tile=kind_str(tile.kind), shown=shown, hidden=hidden,
                                     points=round((shown - hidden) * points),
                                     chance=hidden_chance, usual=hidden_usual))
    return effects


@dataclass(frozen=True)
class WaitMoment:
    """The costliest moment of a readable wait: ``cost`` is the wait at one of the opponent's
    discards (:class:`WaitCost`), ``effects`` what each of the seat's discards seen then did
    to it (:func:`discard_effects`), ``view`` the opponent's view then, ``reasons`` their
    estimate's reasons for fearing the wait and ``readings`` at how many of their discards
    some wait of the seat was rated above the usual."""

    cost: WaitCost
    effects: tuple[DiscardEffect, ...]
    view: Position
    reasons: tuple[str, ...]
    readings: int
    reader: Opponent = "person"  # whom the opponent's view was fitted to read

    def __repr__(self) -> str:
        return f"WaitMoment(discard {self.cost.number}, <tiles hidden>)"

    @property
    def best(self) -> DiscardEffect:
        """The discard whose removal lowers the excess most (the earlier on a tie)."""
        return max(self.effects, key=lambda e: (e.points, -e.index))


#: A moment is asked only when the seat had made at least this many discards by then (one
#: discard is no choice).
MIN_SHOWN = 3
#: ... and when the discard that gave the wait away most did at least this many expected
#: points more than the one that did least, and at least this many in all (else no answer is
#: wrong, or none matters).
MIN_CLUE = 50


def wait_moment(review: GameReview, reader: Opponent, number: int | None = None
                ) -> WaitMoment | None:
    """The moment of ``review`` at the opponent's discard ``number`` (None: the costliest one
    where some discard of the seat gave the wait away), or None when there is none: the seat
    was not tenpai, no wait was held or read above the usual then, fewer than
    :data:`MIN_SHOWN` of the seat's discards were seen, or none of them gave it away by
    :data:`MIN_CLUE` expected points more than another."""
    costs = [c for c in wait_costs(review, reader) if c.cost > 0]
    readings = len({c.number for c in costs})
    chosen = sorted((c for c in costs if number is None or c.number == number),
                    key=lambda c: (-c.cost, c.number, c.wait))
    steps = {s.number: s for s in review.their_steps}
    for cost in chosen:
        step = steps[cost.number]
        if len(step.position.discards.get(review.seat, ())) < MIN_SHOWN:
            continue
        effects = tuple(discard_effects(review, step, reader, cost.wait, cost.points))
        most = max(e.points for e in effects)
        if most < MIN_CLUE or most - min(e.points for e in effects) < MIN_CLUE:
            continue
        report = estimate(step.position, reader)
        return WaitMoment(cost, effects, step.position, report.of(cost.wait).reasons,
                          readings, reader)
    return None
