"""How well the danger estimators predict deal-ins: Brier score, skill, AUC, calibration.

Positions come from bot games played from a seed (``minefield.bots.simulate``'s deal and bot
seeds, so the same options give the same positions). In each game both seats are recorded
at a spread of their discards (``--every``: one discard in so many, offset per game). Each
position is one :class:`~minefield.defense.position.Position` (what the discarding seat sees),
and its *items* are the kinds left in the seat's pool that are neither genbutsu nor passed
(those are certain zeros for every estimator, R15). An item's truth, read from the game and
never given to an estimator, is whether discarding it now would end the game: a wait of the
opponent, eligible with this discard's ippatsu/houtei (R14, R16, R17), the opponent not
furiten (R13, R15).

Estimators:

* ``baseline``: 0 for genbutsu/passed tiles, else the deal-in rate of the training games;
* ``heuristic``: :mod:`minefield.defense.danger` (what ``strong`` plays), each kind's share of the
  danger of the live kinds mapped to a probability by a logistic fit on the training games;
* ``posterior``: :func:`minefield.defense.posterior.posterior_dangers` with
  ``calibrated=False`` (no fit: the model's numbers as they come);
* ``post-quick``: the same with ``--quick-samples`` samples and no time cap (the setting a
  bot's discard could afford; 0 leaves it out);
* ``fast``: ``minefield.defense.fast.fast_dangers`` when that module exists;
* ``post-cal``: a logistic on logit(posterior) fitted on the training games;
* ``blend``: a logistic on logit(posterior) and logit(fast) fitted on the training games (what
  ``posterior_dangers`` returns by default once ``--write`` stored the fit in
  ``minefield/defense/calibration.py``).

Games with an even index train the fits, odd ones are measured (the posterior runs on both:
the blends are fitted on it). Every figure is given with a
95% bootstrap interval that resamples the measured *games* (positions of one game are not
independent); paired differences (each estimator minus the heuristic, the blend minus the
fast estimate and minus the posterior) are bootstrapped on the same resamples. The calibration
table bands the predictions and shows the mean prediction, the
observed rate (with its interval) and the number of items per band. Milliseconds per position
are wall-clock time of one estimate (CPU-bound, one core per worker).

Usage: ``python benchmarks/bench_danger.py [--games 80] [--seed 7] [--samples 6000]
[--budget 1.0] [--quick-samples 200] [--every 4] [--levels strong,strong] [--jobs 2]
[--cache FILE] [--write]``.
"""

from __future__ import annotations

import argparse
import itertools
import math
import pickle
import random
import re
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from minefield.bots.levels import make_bot
from minefield.bots.simulate import bot_seed, game_seed
from minefield.defense.danger import tile_dangers
from minefield.defense.position import Estimate, Position
from minefield.defense.posterior import blend_row, posterior_dangers
from minefield.rules.game import Game, Seat, ron_context
from minefield.rules.score import score_win

BANDS = (0.0, 0.02, 0.05, 0.1, 0.2, 0.4, 1.0001)
CALIBRATION = Path(__file__).resolve().parent.parent / "minefield/defense/calibration.py"
POSTERIOR_MARKER = "# The posterior's blend"


@dataclass(frozen=True, slots=True)
class Item:
    """One live pool kind of one position: the estimators' numbers and the truth."""

    game: int
    number: int
    kind: int
    share: float
    preds: tuple[tuple[str, float], ...]
    truth: bool


@dataclass(frozen=True, slots=True)
class GameResult:
    """The items of one game and the time each estimator took per position."""

    index: int
    items: tuple[Item, ...]
    seconds: tuple[tuple[str, float, int], ...]


def heuristic_shares(position: Position) -> list[float]:
    """defense/danger.py's danger of each kind as a share of the live kinds' total."""
    safe = {t.kind for row in position.discards.values() for t in row}
    theirs = [t.kind for t in position.discards.get(position.opponent, ())]
    danger = tile_dangers(position.unseen, safe, position.dora,
                          opponent_wind=position.opponent.wind, opponent_discards=theirs)
    total = sum(danger) or 1.0
    return [d / total for d in danger]


