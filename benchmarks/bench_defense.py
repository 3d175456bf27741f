"""How close the ``strong`` defence comes to the limit: deal-in rates against an all-seeing one.

Every defender below keeps the same hand (the ``strong`` hand search) and differs only in its
discards, and every variant plays the same deals against the same opponent, so the deal-in
rates are directly comparable (paired games):

* ``reference``: the all-seeing defender of :mod:`minefield.bots.oracle` (never offered to
  players). It reads the opponent's hand from the game and never discards a tile the opponent
  would win on while it has any other tile; it prefers a tile that freezes the opponent (a
  wait of theirs below mangan, R15b), and it would rather discard its own wait (furiten) than
  deal in. Its deal-ins are the forced ones: five or more winning tiles among 21 (R10).
* ``strong``: the danger model of :mod:`minefield.bots.danger` (what players meet).
* ``genbutsu``: the ``normal`` policy (a tile already discarded, else a random non-wait).
* ``random``: the ``easy`` policy (a random non-wait).

Usage: ``python benchmarks/bench_defense.py [--games N] [--opponent normal] [--jobs J]``.
Prints, per defender: wins, deal-ins, draws, the deal-in rate with a 95% interval, and the
share of the gap between ``random`` and ``reference`` that the defender closes.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from minefield.bots.base import Bot
from minefield.bots.discards import genbutsu_discard, random_discard, safest_discard
from minefield.bots.levels import LevelBot, make_bot
from minefield.bots.oracle import oracle_discard
from minefield.bots.simulate import bot_seed, game_seed, play_game, share_interval
from minefield.rules.game import Game, Seat

DEFENDERS = ("reference", "strong", "genbutsu", "random")


@dataclass(frozen=True, slots=True)
class Outcome:
    """One game from the defender's side."""

    defender: str
    index: int
    won: bool
    dealt_in: bool


def play(defender: str, index: int, opponent: str, seed: int) -> Outcome:
    """Game ``index`` with ``defender`` in the seat that alternates East and West."""
    game = Game(game_seed(seed, index))
    seat = Seat.EAST if index % 2 == 0 else Seat.WEST
    our_seed = bot_seed(seed, index, "a")
    policies = {"strong": safest_discard, "genbutsu": genbutsu_discard, "random": random_discard}
    if defender == "reference":
        ours: Bot = LevelBot("strong", our_seed, discard_policy=oracle_discard(game, seat))
    else:
        ours = LevelBot("strong", our_seed, discard_policy=policies[defender])
    theirs = make_bot(opponent, bot_seed(seed, index, "b"))
    east, west = (ours, theirs) if seat is Seat.EAST else (theirs, ours)
    end = play_game(game, east, west)
    return Outcome(defender, index, end.winner is seat, end.winner is seat.other)


def _play_chunk(args: tuple[str, range, str, int]) -> list[Outcome]:
    defender, indices, opponent, seed = args
    return [play(defender, i, opponent, seed) for i in indices]


def main() -> int:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--opponent", default="normal", choices=["easy", "normal", "strong"])
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--defenders", default=",".join(DEFENDERS))
    args = parser.parse_args()
    defenders = args.defenders.split(",")
    work = [(d, range(s, min(args.games, s + 10)), args.opponent, args.seed)
            for d in defenders for s in range(0, args.games, 10)]
    started = time.perf_counter()
    results: dict[str, list[Outcome]] = {d: [] for d in defenders}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for done, outcomes in enumerate(pool.map(_play_chunk, work), 1):
            for outcome in outcomes:
                results[outcome.defender].append(outcome)
            print(f"\r{done}/{len(work)} chunks", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    elapsed = time.perf_counter() - started
    rates = {d: sum(o.dealt_in for o in r) / len(r) for d, r in results.items()}
    print(f"{args.games} games per defender against {args.opponent}, seed {args.seed} "
          f"({elapsed:.0f} s)")
    print(f"{'defender':10} {'wins':>6} {'deal-ins':>9} {'draws':>6} "
          f"{'deal-in rate [95% CI]':>24} {'gap closed':>11}")
    for defender, outcomes in results.items():
        wins = sum(o.won for o in outcomes)
        deal_ins = sum(o.dealt_in for o in outcomes)
        draws = len(outcomes) - wins - deal_ins
        rate = share_interval(deal_ins, len(outcomes))
        closed = ""
        if "random" in rates and "reference" in rates and rates["random"] != rates["reference"]:
            gap = rates["random"] - rates["reference"]
            closed = f"{(rates['random'] - rates[defender]) / gap:.0%}"
        print(f"{defender:10} {wins:6} {deal_ins:9} {draws:6} "
              f"{rate.value:8.1%} [{rate.low:.1%}, {rate.high:.1%}] {closed:>11}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
