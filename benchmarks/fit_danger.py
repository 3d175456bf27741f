"""Fit the fast danger estimate's calibration on bot games, and score it on held-out games.

Positions come from bot-against-bot games (:func:`minefield.bots.simulate.play_game`'s loop,
deals and bot seeds from the master seed, so a run is reproducible): before every discard,
the discarding seat's view becomes a :class:`~minefield.defense.position.Position`. Its truth
comes from the engine, never from the estimate: for each kind left in the pool, would
discarding it now be a ron? That is, the kind is one of the opponent's real waits, the
opponent is not furiten at that moment, and :func:`minefield.rules.score.score_win` with the
opponent's hand and :func:`minefield.rules.game.ron_context` (ippatsu R16, houtei R17) says the
win is eligible (R14); the points it would pay (ura included) are kept for the loss.

Games are split by number: every fourth game is held out. On the training games the script
fits, with :func:`minefield.defense.fast.features` as inputs,

* the danger mapping: a logistic regression on the live kinds (exactly safe kinds are 0),
* the opponent-furiten mapping: a logistic regression, one row per position,
* the mean points of a ron by category (dora, next to the dora, other) and the lift of
  ippatsu/houtei,

then prints the held-out Brier score, its skill against the baseline "0 for genbutsu and passed
tiles, else a constant" (the training rate), the AUC, and the fast estimate's time per
position. ``--write`` replaces ``minefield/defense/calibration.py`` with the fitted constants.

Usage: ``python benchmarks/fit_danger.py [--games 600] [--seed 11] [--jobs 2] [--write]``.
"""

from __future__ import annotations

import argparse
import itertools
import math
import pickle
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from minefield.bots.levels import make_bot
from minefield.bots.simulate import bot_seed, game_seed
from minefield.defense import calibration
from minefield.defense.estimate import estimate
from minefield.defense.fast import Features, fast_dangers, features, value_category
from minefield.defense.position import Position
from minefield.rules.game import Game, Seat, ron_context
from minefield.rules.score import score_win

# (East, West) levels, cycled over the games: mostly strong hands, as the trainer meets.
LEVEL_PAIRS = (("strong", "strong"), ("normal", "strong"), ("strong", "normal"),
               ("easy", "strong"), ("strong", "easy"), ("normal", "normal"))
HOLD_OUT_EVERY = 4  # game numbers divisible by this are held out
RIDGE = 1e-3  # a little L2 so that a rare feature cannot run away
CALIBRATION = Path(__file__).resolve().parent.parent / "minefield/defense/calibration.py"


@dataclass(frozen=True)
class Sample:
    """One position with its truth: per pool kind, the points a ron there would pay (0: none)."""

    game: int
    position: Position
    points: dict[int, int]
    opponent_furiten: bool
    opponent_level: str


def collect(index: int, seed: int) -> list[Sample]:
    """Every position of game ``index``, with its truth read from the engine."""
    game = Game(game_seed(seed, index))
    east_level, west_level = LEVEL_PAIRS[index % len(LEVEL_PAIRS)]
    levels = {Seat.EAST: east_level, Seat.WEST: west_level}
    bots = {Seat.EAST: make_bot(east_level, bot_seed(seed, index, "a")),
            Seat.WEST: make_bot(west_level, bot_seed(seed, index, "b"))}
    for seat in Seat:
        game.apply(seat, bots[seat].act(game.view(seat)))
    samples = []
    while game.turn is not None:
        seat = game.turn
        view = game.view(seat)
        position = Position.from_view(view)
        opponent = seat.other
        hand = game.hand_of(opponent)
        furiten = game.furiten_of(opponent) is not None
        points = {}
        for kind in position.pool_kinds:
            value = None
            if hand is not None and not furiten and kind in game.waits_of(opponent):
                ctx = ron_context(opponent, position.number, game.dora_indicator.kind,
                                  game.ura_indicator.kind)
                value = score_win(hand, kind, ctx, game.settings)
            points[kind] = value.paid.points if value is not None and value.eligible else 0
        samples.append(Sample(index, position, points, furiten, levels[opponent]))
        game.apply(seat, bots[seat].act(view))
    return samples


def _collect_chunk(args: tuple[range, int]) -> list[Sample]:
    indices, seed = args
    return [s for i in indices for s in collect(i, seed)]


