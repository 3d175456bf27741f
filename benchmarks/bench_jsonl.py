"""Benchmark: the ``--jsonl`` tools end to end, per request, against the work itself.

    python benchmarks/bench_jsonl.py [--hands 10000] [--seed 7] [--repeat 3]
    python benchmarks/bench_jsonl.py --tool danger --positions 2000
    python benchmarks/bench_jsonl.py --tool bot-hand --deals 300
    python benchmarks/bench_jsonl.py --write-expected FILE | --check-expected FILE

``analyze``: ``minefield analyze --jsonl`` reads 10,000 requests of random tenpai hands (the
differential test's generator: seats, discard positions, dora and ura indicators) in one
process, the time of an empty run (no requests: the interpreter, the imports) subtracted, so
that start-up is not counted. The reference is the ``mahjong`` package (2.1.0) doing the same
analysis of the same hands, as ``bench_analyze.py`` times it: its agari check on each of the 34
kinds, then ``estimate_hand_value`` twice per wait, its inputs built beforehand, its one cache
emptied before the run, in a process of its own. Both are CPU seconds (user + system), the best
of ``--repeat`` runs, so that other processes on a shared machine count less.

``danger`` and ``bot-hand``: the same end-to-end time per request, against the work itself (the
estimate of each position, the bot's hand search and the analysis of its hand) timed in
process on objects built beforehand: the ratio is what the JSON and validation layers add.

``--write-expected`` keeps the output of the requests (analyze, danger and bot-hand) in a file;
``--check-expected`` runs them again and says whether the output is the same byte for byte.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cpu_of_run(argv: list[str], stdin: Path) -> tuple[float, bytes]:
    """CPU seconds (user + system) of running ``argv`` on ``stdin``, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with stdin.open("rb") as source:
        done = subprocess.run(argv, stdin=source, capture_output=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def minefield_command() -> list[str]:
    """The ``minefield`` command of this interpreter."""
    return [sys.executable, "-m", "minefield.cli"]


def analyze_requests(count: int, seed: int) -> list[str]:
    """``count`` requests of distinct random tenpai hands with their situations."""
    from minefield.rules.random_hands import random_case
    from minefield.rules.tiles import kind_str, kinds_to_str

    rng = random.Random(seed)
    seen: set[tuple[int, ...]] = set()
    lines = []
    while len(lines) < count:
        case = random_case(rng)
        if case.counts in seen:
            continue
        seen.add(case.counts)
        hand = kinds_to_str([k for k, n in enumerate(case.counts) for _ in range(n)])
        lines.append(json.dumps({
            "hand": hand, "seat": "east" if case.seat_wind == 27 else "west",
            "dora": kind_str(case.dora_indicator), "ura": kind_str(case.ura_indicator),
            "discard": case.discard}))
    return lines


def danger_requests(count: int, seed: int) -> list[str]:
    """``count`` positions of bot games (both seats, every discard), as danger requests."""
    from minefield.bots import make_bot
    from minefield.rules.game import Game, Seat

    lines: list[str] = []
    number = 0
    while len(lines) < count:
        game = Game(seed + number)
        bots = {s: make_bot("easy", seed + number + i) for i, s in enumerate(Seat)}
        for s in Seat:
            game.apply(s, bots[s].act(game.view(s)))
        while game.turn is not None and len(lines) < count:
            view = game.view(game.turn)
            assert view.own_hand is not None
            lines.append(json.dumps({
                "seat": view.seat.value, "tiles": view.own_tiles, "hand": view.own_hand,
                "dora": view.dora_indicator,
                "discards": {s.value: row for s, row in view.discards.items()}}))
            game.apply(game.turn, bots[game.turn].act(view))
        number += 1
    return lines


def bot_hand_requests(count: int, seed: int) -> list[str]:
    """``count`` deals of 34 tiles with a dora indicator, seats alternating."""
    from minefield.rules.game import Game, Seat

    lines = []
    for number in range(count):
        seat = Seat.EAST if number % 2 == 0 else Seat.WEST
        view = Game(seed + number).view(seat)
        lines.append(json.dumps({"tiles": view.own_tiles, "seat": seat.value,
                                 "dora": view.dora_indicator, "level": "strong"}))
    return lines


def end_to_end(tool: str, lines: list[str], repeat: int) -> tuple[float, bytes]:
    """CPU seconds per request of ``minefield TOOL --jsonl`` (best of ``repeat``, the empty
    run's best subtracted) and the output of the last run."""
    with tempfile.TemporaryDirectory(prefix="mfjsonl") as name:
        folder = Path(name)
        full, empty = folder / "requests.jsonl", folder / "empty.jsonl"
        full.write_text("".join(line + "\n" for line in lines))
        empty.write_text("")
        argv = [*minefield_command(), tool, "--jsonl"]
        best_full, best_empty = float("inf"), float("inf")
        output = b""
        for _ in range(repeat):
            spent, output = cpu_of_run(argv, full)
            best_full = min(best_full, spent)
            best_empty = min(best_empty, cpu_of_run(argv, empty)[0])
    return (best_full - best_empty) / len(lines), output


def reference_per_hand(lines: list[str], repeat: int) -> float:
    """CPU seconds per hand of the ``mahjong`` package doing the analysis, in its own
    process (bench_analyze.py's reference on these requests)."""
    script = f"""
import json, sys, time, gc
sys.path.insert(0, {str(ROOT / 'benchmarks')!r})
from bench_analyze import clear_reference, reference, prepare
from minefield.rules.random_hands import ScoringCase
from minefield.rules.tiles import kind_from_str
from minefield.rules.hand import Hand
cases = []
for line in open(sys.argv[1]):
    request = json.loads(line)
    counts = Hand.parse(request["hand"]).counts
    cases.append(ScoringCase("bench", counts, 27 if request["seat"] == "east" else 29,
                             request["discard"], kind_from_str(request["dora"]),
                             kind_from_str(request["ura"])))
items = prepare(cases)
best = float("inf")
for _ in range({repeat}):
    clear_reference()
    gc.collect()
    start = time.process_time()
    for item in items:
        reference(item)
    best = min(best, time.process_time() - start)
print(best / len(items))
"""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl") as requests:
        requests.write("".join(line + "\n" for line in lines))
        requests.flush()
        done = subprocess.run([sys.executable, "-c", script, requests.name],
                              capture_output=True, text=True, check=True, cwd=ROOT)
    return float(done.stdout)


def our_analysis_per_hand(lines: list[str], repeat: int) -> float:
    """CPU seconds per hand of our analysis alone, as ``analyze --jsonl`` does it
    (``minefield.rules.score.analyze_rows`` on the hand's counts and the situation of its
    context, made once per context), hands and situations built beforehand, in a fresh
    process each run (its tables as cold as the end-to-end run's, what was built beforehand
    frozen as the command freezes it): the work the end-to-end run does besides reading and
    writing JSON."""
    script = """
import gc, json, sys, time
from minefield.analyzer import context_for
from minefield.rules.game import Seat
from minefield.rules.hand import Hand
from minefield.rules.score import analyze_rows, make_situation
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import kind_from_str
settings = RuleSettings()
situations = {}
items = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    key = (r["seat"], r["discard"], r["dora"], r["ura"])
    if key not in situations:
        situations[key] = make_situation(context_for(Seat(r["seat"]), r["discard"],
            kind_from_str(r["dora"]), kind_from_str(r["ura"]), settings), settings)
    items.append((Hand.parse(r["hand"]).counts, situations[key]))
gc.freeze()
start = time.process_time()
for number, (counts, situation) in enumerate(items):
    analyze_rows(counts, situation)
    if number % 700 == 699:  # as often as the command's batches of 64 KiB
        gc.freeze()
print((time.process_time() - start) / len(items))
"""
    best = float("inf")
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl") as requests:
        requests.write("".join(line + "\n" for line in lines))
        requests.flush()
        for _ in range(repeat):
            done = subprocess.run([sys.executable, "-c", script, requests.name],
                                  capture_output=True, text=True, check=True, cwd=ROOT)
            best = min(best, float(done.stdout))
    return best


def danger_work(lines: list[str], repeat: int) -> float:
    """CPU seconds per position of the fast estimate itself, positions built beforehand."""
    from minefield.defense.estimate import estimate
    from minefield.defense.request import DangerRequest

    positions = [DangerRequest.model_validate_json(line).position() for line in lines]
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for position in positions:
            estimate(position)  # the default opponent, as the command's
        best = min(best, time.process_time() - start)
    return best / len(lines)


def bot_hand_work(lines: list[str], repeat: int) -> float:
    """CPU seconds per deal of the bot's hand search and the analysis of the hand it keeps,
    deals built beforehand."""
    from minefield.bots.hands import DealtTiles
    from minefield.bots.levels import HAND_POLICIES
    from minefield.rules.game import Seat
    from minefield.rules.hand import Hand
    from minefield.rules.score import analyze
    from minefield.rules.settings import RuleSettings
    from minefield.rules.tiles import Tile, parse_tiles

    settings = RuleSettings()
    deals = []
    for line in lines:
        request = json.loads(line)
        deals.append(DealtTiles.from_tiles(parse_tiles(request["tiles"]),
                                           Tile.parse(request["dora"]).kind,
                                           Seat(request["seat"]), settings))
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for deal in deals:
            choice = HAND_POLICIES["strong"](deal, random.Random(0))
            analyze(Hand.parse(deal.hand_tiles(choice.hand)), deal.context, settings)
        best = min(best, time.process_time() - start)
    return best / len(lines)


def main() -> int:
    """Run the benchmark of one tool (or write or check the expected outputs)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tool", choices=["analyze", "danger", "bot-hand"], default="analyze")
    parser.add_argument("--hands", type=int, default=10000, help="analyze requests (10000)")
    parser.add_argument("--positions", type=int, default=2000, help="danger requests (2000)")
    parser.add_argument("--deals", type=int, default=300, help="bot-hand requests (300)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3, help="runs, best kept (3)")
    parser.add_argument("--write-expected", type=Path, metavar="FILE")
    parser.add_argument("--check-expected", type=Path, metavar="FILE")
    args = parser.parse_args()
    makers = {"analyze": (analyze_requests, args.hands), "danger": (danger_requests,
              args.positions), "bot-hand": (bot_hand_requests, args.deals)}
    if args.write_expected or args.check_expected:
        outputs = {}
        for tool, (make, count) in makers.items():
            _, output = end_to_end(tool, make(min(count, 2000), args.seed), 1)
            outputs[tool] = output.decode()
        if args.write_expected:
            args.write_expected.write_text(json.dumps(outputs))
            print(f"wrote {args.write_expected}")
            return 0
        expected = json.loads(args.check_expected.read_text())
        same = {tool: outputs[tool] == expected[tool] for tool in outputs}
        print("same output byte for byte: " + ", ".join(f"{t} {'yes' if s else 'NO'}"
                                                         for t, s in same.items()))
        return 0 if all(same.values()) else 1
    make, count = makers[args.tool]
    lines = make(count, args.seed)
    ours, _ = end_to_end(args.tool, lines, args.repeat)
    if args.tool == "analyze":
        theirs = reference_per_hand(lines, args.repeat)
        alone = our_analysis_per_hand(lines, args.repeat)
        print(f"analyze --jsonl, {count} random tenpai hands, CPU per hand (empty run "
              f"subtracted, best of {args.repeat}): ours {ours * 1e6:.1f} us, mahjong 2.1.0 "
              f"{theirs * 1e6:.1f} us: {theirs / ours:.1f}x faster (goal 10x, then 15x)")
        print(f"  our analysis alone (fresh process, inputs built beforehand): "
              f"{alone * 1e6:.1f} us a hand ({theirs / alone:.1f}x mahjong); reading, "
              f"checking and writing JSON: {(ours - alone) * 1e6:.1f} us a hand "
              f"({ours / alone:.2f}x the analysis)")
        return 0
    work = (danger_work if args.tool == "danger" else bot_hand_work)(lines, args.repeat)
    print(f"{args.tool} --jsonl, {count} requests, CPU per request (empty run subtracted, "
          f"best of {args.repeat}): end to end {ours * 1e3:.3f} ms, the work itself "
          f"{work * 1e3:.3f} ms: {ours / work:.2f}x the work (goal at most 1.3x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
