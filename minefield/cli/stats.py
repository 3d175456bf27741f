"""``minefield stats``: the trainer's progress in the shell (or ``--json``).

Games, deal-in rate and points lost per game (what happened), danger taken against the least
the pool offered (agreement with the estimate; overall, over the last games and per week) and
drill accuracy by kind (in words; ``--json`` keeps the kinds' codes), from the progress file
(:mod:`minefield.trainer.progress`). The file is only read: a missing one is "no progress
yet"; a damaged, unreadable or newer one is one line on stderr naming the file, exit status 1.
On a terminal the tables are drawn with Rich; in a pipe the same figures are plain lines.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table
from rich.text import Text

from minefield.cli.common import Subparsers
from minefield.paths import DATA_ENV
from minefield.trainer.words import kind_words

if TYPE_CHECKING:
    from minefield.trainer.progress_summary import DefenseStats, DrillStats, ProgressSummary

COMMANDS = ("stats",)
BAR_WIDTH = 20


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value}: give 1 or more")
    return value


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add the ``stats`` subcommand."""
    s = sub.add_parser("stats", help="your defense and drill progress",
                       description="Show the trainer's progress: games, deal-in rate, the "
                       "danger your discards took against the least your pool offered "
                       "(overall, over the last games and per week) and drill accuracy by kind.")
    s.add_argument("--file", type=Path, default=None, metavar="FILE",
                   help=f"progress file (default: progress.sqlite3 in the user data folder, "
                   f"or in ${DATA_ENV})")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument("--last", type=_positive, default=20, metavar="N",
                   help="how many recent games the 'last games' line covers (default 20)")
    s.add_argument("--weeks", type=_positive, default=8, metavar="N",
                   help="how many weeks with games to show (default 8)")


def run(args: argparse.Namespace) -> int:
    """Run ``stats``; the exit status (1 when the progress file cannot be read)."""
    # SQLite loads only for this command, not at every start of ``minefield``.
    from minefield.paths import progress_path
    from minefield.trainer.progress import ProgressError, open_progress

    path: Path = args.file if args.file is not None else progress_path()
    store, problem = open_progress(path, read_only=True)
    if problem is not None:
        print(f"minefield: {problem}", file=sys.stderr)
        return 1
    try:
        summary = store.summary(last_games=args.last, weeks=args.weeks)
    except ProgressError as error:
        print(f"minefield: {error}", file=sys.stderr)
        return 1
    finally:
        store.close()
    if args.json:
        print(json.dumps({"file": str(path), "empty": summary.empty, **summary.to_json()}))
        return 0
    if summary.empty:
        print(f"No progress recorded yet in {path}: play a game or a drill first.")
        return 0
    if sys.stdout.isatty():
        _print_rich(summary, path)
    else:
        print("\n".join(plain_lines(summary, path)))
    return 0


# ---------------------------------------------------------------------------------------------
# Words and figures


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _excess(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:+.1f}%"


def _lost(stats: DefenseStats) -> str:
    value = stats.points_lost_per_game
    return "-" if value is None else f"{value:.0f}"


def _defense_line(stats: DefenseStats) -> str:
    return (f"{stats.label}: {stats.games} games, {stats.won} won, {stats.deal_ins} dealt in, "
            f"{stats.draws} drawn, deal-in rate {_percent(stats.deal_in_rate)}, points "
            f"{stats.points:+d}, points lost per game {_lost(stats)}; {stats.discards} "
            f"estimated discards, danger taken {stats.danger_taken:.2f} against "
            f"{stats.least_danger:.2f} least possible ({_excess(stats.excess_per_discard)} "
            "per discard)")


def _drill_line(stats: DrillStats) -> str:
    return (f"{kind_words(stats.kind)} ({stats.label}): {stats.correct}/{stats.attempts} right "
            f"({_percent(stats.accuracy)}), mean score {_percent(stats.mean_score)}")


def plain_lines(summary: ProgressSummary, path: Path) -> list[str]:
    """The summary as plain lines (``stats`` in a pipe)."""
    lines = [f"Progress in {path}"]
    if summary.games:
        lines.append(_defense_line(summary.overall))
        lines.append(_defense_line(summary.recent))
        lines.extend(_defense_line(week) for week in summary.weeks)
    else:
        lines.append("No games recorded yet.")
    if summary.drills:
        lines.extend(_drill_line(d) for d in summary.drills)
        lines.extend(_drill_line(d) for d in summary.drill_weeks)
    else:
        lines.append("No drills answered yet.")
    lines.append("Deal-in rate and points lost say what happened (your safety). Danger is the "
                 "estimated chance that a discard deals in; 'per discard' is how much more you "
                 "took than the tile the estimate found safest, on average: agreement with the "
                 "estimate, not safety.")
    return lines


def _bar(value: float | None, style: str, width: int) -> Text:
    if value is None:
        return Text("")
    filled = round(max(0.0, min(1.0, value)) * width)
    return Text("█" * filled, style=style) + Text("·" * (width - filled), style="dim")


def _print_rich(summary: ProgressSummary, path: Path) -> None:
    console = Console()
    console.print(f"Progress in {path}")
    if summary.games:
        table = Table(title="Defense (lost: dealt in; rate: deal-ins per game; lost/game: "
                      "points paid per game)", title_justify="left")
        table.add_column("period", no_wrap=True)
        for column in ("games", "won", "lost", "rate"):
            table.add_column(column, justify="right")
        table.add_column("", no_wrap=True)
        table.add_column("lost/game", justify="right")
        table.add_column("excess", justify="right")
        table.add_column("points", justify="right")
        for games in (summary.overall, summary.recent, *summary.weeks):
            table.add_row(games.label, str(games.games), str(games.won), str(games.deal_ins),
                          _percent(games.deal_in_rate), _bar(games.deal_in_rate, "red", 5),
                          _lost(games), _excess(games.excess_per_discard),
                          f"{games.points:+d}")
        console.print(table)
    else:
        console.print("No games recorded yet.")
    if summary.drills:
        table = Table(title="Drills", title_justify="left")
        table.add_column("kind", no_wrap=True)
        table.add_column("period", no_wrap=True)
        for column in ("right", "accuracy"):
            table.add_column(column, justify="right")
        table.add_column("", no_wrap=True)
        table.add_column("mean score", justify="right")
        for drills in (*summary.drills, *summary.drill_weeks):
            table.add_row(kind_words(drills.kind), drills.label,
                          f"{drills.correct}/{drills.attempts}", _percent(drills.accuracy),
                          _bar(drills.accuracy, "green", BAR_WIDTH), _percent(drills.mean_score))
        console.print(table)
    else:
        console.print("No drills answered yet.")
    console.print("[dim]Rate and lost/game say what happened (your safety). Excess: how much "
                  "more deal-in chance your discards took than the tile the estimate found "
                  "safest, per discard: agreement with the estimate, not safety.[/dim]")


__all__ = ["COMMANDS", "add_parser", "plain_lines", "run"]
