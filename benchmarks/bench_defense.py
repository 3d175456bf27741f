"""How well the bots defend: paired games of several defenders against the same opponent.

Every defender plays the same deals against the same opponent (``normal`` by default, with the
same seed in every row), the defender's seat alternating East and West, so the rows are paired
games and their differences are measured game by game:

* ``strong``: the ``strong`` level as players meet it (its hand search and its discards).
* ``old-strong``: ``strong`` as it was first (before its planned discard)
  (:data:`minefield.bots.levels.PREVIOUS_STRONG`: the hand search of
  :data:`~minefield.bots.hands.PREVIOUS_MODEL`, today the same as ``strong``'s, and the
  discard of least :mod:`minefield.defense.danger` weight, unplanned); the row ``strong`` is
  compared with.
* ``strong-nosuits``: ``strong`` discarding by the danger estimate before the suit reading
  (the fit against ``strong`` on 17 features: ``bench_danger.BEFORE``), the same hand
  search and plan; what the suit reading changes in the bot's defence.
* ``strong-levelfit``, ``strong-person``, ``strong-normalfit``: ``strong`` discarding by the
  shipped estimate against ``strong`` (the bot before its own mixed read), against a
  ``person`` (the mean of the ``normal`` and ``strong`` fits' chances) or against ``normal``
  (what knowing the opponent's level would give), the same hand search and plan.
* ``strong-savesafe``: ``strong`` keeping its certainly safe tiles (genbutsu, passed) for later
  turns: a live tile rated under ``--save-below`` (1% by default) is discarded before them.
* ``reference``: the ``strong`` hand with the all-seeing discards of
  :mod:`minefield.bots.oracle` (never offered to players): it reads the opponent's hand and
  never deals in while it holds another tile; its deal-ins are the forced ones (five or more
  winning tiles among 21, R10).
* ``genbutsu``: the ``strong`` hand with the ``normal`` discards (a tile already discarded, else
  a random non-wait).
* ``random``: the ``strong`` hand with the ``easy`` discards (a random non-wait).

Usage: ``python benchmarks/bench_defense.py [--games N] [--opponent normal] [--jobs J]
[--defenders strong,strong-nosuits,...] [--compare strong:strong-nosuits] [--save-below 0.01]``.

Prints, per defender: wins, deal-ins, draws; the deal-in rate, the win rate and the win share
(wins over decided games) with 95% Wilson intervals; the CPU milliseconds per discard decision
(process time, so that other work on a shared machine counts less) and the share of the gap
between ``random`` and ``reference`` that it closes. Then, for each ``--compare`` pair, the
paired differences (first minus second) of the three rates, with 95% intervals from a paired
bootstrap over the games (the same resampled games for both rows), and the discordant games
(McNemar's counts: one dealt in and the other did not).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial

from bench_danger import BEFORE

from minefield.bots.base import Bot
from minefield.bots.discards import (
    DiscardSituation,
    calibrated_dangers,
    genbutsu_discard,
    planned_discard,
    random_discard,
)
from minefield.bots.levels import LevelBot, make_bot, previous_strong
from minefield.bots.oracle import oracle_discard
from minefield.bots.simulate import bot_seed, game_seed, share_interval
from minefield.defense.calibration import Opponent
from minefield.defense.fast import fast_dangers, features, logistic
from minefield.defense.position import Position
from minefield.rules.game import Discard, Game, Seat
from minefield.rules.tiles import NUM_KINDS

DEFENDERS = ("strong", "strong-nosuits", "strong-levelfit", "strong-person", "strong-normalfit",
             "strong-savesafe",
             "old-strong", "reference", "genbutsu", "random")
#: ``strong`` discarding by the estimate against another opponent (``fast_dangers``' fits).
READS: dict[str, Opponent] = {"strong-levelfit": "strong", "strong-person": "person",
                              "strong-normalfit": "normal"}
COMPARE = "strong:strong-nosuits,strong:old-strong"
BOOTSTRAP = 2000


@dataclass(frozen=True, slots=True)
class Outcome:
    """One game from the defender's side, and the CPU time of its discard decisions."""

    defender: str
    index: int
    won: bool
    dealt_in: bool
    discards: int
    discard_seconds: float


def suitless_dangers(table: DiscardSituation) -> list[float]:
    """The chances of the estimate before the suit reading (its ``strong`` fit, on the
    features before the suit features), from this seat's view only (R26)."""
    feats = features(Position.from_view(table.seat_view))
    weights = BEFORE["strong"]
    return [logistic(weights, feats.danger_row(kind)[:len(weights)]) if feats.possible[kind]
            else 0.0 for kind in range(NUM_KINDS)]


