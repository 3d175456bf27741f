"""``minefield review FILE``: the defense review of a finished game from its record.

On a terminal it opens the review screen (step through the seat's discards with the danger at
that moment and the opponent's hand revealed); in a pipe, or with ``--text``, it prints the same
review as plain lines. A file that is not a usable record, or a game that has not ended, is one
line on stderr and exit status 2; a record that does not replay to its stored result exits 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from minefield.cli.common import Subparsers, UsageError, saved_honor_names
from minefield.defense.calibration import OPPONENTS, Opponent
from minefield.defense.estimate import estimate_name, feedback
from minefield.records.format import RecordHeader
from minefield.records.reader import RecordError, read_record
from minefield.records.replay import replay_record
from minefield.rules.game import Seat
from minefield.rules.names import HONOR_NAMES, HonorNames, name_text
from minefield.rules.tiles import Tile, kind_str
from minefield.trainer.build import build_of, build_section
from minefield.trainer.readable import readability, readability_section
from minefield.trainer.regrets import luck_section, regrets_section
from minefield.trainer.review import (
    AssessedStep,
    GameReview,
    ReviewError,
    assess,
    opponent_of,
    review_of_game,
    totals,
)
from minefield.trainer.sections import Section

COMMANDS = ("review",)


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add the ``review`` subcommand."""
    r = sub.add_parser("review", help="review your defense in a finished game",
                       description="Step through one seat's discards of a finished game with "
                       "the danger each carried then, the opponent's hand revealed, where the "
                       "seat dealt in and what was safer, and the danger taken in total against "
                       "the least possible. Opens the review screen on a terminal; prints plain "
                       "lines in a pipe or with --text.")
    r.add_argument("file", type=Path, metavar="FILE",
                   help="a record (.jsonl), or a game's number or id as `history` lists them")
    r.add_argument("--seat", choices=[s.value for s in Seat], default=None,
                   help="whose discards (default: the player in a practice game, else east)")
    r.add_argument("--opponent", choices=OPPONENTS, default=None,
                   help="whom the danger is estimated for: a bot of that level or a person "
                   "(default: from the record, the bot's level in practice, else person)")
    r.add_argument("--method", choices=["fast"], default="fast",
                   help="the estimate: fast, the only one (kept for old scripts)")
    r.add_argument("--text", action="store_true", help="print the review instead of showing it")
    r.add_argument("--honors", choices=HONOR_NAMES, default=None,
                   help="how honors are written: letters (E S W N Wh Gr Rd), kanji or numbers "
                   "(1z-7z); default: the app's setting \"Honor names\"")


def default_seat(header: RecordHeader) -> Seat:
    """The seat to review: the player's in a practice game (the other is the bot), else East."""
    if header.mode == "practice":
        for seat in Seat:
            if opponent_of(header.players.of(seat)) == "person":
                return seat
    return Seat.EAST


def load_review(path: Path, seat: str | None) -> tuple[GameReview, dict[Seat, str]]:
    """The review of the record at ``path`` for ``seat`` (None: :func:`default_seat`) and the
    players' names (:func:`~minefield.trainer.review.opponent_of` reads the opponent from
    them); :class:`UsageError` (one line) when it cannot be made."""
    try:
        record = read_record(path)
    except RecordError as error:
        raise UsageError(str(error)) from None
    replay = replay_record(record)
    if not replay.consistent:
        problems = "; ".join(replay.problems).replace("\n", " ")
        raise UsageError(f"{path}: inconsistent record: {problems}")
    chosen = Seat(seat) if seat is not None else default_seat(record.header)
    try:
        review = review_of_game(replay.game, chosen)
    except ReviewError as error:
        raise UsageError(f"{path}: {error}") from None
    names = {s: record.header.players.of(s) for s in Seat}
    return review, names


def review_lines(review: GameReview, names: dict[Seat, str], against: Opponent | None = None,
                 honors: HonorNames = "numbers") -> Iterator[str]:
    """The review as plain lines: one per discard, then the totals (honors called by
    ``honors``). ``against`` is whom the estimate is for (None:
    :func:`~minefield.trainer.review.opponent_of` the opponent's name)."""
    for line in _review_lines(review, names, against):
        yield name_text(line, honors)


def _review_lines(review: GameReview, names: dict[Seat, str], against: Opponent | None
                  ) -> Iterator[str]:
    seat, opponent = review.seat, review.seat.other
    chosen = against or opponent_of(names[opponent])
    yield (f"Review of {names[seat]} ({seat.value}) against {names[opponent]}: "
           f"their hand {review.opponent_hand or 'none'}, waits "
           f"{' '.join(review.opponent_waits) or 'none (not tenpai)'}")
    if not review.steps:
        yield (f"{names[seat]} made no discard: the game ended on discard "
               f"{review.end.discard_number}. There is no danger to review.")
        return
    done: list[AssessedStep] = []
    for assessed in assess(review, chosen):
        done.append(assessed)
        step = assessed.step
        line = feedback(assessed.report, kind_str(Tile.parse(step.tile).kind))
        if step.dealt_in:
            truth = "DEALT IN"
        elif step.opponent_furiten:
            truth = "opponent furiten"
        else:
            truth = "safe" + (f"; would have dealt in: {' '.join(step.deal_ins)}"
                              if step.deal_ins else "")
        yield f"{step.number:>2} {line} [{truth}]"
    taken, least = totals(done)
    yield (f"Danger taken in total {taken:.2f} expected deal-ins, the least possible "
           f"{least:.2f} ({estimate_name(chosen)}, {len(done)} discards)")
    reader = opponent_of(names[seat])  # whom the opponent was reading
    for section in (regrets_section(done), luck_section(done, review.ron_points),
                    readability_section(readability(review, reader), names[opponent]),
                    build_section(build_of(review), review.settings)):
        yield ""
        yield from section_lines(section)


def section_lines(section: Section) -> Iterator[str]:
    """A part of the review as plain lines: its title, then each line after its bullet."""
    yield f"{section.title}:"
    for line in section.lines:
        yield line.prefix + line.text


def run(args: argparse.Namespace) -> int:
    """Run ``review``; returns the exit status."""
    from minefield.cli.records import record_path

    review, names = load_review(record_path(str(args.file)), args.seat)
    if args.text or not _terminal_attached():
        honors: HonorNames = args.honors or saved_honor_names()
        for line in review_lines(review, names, args.opponent, honors):
            print(line)
        return 0
    from minefield.tui.review_app import ReviewApp  # Textual loads only for the screen

    app = ReviewApp(review, names, args.opponent or opponent_of(names[review.seat.other]))
    app.run()
    return app.return_code or 0


def _terminal_attached() -> bool:
    """True when the screen has a terminal to run in (Textual reads stdin, draws on stderr)."""
    return all(stream is not None and stream.isatty() for stream in (sys.__stdin__,
                                                                      sys.__stderr__))


__all__ = ["COMMANDS", "add_parser", "default_seat", "load_review", "review_lines", "run"]
