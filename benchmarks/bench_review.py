"""How long the game review takes to build for a game of 17 discards: the part the
review screen needs before its first parts show (the steps, the estimate at each discard, the
regrets, luck and skill, how readable the wait was) and the build (the strong bot's hand search
from the same 34), and the whole of ``review --text`` without printing.

The games are played here: the strong bot (East) against the easy one (West, the seat
reviewed), seeds from ``--seed`` on, keeping those that ran to the exhaustive draw (R11: West
made all 17 discards). Each game is timed ``--repeat`` times; the best of those runs counts
(the machine is shared), and the median and the slowest game over the games are printed.

Usage: ``nice -n 5 python benchmarks/bench_review.py [--games 10] [--seed 0] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial

from minefield.bots.levels import make_bot
from minefield.cli.review import review_lines
from minefield.rules.game import Game, Seat
from minefield.trainer.build import build_of
from minefield.trainer.defense_review import GameReview, assess, review_of_game
from minefield.trainer.readable import readability
from minefield.trainer.regrets import luck_section, regrets_section


def careless_game(seed: int) -> Game:
    """East strong, West easy, to the end."""
    game = Game(seed)
    bots = {Seat.EAST: make_bot("strong", seed), Seat.WEST: make_bot("easy", seed + 100)}
    while game.phase != "ended":
        seat = (next(s for s in Seat if game.hand_of(s) is None) if game.phase == "choosing"
                else game.turn)
        assert seat is not None
        game.apply(seat, bots[seat].act(game.view(seat)))
    return game


def estimates(game: Game) -> GameReview:
    """What the screen computes before its first four parts show."""
    review = review_of_game(game, Seat.WEST)
    done = list(assess(review, "strong"))
    regrets_section(done)
    luck_section(done, review.ron_points)
    readability(review, "person")
    return review


def whole_text(game: Game) -> None:
    """``review --text`` without printing."""
    review = review_of_game(game, Seat.WEST)
    for _ in review_lines(review, {Seat.EAST: "Bot (strong)", Seat.WEST: "You"}, "strong"):
        pass


def best_of(repeat: int, work: Callable[[], object]) -> float:
    """The least wall time of ``repeat`` runs of ``work``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    """Play the games, time the review's parts, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    games: list[Game] = []
    seed = args.seed
    while len(games) < args.games:
        game = careless_game(seed)
        seed += 1
        if game.result is not None and game.result.result == "draw":
            games.append(game)
    rows: dict[str, list[float]] = {"steps, estimates, regrets, luck, your wait": [],
                                    "the build (hand search)": [], "review --text, all": []}
    for game in games:
        review = estimates(game)
        assert len(review.steps) == 17
        rows["steps, estimates, regrets, luck, your wait"].append(
            best_of(args.repeat, partial(estimates, game)))
        rows["the build (hand search)"].append(best_of(args.repeat, partial(build_of, review)))
        rows["review --text, all"].append(best_of(args.repeat, partial(whole_text, game)))
    print(f"The review of a 17-discard game, {len(games)} games (seeds {args.seed}-{seed - 1}, "
          f"draws only), best of {args.repeat} runs each:")
    print(f"{'part':<46}{'median':>9}{'slowest':>9}")
    for name, times in rows.items():
        print(f"{name:<46}{statistics.median(times):>8.3f}s{max(times):>8.3f}s")


if __name__ == "__main__":
    main()
