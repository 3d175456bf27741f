"""Fit the fast danger estimate per opponent level on bot games, and write the shipped data.

The games are ``danger_games.py``'s: for each opponent level (``easy``, ``normal``,
``strong``) a ``strong`` defender plays that level (strong against strong: both seats are
recorded), seeded, played once and cached under ``/tmp``. Odd games are held out (measured by
``bench_danger.py``, never fitted on); the even games train. For each level the script fits,
with :func:`minefield.defense.fast.features` as inputs (the order of
:data:`minefield.defense.calibration.DANGER_FEATURES`),

* the danger mapping: a logistic regression on the live pool kinds (exactly safe kinds are 0),
* the opponent-furiten mapping: a logistic regression, one row per position,
* the mean points of a ron by category (dora, next to the dora, other) and the lift of
  ippatsu/houtei,

then prints the held-out Brier skill and AUC of each level's fit (``bench_danger.py`` gives
the full table with intervals) and the fast estimate's time per position. ``--write``
replaces ``minefield/defense/danger_fit.json`` with the fitted constants; a ``person`` is a
blend of the levels' chances (:data:`PERSON_BLEND`). It also fits the strong bot's own read
(:data:`BOT_ROWS`): one danger mapping over the ``normal`` and ``strong`` games together.

Usage: ``nice -n 5 python benchmarks/fit_danger.py [--games 2000] [--seed 17] [--play]
[--write]`` (``--play`` plays the games that are not cached yet, one process).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from danger_games import (
    DEFAULT_CACHE,
    LEVELS,
    PositionRows,
    Row,
    load_games,
    load_rows,
    samples_of,
)

from minefield.defense.calibration import (
    BOT_DANGER,
    DANGER_FEATURES,
    FITS,
    FURITEN_FEATURES,
    VALUE_CATEGORIES,
)
from minefield.defense.fast import fast_dangers

RIDGE = 1e-3  # a little L2 (per row) so that a rare feature cannot run away
DATA = Path(__file__).resolve().parent.parent / "minefield/defense/danger_fit.json"
#: A person picks a hand for its value or its live waits, as the normal and strong bots do, not
#: at random as the easy bot does: their chances are the mean of those two levels'.
PERSON_BLEND = {"easy": 0.0, "normal": 0.5, "strong": 0.5}
MAX_ROWS = 250_000  # the most rows one fit uses (evenly spaced): pure Python is slow
#: The strong bot's own read (``bot_danger``): one danger mapping fitted on the training rows of
#: these levels' games together, each row counted this many times (the ``normal`` games have
#: about half the rows of the ``strong`` ones, whose both seats are recorded). The bot cannot
#: know whom it plays; with this read it deals in a little less against ``normal`` and a little
#: more against ``strong`` than with the ``strong`` fit (benchmarks/README.md; within the
#: intervals both ways).
BOT_ROWS = {"normal": 2, "strong": 1}


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the systems here are 17 by 17)."""
    n = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[col][col]:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return [a[i][n] / a[i][i] if a[i][i] else 0.0 for i in range(n)]


def sigmoid(z: float) -> float:
    """The logistic function, clipped."""
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


def fit_logistic(rows: Sequence[Sequence[float]], labels: Sequence[int],
                 steps: int = 25, start: Sequence[float] = ()) -> list[float]:
    """Logistic regression by Newton's method (ridge ``RIDGE * len(rows)``, none on the
    intercept, the first input), from ``start`` (zeros where it is short: the same optimum,
    fewer steps)."""
    d = len(rows[0])
    n = len(rows)
    w = [*start[:d], *([0.0] * (d - len(start[:d])))]
    for _ in range(steps):
        grad = [-RIDGE * n * w[j] if j else 0.0 for j in range(d)]
        hess = [[(RIDGE * n if i == j and i else 0.0) for j in range(d)] for i in range(d)]
        for row, y in zip(rows, labels, strict=True):
            p = sigmoid(sum(c * x for c, x in zip(w, row, strict=True)))
            r = p * (1 - p)
            e = y - p
            for i in range(d):
                xi = row[i]
                if not xi:
                    continue
                grad[i] += e * xi
                ri = r * xi
                hi = hess[i]
                for j in range(i, d):
                    hi[j] += ri * row[j]
        for i in range(d):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = _solve(hess, grad)
        w = [a + b for a, b in zip(w, step, strict=True)]
        print(f"  Newton step: largest change {max(abs(s) for s in step):.2g}",
              file=sys.stderr, flush=True)
        if max(abs(s) for s in step) < 1e-5:
            break
    return w


def auc(scores: Sequence[float], labels: Sequence[int]) -> float:
    """The chance that a random positive scores above a random negative (ties count half)."""
    order = sorted(range(len(scores)), key=lambda i: scores[i])
    ranks = [0.0] * len(scores)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    positives = sum(labels)
    negatives = len(labels) - positives
    if not positives or not negatives:
        return float("nan")
    rank_sum = sum(r for r, y in zip(ranks, labels, strict=True) if y)
    return (rank_sum - positives * (positives + 1) / 2) / (positives * negatives)


def live_rows(positions: Sequence[PositionRows]) -> list[Row]:
    """The live pool kinds of some positions, at most :data:`MAX_ROWS` (evenly spaced)."""
    live = [row for p in positions for row in p.rows if row.live]
    if len(live) > MAX_ROWS:
        step = len(live) / MAX_ROWS
        live = [live[int(i * step)] for i in range(MAX_ROWS)]
    return live