def read_as(opponent: Opponent, table: DiscardSituation) -> list[float]:
    """The chances of the shipped estimate against ``opponent``, from this seat's view."""
    return list(fast_dangers(Position.from_view(table.seat_view), opponent).danger)


SAVE_BELOW = 0.01  # strong-savesafe: a tile rated under this goes before a certainly safe one


def save_safe(table: DiscardSituation) -> list[float]:
    """The shipped chances, except that certainly safe kinds (0) rank after the live kinds
    rated under :data:`SAVE_BELOW`: the safe tiles are kept for later turns."""
    danger = calibrated_dangers(table)
    return [SAVE_BELOW if d == 0.0 else d for d in danger]


def defender_bot(defender: str, game: Game, seat: Seat, seed: int) -> Bot:
    """The bot of one row of the table, for ``seat`` of ``game``."""
    if defender == "strong":
        return make_bot("strong", seed)
    if defender == "old-strong":
        return previous_strong(seed)
    if defender == "strong-nosuits":
        return LevelBot("strong", seed, discard_policy=partial(planned_discard,
                                                               dangers=suitless_dangers))
    if defender == "strong-savesafe":
        return LevelBot("strong", seed, discard_policy=partial(planned_discard,
                                                               dangers=save_safe))
    if defender in READS:
        return LevelBot("strong", seed, discard_policy=partial(
            planned_discard, dangers=partial(read_as, READS[defender])))
    if defender == "reference":
        return LevelBot("strong", seed, discard_policy=oracle_discard(game, seat))
    policies = {"genbutsu": genbutsu_discard, "random": random_discard}
    return LevelBot("strong", seed, discard_policy=policies[defender])


def play(defender: str, index: int, opponent: str, seed: int) -> Outcome:
    """Game ``index`` with ``defender`` in the seat that alternates East and West."""
    game = Game(game_seed(seed, index))
    seat = Seat.EAST if index % 2 == 0 else Seat.WEST
    ours = defender_bot(defender, game, seat, bot_seed(seed, index, "a"))
    theirs = make_bot(opponent, bot_seed(seed, index, "b"))
    bots = {seat: ours, seat.other: theirs}
    for each in Seat:
        game.apply(each, bots[each].act(game.view(each)))
    decisions = 0
    spent = 0.0
    while game.turn is not None:
        mover = game.turn
        view = game.view(mover)
        started = time.process_time()
        command = bots[mover].act(view)
        if mover is seat:
            spent += time.process_time() - started
            decisions += 1
        assert isinstance(command, Discard)
        game.apply(mover, command)
    end = game.result
    assert end is not None
    return Outcome(defender, index, end.winner is seat, end.winner is seat.other, decisions,
                   spent)


