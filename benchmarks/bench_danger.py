"""How well the danger estimate predicts deal-ins, per opponent level, against the estimate
before the suit reading, overall and on flush positions.

The games are ``danger_games.py``'s (played once, cached under ``/tmp``): for each opponent level
(``easy``, ``normal``, ``strong``) a ``strong`` defender plays that level; the odd games are held
out from ``fit_danger.py``'s fits and are the ones measured here. A position is what the
defender sees before one of its discards; its *items* are the kinds left in its pool that are
neither genbutsu nor passed (those are certain zeros for every estimate, R15). An item's truth,
read from the engine and never given to an estimate, is whether discarding it now would end
the game: a wait of the opponent, eligible with this discard's ippatsu/houtei (R14, R16, R17),
the opponent not furiten (R13, R15).

Estimates:

* ``before``: the fast estimate as it was before the suit reading (fitted per opponent on 17
  features; its coefficients are kept here in :data:`BEFORE`);
* ``fast``: the fast estimate as shipped, for the level played against;
* ``strong-fit``: the shipped estimate for ``strong`` used against every level (what fitting per
  opponent adds).

Per level it prints the Brier score and its skill against the baseline (0 for genbutsu and
passed tiles, else the training games' deal-in rate), the AUC, the ECE over 10 bands of equal
count (the mean gap between predicted and observed rates, weighted by the band's items), and
the deal-in rate when the kind of least estimated danger in the pool is discarded (ties share
the discard evenly), each with a 95% interval from a bootstrap over the held-out *games*;
then the paired differences ``fast`` minus ``before`` on the same resamples (the AUC's
intervals use the predictions in 2,000 rank bands, exact in the point value). Each level is
measured twice: on every held-out position, then on the *flush positions* alone, where the
opponent's hand is honitsu or chinitsu (its number tiles all of one suit, R19; the truth, read
from the engine), with the flush training positions' deal-in rate as the baseline. Also the
wall and CPU time of ``fast_dangers`` per position.

Usage: ``nice -n 5 python benchmarks/bench_danger.py [--games 2000] [--seed 17] [--boot 1000]``
(``--games`` per level as cached by ``fit_danger.py --play`` or ``danger_games.py``).
"""

from __future__ import annotations

import argparse
import bisect
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from danger_games import DEFAULT_CACHE, LEVELS, PositionRows, load_games, load_rows, samples_of

from minefield.defense import calibration
from minefield.defense.fast import fast_dangers

#: The estimate before the suit reading (fitted per level on 2,000 games, seed 17, the even
#: games; 17 features): per level, the coefficients of the first 17
#: of today's features (the suit features came after them).
BEFORE: dict[str, tuple[float, ...]] = {
    "easy": (-4.8417, 0.1711, 0.1429, 0.0959, 0.0934, 0.1316, 0.0743, -0.0929, 0.5304, -0.0997,
             0.0234, 0.0086, 0.4358, 0.0099, -0.0228, -0.1203, 0.1035),
    "normal": (0.8828, 0.9648, -0.4592, -0.1485, 0.1671, 0.121, -0.0734, -0.2535, 0.1727,
               -0.1637, -0.1209, -0.0291, -0.0369, -0.3564, 0.0271, 0.0115, -0.4835),
    "strong": (-0.8291, 0.6355, -0.1126, 0.1636, 0.1934, 0.1313, -0.0231, -0.0056, 0.9542,
               0.1417, 0.0971, -0.1529, -0.0676, 0.2739, 0.0021, 0.0489, -0.2914),
}
ESTIMATES = ("before", "fast", "strong-fit")
BANDS = 10
RANK_BANDS = 2000


def sigmoid(z: float) -> float:
    """The logistic function, clipped."""
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


def chance(w: Sequence[float], row: Sequence[float]) -> float:
    """A logistic mapping's chance for one row (``w`` may cover a prefix of the row)."""
    return sigmoid(sum(c * x for c, x in zip(w, row, strict=False)))


