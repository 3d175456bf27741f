"""The game review's content, worked out once for every way it is shown: ``review --text``
(lines wrapped to the terminal), ``review --html`` and the browser door's page
(:mod:`minefield.trainer.review_page`). Tiles stay in mpsz here; each way names the honors.

The parts, in order: a heading (whose review, the opponent's hand and waits), one line per
discard of the seat (the danger it carried then and the truth), the danger taken in total,
then the review's sections: your regrets, luck and skill, how readable your wait was, and the
build (:mod:`~minefield.trainer.regrets`, :mod:`~minefield.trainer.readable`,
:mod:`~minefield.trainer.build`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from minefield.bots.base import player_seat
from minefield.defense.calibration import Opponent
from minefield.defense.estimate import estimate_name, feedback
from minefield.records.reader import RecordError, read_record
from minefield.records.replay import replay_record
from minefield.rules.game import Seat
from minefield.rules.tiles import Tile, kind_str
from minefield.trainer.build import build_part
from minefield.trainer.defense_review import (
    AssessedStep,
    GameReview,
    ReviewError,
    assess,
    opponent_of,
    review_of_game,
    totals,
)
from minefield.trainer.readable import readability, readability_section
from minefield.trainer.regrets import luck_section, regrets_section
from minefield.trainer.sections import Section

__all__ = ["DiscardLine", "ReviewParts", "review_of_record", "review_parts"]


@dataclass(frozen=True)
class DiscardLine:
    """One discard of the seat: its number, the tile (mpsz), the danger it carried then and
    the safest tile (:func:`~minefield.defense.estimate.feedback`), and the truth in words
    (``DEALT IN``, ``opponent furiten``, ``safe`` with what would have dealt in)."""

    number: int
    tile: str
    text: str
    truth: str
    dealt_in: bool


@dataclass(frozen=True)
class ReviewParts:
    """Everything a review says, in mpsz: ``note`` says why there are no discards (else
    None); ``totals`` is the danger taken against the least possible (None without discards)."""

    heading: str
    note: str | None
    discards: tuple[DiscardLine, ...]
    totals: str | None
    sections: tuple[Section, ...]

    def __repr__(self) -> str:
        return f"ReviewParts(discards={len(self.discards)}, <tiles hidden>)"


def _truth(assessed: AssessedStep) -> str:
    step = assessed.step
    if step.dealt_in:
        return "DEALT IN"
    if step.opponent_furiten:
        return "opponent furiten"
    return "safe" + (f"; would have dealt in: {' '.join(step.deal_ins)}" if step.deal_ins
                     else "")


def review_parts(review: GameReview, names: Mapping[Seat, str],
                 against: Opponent | None = None) -> ReviewParts:
    """The review of ``review`` in words (``names``: the players' names by seat). ``against``
    is whom the danger is estimated for (None: :func:`~minefield.trainer.defense_review.
    opponent_of` the opponent's name)."""
    seat, opponent = review.seat, review.seat.other
    chosen = against or opponent_of(names[opponent])
    heading = (f"Review of {names[seat]} ({seat.value}) against {names[opponent]}: their hand "
               f"{review.opponent_hand or 'none'}, waits "
               f"{' '.join(review.opponent_waits) or 'none (not tenpai)'}")
    note = None
    if not review.steps:
        note = (f"{names[seat]} made no discard: the game ended on discard "
                f"{review.end.discard_number}. There is no danger to review.")
    done = list(assess(review, chosen))
    lines = tuple(DiscardLine(number=a.step.number, tile=kind_str(Tile.parse(a.step.tile).kind),
                              text=feedback(a.report, kind_str(Tile.parse(a.step.tile).kind)),
                              truth=_truth(a), dealt_in=a.step.dealt_in) for a in done)
    total = None
    if done:
        taken, least = totals(done)
        total = (f"Danger taken in total {taken:.2f} expected deal-ins, the least possible "
                 f"{least:.2f} ({estimate_name(chosen)}, {len(done)} discards)")
    reader = opponent_of(names[seat])  # whom the opponent was reading
    sections = (regrets_section(done), luck_section(done, review.ron_points),
                readability_section(readability(review, reader), names[opponent]),
                build_part(review))
    return ReviewParts(heading=heading, note=note, discards=lines, totals=total,
                       sections=sections)


def review_of_record(path: Path, seat: Seat | None = None) -> tuple[GameReview, dict[Seat, str]]:
    """The review of the record at ``path`` for ``seat`` (None: the player's,
    :func:`~minefield.bots.base.player_seat`) and the players' names. :class:`~minefield.
    trainer.defense_review.ReviewError`, one line naming the file, when it cannot be made (a
    file that is not a record, a record that does not replay to its result, an unfinished
    game)."""
    try:
        record = read_record(path)
    except RecordError as error:
        raise ReviewError(str(error)) from None
    replay = replay_record(record)
    if not replay.consistent:
        problems = "; ".join(replay.problems).replace("\n", " ")
        raise ReviewError(f"{path}: inconsistent record: {problems}")
    chosen = seat if seat is not None else player_seat(record.header)
    try:
        review = review_of_game(replay.game, chosen)
    except ReviewError as error:
        raise ReviewError(f"{path}: {error}") from None
    return review, record.header.shown_names()