def _ignore_interrupt() -> None:
    """Workers finish their chunk when the run is interrupted (the main process reports)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_chunk(args: tuple[str, range, str, int]) -> list[Outcome]:
    defender, indices, opponent, seed = args
    return [play(defender, i, opponent, seed) for i in indices]


def _share(won: Sequence[bool], lost: Sequence[bool]) -> float:
    decided = sum(won) + sum(lost)
    return sum(won) / decided if decided else 0.0


def paired_differences(first: Sequence[Outcome], second: Sequence[Outcome], seed: int = 1
                       ) -> dict[str, tuple[float, float, float]]:
    """The paired differences (first minus second) of the deal-in rate, the win rate and the
    win share, each with a 95% percentile interval from :data:`BOOTSTRAP` resamples of the
    games (both rows resampled together)."""
    by_index = {o.index: o for o in second}
    pairs = [(o, by_index[o.index]) for o in first if o.index in by_index]
    n = len(pairs)

    def stats(chosen: Sequence[tuple[Outcome, Outcome]]) -> tuple[float, float, float]:
        a_in = [a.dealt_in for a, _ in chosen]
        b_in = [b.dealt_in for _, b in chosen]
        a_won = [a.won for a, _ in chosen]
        b_won = [b.won for _, b in chosen]
        count = len(chosen)
        return ((sum(a_in) - sum(b_in)) / count, (sum(a_won) - sum(b_won)) / count,
                _share(a_won, a_in) - _share(b_won, b_in))

    point = stats(pairs)
    rng = random.Random(seed)
    draws = [stats([pairs[rng.randrange(n)] for _ in range(n)]) for _ in range(BOOTSTRAP)]
    found = {}
    for position, name in enumerate(("deal-in rate", "win rate", "win share")):
        values = sorted(d[position] for d in draws)
        found[name] = (point[position], values[int(0.025 * BOOTSTRAP)],
                       values[int(0.975 * BOOTSTRAP) - 1])
    return found


def _rate(successes: int, trials: int) -> str:
    rate = share_interval(successes, trials)
    return f"{rate.value:6.1%} [{rate.low:5.1%}, {rate.high:5.1%}]"


def main() -> int:
    """Run the benchmark and print the tables."""
    global SAVE_BELOW  # set from --save-below, read by the workers (forked after it is set)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--opponent", default="normal", choices=["easy", "normal", "strong"])
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--defenders", default=",".join(DEFENDERS))
    parser.add_argument("--save-below", type=float, default=SAVE_BELOW,
                        help="strong-savesafe: live tiles rated under this go before safe ones")
    parser.add_argument("--compare", default=COMPARE,
                        help="comma-separated pairs first:second of defenders to difference")
    args = parser.parse_args()
    defenders = args.defenders.split(",")
    SAVE_BELOW = args.save_below
    unknown = [d for d in defenders if d not in DEFENDERS]
    if unknown:
        parser.error(f"unknown defender {unknown[0]!r}: choose among {', '.join(DEFENDERS)}")
    # Interleaved by game, so that an interrupted run still has paired rows.
    work = [(d, range(s, min(args.games, s + 10)), args.opponent, args.seed)
            for s in range(0, args.games, 10) for d in defenders]
    started = time.perf_counter()
    results: dict[str, list[Outcome]] = {d: [] for d in defenders}
    pool = ProcessPoolExecutor(max_workers=args.jobs, initializer=_ignore_interrupt)
    try:
        for done, outcomes in enumerate(pool.map(_play_chunk, work), 1):
            for outcome in outcomes:
                results[outcome.defender].append(outcome)
            print(f"\r{done}/{len(work)} chunks", end="", file=sys.stderr, flush=True)
    except KeyboardInterrupt:  # a bounded run (timeout -s INT): report the games played
        print("\ninterrupted: the games every defender finished are reported", file=sys.stderr)
        pool.shutdown(wait=False, cancel_futures=True)
        common = set.intersection(*({o.index for o in r} for r in results.values()))
        results = {d: [o for o in r if o.index in common] for d, r in results.items()}
        args.games = len(common)
        if not common:
            print("no game was finished by every defender", file=sys.stderr)
            return 1
    else:
        pool.shutdown()
    print(file=sys.stderr)
    elapsed = time.perf_counter() - started
    rates = {d: sum(o.dealt_in for o in r) / len(r) for d, r in results.items()}
    print(f"{args.games} paired games per defender against {args.opponent}, seed {args.seed}, "
          f"defender East in even games and West in odd ones ({elapsed:.0f} s)")
    print(f"{'defender':10} {'wins':>5} {'deal-ins':>8} {'draws':>5}  "
          f"{'deal-in rate [95% CI]':>22}  {'win rate [95% CI]':>22}  "
          f"{'win share [95% CI]':>22}  {'ms/discard':>10} {'gap closed':>10}")
    for defender, outcomes in results.items():
        n = len(outcomes)
        wins = sum(o.won for o in outcomes)
        deal_ins = sum(o.dealt_in for o in outcomes)
        draws = n - wins - deal_ins
        decisions = sum(o.discards for o in outcomes)
        ms = 1000 * sum(o.discard_seconds for o in outcomes) / max(1, decisions)
        closed = ""
        if "random" in rates and "reference" in rates and rates["random"] != rates["reference"]:
            gap = rates["random"] - rates["reference"]
            closed = f"{(rates['random'] - rates[defender]) / gap:.0%}"
        print(f"{defender:10} {wins:5} {deal_ins:8} {draws:5}  {_rate(deal_ins, n)}  "
              f"{_rate(wins, n)}  {_rate(wins, wins + deal_ins)}  {ms:10.1f} {closed:>10}")
    for pair in filter(None, args.compare.split(",")):
        first, _, second = pair.partition(":")
        if first not in results or second not in results:
            continue
        diffs = paired_differences(results[first], results[second])
        a = {o.index: o.dealt_in for o in results[first]}
        b = {o.index: o.dealt_in for o in results[second]}
        only_first = sum(1 for i in a if i in b and a[i] and not b[i])
        only_second = sum(1 for i in a if i in b and b[i] and not a[i])
        print(f"{first} minus {second}, paired over the same games "
              f"(95% paired bootstrap intervals, {BOOTSTRAP} resamples):")
        for name, (value, low, high) in diffs.items():
            print(f"  {name:12} {value:+6.1%} [{low:+.1%}, {high:+.1%}]")
        print(f"  discordant games: {first} alone dealt in {only_first}, "
              f"{second} alone dealt in {only_second}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
