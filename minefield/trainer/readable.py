"""How readable a seat's wait was: the danger estimate run from the opponent's seat, on the
opponent's own pool, at each of their discards (the attacking half of reading).

At each discard the opponent made, the estimate sees only what they saw then (R26): their 34
tiles, both discard rows so far and the dora indicator, never the seat's hand. It rates every
kind; each of the seat's waits is ranked among the tiles of their pool (1: the tile they had
most reason to fear), where it stands or would have stood had they held it. Between two of
their discards the seat made one discard of its own, so a wait's rating that rose or fell from
one of their discards to the next moved after that discard: those are the discards that gave
the wait away or hid it. Suji are named on their own: a discard three
away from a wait in its suit makes the wait look suji (a ryanmen on it would have been furiten,
R15a), the usual way a wait hides.

>>> from minefield.rules.game import Discard, Seat
>>> from minefield.rules.prepared import game_with_hands
>>> from minefield.trainer.defense_review import review_of_game
>>> game = game_with_hands("23m456m345p678s55s", "123m456p789s3332z", east_pool="1z",
...                        west_pool="4m", dora="2m")
>>> _ = game.apply(Seat.EAST, Discard(tile="1z"))
>>> _ = game.apply(Seat.WEST, Discard(tile="4m"))  # East waits on 1m 4m 7m
>>> found = readability(review_of_game(game, Seat.EAST), "person")
>>> [(r.number, r.tile, r.threw_wait) for r in found.readings]
[(2, '4m', True)]
>>> [(w.wait, w.in_pool) for w in found.readings[0].ratings]
[('1m', False), ('4m', True), ('7m', False)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from minefield.defense.calibration import Opponent
from minefield.defense.estimate import percent
from minefield.defense.fast import fast_dangers
from minefield.defense.position import Estimate
from minefield.rules.tiles import Tile, is_honor, kind_from_str, kind_str
from minefield.trainer.defense_review import GameReview
from minefield.trainer.sections import Line, Section

__all__ = ["Moved", "Readability", "Reading", "WaitRating", "readability", "readability_section",
           "suji_covers"]

#: A rating that moved less than this between two of their discards is not named.
MOVED = 0.01
#: Moves named each way (gave away, hid).
TOP_MOVES = 3


@dataclass(frozen=True)
class WaitRating:
    """One of the seat's waits as the opponent's estimate rated it: its chance of dealing in,
    its rank among the kinds of their pool and itself (1 = the most feared), how many kinds
    that was, and whether they held a copy to throw (``in_pool``)."""

    wait: str
    chance: float
    rank: int
    of: int
    in_pool: bool


@dataclass(frozen=True)
class Reading:
    """The opponent's estimate just before one of their discards: ``number`` and ``tile`` are
    that discard, ``ratings`` the seat's waits in their pool then (in tile order);
    ``threw_wait``: the tile they threw was one of the seat's waits."""

    number: int
    tile: str
    ratings: tuple[WaitRating, ...]
    threw_wait: bool

    def of(self, wait: str) -> WaitRating | None:
        """The rating of one wait, or None when it was not in their pool."""
        return next((r for r in self.ratings if r.wait == wait), None)


@dataclass(frozen=True)
class Moved:
    """A wait whose rating moved after one of the seat's discards (``number``, ``tile``):
    from ``before`` (at their previous discard) to ``after`` (at their next)."""

    number: int
    tile: str
    wait: str
    before: float
    after: float


@dataclass(frozen=True)
class Readability:
    """How the opponent could read the seat's waits through the game."""

    waits: tuple[str, ...]
    readings: tuple[Reading, ...]
    gave_away: tuple[Moved, ...]
    hid: tuple[Moved, ...]
    suji: tuple[tuple[int, str, str], ...]  # (discard number, the seat's tile, the wait)

    def __repr__(self) -> str:
        return f"Readability(readings={len(self.readings)}, <waits hidden>)"


def _rating(found: Estimate, pool: Sequence[int], wait: str) -> WaitRating:
    kind = kind_from_str(wait)
    chance = found.danger[kind]
    others = [k for k in pool if k != kind]
    higher = sum(1 for k in others if found.danger[k] > chance)
    return WaitRating(wait=wait, chance=chance, rank=higher + 1, of=len(others) + 1,
                      in_pool=kind in pool)


def suji_covers(tile: str, wait: str) -> bool:
    """Whether discarding ``tile`` makes ``wait`` look suji: the same suit, three apart.

    >>> suji_covers("3p", "6p"), suji_covers("9p", "6p"), suji_covers("4p", "6p")
    (True, True, False)
    """
    a, b = kind_from_str(tile), kind_from_str(wait)
    return not is_honor(a) and a // 9 == b // 9 and abs(a - b) == 3


