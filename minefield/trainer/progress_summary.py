"""The progress summaries: what the stats screen and ``minefield stats`` show, summed from the
progress file's rows (:mod:`minefield.trainer.progress`): games and discards overall, over the
last games and per ISO week, and drill accuracy by kind.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from minefield.trainer.progress_records import parse_time


def week_of(moment: datetime) -> str:
    """The ISO week of ``moment`` as ``2026-W48`` (the periods of the summaries)."""
    year, week, _ = moment.astimezone(UTC).isocalendar()
    return f"{year}-W{week:02d}"


@dataclass(frozen=True)
class DefenseStats:
    """Games and discards over one stretch of time (all, a week, the last N games).

    Two kinds of figure: what happened (``deal_in_rate``, ``points_lost`` per game: the
    safety of the play) and how the discards agreed with the danger estimate
    (``danger_taken`` and ``least_danger`` are sums over the discards that have an estimate;
    ``excess_per_discard`` is their difference per such discard: 0 means the estimate's least
    dangerous tile every time, which is not the same as safe).
    """

    label: str
    games: int = 0
    won: int = 0
    deal_ins: int = 0
    draws: int = 0
    points: int = 0
    points_lost: int = 0
    discards: int = 0
    danger_taken: float = 0.0
    least_danger: float = 0.0

    @property
    def deal_in_rate(self) -> float | None:
        """Deal-ins per game, None without games."""
        return self.deal_ins / self.games if self.games else None

    @property
    def points_lost_per_game(self) -> float | None:
        """Points paid for deal-ins per game, None without games."""
        return self.points_lost / self.games if self.games else None

    @property
    def excess_per_discard(self) -> float | None:
        """Danger taken beyond the least possible, per estimated discard (None without any)."""
        return (self.danger_taken - self.least_danger) / self.discards if self.discards else None

    def to_json(self) -> dict[str, Any]:
        """The stats as ``minefield stats --json`` prints them."""
        return {
            "label": self.label, "games": self.games, "won": self.won,
            "deal_ins": self.deal_ins, "draws": self.draws, "points": self.points,
            "points_lost": self.points_lost,
            "points_lost_per_game": (None if self.points_lost_per_game is None
                                     else round(self.points_lost_per_game, 1)),
            "deal_in_rate": self.deal_in_rate, "discards": self.discards,
            "danger_taken": round(self.danger_taken, 6),
            "least_danger": round(self.least_danger, 6),
            "excess_per_discard": (None if self.excess_per_discard is None
                                   else round(self.excess_per_discard, 6)),
        }


@dataclass(frozen=True)
class DrillStats:
    """Drills of one kind over one stretch of time: attempts, right answers, mean score."""

    kind: str
    label: str
    attempts: int = 0
    correct: int = 0
    score_sum: float = 0.0

    @property
    def accuracy(self) -> float | None:
        """Right answers per attempt (None without attempts)."""
        return self.correct / self.attempts if self.attempts else None

    @property
    def mean_score(self) -> float | None:
        """The mean score (0 to 1; None without attempts)."""
        return self.score_sum / self.attempts if self.attempts else None

    def to_json(self) -> dict[str, Any]:
        """The stats as ``minefield stats --json`` prints them."""
        return {"kind": self.kind, "label": self.label, "attempts": self.attempts,
                "correct": self.correct, "accuracy": self.accuracy,
                "mean_score": None if self.mean_score is None else round(self.mean_score, 6)}


@dataclass(frozen=True)
class ProgressSummary:
    """What the stats screen and ``minefield stats`` show.

    ``overall`` covers every game, ``recent`` the last ``last_games`` games, ``weeks`` one
    entry per ISO week that has games (oldest first, at most ``weeks`` of them). ``drills``
    has one overall entry per kind, ``drill_weeks`` one per kind and week.
    """

    overall: DefenseStats
    recent: DefenseStats
    weeks: tuple[DefenseStats, ...]
    drills: tuple[DrillStats, ...]
    drill_weeks: tuple[DrillStats, ...]

    @property
    def empty(self) -> bool:
        """True when nothing at all is recorded."""
        return self.overall.games == 0 and not self.drills

    @property
    def games(self) -> int:
        """Games recorded."""
        return self.overall.games

    @property
    def deal_ins(self) -> int:
        """Games lost by a deal-in."""
        return self.overall.deal_ins

    @property
    def deal_in_rate(self) -> float | None:
        """Deal-ins per game over all games."""
        return self.overall.deal_in_rate

    def to_json(self) -> dict[str, Any]:
        """The summary as ``minefield stats --json`` prints it."""
        return {
            "overall": self.overall.to_json(),
            "recent": self.recent.to_json(),
            "weeks": [w.to_json() for w in self.weeks],
            "drills": [d.to_json() for d in self.drills],
            "drill_weeks": [d.to_json() for d in self.drill_weeks],
        }


EMPTY_SUMMARY = ProgressSummary(DefenseStats("all games"), DefenseStats("last 0 games"), (), (),
                                ())


def _defense_stats(label: str, games: Sequence[sqlite3.Row],
                   discards: dict[int, list[sqlite3.Row]]) -> DefenseStats:
    estimated = [d for g in games for d in discards.get(g["id"], [])
                 if d["danger"] is not None and d["least_danger"] is not None]
    return DefenseStats(
        label=label, games=len(games),
        won=sum(1 for g in games if g["result"] == "won"),
        deal_ins=sum(1 for g in games if g["dealt_in"]),
        draws=sum(1 for g in games if g["result"] == "draw"),
        points=sum(g["points"] for g in games),
        points_lost=-sum(g["points"] for g in games if g["points"] < 0),
        discards=len(estimated),
        danger_taken=sum(d["danger"] for d in estimated),
        least_danger=sum(d["least_danger"] for d in estimated),
    )


def _drill_stats(kind: str, label: str, rows: Iterable[sqlite3.Row]) -> DrillStats:
    rows = list(rows)
    return DrillStats(kind, label, len(rows), sum(1 for r in rows if r["correct"]),
                      sum(r["score"] for r in rows))


def summarize(games: Sequence[sqlite3.Row], discard_rows: Iterable[sqlite3.Row],
              drill_rows: Iterable[sqlite3.Row], last_games: int = 20, weeks: int = 8
              ) -> ProgressSummary:
    """The summary of the progress file's rows, as
    :meth:`~minefield.trainer.progress.ProgressStore.summary` reads them: its games (oldest
    first), their discards (by game and number) and its drills (in the order answered)."""
    discards: dict[int, list[sqlite3.Row]] = {}
    for row in discard_rows:
        discards.setdefault(row["game_id"], []).append(row)
    overall = _defense_stats("all games", games, discards)
    recent_games = games[-last_games:] if last_games > 0 else []
    count = len(recent_games)
    label = "last game" if count == 1 else f"last {count} games"
    recent = _defense_stats(label, recent_games, discards)
    by_week: dict[str, list[sqlite3.Row]] = {}
    for game in games:
        by_week.setdefault(week_of(parse_time(game["played_at"])), []).append(game)
    week_labels = sorted(by_week)[-weeks:] if weeks > 0 else []
    week_stats = tuple(_defense_stats(w, by_week[w], discards) for w in week_labels)

    by_kind: dict[str, list[sqlite3.Row]] = {}
    for row in drill_rows:
        by_kind.setdefault(row["kind"], []).append(row)
    drill_stats = tuple(_drill_stats(kind, "all", rows)
                        for kind, rows in sorted(by_kind.items()))
    drill_weeks: list[DrillStats] = []
    for kind, rows in sorted(by_kind.items()):
        kind_weeks: dict[str, list[sqlite3.Row]] = {}
        for row in rows:
            kind_weeks.setdefault(week_of(parse_time(row["done_at"])), []).append(row)
        labels = sorted(kind_weeks)[-weeks:] if weeks > 0 else []
        drill_weeks.extend(_drill_stats(kind, w, kind_weeks[w]) for w in labels)
    return ProgressSummary(overall, recent, week_stats, drill_stats, tuple(drill_weeks))


__all__ = [
    "EMPTY_SUMMARY", "DefenseStats", "DrillStats", "ProgressSummary", "summarize", "week_of",
]
