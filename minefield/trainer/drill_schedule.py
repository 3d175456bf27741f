"""Spaced repetition of the drills (:mod:`minefield.trainer.drills`): Leitner boxes per
pattern, replayed from the stored history of answers (:mod:`minefield.trainer.progress`), so
that a pattern missed comes back sooner; and the next drill to ask.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from minefield.rules.seed import SeedError, derive_seed, parse_seed
from minefield.trainer.drills import (
    KINDS,
    PATTERNS,
    Drill,
    DrillError,
    DrillKind,
    make_drill,
)
from minefield.trainer.progress_records import DrillRecord

__all__ = ["BOX_INTERVALS", "PatternBox", "Scheduler"]


#: Box n (1-5) comes back after BOX_INTERVALS[n - 1] further drills.
BOX_INTERVALS = (1, 2, 4, 8, 16)


@dataclass(frozen=True)
class PatternBox:
    """A pattern's Leitner box: ``key`` is ``kind:pattern``; it is due at drill ``due``."""

    key: str
    box: int
    last_seen: int
    due: int

    @property
    def kind(self) -> DrillKind:
        """The drill kind of the pattern."""
        kind = self.key.split(":", 1)[0]
        return next(k for k in KINDS if k == kind)

    @property
    def pattern(self) -> str:
        """The pattern's name."""
        return self.key.split(":", 1)[1]


class Scheduler:
    """Leitner boxes over the answered drills, and the next drill to ask.

    Replaying the history (oldest first): a right answer moves the pattern one box up (at most
    5), a wrong one back to box 1. A pattern in box ``n`` is due again ``BOX_INTERVALS[n-1]``
    drills after it was last seen, so a missed pattern comes back at the next drill. The next
    drill is the due pattern in the lowest box (then the longest overdue, then by name); when
    none is due, a kind chosen by a generator seeded from ``seed`` and the history's length.
    Everything is deterministic given the history and the seed.
    """

    #: The kinds whose patterns it schedules.
    KNOWN = frozenset(KINDS)

    def __init__(self, history: Sequence[DrillRecord], seed: int | str,
                 kinds: Sequence[DrillKind] = KINDS) -> None:
        try:
            self.seed = parse_seed(seed)
        except SeedError as error:
            raise DrillError(f"seed: {error}") from None
        if not kinds:
            raise DrillError("kinds: name at least one drill kind")
        self.kinds = tuple(kinds)
        self.count = len(history)
        boxes: dict[str, PatternBox] = {}
        for index, record in enumerate(history):
            if record.kind not in self.KNOWN:
                continue  # a drill of the player's own games keeps its own boxes
            key = f"{record.kind}:{record.pattern}"
            old = boxes.get(key)
            box = min(len(BOX_INTERVALS), old.box + 1) if old and record.correct else (
                2 if record.correct else 1)
            boxes[key] = PatternBox(key, box, index, index + BOX_INTERVALS[box - 1])
        self.boxes = boxes

    def due(self) -> list[PatternBox]:
        """The patterns due now, the one to ask first first."""
        due = [b for b in self.boxes.values() if b.due <= self.count and b.kind in self.kinds]
        return sorted(due, key=lambda b: (b.box, b.due, b.key))

    def next_target(self) -> tuple[DrillKind, str | None]:
        """The kind and pattern of the next drill (pattern None: the difficulty's choice)."""
        due = self.due()
        if due:
            first = due[0]
            known = PATTERNS[first.kind]
            target = first.pattern if not known or first.pattern in known else None
            return first.kind, target
        rng = random.Random(derive_seed(self.seed, "schedule", self.count))
        return rng.choice(self.kinds), None

    def next_drill(self, difficulty: str = "intermediate") -> Drill:
        """The next drill: :meth:`next_target` at ``difficulty``, seeded from the scheduler's
        seed and the number of drills answered."""
        kind, target = self.next_target()
        return make_drill(kind, derive_seed(self.seed, "drill", self.count), difficulty,
                          target)