def _fast() -> Callable[[Position], Estimate] | None:
    try:
        from minefield.defense import fast  # type: ignore[attr-defined]
    except ImportError:
        return None
    function = getattr(fast, "fast_dangers", None)
    return function if callable(function) else None


def truth_of(game: Game, seat: Seat) -> set[int]:
    """The kinds that would deal in if ``seat`` discarded them now (hidden information)."""
    opponent = seat.other
    hand = game.hand_of(opponent)
    if hand is None or game.furiten_of(opponent) is not None:
        return set()
    ctx = ron_context(opponent, game.discard_count + 1, game.dora_indicator.kind)
    out = set()
    for wait in game.waits_of(opponent):
        value = score_win(hand, wait, ctx, game.settings)
        if value is not None and value.eligible:
            out.add(wait)
    return out


def play_and_measure(index: int, seed: int, levels: tuple[str, str], every: int, samples: int,
                     budget: float, quick_samples: int = 0) -> GameResult:
    """Play game ``index`` and estimate a spread of its positions with every estimator."""
    game = Game(game_seed(seed, index))
    bots = {Seat.EAST: make_bot(levels[0], bot_seed(seed, index, "a")),
            Seat.WEST: make_bot(levels[1], bot_seed(seed, index, "b"))}
    for seat in Seat:
        game.apply(seat, bots[seat].act(game.view(seat)))
    fast = _fast()
    items: list[Item] = []
    seconds: dict[str, float] = {}
    counts: dict[str, int] = {}

    def timed(name: str, run: Callable[[], Sequence[float]]) -> Sequence[float]:
        started = time.perf_counter()
        out = run()
        seconds[name] = seconds.get(name, 0.0) + time.perf_counter() - started
        counts[name] = counts.get(name, 0) + 1
        return out

    while game.turn is not None:
        seat = game.turn
        view = game.view(seat)
        own_index = len(view.discards[seat])
        if own_index % every == index % every:
            position = Position.from_view(view)
            truth = truth_of(game, seat)
            safe = {t.kind for row in position.discards.values() for t in row}
            live = [k for k in position.pool_kinds if k not in safe]
            shares = timed("heuristic", lambda p=position: heuristic_shares(p))
            measured = index % 2 == 1  # training games too: the blends are fitted on them
            post = timed("posterior", lambda p=position: posterior_dangers(
                p, samples=samples, seed=index, budget_s=budget, calibrated=False).danger)
            quick = (timed("post-quick", lambda p=position: posterior_dangers(
                p, samples=quick_samples, seed=index, budget_s=None, calibrated=False).danger)
                if quick_samples and measured else None)
            fast_danger = (timed("fast", lambda p=position: fast(p).danger)
                           if fast is not None else None)
            for kind in live:
                preds = [("posterior", post[kind])]
                if quick_samples:
                    preds.append(("post-quick", quick[kind] if quick is not None else 0.0))
                if fast_danger is not None:
                    preds.append(("fast", fast_danger[kind]))
                items.append(Item(index, position.number, kind, shares[kind], tuple(preds),
                                  kind in truth))
        game.apply(seat, bots[seat].act(view))
    return GameResult(index, tuple(items),
                      tuple((name, seconds[name], counts[name]) for name in seconds))


def _run(args: tuple[int, int, tuple[str, str], int, int, float, int]) -> GameResult:
    return play_and_measure(*args)


# ---------------------------------------------------------------------------------------------
# Fits and metrics


