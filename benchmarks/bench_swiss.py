"""Benchmark: the time of one Swiss pairing (R37) with 200 players.

A Swiss of ``--players`` players is played for ``--rounds`` rounds with random results (a
seeded :class:`random.Random`); before each round the standings are computed and the round is
paired by :func:`minefield.server.tournament_pairing.swiss_round` (one maximum weight
matching over every pair that has not met, networkx). Each pairing is timed on its own (the
standings not included) and the times are printed, with the slowest.

Run from the repository root: ``python benchmarks/bench_swiss.py`` (``--help`` for options).
"""

from __future__ import annotations

import argparse
import random
import time

from minefield.server.tournament_pairing import Game, Result, standings, swiss_round


def main() -> None:
    """Play a Swiss with random results and print each round's pairing time."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    players = [f"p{i:03d}" for i in range(args.players)]
    games: list[Game] = []
    times: list[float] = []
    for number in range(1, args.rounds + 1):
        ranked = [s.name for s in standings(players, games, "swiss")]
        start = time.perf_counter()
        pairing = swiss_round(ranked, games)
        elapsed = time.perf_counter() - start
        times.append(elapsed)
        print(f"round {number}: {len(pairing)} games paired in {elapsed * 1000:.0f} ms")
        for p in pairing:
            result: Result = "east" if p.west is None else rng.choice(["east", "west", "draw"])
            games.append(Game(number, p.east, p.west, result))
    print(f"{args.players} players, {args.rounds} rounds: slowest pairing "
          f"{max(times) * 1000:.0f} ms, mean {sum(times) / len(times) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