def readability(review: GameReview, reader: Opponent) -> Readability:
    """How readable ``review.seat``'s waits were to the opponent, by the estimate fitted for
    ``reader`` (whom the opponent was reading: the seat's player, a person or a bot)."""
    waits = review.waits
    readings: list[Reading] = []
    for step in review.their_steps:
        found = fast_dangers(step.position, reader)
        pool = step.position.pool_kinds
        ratings = tuple(_rating(found, pool, wait) for wait in waits)
        thrown = kind_str(Tile.parse(step.tile).kind)
        readings.append(Reading(number=step.number, tile=thrown, ratings=ratings,
                                threw_wait=thrown in waits))
    moves = _moves(review, readings)
    gave = sorted((m for m in moves if m.after - m.before >= MOVED),
                  key=lambda m: (m.before - m.after, m.number))
    hid = sorted((m for m in moves if m.before - m.after >= MOVED),
                 key=lambda m: (m.after - m.before, m.number))
    mine = [(s.number, kind_str(Tile.parse(s.tile).kind)) for s in review.steps]
    suji = tuple((number, tile, wait) for number, tile in mine for wait in waits
                 if suji_covers(tile, wait))
    return Readability(waits=waits, readings=tuple(readings), gave_away=tuple(gave[:TOP_MOVES]),
                       hid=tuple(hid[:TOP_MOVES]), suji=suji)


def _moves(review: GameReview, readings: Sequence[Reading]) -> list[Moved]:
    """The seat's discard between each two readings, and how each wait's rating moved."""
    mine = {s.number: kind_str(Tile.parse(s.tile).kind) for s in review.steps}
    moves = []
    for before, after in pairwise(readings):
        number = after.number - 1  # the seat's discard between their two
        tile = mine.get(number)
        if tile is None:
            continue
        for rating in after.ratings:
            earlier = before.of(rating.wait)
            if earlier is not None:
                moves.append(Moved(number, tile, rating.wait, earlier.chance, rating.chance))
    return moves


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _rated(rating: WaitRating) -> str:
    held = "" if rating.in_pool else " (not held)"
    return (f"{rating.wait} {percent(rating.chance)}, {_ordinal(rating.rank)} of "
            f"{rating.of}{held}")


def readability_section(found: Readability, opponent: str) -> Section:
    """"How readable your wait was" in words: each wait's ratings over the game, the moments
    the opponent threw one, the discards that gave a wait away or hid it, and the suji your
    discards made; then the estimate's view at each of their discards."""
    title = "How readable your wait was"
    if not found.waits:
        return Section(title, (Line("You were not tenpai: there was no wait to read."),))
    if not found.readings:
        return Section(title, (Line(f"{opponent} made no discard: they never had to read your "
                                    "wait."),))
    waits, them = ("wait", "it") if len(found.waits) == 1 else ("waits", "them")
    lines = [Line(f"Your {waits} {' '.join(found.waits)}, as {opponent}'s view rated {them} at "
                  "each of their discards (only what they could see then; 1st = the tile they "
                  "had most reason to fear):")]
    for wait in found.waits:
        rated = [r for reading in found.readings if (r := reading.of(wait)) is not None]
        low, high = min(rated, key=lambda r: r.chance), max(rated, key=lambda r: r.chance)
        held = ("" if any(r.in_pool for r in rated)
                else " (they never held one: it could not be thrown)")
        lines.append(Line(f"{wait}: rated between {percent(low.chance)} "
                          f"({_ordinal(low.rank)} of {low.of}) and {percent(high.chance)} "
                          f"({_ordinal(high.rank)} of {high.of}){held}", 1, "•"))
    for reading in found.readings:
        if reading.threw_wait:
            rating = reading.of(reading.tile)
            when = (f" when it was rated {percent(rating.chance)}, {_ordinal(rating.rank)} of "
                    f"{rating.of}" if rating is not None else "")
            lines.append(Line(f"They threw your wait {reading.tile} at discard "
                              f"{reading.number}{when}.", 1, "•"))
    for number, tile, wait in found.suji:
        lines.append(Line(f"Your {tile} (discard {number}) made {wait} look suji: a ryanmen on "
                          f"it would have been furiten (R15a).", 1, "•"))
    for moved in found.gave_away:
        lines.append(Line(f"Gave it away: after your {moved.tile} (discard {moved.number}) "
                          f"{moved.wait} went from {percent(moved.before)} to "
                          f"{percent(moved.after)}.", 1, "•"))
    for moved in found.hid:
        lines.append(Line(f"Hid it: after your {moved.tile} (discard {moved.number}) "
                          f"{moved.wait} went from {percent(moved.before)} to "
                          f"{percent(moved.after)}.", 1, "•"))
    lines.append(Line("At each of their discards:"))
    for reading in found.readings:
        each = "; ".join(_rated(r) for r in reading.ratings)
        lines.append(Line(f"Discard {reading.number}, they threw {reading.tile}: {each}", 1,
                          "•"))
    return Section(title, tuple(lines))