def fit_logistic_rows(rows: Sequence[Sequence[float]], ys: Sequence[bool], steps: int = 50,
                      ridge: float = 1e-3) -> list[float]:
    """``p = 1 / (1 + exp(-w . row))`` fitted by Newton's method (maximum likelihood, a little
    L2 on every weight but the first so that a rare input cannot run away)."""
    size = len(rows[0])
    w = [0.0] * size
    for _ in range(steps):
        grad = [0.0] * size
        hess = [[0.0] * size for _ in range(size)]
        for row, y in zip(rows, ys, strict=True):
            z = sum(a * x for a, x in zip(w, row, strict=True))
            p = 1 / (1 + math.exp(-max(-50.0, min(50.0, z))))
            r = (1.0 if y else 0.0) - p
            h = p * (1 - p)
            for i in range(size):
                grad[i] += r * row[i]
                for j in range(size):
                    hess[i][j] += h * row[i] * row[j]
        for i in range(1, size):
            grad[i] -= ridge * len(rows) * w[i]
            hess[i][i] += ridge * len(rows)
        step = _solve(hess, grad)
        if step is None:
            break
        w = [a + b for a, b in zip(w, step, strict=True)]
        if max(abs(b) for b in step) < 1e-9:
            break
    return w


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float] | None:
    """``matrix^-1 vector`` by Gaussian elimination with partial pivoting (None if singular)."""
    n = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col:
                factor = a[r][col] / a[col][col]
                for c in range(col, n + 1):
                    a[r][c] -= factor * a[col][c]
    return [a[i][n] / a[i][i] for i in range(n)]


def fit_logistic(xs: Sequence[float], ys: Sequence[bool], steps: int = 50) -> tuple[float, float]:
    """``p = 1 / (1 + exp(-(a + b x)))`` fitted by Newton's method (maximum likelihood)."""
    a, b = fit_logistic_rows([(1.0, x) for x in xs], ys, steps, ridge=0.0)
    return a, b


def _sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, z))))


def write_blend(coefficients: Sequence[float], note: str) -> None:
    """Replace the posterior's block of ``minefield/defense/calibration.py``."""
    text = CALIBRATION.read_text(encoding="utf-8")
    at = text.find(POSTERIOR_MARKER)
    head = text if at < 0 else text[:at].rstrip("\n") + "\n"
    rounded = tuple(round(c, 4) for c in coefficients)
    block = (f"\n{POSTERIOR_MARKER} with the fast estimate (minefield.defense.posterior.blend):"
             " intercept,\n# logit(posterior), logit(fast). Written by ``python "
             "benchmarks/bench_danger.py --write``\n# (fitted on its training games); None: the "
             "posterior's chances are used as they come.\n"
             f"POSTERIOR_FIT: str = {note!r}\n"
             f"POSTERIOR_BLEND: tuple[float, ...] | None = {rounded!r}\n")
    CALIBRATION.write_text(head + block, encoding="utf-8")
    if not re.search(r"POSTERIOR_BLEND", CALIBRATION.read_text(encoding="utf-8")):
        raise RuntimeError("the posterior block was not written")


def brier(preds: Sequence[float], truth: Sequence[bool]) -> float:
    """Mean squared error of probabilities."""
    return sum((p - (1.0 if y else 0.0)) ** 2 for p, y in zip(preds, truth, strict=True)) / len(
        preds)


def auc(preds: Sequence[float], truth: Sequence[bool]) -> float:
    """The chance that a random deal-in item is ranked above a random safe one (ties half)."""
    ranked = sorted(zip(preds, truth, strict=True), key=lambda pair: pair[0])
    positives = sum(1 for y in truth if y)
    negatives = len(truth) - positives
    if not positives or not negatives:
        return float("nan")
    rank_sum = 0.0
    i = 0
    while i < len(ranked):
        j = i
        while j < len(ranked) and ranked[j][0] == ranked[i][0]:
            j += 1
        mean_rank = (i + j + 1) / 2
        rank_sum += mean_rank * sum(1 for _, y in ranked[i:j] if y)
        i = j
    return (rank_sum - positives * (positives + 1) / 2) / (positives * negatives)