@dataclass
class GameItems:
    """One held-out game: per item its predictions and truth, and per position the expected
    deal-in of each estimate's least dangerous kind."""

    preds: dict[str, list[float]]
    truth: list[int]
    least: dict[str, list[float]]


#: The danger coefficients per level (the shipped ones, or ``--fit FILE``'s).
DANGER: dict[str, Sequence[float]] = {level: fit.danger for level, fit in calibration.FITS.items()}


def game_items(positions: Sequence[PositionRows], level: str) -> GameItems:
    """The items of one game's positions under every estimate."""
    fits = {"fast": DANGER[level], "strong-fit": DANGER["strong"], "before": BEFORE[level]}
    out = GameItems({name: [] for name in ESTIMATES}, [], {name: [] for name in ESTIMATES})
    for position in positions:
        per_kind: dict[str, list[float]] = {name: [] for name in ESTIMATES}
        for row in position.rows:
            for name in ESTIMATES:
                p = chance(fits[name], row.features) if row.live else 0.0
                per_kind[name].append(p)
                if not row.known_safe:
                    out.preds[name].append(p)
            if not row.known_safe:
                out.truth.append(1 if row.points else 0)
        truths = [1 if row.points else 0 for row in position.rows]
        for name in ESTIMATES:
            low = min(per_kind[name])
            tied = [t for p, t in zip(per_kind[name], truths, strict=True) if p <= low + 1e-12]
            out.least[name].append(sum(tied) / len(tied))
    return out


@dataclass(frozen=True)
class Stats:
    """Sufficient statistics of one game for one estimate (bootstrap sums these)."""

    n: int
    positives: int
    sq_error: float
    base_sq_error: float
    band_n: tuple[int, ...]
    band_pred: tuple[float, ...]
    band_obs: tuple[int, ...]
    rank_pos: dict[int, int]
    rank_neg: dict[int, int]
    least_sum: float
    positions: int


def stats_of(game: GameItems, name: str, rate: float, edges: Sequence[float],
             ranks: Sequence[float]) -> Stats:
    """One game's statistics for estimate ``name`` (bands fixed on the pooled predictions)."""
    preds, truth = game.preds[name], game.truth
    band_n, band_pred, band_obs = [0] * BANDS, [0.0] * BANDS, [0] * BANDS
    rank_pos: dict[int, int] = {}
    rank_neg: dict[int, int] = {}
    for p, y in zip(preds, truth, strict=True):
        b = min(BANDS - 1, bisect.bisect_right(edges, p))
        band_n[b] += 1
        band_pred[b] += p
        band_obs[b] += y
        r = bisect.bisect_left(ranks, p)
        target = rank_pos if y else rank_neg
        target[r] = target.get(r, 0) + 1
    return Stats(len(truth), sum(truth),
                 sum((p - y) ** 2 for p, y in zip(preds, truth, strict=True)),
                 sum((rate - y) ** 2 for y in truth), tuple(band_n), tuple(band_pred),
                 tuple(band_obs), rank_pos, rank_neg, sum(game.least[name]),
                 len(game.least[name]))


def summarize(games: Sequence[Stats]) -> dict[str, float]:
    """Brier, skill, binned AUC, ECE and the least-kind deal-in rate of some games."""
    n = sum(g.n for g in games)
    sq = sum(g.sq_error for g in games)
    base = sum(g.base_sq_error for g in games)
    band_n = [sum(g.band_n[b] for g in games) for b in range(BANDS)]
    band_pred = [sum(g.band_pred[b] for g in games) for b in range(BANDS)]
    band_obs = [sum(g.band_obs[b] for g in games) for b in range(BANDS)]
    ece = sum(abs(band_pred[b] - band_obs[b]) for b in range(BANDS) if band_n[b]) / n
    pos: dict[int, int] = {}
    neg: dict[int, int] = {}
    for g in games:
        for r, c in g.rank_pos.items():
            pos[r] = pos.get(r, 0) + c
        for r, c in g.rank_neg.items():
            neg[r] = neg.get(r, 0) + c
    positives, negatives = sum(pos.values()), sum(neg.values())
    below, wins = 0, 0.0
    for r in sorted(set(pos) | set(neg)):
        wins += pos.get(r, 0) * (below + neg.get(r, 0) / 2)
        below += neg.get(r, 0)
    return {"brier": sq / n, "skill": 1 - sq / base if base else float("nan"),
            "auc": wins / (positives * negatives) if positives and negatives else float("nan"),
            "ece": ece, "least": sum(g.least_sum for g in games) / sum(g.positions for g in games)}