def collect_all(games: int, seed: int, jobs: int) -> list[Sample]:
    """The positions of ``games`` games, in game order."""
    work = [(range(s, min(games, s + 10)), seed) for s in range(0, games, 10)]
    samples: list[Sample] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for done, chunk in enumerate(pool.map(_collect_chunk, work), 1):
            samples.extend(chunk)
            print(f"\r{done}/{len(work)} chunks", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return samples


# -- fitting ------------------------------------------------------------------------------------


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the systems here are 6 by 6)."""
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


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


def fit_logistic(rows: Sequence[Sequence[float]], labels: Sequence[int]) -> list[float]:
    """Logistic regression by Newton's method (a tiny ridge, none on the intercept)."""
    d = len(rows[0])
    w = [0.0] * d
    for _ in range(50):
        grad = [-RIDGE * w[j] if j else 0.0 for j in range(d)]
        hess = [[(RIDGE if i == j and i else 0.0) for j in range(d)] for i in range(d)]
        for row, y in zip(rows, labels, strict=True):
            p = _sigmoid(sum(c * x for c, x in zip(w, row, strict=True)))
            r = p * (1 - p)
            for i in range(d):
                grad[i] += (y - p) * row[i]
                ri = r * row[i]
                for j in range(i, d):
                    hess[i][j] += ri * row[j]
        for i in range(d):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = _solve(hess, grad)
        w = [a + b for a, b in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return w


def predict(w: Sequence[float], row: Sequence[float]) -> float:
    """The fitted chance of one row."""
    return _sigmoid(sum(c * x for c, x in zip(w, row, strict=True)))


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


def brier(chances: Sequence[float], labels: Sequence[int]) -> float:
    """The mean squared error of the chances."""
    return sum((p - y) ** 2 for p, y in zip(chances, labels, strict=True)) / len(labels)


@dataclass
class Table:
    """The fitting inputs of a set of samples, one entry per (position, pool kind)."""

    rows: list[tuple[float, ...]]
    live: list[bool]
    exact_safe: list[bool]
    labels: list[int]
    points: list[int]
    categories: list[str]
    bonus: list[bool]
    levels: list[str]
    furiten_rows: list[tuple[float, ...]]
    furiten_labels: list[int]
    samples: list[Sample]


def tabulate(samples: Sequence[Sample]) -> Table:
    """Compute the features of every sample (the same function the estimate uses)."""
    table = Table([], [], [], [], [], [], [], [], [], [], list(samples))
    for sample in samples:
        position = sample.position
        feats: Features = features(position)
        safe = position.genbutsu | position.passed
        for kind in position.pool_kinds:
            table.rows.append(feats.danger_row(kind))
            table.live.append(feats.possible[kind])
            table.exact_safe.append(kind in safe)
            table.labels.append(1 if sample.points[kind] else 0)
            table.points.append(sample.points[kind])
            table.categories.append(value_category(position, kind))
            table.bonus.append(feats.bonus_han)
            table.levels.append(sample.opponent_level)
        table.furiten_rows.append(feats.furiten_row())
        table.furiten_labels.append(1 if sample.opponent_furiten else 0)
    return table


def _round(values: Sequence[float], digits: int = 4) -> tuple[float, ...]:
    return tuple(round(v, digits) for v in values)


def fit(train: Table) -> dict[str, object]:
    """Fit every constant of the calibration module on the training table."""
    live = [i for i, ok in enumerate(train.live) if ok]
    danger = fit_logistic([train.rows[i] for i in live], [train.labels[i] for i in live])
    furiten = fit_logistic(train.furiten_rows, train.furiten_labels)
    means: dict[str, float] = {}
    for category in ("dora", "near_dora", "other"):
        won = [p for p, c, b in zip(train.points, train.categories, train.bonus, strict=True)
               if p and c == category and not b]
        means[category] = round(sum(won) / len(won)) if won else 8000.0
    plain = [p for p, b in zip(train.points, train.bonus, strict=True) if p and not b]
    lifted = [p for p, b in zip(train.points, train.bonus, strict=True) if p and b]
    base = sum(plain) / len(plain) if plain else 8000.0
    prior = 20  # ippatsu and houtei rons are rare: shrink their lift towards none
    factor = (sum(lifted) + prior * base) / (len(lifted) + prior) / base
    return {"DANGER_COEFFICIENTS": _round(danger), "FURITEN_COEFFICIENTS": _round(furiten),
            "MEAN_RON_POINTS": {k: float(v) for k, v in means.items()},
            "BONUS_HAN_VALUE_FACTOR": round(factor, 3), "bonus_rons": len(lifted)}


def _wrapped(value: object) -> str:
    """``repr(value)``, broken after commas to keep lines under 100 characters."""
    return "\n    ".join(textwrap.wrap(repr(value), 70, break_on_hyphens=False))


def module_text(constants: dict[str, object], fit_note: str) -> str:
    """The body of ``minefield/defense/calibration.py`` for these constants."""
    return f'''"""Fitted constants of the fast estimate (:mod:`minefield.defense.fast`).

Generated by ``python benchmarks/fit_danger.py --write`` (the script prints these constants
with its held-out scores); do not edit by hand, re-run the script.
"""

from __future__ import annotations

FIT = {fit_note!r}
# Logistic danger: intercept, log(share), discard number / 34, honor, killed share, bonus han,
# full suji, half suji, dora, next to the dora.
DANGER_COEFFICIENTS = {_wrapped(constants["DANGER_COEFFICIENTS"])}
# Logistic opponent furiten: intercept, discard number / 34, share killed by own discards.
FURITEN_COEFFICIENTS = {constants["FURITEN_COEFFICIENTS"]!r}
# Average points of an eligible ron (ura included), by where the winning tile sits.
MEAN_RON_POINTS = {constants["MEAN_RON_POINTS"]!r}
# Ippatsu (R16) or houtei (R17) lifts the value of a ron by about this factor.
BONUS_HAN_VALUE_FACTOR = {constants["BONUS_HAN_VALUE_FACTOR"]!r}
''' + posterior_block()


POSTERIOR_MARKER = "# The posterior's blend"


def posterior_block() -> str:
    """The posterior's constants of the current module (written by ``bench_danger.py
    --write``), carried over unchanged so that re-fitting the fast estimate keeps them."""
    text = CALIBRATION.read_text(encoding="utf-8")
    at = text.find(POSTERIOR_MARKER)
    return "" if at < 0 else "\n" + text[at:]


def evaluate(test: Table, constants: dict[str, object], base_rate: float) -> None:
    """Print the held-out scores of the fitted mapping and of the baseline."""
    w = constants["DANGER_COEFFICIENTS"]
    assert isinstance(w, tuple)
    model = [predict(w, row) if ok else 0.0 for row, ok in zip(test.rows, test.live, strict=True)]
    baseline = [0.0 if safe else base_rate for safe in test.exact_safe]
    raw = [math.exp(row[1]) if ok else 0.0 for row, ok in zip(test.rows, test.live, strict=True)]
    b_model, b_base = brier(model, test.labels), brier(baseline, test.labels)
    n, pos = len(test.labels), sum(test.labels)
    print(f"held out: {len(test.samples)} positions, {n} pool kinds, {pos} deal-ins "
          f"({pos / n:.2%})")
    print(f"  Brier  model {b_model:.5f}   baseline {b_base:.5f}   "
          f"skill {1 - b_model / b_base:+.1%}")
    print(f"  AUC    model {auc(model, test.labels):.3f}   baseline "
          f"{auc(baseline, test.labels):.3f}   heuristic share alone {auc(raw, test.labels):.3f}")
    live = [i for i, ok in enumerate(test.live) if ok and not test.exact_safe[i]]
    ys = [test.labels[i] for i in live]
    print(f"  live kinds only ({len(live)}): AUC model {auc([model[i] for i in live], ys):.3f}, "
          f"Brier model {brier([model[i] for i in live], ys):.5f} vs constant "
          f"{brier([base_rate] * len(live), ys):.5f}")
    for level in ("easy", "normal", "strong"):
        chosen = [i for i, lv in enumerate(test.levels) if lv == level]
        ys = [test.labels[i] for i in chosen]
        if chosen and sum(ys):
            b_m = brier([model[i] for i in chosen], ys)
            b_b = brier([baseline[i] for i in chosen], ys)
            print(f"  against {level:6} opponents ({len(chosen)} kinds, deal-in rate "
                  f"{sum(ys) / len(ys):.2%}): Brier {b_m:.5f} vs baseline {b_b:.5f}, skill "
                  f"{1 - b_m / b_b:+.1%}, AUC {auc([model[i] for i in chosen], ys):.3f}")
    print("  reliability (model chance bin: mean chance, observed rate, kinds):")
    bins = [0.0, 0.01, 0.03, 0.06, 0.1, 0.15, 0.25, 1.01]
    for low, high in itertools.pairwise(bins):
        members = [i for i, p in enumerate(model) if low <= p < high and test.live[i]]
        if members:
            mean = sum(model[i] for i in members) / len(members)
            rate = sum(test.labels[i] for i in members) / len(members)
            print(f"    [{low:.2f}, {high:.2f}): {mean:.3f}  {rate:.3f}  {len(members)}")
    fur = FuritenCheck(test, constants)
    print(f"  opponent furiten: Brier {fur.brier:.5f} vs constant {fur.constant:.5f}, "
          f"mean chance {fur.mean:.3f} vs rate {fur.rate:.3f}")
    losses = [p for p in test.points]
    expected = [m * calibration_value(test, i, constants) for i, m in enumerate(model)]
    print(f"  loss: mean expected {sum(expected) / n:.0f} vs mean real {sum(losses) / n:.0f} "
          "points per pool kind")


def calibration_value(test: Table, i: int, constants: dict[str, object]) -> float:
    """The fitted mean ron value of entry ``i``."""
    means = constants["MEAN_RON_POINTS"]
    factor = constants["BONUS_HAN_VALUE_FACTOR"]
    assert isinstance(means, dict) and isinstance(factor, float)
    value = float(means[test.categories[i]])
    return value * (factor if test.bonus[i] else 1.0)


class FuritenCheck:
    """Held-out scores of the furiten mapping."""

    def __init__(self, test: Table, constants: dict[str, object]) -> None:
        w = constants["FURITEN_COEFFICIENTS"]
        assert isinstance(w, tuple)
        chances = [predict(w, row) if s.position.number > 1 else 0.0
                   for row, s in zip(test.furiten_rows, test.samples, strict=True)]
        labels = test.furiten_labels
        self.rate = sum(labels) / len(labels)
        self.mean = sum(chances) / len(chances)
        self.brier = brier(chances, labels)
        self.constant = brier([self.rate] * len(labels), labels)


def time_positions(samples: Sequence[Sample], estimator: Callable[[Position], object],
                   limit: int = 2000) -> float:
    """Milliseconds per position of ``estimator`` (fresh positions, no warm caches)."""
    chosen = [Position(seat=s.position.seat, tiles=s.position.tiles, hand=s.position.hand,
                       dora_indicator=s.position.dora_indicator,
                       discards=s.position.discards) for s in samples[:limit]]
    started = time.perf_counter()
    for position in chosen:
        estimator(position)
    return (time.perf_counter() - started) * 1000 / len(chosen)


def main() -> int:
    """Collect, fit, evaluate and print (or write) the calibration."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--write", action="store_true",
                        help="replace minefield/defense/calibration.py with the fit")
    parser.add_argument("--cache", type=Path, default=None,
                        help="keep the collected positions in this pickle file and reuse them")
    args = parser.parse_args()
    started = time.perf_counter()
    if args.cache is not None and args.cache.exists():
        samples: list[Sample] = pickle.loads(args.cache.read_bytes())
    else:
        samples = collect_all(args.games, args.seed, args.jobs)
        if args.cache is not None:
            args.cache.write_bytes(pickle.dumps(samples))
    print(f"{args.games} games (seed {args.seed}), {len(samples)} positions, collected in "
          f"{time.perf_counter() - started:.0f} s")
    train = tabulate([s for s in samples if s.game % HOLD_OUT_EVERY])
    test = tabulate([s for s in samples if not s.game % HOLD_OUT_EVERY])
    constants = fit(train)
    unsafe = [y for y, safe in zip(train.labels, train.exact_safe, strict=True) if not safe]
    base_rate = sum(unsafe) / len(unsafe)
    print(f"trained on {len(train.samples)} positions, {len(train.labels)} pool kinds "
          f"({sum(train.labels)} deal-ins); baseline constant {base_rate:.4f}; "
          f"{constants['bonus_rons']} ippatsu/houtei rons")
    evaluate(test, constants, base_rate)
    print(f"fast_dangers: {time_positions(test.samples, fast_dangers):.2f} ms per position "
          f"(goal < 20 ms); estimate() with the reasons in words: "
          f"{time_positions(test.samples, estimate):.2f} ms")
    print(f"current calibration: {calibration.FIT}")
    note = f"{args.games} games, seed {args.seed}, held out every {HOLD_OUT_EVERY}th game"
    text = module_text(constants, note)
    print("\n" + text)
    if args.write:
        CALIBRATION.write_text(text, encoding="utf-8")
        print(f"wrote {CALIBRATION}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
