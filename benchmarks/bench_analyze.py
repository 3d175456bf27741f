"""Benchmark: the full analysis of a 13-tile hand, ours against the ``mahjong`` package.

The work timed, per hand: find every wait, then score every wait twice, without ura (R14's
verdict) and with ura (what is paid). For us that is one call of
:func:`minefield.rules.score.analyze`; for the reference it is its agari check on each of the
34 kinds, then ``HandCalculator.estimate_hand_value`` twice per wait.

The hands are distinct random tenpai hands (:mod:`minefield.rules.random_hands`, as in the
differential test), and no run reuses a result computed for a whole hand: such caches (our
``waits`` cache, the library's hand-divider cache) are emptied before every timed run. Three
runs are timed:

* cold: every cache is empty, our per-suit tables too, as on the first hand of a process;
* warm: our per-suit tables hold the suits of these hands (from the cold run), as they do in
  a long game or a bot's search, where the same suits come back;
* unseen: the tables were filled by other hands only, so some suits are new.

Run from the repository root: ``python benchmarks/bench_analyze.py`` (``--help`` for options).
It exits with status 1 when the warm speed-up is below ``--require`` (default 15).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import NamedTuple

from mahjong.agari import Agari
from mahjong.constants import EAST as REF_EAST
from mahjong.constants import WEST as REF_WEST
from mahjong.hand_calculating.divider import HandDivider
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules

from minefield.rules import _suit_tables as suit_tables_module
from minefield.rules import hand as hand_module
from minefield.rules import score as score_module
from minefield.rules.hand import Hand
from minefield.rules.random_hands import ScoringCase, random_case
from minefield.rules.score import WinContext, analyze
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import EAST, NUM_KINDS, Tile

DEFAULT_SEED = 7


def reference_config(ctx: WinContext, settings: RuleSettings) -> HandConfig:
    """The reference configured as RULES.md plays a Minefield ron.

    The same as ``reference_config`` of ``tests/rules/test_differential.py``, which checks the
    reference against our scorer with it (a test there keeps the two the same).
    """
    options = OptionalRules(has_double_yakuman=settings.double_yakuman_waits,
                            kazoe_limit=HandConstants.KAZOE_LIMITED, kiriage=settings.kiriage,
                            has_aka_dora=False)
    config = HandConfig(is_riichi=True, is_ippatsu=ctx.ippatsu, is_houtei=ctx.houtei,
                        player_wind=REF_EAST if ctx.seat_wind == EAST else REF_WEST,
                        round_wind=None, options=options)
    # R23: both seats are paid as non-dealers unless dealer values are asked for (matches);
    # the library would make East the dealer.
    config.is_dealer = ctx.dealer
    return config


def distinct_cases(seed: int, count: int, avoid: set[tuple[int, ...]]) -> list[ScoringCase]:
    """``count`` random tenpai hands (with their situations), all different and not in
    ``avoid``."""
    rng = random.Random(seed)
    found: list[ScoringCase] = []
    seen = set(avoid)
    while len(found) < count:
        case = random_case(rng)
        if case.counts not in seen:
            seen.add(case.counts)
            found.append(case)
    return found


def _clear_caches(*modules: ModuleType) -> int:
    """Empty every cache of ``modules`` (functools caches and the engine's tables all have
    ``cache_clear``); returns how many were emptied."""
    emptied = 0
    for module in modules:
        for value in vars(module).values():
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()
                emptied += 1
    return emptied


def clear_ours() -> None:
    """Empty all of our engine's caches: per-suit tables and whole-hand results."""
    _clear_caches(hand_module, suit_tables_module, score_module)


def clear_our_whole_hand_caches() -> None:
    """Empty the caches keyed by a whole hand (``waits``'), keeping the per-suit tables."""
    hand_module._waits_cached.cache_clear()


def clear_reference() -> None:
    """Empty the reference's only cache (its hand divider's, keyed by a whole hand)."""
    HandDivider._divide_hand_impl.cache_clear()


@dataclass(frozen=True)
class Item:
    """One timed hand, with each side's inputs built beforehand (outside the timed region):
    our :class:`Hand` and :class:`WinContext`; the library's tiles and ``HandConfig``."""

    case: ScoringCase
    hand: Hand
    ctx: WinContext
    tiles: list[int]  # 136-format, copies 0..n-1 of each kind
    config: HandConfig
    dora: list[int]  # the dora indicator, 136-format
    dora_and_ura: list[int]


def ours(item: Item) -> int:
    """Our full analysis of one hand; returns the number of waits."""
    return len(analyze(item.hand, item.ctx))


def reference(item: Item) -> int:
    """The same work done with the ``mahjong`` package; returns the number of waits."""
    counts = list(item.case.counts)
    found = 0
    for kind in range(NUM_KINDS):
        if counts[kind] == 4:
            continue  # R12: a dead wait
        counts[kind] += 1
        complete = Agari.is_agari(counts)
        counts[kind] -= 1
        if not complete:
            continue
        found += 1
        win_tile = kind * 4 + counts[kind]
        with_win = sorted([*item.tiles, win_tile])
        for indicators in (item.dora, item.dora_and_ura):
            HandCalculator.estimate_hand_value(with_win, win_tile, dora_indicators=indicators,
                                               config=item.config)
    return found