def exact_auc(scores: Sequence[float], labels: Sequence[int]) -> float:
    """The AUC with exact ranks (ties count half)."""
    order = sorted(range(len(scores)), key=lambda i: scores[i])
    rank_sum, i = 0.0, 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        mean_rank = (i + j) / 2 + 1
        rank_sum += mean_rank * sum(labels[order[k]] for k in range(i, j + 1))
        i = j + 1
    positives = sum(labels)
    negatives = len(labels) - positives
    if not positives or not negatives:
        return float("nan")
    return (rank_sum - positives * (positives + 1) / 2) / (positives * negatives)


def interval(values: Sequence[float]) -> tuple[float, float]:
    """The 2.5% and 97.5% quantiles."""
    ordered = sorted(v for v in values if not math.isnan(v))
    if not ordered:
        return float("nan"), float("nan")
    return ordered[int(0.025 * (len(ordered) - 1))], ordered[int(0.975 * (len(ordered) - 1))]


def timing(sample: Sequence[object], run: Callable[[object], object]) -> tuple[float, float]:
    """Wall and CPU milliseconds per call."""
    wall, cpu = time.perf_counter(), time.process_time()
    for item in sample:
        run(item)
    count = max(1, len(sample))
    return ((time.perf_counter() - wall) * 1000 / count,
            (time.process_time() - cpu) * 1000 / count)