def fit_bot(positions: Sequence[PositionRows], start: Sequence[float] = ()) -> list[float]:
    """The strong bot's danger mapping: the training positions of the :data:`BOT_ROWS` levels
    together, each level's rows repeated as many times as it says."""
    pooled = [p for p in positions for _ in range(BOT_ROWS.get(p.level, 0))]
    live = live_rows(pooled)
    return [round(c, 4) for c in fit_logistic([r.features for r in live],
                                              [1 if r.points else 0 for r in live],
                                              start=start)]


def fit_level(positions: Sequence[PositionRows], start: Sequence[float] = ()
              ) -> dict[str, object]:
    """Every constant of one level's fit, from its training positions (Newton's method
    starts from ``start``: the shipped coefficients, the ones it lacks at zero)."""
    live = live_rows(positions)
    danger = fit_logistic([r.features for r in live], [1 if r.points else 0 for r in live],
                          start=start)
    furiten = fit_logistic([p.furiten_features for p in positions if p.number > 1],
                           [1 if p.opponent_furiten else 0 for p in positions if p.number > 1])
    means: dict[str, float] = {}
    for category in VALUE_CATEGORIES:
        won = [r.points for p in positions for r in p.rows
               if r.points and r.category == category and not p.bonus_han]
        means[category] = float(round(sum(won) / len(won))) if won else 8000.0
    plain = [r.points for p in positions for r in p.rows if r.points and not p.bonus_han]
    lifted = [r.points for p in positions for r in p.rows if r.points and p.bonus_han]
    base = sum(plain) / len(plain) if plain else 8000.0
    prior = 20  # ippatsu and houtei rons are rare: shrink their lift towards none
    factor = (sum(lifted) + prior * base) / (len(lifted) + prior) / base
    return {"danger": [round(c, 4) for c in danger], "furiten": [round(c, 4) for c in furiten],
            "mean_ron_points": means, "bonus_han_value_factor": round(factor, 3)}


def held_out_scores(positions: Sequence[PositionRows], fit: dict[str, object]) -> str:
    """Brier skill against a constant and AUC of a fit on held-out live kinds (no intervals:
    ``bench_danger.py`` gives those)."""
    w = fit["danger"]
    assert isinstance(w, list)
    rows = [r for p in positions for r in p.rows if not r.known_safe]
    labels = [1 if r.points else 0 for r in rows]
    chances = [sigmoid(sum(c * x for c, x in zip(w, r.features, strict=True))) if r.live
               else 0.0 for r in rows]
    rate = sum(labels) / len(labels)
    brier = sum((p - y) ** 2 for p, y in zip(chances, labels, strict=True)) / len(labels)
    constant = sum((rate - y) ** 2 for y in labels) / len(labels)
    return (f"{len(rows)} live kinds, deal-in rate {rate:.2%}: Brier skill "
            f"{1 - brier / constant:+.3f}, AUC {auc(chances, labels):.3f}")


def main() -> int:
    """Fit, print and (with ``--write``) store the per-level constants."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per level (cached)")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--play", action="store_true", help="play the games not cached yet")
    parser.add_argument("--write", action="store_true", help=f"replace {DATA.name}")
    args = parser.parse_args()
    started = time.perf_counter()
    if args.play:
        load_games(args.cache, args.seed, args.games)
    positions = load_rows(args.cache, args.seed, args.games)
    fits: dict[str, dict[str, object]] = {}
    for level in LEVELS:
        mine = [p for p in positions if p.level == level]
        train = [p for p in mine if p.game % 2 == 0]
        test = [p for p in mine if p.game % 2 == 1]
        games = len({p.game for p in train}), len({p.game for p in test})
        began = time.perf_counter()
        fits[level] = fit_level(train, FITS[level].danger)  # type: ignore[index]
        print(f"{level}: trained on {games[0]} games ({len(train)} positions) in "
              f"{time.perf_counter() - began:.0f} s; held out {games[1]} games: "
              f"{held_out_scores(test, fits[level])}")
        print(f"  danger {dict(zip(DANGER_FEATURES, fits[level]['danger'], strict=True))}")
    train = [p for p in positions if p.game % 2 == 0]
    began = time.perf_counter()
    bot = fit_bot(train, BOT_DANGER)
    for level in BOT_ROWS:
        test = [p for p in positions if p.level == level and p.game % 2 == 1]
        print(f"bot read ({time.perf_counter() - began:.0f} s) on the {level} held-out games: "
              f"{held_out_scores(test, {'danger': bot})}")
    moves = load_games(args.cache, args.seed, min(args.games, 100), ("strong",),
                       play_missing=False)
    sample = [s.position for m in moves for s in samples_of(m)][:1500]
    began = time.perf_counter()
    for position in sample:
        fast_dangers(position)
    ms = (time.perf_counter() - began) * 1000 / max(1, len(sample))
    print(f"fast_dangers: {ms:.2f} ms per position (wall, {len(sample)} positions; the fit "
          f"shipped when this ran)")
    data = {
        "fit": (f"{args.games} games per opponent level against a strong defender, seed "
                f"{args.seed}, the even games (benchmarks/fit_danger.py)"),
        "danger_features": list(DANGER_FEATURES),
        "furiten_features": list(FURITEN_FEATURES),
        "levels": fits,
        "person_blend": PERSON_BLEND,
        "bot_danger": bot,
        "bot_rows": BOT_ROWS,
    }
    text = json.dumps(data, indent=1) + "\n"
    if args.write:
        DATA.write_text(text, encoding="utf-8")
        print(f"wrote {DATA}")
    else:
        print(text)
    print(f"{time.perf_counter() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
