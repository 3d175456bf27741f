"""``minefield review FILE``: the defense review of a finished game from its record.

On a terminal it opens the review screen (step through the seat's discards with the danger at
that moment and the opponent's hand revealed); in a pipe, or with ``--text``, it prints the same
review as plain lines; with ``--html PAGE`` it writes it as one self-contained web page
(:mod:`minefield.trainer.review_page`; ``-`` prints it). A file that is not a usable record, a
game that has not ended, or a page that cannot be written is one line on stderr and exit
status 2; a record that does not replay to its stored result exits 1.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

from minefield.cli.common import Subparsers, UsageError, saved_honor_names
from minefield.defense.calibration import OPPONENTS, Opponent
from minefield.phrasing import line_breaks
from minefield.rules.game import Seat
from minefield.rules.names import HONOR_NAMES, HonorNames, name_text
from minefield.trainer.defense_review import (
    GameReview,
    ReviewError,
    opponent_of,
)
from minefield.trainer.review_page import review_page
from minefield.trainer.review_parts import review_of_record, review_parts
from minefield.trainer.sections import Section

COMMANDS = ("review",)


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add the ``review`` subcommand."""
    r = sub.add_parser("review", help="review your defense in a finished game",
                       description="Step through one seat's discards of a finished game with "
                       "the danger each carried then, the opponent's hand revealed, where the "
                       "seat dealt in and what was safer, and the danger taken in total against "
                       "the least possible. Opens the review screen on a terminal; prints plain "
                       "lines in a pipe or with --text; writes one self-contained web page "
                       "with --html.")
    r.add_argument("file", type=Path, metavar="FILE",
                   help="a record (.jsonl), or a game's number or id as `history` lists them")
    r.add_argument("--seat", choices=[s.value for s in Seat], default=None,
                   help="whose discards (default: the player in a practice game, else east)")
    r.add_argument("--opponent", choices=OPPONENTS, default=None,
                   help="whom the danger is estimated for: a bot of that level or a person "
                   "(default: from the record, the bot's level in practice, else person)")
    r.add_argument("--method", choices=["fast"], default="fast",
                   help="the estimate: fast, the only one (kept for old scripts)")
    shown = r.add_mutually_exclusive_group()
    shown.add_argument("--text", action="store_true",
                       help="print the review instead of showing it")
    shown.add_argument("--html", type=Path, default=None, metavar="PAGE",
                       help="write the review as one self-contained web page (the tiles "
                       "drawn, nothing fetched from anywhere) to PAGE; - prints it")
    r.add_argument("--honors", choices=HONOR_NAMES, default=None,
                   help="how honors are written: letters (E S W N Wh Gr Rd), kanji or numbers "
                   "(1z-7z); default: the app's setting \"Honor names\"")


def load_review(path: Path, seat: str | None) -> tuple[GameReview, dict[Seat, str]]:
    """The review of the record at ``path`` for ``seat`` (None: the player's,
    :func:`~minefield.bots.base.player_seat`) and the players' names
    (:func:`~minefield.trainer.defense_review.opponent_of` reads the opponent from them);
    :class:`UsageError` (one line) when it cannot be made."""
    try:
        return review_of_record(path, Seat(seat) if seat is not None else None)
    except ReviewError as error:
        raise UsageError(str(error)) from None


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
    parts = review_parts(review, names, against)
    yield "", parts.heading
    if parts.note is not None:
        yield "", parts.note
    for discard in parts.discards:
        yield f"{discard.number:>2} ", f"{discard.text} [{discard.truth}]"
    if parts.totals is not None:
        yield "", parts.totals
    for section in parts.sections:
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

    path = record_path(str(args.file))
    if args.html is not None and str(args.html) != "-":
        check_page_path(args.html)  # before the work, which takes a moment
    review, names = load_review(path, args.seat)
    honors: HonorNames = args.honors or saved_honor_names()
    if args.html is not None:
        text = review_page(review_parts(review, names, args.opponent), honors,
                           title=page_title(review, names), source=path.name)
        if str(args.html) == "-":
            sys.stdout.write(text)
        else:
            write_page(args.html, text)
        return 0
    if args.text or not _terminal_attached():
        for line in review_lines(review, names, args.opponent, honors, text_width()):
            print(line)
        return 0
    from minefield.tui.review_app import ReviewApp  # Textual loads only for the screen

    app = ReviewApp(review, names, args.opponent or opponent_of(names[review.seat.other]))
    app.run()
    return app.return_code or 0


def page_title(review: GameReview, names: dict[Seat, str]) -> str:
    """The review page's title: whose review, against whom."""
    return (f"Defense review of {names[review.seat]} ({review.seat.value}) against "
            f"{names[review.seat.other]}")


def check_page_path(path: Path) -> None:
    """:class:`UsageError` (one line) when a page cannot be written at ``path``: a folder, a
    folder that does not exist, or one this user may not write in."""
    if path.is_dir():
        raise UsageError(f"{path}: is a folder: name the page to write, e.g. review.html")
    folder = path.parent
    if not folder.is_dir():
        raise UsageError(f"{path}: cannot write the page: no folder {folder}")
    if path.exists() and not os.access(path, os.W_OK):
        raise UsageError(f"{path}: cannot write the page: permission denied")
    if not path.exists() and not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"{path}: cannot write the page in {folder}: permission denied")


def write_page(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: a regular file (or a new one) is
    written aside and moved in place, so a full disk never leaves half a page or spoils an
    older one; anything else (``/dev/stdout``, a pipe) is written to directly.
    :class:`UsageError` (one line) when the system refuses."""
    data = text.encode()
    try:
        if path.exists() and not path.is_file():
            with path.open("wb") as stream:
                stream.write(data)
            return
        aside = path.with_name(f".{path.name}.{os.getpid()}.part")
        descriptor = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
        try:
            with os.fdopen(descriptor, "wb") as stream:
                stream.write(data)
            os.replace(aside, path)
        except BaseException:
            aside.unlink(missing_ok=True)
            raise
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        raise UsageError(f"{path}: cannot write the page: {reason}") from None


def _terminal_attached() -> bool:
    """True when the screen has a terminal to run in (Textual reads stdin, draws on stderr)."""
    return all(stream is not None and stream.isatty() for stream in (sys.__stdin__,
                                                                      sys.__stderr__))


__all__ = ["COMMANDS", "add_parser", "check_page_path", "load_review", "page_title",
           "review_lines", "run", "section_lines", "text_width", "wrap_text", "write_page"]
