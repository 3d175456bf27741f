"""``minefield review FILE``: the defense review of a finished game from its record.

On a terminal it opens the review screen (step through the seat's discards with the danger at
that moment and the opponent's hand revealed); in a pipe, or with ``--text``, it prints the same
review as plain lines. A file that is not a usable record, or a game that has not ended, is one
line on stderr and exit status 2; a record that does not replay to its stored result exits 1.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

from minefield.bots.base import player_seat
from minefield.cli.common import Subparsers, UsageError, saved_honor_names
from minefield.defense.calibration import OPPONENTS, Opponent
from minefield.defense.estimate import estimate_name, feedback
from minefield.phrasing import line_breaks
from minefield.records.reader import RecordError, read_record
from minefield.records.replay import replay_record
from minefield.rules.game import Seat
from minefield.rules.names import HONOR_NAMES, HonorNames, name_text
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


def load_review(path: Path, seat: str | None) -> tuple[GameReview, dict[Seat, str]]:
    """The review of the record at ``path`` for ``seat`` (None: the player's,
    :func:`~minefield.bots.base.player_seat`) and the players' names
    (:func:`~minefield.trainer.defense_review.opponent_of` reads the opponent from them);
    :class:`UsageError` (one line) when it cannot be made."""
    try:
        record = read_record(path)
    except RecordError as error:
        raise UsageError(str(error)) from None
    replay = replay_record(record)
    if not replay.consistent:
        problems = "; ".join(replay.problems).replace("\n", " ")
        raise UsageError(f"{path}: inconsistent record: {problems}")
    chosen = Seat(seat) if seat is not None else player_seat(record.header)
    try:
        review = review_of_game(replay.game, chosen)
    except ReviewError as error:
        raise UsageError(f"{path}: {error}") from None
    return review, record.header.shown_names()


def review_lines(review: GameReview, names: dict[Seat, str], against: Opponent | None = None,
                 honors: HonorNames = "numbers", width: int | None = None) -> Iterator[str]:
    """The review as plain lines: one per discard, the totals, then the review's parts
    (honors called by ``honors``). ``against`` is whom the estimate is for (None:
    :func:`~minefield.trainer.defense_review.opponent_of` the opponent's name). With ``width``, each
    line is wrapped to it between phrases (:func:`wrap_text`), a wrapped
    discard or bullet going on under its text."""
    for prefix, text in _review_lines(review, names, against):
        prefix, text = name_text(prefix, honors), name_text(text, honors)
        if width is None or not text:
            yield prefix + text
        else:
            yield from wrap_text(text, width, prefix)


def _review_lines(review: GameReview, names: dict[Seat, str], against: Opponent | None
                  ) -> Iterator[tuple[str, str]]:
    """The review's lines as (what comes before the text, the text)."""
    seat, opponent = review.seat, review.seat.other
    chosen = against or opponent_of(names[opponent])
    yield "", (f"Review of {names[seat]} ({seat.value}) against {names[opponent]}: "
               f"their hand {review.opponent_hand or 'none'}, waits "
               f"{' '.join(review.opponent_waits) or 'none (not tenpai)'}")
    done: list[AssessedStep] = []
    if not review.steps:
        yield "", (f"{names[seat]} made no discard: the game ended on discard "
                   f"{review.end.discard_number}. There is no danger to review.")
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
        yield f"{step.number:>2} ", f"{line} [{truth}]"
    if done:
        taken, least = totals(done)
        yield "", (f"Danger taken in total {taken:.2f} expected deal-ins, the least possible "
                   f"{least:.2f} ({estimate_name(chosen)}, {len(done)} discards)")
    reader = opponent_of(names[seat])  # whom the opponent was reading
    for section in (regrets_section(done), luck_section(done, review.ron_points),
                    readability_section(readability(review, reader), names[opponent]),
                    build_part(review)):
        yield "", ""
        yield from section_lines(section)


def section_lines(section: Section) -> Iterator[tuple[str, str]]:
    """A part of the review as (bullet, text) lines: its title, then each of its lines."""
    yield "", f"{section.title}:"
    for line in section.lines:
        yield line.prefix, line.text


def wrap_text(text: str, width: int, prefix: str = "") -> list[str]:
    """``text`` (one paragraph) in lines of at most ``width`` cells where it can be, broken
    between phrases as the screens break them (:func:`~minefield.phrasing.line_breaks`: never
    inside a word or a figure): the first line after ``prefix``, the others
    under the text (a hanging indent).

    >>> wrap_text("Discard 4, 5m: 12%, where W was 1%: 1291 expected points lost", 40, "  1. ")
    ['  1. Discard 4, 5m: 12%, where W', '     was 1%: 1291 expected points lost']
    """
    room = max(1, width - len(prefix))
    offsets = [0, *line_breaks(text, room), len(text)]
    parts = [text[a:b].rstrip() for a, b in pairwise(offsets)]
    indent = " " * len(prefix)
    return [(prefix if index == 0 else indent) + part for index, part in enumerate(parts)]


def text_width() -> int | None:
    """The width ``review --text`` wraps to: ``$COLUMNS``, else the terminal's when the output
    is one; None in a pipe (one line per item, for scripts)."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns > 0:
        return columns
    stream = sys.__stdout__
    if stream is None or not stream.isatty():
        return None
    try:
        return os.get_terminal_size(stream.fileno()).columns or None
    except (ValueError, OSError):
        return None


def run(args: argparse.Namespace) -> int:
    """Run ``review``; returns the exit status."""
    from minefield.cli.records import record_path

    review, names = load_review(record_path(str(args.file)), args.seat)
    if args.text or not _terminal_attached():
        honors: HonorNames = args.honors or saved_honor_names()
        for line in review_lines(review, names, args.opponent, honors, text_width()):
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


__all__ = ["COMMANDS", "add_parser", "load_review", "review_lines", "run", "section_lines",
           "text_width", "wrap_text"]
