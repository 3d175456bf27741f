"""The trainer's progress: games, deal-in rate and points lost (what happened), the danger taken
against the least possible (agreement with the estimate) over time, and drill accuracy by kind
in words, drawn as bars from a :class:`~minefield.trainer.progress_summary.ProgressSummary`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from minefield.trainer.progress_summary import DefenseStats, DrillStats, ProgressSummary
from minefield.trainer.words import kind_words
from minefield.tui.textual_private import SteadyHeader
from minefield.tui.widgets.footer import KeysFooter

BAR_WIDTH = 20
_EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(value: float, scale: float, width: int = BAR_WIDTH) -> str:
    """``value`` out of ``scale`` as a bar of ``width`` cells (eighths of a cell).

    >>> bar(0.5, 1.0, 4), bar(0.0, 1.0, 4), bar(2.0, 1.0, 4)
    ('██', '', '████')
    """
    if scale <= 0 or value <= 0:
        return ""
    eighths = round(min(1.0, value / scale) * width * 8)
    return ("█" * (eighths // 8) + (_EIGHTHS[eighths % 8] if eighths % 8 else "")).rstrip()


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _per_discard(total: float, stats: DefenseStats) -> float:
    return total / stats.discards if stats.discards else 0.0


def defense_table(rows: Sequence[DefenseStats], title: str) -> Table:
    """Games, deal-in rate and the danger per discard, taken against the least possible."""
    table = Table(title=title, title_justify="left", expand=True, pad_edge=False)
    table.add_column("", no_wrap=True)
    table.add_column("games", justify="right")
    table.add_column("deal-ins", no_wrap=True)
    table.add_column("danger per discard", no_wrap=True)
    scale = max((_per_discard(r.danger_taken, r) for r in rows), default=0.0)
    for stats in rows:
        rate = stats.deal_in_rate
        taken = _per_discard(stats.danger_taken, stats)
        least = _per_discard(stats.least_danger, stats)
        deal_ins = Text(f"{_percent(rate):>4} ")
        deal_ins.append(bar(rate or 0.0, 1.0, 10))
        if stats.discards:
            danger = Text(f"taken {taken:5.1%} ")
            danger.append(bar(taken, scale, 12))
            danger.append(f"\nleast {least:5.1%} ", style="dim")
            danger.append(bar(least, scale, 12), style="dim")
        else:
            danger = Text("no estimates")
        table.add_row(stats.label, str(stats.games), deal_ins, danger)
    return table


def drill_table(rows: Sequence[DrillStats]) -> Table:
    """Drill accuracy by kind."""
    table = Table(title="Drills", title_justify="left", expand=True, pad_edge=False)
    table.add_column("kind", no_wrap=True)
    table.add_column("answered", justify="right")
    table.add_column("right", no_wrap=True)
    for stats in rows:
        right = Text(f"{_percent(stats.accuracy):>4} ")
        right.append(bar(stats.accuracy or 0.0, 1.0))
        table.add_row(kind_words(stats.kind), str(stats.attempts), right)
    return table


def summary_renderable(summary: ProgressSummary) -> RenderableType:
    """The whole summary: overall and recent, per week, and the drills."""
    if summary.empty:
        return Text("No progress yet: play a practice game or a drill, and it shows here.")
    overall = summary.overall
    lost = overall.points_lost_per_game
    head = Text.assemble(
        ("Games ", "bold"), str(overall.games), f" · won {overall.won} · dealt in "
        f"{overall.deal_ins} · draws {overall.draws} · points {overall.points}\n",
        "Safety: deal-in rate ", (_percent(overall.deal_in_rate), "bold"),
        " · points lost per game ", ("-" if lost is None else f"{lost:.0f}", "bold"),
        " (what happened)\n",
        "Agreement with the estimate: ",
        ("-" if overall.excess_per_discard is None else f"{overall.excess_per_discard:.1%}",
         "bold"), " danger beyond its safest tile per discard\n",
        ("(0: you always took the tile it found safest; that is not the same as safe)",
         "dim"))
    parts: list[RenderableType] = [head]
    if overall.games:
        parts.append(defense_table([overall, summary.recent], "Games"))
    if summary.weeks:
        parts.append(defense_table(summary.weeks, "Over time (per week)"))
    if summary.drills:
        parts.append(drill_table(summary.drills))
    return Group(*parts)


class StatsScreen(Screen[None]):
    """The progress summary of the trainer (practice games and drills)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Back"),
    ]

    def __init__(self, summary: ProgressSummary, problem: str | None = None) -> None:
        super().__init__()
        self.summary = summary
        self.problem = problem

    def compose(self) -> ComposeResult:
        yield SteadyHeader()
        with VerticalScroll(id="stats-body"):
            if self.problem:
                yield Static(Text(self.problem), id="stats-problem")
            yield Static(summary_renderable(self.summary), id="stats-text")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = "Defense progress"
        self.query_one("#stats-body").focus()

    def action_close(self) -> None:
        """Back to where you were."""
        self.dismiss()


__all__ = ["StatsScreen", "bar", "defense_table", "drill_table", "summary_renderable"]