def prepare(cases: Sequence[ScoringCase]) -> list[Item]:
    """Build both sides' inputs."""
    items = []
    for case in cases:
        ctx = case.context()
        assert ctx.dora_indicator is not None and ctx.ura_indicator is not None
        hand = Hand(Tile(kind) for kind, count in enumerate(case.counts) for _ in range(count))
        tiles = [kind * 4 + copy for kind, count in enumerate(case.counts)
                 for copy in range(count)]
        items.append(Item(case, hand, ctx, tiles,
                          reference_config(ctx, score_module.DEFAULT_SETTINGS),
                          [ctx.dora_indicator * 4],
                          [ctx.dora_indicator * 4, ctx.ura_indicator * 4]))
    return items


def run(work: Callable[[Item], int], items: list[Item]) -> float:
    """CPU seconds of this process to do ``work`` on every item.

    CPU time rather than wall time, so that other processes on a shared machine count less.
    """
    gc.collect()
    start = time.process_time()
    for item in items:
        work(item)
    return time.process_time() - start


class Side(NamedTuple):
    """One side of the comparison: the work and how to empty its caches."""

    work: Callable[[Item], int]
    clear_all: Callable[[], None]
    clear_whole_hand: Callable[[], None]


def measure(side: Side, timed: list[Item], others: list[Item], repeat: int) -> dict[str, float]:
    """Best seconds per hand of one side over ``repeat`` runs: cold, warm and unseen (see the
    module docstring)."""
    best: dict[str, float] = {}
    for _ in range(repeat):
        side.clear_all()
        times = {"cold": run(side.work, timed)}
        side.clear_whole_hand()
        times["warm"] = run(side.work, timed)
        side.clear_all()
        run(side.work, others)
        side.clear_whole_hand()
        times["unseen"] = run(side.work, timed)
        for label, seconds in times.items():
            best[label] = min(seconds / len(timed), best.get(label, seconds))
    return best


SIDES = {"ours": Side(ours, clear_ours, clear_our_whole_hand_caches),
         "mahjong": Side(reference, clear_reference, clear_reference)}


def run_side(name: str, args: argparse.Namespace) -> dict[str, float]:
    """Time one side in this process; adds ``waits``, the number of waits found."""
    timed_cases = distinct_cases(args.seed, args.hands, set())
    other_cases = distinct_cases(args.seed + 1, args.others, {c.counts for c in timed_cases})
    timed, others = prepare(timed_cases), prepare(other_cases)
    side = SIDES[name]
    waits = sum(side.work(item) for item in timed)
    return {**measure(side, timed, others, args.repeat), "waits": waits}


def run_side_apart(name: str, args: argparse.Namespace) -> dict[str, float]:
    """Time one side in a fresh interpreter, so that neither side runs on a heap or caches
    the other one left behind."""
    command = [sys.executable, __file__, "--side", name, "--hands", str(args.hands),
               "--others", str(args.others), "--repeat", str(args.repeat),
               "--seed", str(args.seed)]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    result: dict[str, float] = json.loads(output)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print times per hand and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=400, help="timed hands (default 400)")
    parser.add_argument("--others", type=int, default=2000,
                        help="other hands analyzed before the unseen run (default 2000)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per round, best kept (default 3)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds, each side in a fresh process (default 3)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--require", type=float, default=15.0,
                        help="minimum warm speed-up over the reference (default 15)")
    parser.add_argument("--side", choices=list(SIDES), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.side:  # one side in this process, for run_side_apart
        print(json.dumps(run_side(args.side, args)))
        return 0

    best: dict[str, dict[str, float]] = {name: {} for name in SIDES}
    for _ in range(args.rounds):  # the sides take turns, so that load changes hit both
        for name in SIDES:
            for label, value in run_side_apart(name, args).items():
                best[name][label] = min(value, best[name].get(label, value))
    mine, theirs = best["ours"], best["mahjong"]
    assert mine["waits"] == theirs["waits"], "the two sides found different waits"
    print(f"{args.hands} distinct tenpai hands, {mine['waits']:.0f} waits, each scored without "
          f"and with ura; best of {args.rounds} x {args.repeat} runs, each side in its own "
          f"process; unseen = after {args.others} other hands")
    print(f"{'':>8} {'ours':>12} {'mahjong':>12} {'speed-up':>9}")
    for label in ("cold", "warm", "unseen"):
        ratio = theirs[label] / mine[label]
        print(f"{label:>8} {mine[label] * 1e6:>9.1f} us {theirs[label] * 1e6:>9.1f} us "
              f"{ratio:>8.1f}x")
    ok = theirs["warm"] / mine["warm"] >= args.require
    print(f"requirement: warm at least {args.require:g}x faster: {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