def interval(values: Sequence[float]) -> tuple[float, float]:
    """The 2.5% and 97.5% quantiles."""
    ordered = sorted(v for v in values if not math.isnan(v))
    if not ordered:
        return float("nan"), float("nan")
    return ordered[int(0.025 * (len(ordered) - 1))], ordered[int(0.975 * (len(ordered) - 1))]


def main() -> int:
    """Run the benchmark and print the tables."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=80)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--samples", type=int, default=6000)
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--quick-samples", type=int, default=200)
    parser.add_argument("--every", type=int, default=4)
    parser.add_argument("--levels", default="strong,strong")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--boot", type=int, default=1000)
    parser.add_argument("--cache", type=Path, default=None,
                        help="keep the played games' items in this pickle file and reuse them")
    parser.add_argument("--write", action="store_true",
                        help="write the posterior/fast blend fitted here into calibration.py")
    args = parser.parse_args()
    a, b = args.levels.split(",")
    work = [(i, args.seed, (a, b), args.every, args.samples, args.budget, args.quick_samples)
            for i in range(args.games)]
    started = time.perf_counter()
    results: list[GameResult] = []
    if args.cache is not None and args.cache.exists():
        results = pickle.loads(args.cache.read_bytes())
    else:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for done, result in enumerate(pool.map(_run, work), 1):
                results.append(result)
                print(f"\r{done}/{args.games} games", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        if args.cache is not None:
            args.cache.write_bytes(pickle.dumps(results))
    elapsed = time.perf_counter() - started
    train = [it for r in results if r.index % 2 == 0 for it in r.items]
    test_games = [r for r in results if r.index % 2 == 1]
    if not train or not test_games:
        print("not enough games")
        return 1
    rate = sum(it.truth for it in train) / len(train)
    truth = [it.truth for it in train]
    xs = [math.log(it.share + 1e-4) for it in train]
    fit_a, fit_b = fit_logistic(xs, truth)
    has_fast = any(name == "fast" for name, _ in train[0].preds)
    post_cal = fit_logistic_rows([blend_row(dict(it.preds)["posterior"], 0.5)[:2]
                                  for it in train], truth)
    mixed = (fit_logistic_rows([blend_row(dict(it.preds)["posterior"], dict(it.preds)["fast"])
                                for it in train], truth) if has_fast else None)
    print(f"fits on {len(train)} training items: post-cal {[round(c, 4) for c in post_cal]}"
          + (f", blend (1, logit posterior, logit fast) {[round(c, 4) for c in mixed]}"
             if mixed else ""))

    def predictions(item: Item) -> dict[str, float]:
        preds = dict(item.preds)
        out = {"baseline": rate,
               "heuristic": 1 / (1 + math.exp(-(fit_a + fit_b * math.log(item.share + 1e-4))))}
        out.update(preds)
        post_row = blend_row(preds["posterior"], 0.5)[:2]
        out["post-cal"] = _sigmoid(sum(c * x for c, x in zip(post_cal, post_row, strict=True)))
        if mixed is not None:
            row = blend_row(preds["posterior"], preds["fast"])
            out["blend"] = (_sigmoid(sum(c * x for c, x in zip(mixed, row, strict=True)))
                            if preds["fast"] > 0 else 0.0)
        return out

    names = list(predictions(test_games[0].items[0]) if test_games[0].items else ["baseline"])
    per_game = [[(predictions(it), it.truth) for it in r.items] for r in test_games]
    per_game = [g for g in per_game if g]
    positions = len({(r.index, it.number) for r in test_games for it in r.items})
    items = sum(len(g) for g in per_game)
    deal_ins = sum(1 for g in per_game for _, y in g if y)
    print(f"{args.games} games {args.levels}, seed {args.seed}, every {args.every}: "
          f"{len(per_game)} measured games, {positions} positions, {items} live items, "
          f"{deal_ins} deal-ins ({deal_ins / max(1, items):.1%}); training rate {rate:.1%}; "
          f"posterior {args.samples} samples, budget {args.budget} s; {elapsed:.0f} s")

    def metrics(games: Sequence[list[tuple[dict[str, float], bool]]]
                ) -> dict[str, tuple[float, float, float]]:
        truth = [y for g in games for _, y in g]
        base = brier([p["baseline"] for g in games for p, _ in g], truth)
        out = {}
        for name in names:
            preds = [p[name] for g in games for p, _ in g]
            score = brier(preds, truth)
            out[name] = (score, 1 - score / base if base else float("nan"), auc(preds, truth))
        return out

    point = metrics(per_game)
    rng = random.Random(args.seed)
    boots = [metrics([rng.choice(per_game) for _ in per_game]) for _ in range(args.boot)]
    timing: dict[str, tuple[float, int]] = {}
    for result in results:
        for name, sec, count in result.seconds:
            total, n = timing.get(name, (0.0, 0))
            timing[name] = (total + sec, n + count)
    print(f"\n{'estimator':10} {'Brier [95% CI]':>26} {'skill vs baseline [95% CI]':>30} "
          f"{'AUC [95% CI]':>24} {'ms/pos':>8}")
    for name in names:
        brier_ci = interval([m[name][0] for m in boots])
        skill_ci = interval([m[name][1] for m in boots])
        auc_ci = interval([m[name][2] for m in boots])
        total, n = timing.get(name, (0.0, 0))
        ms = f"{1000 * total / n:.1f}" if n else "-"
        score, skill, area = point[name]
        print(f"{name:10} {score:.4f} [{brier_ci[0]:.4f}, {brier_ci[1]:.4f}]"
              f"   {skill:+.3f} [{skill_ci[0]:+.3f}, {skill_ci[1]:+.3f}]"
              f"      {area:.3f} [{auc_ci[0]:.3f}, {auc_ci[1]:.3f}] {ms:>8}")
    pairs = [(n, "heuristic") for n in names if n not in ("baseline", "heuristic")]
    pairs += [(x, y) for x, y in (("blend", "fast"), ("blend", "posterior"),
                                  ("blend", "post-cal"), ("post-cal", "fast"))
              if x in names and y in names]
    print("\npaired differences (bootstrap over the same resampled games):")
    for name, other in pairs:
        diffs = [m[name][1] - m[other][1] for m in boots]
        adiffs = [m[name][2] - m[other][2] for m in boots]
        low, high = interval(diffs)
        alow, ahigh = interval(adiffs)
        print(f"  {name} minus {other}: skill {point[name][1] - point[other][1]:+.3f} "
              f"[{low:+.3f}, {high:+.3f}], AUC {point[name][2] - point[other][2]:+.3f} "
              f"[{alow:+.3f}, {ahigh:+.3f}]")
    print("\ncalibration (test games): band, items, mean predicted, observed [95% CI]")
    for name in names:
        if name == "baseline":
            continue
        print(f"  {name}")
        for low, high in itertools.pairwise(BANDS):
            def band(games: Sequence[list[tuple[dict[str, float], bool]]], lo: float = low,
                     hi: float = high, est: str = name) -> tuple[int, float, float]:
                chosen = [(p[est], y) for g in games for p, y in g if lo <= p[est] < hi]
                if not chosen:
                    return 0, float("nan"), float("nan")
                return (len(chosen), sum(p for p, _ in chosen) / len(chosen),
                        sum(1 for _, y in chosen if y) / len(chosen))
            n, mean, observed = band(per_game)
            if not n:
                continue
            observed_ci = interval([band([rng.choice(per_game) for _ in per_game])[2]
                                    for _ in range(200)])
            print(f"    [{low:.2f}, {min(high, 1.0):.2f})  {n:5}  {mean:.3f}  {observed:.3f} "
                  f"[{observed_ci[0]:.3f}, {observed_ci[1]:.3f}]")
    if args.write and mixed is not None:
        note = (f"{args.games} games {args.levels}, seed {args.seed}, even games; "
                f"{args.samples} samples, {args.budget} s")
        write_blend(mixed, note)
        print(f"wrote the blend to {CALIBRATION}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