def measure_level(level: str, positions: Sequence[PositionRows], boot: int, seed: int,
                  played: int, flush: bool = False) -> None:
    """Print one level's table and paired differences (with ``flush``, on the positions
    whose opponent holds honitsu or chinitsu alone, the baseline rate being theirs)."""
    if flush:
        positions = [p for p in positions if p.flush]
    train = [p for p in positions if p.game % 2 == 0]
    test = [p for p in positions if p.game % 2 == 1]
    train_items = [r for p in train for r in p.rows if not r.known_safe]
    rate = sum(1 for r in train_items if r.points) / max(1, len(train_items))
    by_game: dict[int, list[PositionRows]] = {}
    for p in test:
        by_game.setdefault(p.game, []).append(p)
    games = [game_items(rows, level) for _, rows in sorted(by_game.items())]
    truth = [y for g in games for y in g.truth]
    if not truth:
        print(f"\n{level} opponents{', flush positions' if flush else ''}: none held out")
        return
    what = (f"flush positions (the opponent holds honitsu or chinitsu): {len(games)} held-out "
            f"games of {played}" if flush else
            f"{played} held-out games played, {len(games)} with a defender discard")
    print(f"\n{level} opponents, {what}, {len(test)} positions, {len(truth)} live items, "
          f"{sum(truth)} deal-ins ({sum(truth) / len(truth):.2%}); baseline rate {rate:.2%} "
          "(training games)")
    stats: dict[str, list[Stats]] = {}
    point: dict[str, dict[str, float]] = {}
    for name in ESTIMATES:
        pooled = sorted(p for g in games for p in g.preds[name])
        edges = [pooled[len(pooled) * b // BANDS] for b in range(1, BANDS)]
        ranks = [pooled[len(pooled) * b // RANK_BANDS] for b in range(RANK_BANDS)]
        stats[name] = [stats_of(g, name, rate, edges, ranks) for g in games]
        point[name] = summarize(stats[name])
        point[name]["auc"] = exact_auc([p for g in games for p in g.preds[name]], truth)
    rng = random.Random(seed)
    resamples = [[rng.randrange(len(games)) for _ in games] for _ in range(boot)]
    boots = {name: [summarize([stats[name][i] for i in pick]) for pick in resamples]
             for name in ESTIMATES}
    print(f"{'estimate':11} {'Brier':>7} {'skill [95% CI]':>24} {'AUC [95% CI]':>22} "
          f"{'ECE [95% CI]':>24} {'deal-in at least [95% CI]':>27}")
    for name in ESTIMATES:
        got, ci = point[name], {k: interval([b[k] for b in boots[name]])
                               for k in ("skill", "auc", "ece", "least")}
        print(f"{name:11} {got['brier']:.4f}   {got['skill']:+.3f} [{ci['skill'][0]:+.3f}, "
              f"{ci['skill'][1]:+.3f}]   {got['auc']:.3f} [{ci['auc'][0]:.3f}, "
              f"{ci['auc'][1]:.3f}]   {got['ece']:.4f} [{ci['ece'][0]:.4f}, "
              f"{ci['ece'][1]:.4f}]   {got['least']:6.2%} [{ci['least'][0]:.2%}, "
              f"{ci['least'][1]:.2%}]")
    for other in ("before", "strong-fit"):
        if level == "strong" and other == "strong-fit":
            continue
        parts = []
        for key, fmt in (("skill", "+.3f"), ("auc", "+.3f"), ("ece", "+.4f"),
                         ("least", "+.2%")):
            diffs = [a[key] - b[key] for a, b in zip(boots["fast"], boots[other], strict=True)]
            low, high = interval(diffs)
            parts.append(f"{key} {point['fast'][key] - point[other][key]:{fmt}} "
                         f"[{low:{fmt}}, {high:{fmt}}]")
        print(f"  fast minus {other}: " + "; ".join(parts))


def main() -> int:
    """Measure every level and print the tables."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per level (cached)")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--boot", type=int, default=1000)
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--fit", type=Path, default=None,
                        help="measure this danger_fit.json instead of the shipped one")
    args = parser.parse_args()
    if args.fit is not None:
        loaded = json.loads(args.fit.read_text(encoding="utf-8"))
        DANGER.update({level: loaded["levels"][level]["danger"] for level in LEVELS})
    started = time.perf_counter()
    levels = tuple(args.levels.split(","))
    positions = load_rows(args.cache, args.seed, args.games, levels)
    fit_note = (f"{args.fit}" if args.fit is not None else f"shipped: {calibration.FIT}")
    print(f"bench_danger: {args.games} games per level (seed {args.seed}), odd games held out; "
          f"fit {fit_note}")
    for level in levels:
        mine = [p for p in positions if p.level == level]
        played = len([m for m in load_games(args.cache, args.seed, args.games, (level,),
                                            play_missing=False) if m.held_out])
        measure_level(level, mine, args.boot, args.seed, played)
        measure_level(level, mine, args.boot, args.seed, played, flush=True)
    moves = [m for m in load_games(args.cache, args.seed, min(args.games, 200), ("strong",),
                                   play_missing=False) if m.held_out]
    sample = [s.position for m in moves for s in samples_of(m)][:1000]
    wall, cpu = timing(sample, lambda p: fast_dangers(p, "strong"))  # type: ignore[arg-type]
    pwall, pcpu = timing(sample, lambda p: fast_dangers(p, "person"))  # type: ignore[arg-type]
    print(f"\nfast_dangers per position ({len(sample)} held-out positions): {wall:.2f} ms wall, "
          f"{cpu:.2f} ms CPU; a person (two fits): {pwall:.2f} ms wall, {pcpu:.2f} ms CPU")
    print(f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
