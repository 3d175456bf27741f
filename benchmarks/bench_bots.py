"""Speed of the bots: hand search per deal and time per discard decision.

Goals: the ``strong`` hand search at most 0.25 s per deal on average over random deals
(worst deal under 1.5 s), against about 0.5 s for pwmarcz/minefield's Rust bot doing a similar
search; each discard decision under 50 ms.

The deals are the 34 tiles of one seat in seeded random games (the dora indicator and seat
wind as dealt). Each search starts with the engine's caches (waits, analyses, suit tables)
emptied, as for the first deal of a process, unless ``--warm`` is given. Then ``--games`` games
of ``strong`` against ``normal`` time every discard decision of both bots.

Usage: ``python benchmarks/bench_bots.py [--deals N] [--games N] [--warm]``. It only prints.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable

from minefield.bots.hands import DealtTiles, HandChoice, choose_best, choose_most_live
from minefield.bots.levels import make_bot
from minefield.bots.simulate import game_seed
from minefield.rules import _suit_tables as suit_tables_module
from minefield.rules import hand as hand_module
from minefield.rules import score as score_module
from minefield.rules.game import Discard, Game, Seat
from minefield.rules.wall import Deal, tile_from_id

GOAL_MEAN = 0.25
GOAL_WORST = 1.5
RUST_REFERENCE = 0.5
GOAL_DECISION = 0.050


def clear_caches() -> None:
    """Empty the engine's result caches (whatever of them exist in this version)."""
    for module in (hand_module, suit_tables_module, score_module):
        for value in vars(module).values():
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()


def deal_of(seed: int) -> DealtTiles:
    """One seat's deal in the game of ``seed`` (East for even seeds, West for odd)."""
    wall = Deal.from_seed(seed)
    seat = Seat.EAST if seed % 2 == 0 else Seat.WEST
    ids = wall.east_tiles if seat is Seat.EAST else wall.west_tiles
    return DealtTiles.from_tiles([tile_from_id(i, False) for i in ids],
                             wall.dora_indicator_id // 4, seat)


def time_search(search: Callable[[DealtTiles], HandChoice], deals: list[DealtTiles], warm: bool
                ) -> tuple[list[float], list[int]]:
    """Seconds per deal and candidates per deal."""
    times, candidates = [], []
    for deal in deals:
        if not warm:
            clear_caches()
        gc.collect()
        started = time.perf_counter()
        choice = search(deal)
        times.append(time.perf_counter() - started)
        candidates.append(choice.candidates)
    return times, candidates


def time_decisions(games: int) -> dict[str, list[float]]:
    """Seconds per discard decision, per level, over ``games`` strong-vs-normal games."""
    found: dict[str, list[float]] = {"strong": [], "normal": []}
    for index in range(games):
        game = Game(game_seed(99, index))
        levels = {Seat.EAST: "strong", Seat.WEST: "normal"}
        if index % 2:
            levels = {Seat.EAST: "normal", Seat.WEST: "strong"}
        bots = {seat: make_bot(level, index) for seat, level in levels.items()}
        for seat in Seat:
            game.apply(seat, bots[seat].act(game.view(seat)))
        while game.turn is not None:
            seat = game.turn
            view = game.view(seat)
            started = time.perf_counter()
            command = bots[seat].act(view)
            found[levels[seat]].append(time.perf_counter() - started)
            assert isinstance(command, Discard)
            game.apply(seat, command)
    return found


def describe(times: list[float]) -> str:
    """Mean, median, 95th percentile and worst, in seconds."""
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (f"mean {statistics.fmean(times):.3f} s, median {statistics.median(times):.3f} s, "
            f"p95 {p95:.3f} s, worst {max(times):.3f} s")


def main() -> int:
    """Run the benchmark and print the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="random deals to search")
    parser.add_argument("--games", type=int, default=20, help="games for decision times")
    parser.add_argument("--warm", action="store_true", help="keep the engine's caches")
    args = parser.parse_args()
    deals = [deal_of(seed) for seed in range(args.deals)]
    print(f"hand search over {args.deals} random deals "
          f"({'warm' if args.warm else 'cold'} engine caches)")
    for name, search in (("strong", choose_best), ("normal", choose_most_live)):
        times, candidates = time_search(search, deals, args.warm)
        print(f"  {name:6}: {describe(times)}; "
              f"{statistics.fmean(candidates):.0f} tenpai hands per deal (max {max(candidates)})")
        if name == "strong":
            mean, worst = statistics.fmean(times), max(times)
            print(f"          goal: mean <= {GOAL_MEAN} s ({mean / GOAL_MEAN:.0%} of it), "
                  f"worst < {GOAL_WORST} s ({worst / GOAL_WORST:.0%} of it); "
                  f"{RUST_REFERENCE / mean:.1f}x faster than the Rust bot's ~{RUST_REFERENCE} s")
    decisions = time_decisions(args.games)
    print(f"discard decisions over {args.games} games (goal < {GOAL_DECISION * 1000:.0f} ms)")
    for level, times in decisions.items():
        print(f"  {level:6}: {len(times)} decisions, mean {statistics.fmean(times) * 1000:.1f} ms, "
              f"worst {max(times) * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
