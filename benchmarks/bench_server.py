"""Benchmark the game daemon: many concurrent games over its socket (run on demand).

    python benchmarks/bench_server.py --games 1000 --seconds 40
    python benchmarks/bench_server.py --games 200 --bot-games 20 --seconds 30

Scripted clients (in worker processes, so they do not share the daemon's CPU accounting)
play human-vs-human games over the Unix socket at a human-like pace (``--pace`` seconds per
move, jittered), starting a new game whenever one ends, and measure each command's latency:
from sending it to receiving its ``applied``. It prints commands per second, p50/p99
latency and the daemon's memory per game, first without and then with bot games (strong bots
computing in the daemon's worker processes). Then the discard timing: the latency of discards
that hit a wait of the other hand against those that miss, with the daemon's pacing off and on.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from minefield.bots import make_bot
from minefield.rules.game import Discard, Game, Seat
from minefield.rules.hand import Hand, waits
from minefield.rules.tiles import parse_tiles, tiles_to_str
from minefield.server.identity import user_name

ME = user_name(os.getuid())


# -- the daemon ------------------------------------------------------------------------------------


def start_daemon(folder: Path, *extra: str) -> tuple[subprocess.Popen[bytes], Path]:
    socket_path = folder / "run" / "minefield.sock"
    args = [sys.executable, "-m", "minefield.server", "--socket", str(socket_path),
            "--data", str(folder / "data"), "--shared-account", ME, "--test-seeds",
            "--bot-think", "0", "--hand-seconds", "600", "--discard-seconds", "60",
            "--idle-seconds", "120", *extra]
    folder.mkdir(parents=True, exist_ok=True)
    log = (folder / "daemon.log").open("ab")
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=log)
    for _ in range(600):
        if socket_path.exists():
            return process, socket_path
        time.sleep(0.05)
    raise SystemExit("the daemon did not start: see " + str(folder / "daemon.log"))


def stop_daemon(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


# -- scripted clients -----------------------------------------------------------------------------


class Player:
    """One seat over the socket: the first 13 tiles as its hand, then its lowest pool tile."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 pace: float, latencies: list[float], name: str) -> None:
        self.reader, self.writer = reader, writer
        self.pace = pace
        self.latencies = latencies
        self.name = name
        self.sent: dict[str, float] = {}
        self.count = 0
        self.hand_sent = False
        self.seq_sent = -1
        self.tasks: set[asyncio.Task[None]] = set()

    def later(self, command: dict[str, Any]) -> None:
        task = asyncio.create_task(self.command(command))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def send(self, message: dict[str, Any]) -> None:
        self.writer.write(json.dumps(message).encode() + b"\n")

    async def command(self, command: dict[str, Any]) -> None:
        if self.pace:
            await asyncio.sleep(random.uniform(0.5, 1.5) * self.pace)
        self.count += 1
        command_id = f"{self.name}-{self.count}"
        self.sent[command_id] = time.perf_counter()
        self.send({"type": "command", "command_id": command_id, "command": command})

    async def play(self) -> None:
        """Until the game ends (or the connection does)."""
        while True:
            line = await self.reader.readline()
            if not line:
                return
            message = json.loads(line)
            kind = message["type"]
            if kind == "applied" and message["command_id"] in self.sent:
                self.latencies.append(time.perf_counter() - self.sent.pop(message["command_id"]))
            if kind not in ("snapshot", "applied"):
                continue
            table = message["table"]
            view = table["view"]
            if view["phase"] == "ended":
                return
            waiting = any(p["name"] == "(waiting)" for p in table["players"].values())
            mine = view["phase"] == "discarding" and view["turn"] == view["seat"]
            if view["phase"] == "choosing" and view["own_hand"] is None and not waiting:
                if not self.hand_sent:
                    self.hand_sent = True
                    hand = tiles_to_str(parse_tiles(view["own_tiles"])[:13])
                    self.later({"type": "choose_hand", "tiles": hand})
            elif mine and table["seq"] != self.seq_sent:
                self.seq_sent = table["seq"]
                self.later({"type": "discard", "tile": str(parse_tiles(view["own_pool"])[0])})


async def _connect(path: str, hello: dict[str, Any]
                   ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, dict[str, Any]]:
    reader, writer = await asyncio.open_unix_connection(path, limit=1 << 20)
    writer.write(json.dumps({"type": "hello", "version": 1, **hello}).encode() + b"\n")
    welcome = json.loads(await reader.readline())
    if welcome["type"] != "welcome":
        raise RuntimeError(welcome.get("message", "refused"))
    return reader, writer, welcome


async def _game_loop(path: str, index: str, deadline: float, pace: float, bot: str | None,
                     latencies: list[float], commands: list[int]) -> None:
    await asyncio.sleep(random.uniform(0, 5.0))  # ramp up
    round_number = 0
    while time.perf_counter() < deadline:
        round_number += 1
        host_name = f"h{index}x{round_number}"
        hello: dict[str, Any] = {"action": "host", "player": host_name}
        if bot:
            hello["bot"] = bot
        reader, writer, welcome = await _connect(path, hello)
        players = [Player(reader, writer, pace, latencies, host_name)]
        if not bot:
            guest = f"j{index}x{round_number}"
            r2, w2, _ = await _connect(path, {"action": "join", "code": welcome["code"],
                                              "player": guest})
            players.append(Player(r2, w2, pace, latencies, guest))
        await asyncio.gather(*(p.play() for p in players))
        for player in players:
            commands[0] += player.count
            player.writer.close()


def client_process(path: str, prefix: str, games: int, seconds: float, pace: float,
                   bot: str | None, warmup: float, out: Any) -> None:
    """A worker: ``games`` concurrent games for ``seconds``; sends (latencies, commands)."""
    async def main() -> tuple[list[float], int]:
        latencies: list[float] = []
        commands = [0]
        deadline = time.perf_counter() + seconds
        tasks = [asyncio.create_task(_game_loop(path, f"{prefix}{i}", deadline, pace, bot,
                                                latencies, commands)) for i in range(games)]
        await asyncio.sleep(warmup)
        latencies.clear()
        start_commands = commands[0]
        await asyncio.wait(tasks)
        return latencies, commands[0] - start_commands

    latencies, count = asyncio.run(main())
    out.put((latencies, count))


def run_load(path: Path, pid: int, games: int, bot_games: int, seconds: float, pace: float,
             processes: int) -> dict[str, float]:
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    warmup = 8.0
    workers = []
    per = [games // processes + (1 if i < games % processes else 0) for i in range(processes)]
    for i, count in enumerate(per):
        workers.append(context.Process(target=client_process, args=(
            str(path), f"p{i}g", count, seconds, pace, None, warmup, out)))
    if bot_games:
        workers.append(context.Process(target=client_process, args=(
            str(path), "bot", bot_games, seconds, pace / 4, "strong", warmup, out)))
    idle = rss_mib(pid)
    started = time.perf_counter()
    for worker in workers:
        worker.start()
    time.sleep(min(seconds / 2, warmup + 2))
    busy = rss_mib(pid)
    results = [out.get() for _ in workers]
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - started - warmup
    human = [x for latencies, _ in results[:processes] for x in latencies]
    human.sort()
    commands = sum(count for _, count in results)
    return {
        "commands_per_s": commands / elapsed,
        "p50_ms": 1000 * human[len(human) // 2] if human else float("nan"),
        "p99_ms": 1000 * human[int(len(human) * 0.99)] if human else float("nan"),
        "human_commands": len(human),
        "rss_idle_mib": idle,
        "rss_busy_mib": busy,
        "kib_per_game": (busy - idle) * 1024 / max(1, games + bot_games),
    }


# -- discard timing: hit or miss -------------------------------------------------------------------


async def timing_games(path: Path, games: int) -> tuple[list[float], list[float]]:
    """Games with tenpai hands (the easy bot's), no think time; the latency of each discard,
    split by whether it was one of the other hand's waits."""
    hits: list[float] = []
    misses: list[float] = []
    for number in range(games):
        seed = f"{number + 1000}"
        game = Game(seed)
        hands = {seat: make_bot("easy", number).act(game.view(seat)) for seat in Seat}
        wait_kinds = {seat: set(waits(Hand.parse(hands[seat].tiles).counts)) for seat in Seat}
        reader, writer, welcome = await _connect(str(path), {
            "action": "host", "player": f"t{number}", "seed": seed})
        r2, w2, _ = await _connect(str(path), {"action": "join", "code": welcome["code"],
                                               "player": f"u{number}"})
        seats = {Seat(welcome["seat"]): (reader, writer), Seat(welcome["seat"]).other: (r2, w2)}
        for seat, (_, w) in seats.items():
            w.write(json.dumps({"type": "command", "command_id": "h", "command":
                                hands[seat].model_dump()}).encode() + b"\n")
        views: dict[Seat, dict[str, Any]] = {}
        for seat, (r, _) in seats.items():  # both hands applied, seen by both
            while seat not in views or views[seat]["phase"] == "choosing":
                message = json.loads(await r.readline())
                if message["type"] == "applied":
                    views[seat] = message["table"]["view"]
        number_sent = 0
        while views[Seat.EAST]["phase"] == "discarding":
            turn = Seat(views[Seat.EAST]["turn"])
            tile = random.Random(number_sent).choice(parse_tiles(views[turn]["own_pool"]))
            hit = tile.kind in wait_kinds[turn.other]
            number_sent += 1
            command_id = f"d{number_sent}"
            r, w = seats[turn]
            sent = time.perf_counter()
            w.write(json.dumps({"type": "command", "command_id": command_id, "command":
                                {"type": "discard", "tile": str(tile)}}).encode() + b"\n")
            for seat in (turn, turn.other):
                r = seats[seat][0]
                while True:
                    message = json.loads(await r.readline())
                    if message["type"] == "applied" and message["by"] == turn.value:
                        views[seat] = message["table"]["view"]
                        break
                    if message["type"] == "rejected":
                        raise RuntimeError(message["reason"])
                if seat is turn:
                    (hits if hit else misses).append(time.perf_counter() - sent)
        for _, w in seats.values():
            w.close()
    return hits, misses


def summary(values: list[float]) -> str:
    if not values:
        return "none"
    values = sorted(values)
    return (f"n={len(values)} mean {1000 * statistics.fmean(values):.2f} ms, "
            f"p50 {1000 * values[len(values) // 2]:.2f} ms, "
            f"p99 {1000 * values[int(len(values) * 0.99)]:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--bot-games", type=int, default=50,
                        help="strong-bot games in the second run (0: skip it)")
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--pace", type=float, default=1.0, help="seconds per move (mean)")
    parser.add_argument("--processes", type=int, default=2, help="client processes")
    parser.add_argument("--timing-games", type=int, default=60)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="mfbench", dir="/tmp"))
    try:
        runs = [("humans only", 0)]
        if args.bot_games:
            runs.append((f"humans + {args.bot_games} strong-bot games", args.bot_games))
        for label, bots in runs:
            process, path = start_daemon(folder / label.split()[0] / str(bots))
            try:
                result = run_load(path, process.pid, args.games, bots, args.seconds, args.pace,
                                  args.processes)
            finally:
                stop_daemon(process)
            print(f"{label}: {args.games} concurrent human games, pace {args.pace:g} s/move: "
                  f"{result['commands_per_s']:.0f} commands/s, human command latency "
                  f"p50 {result['p50_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms "
                  f"({result['human_commands']} commands); daemon RSS "
                  f"{result['rss_idle_mib']:.0f} MiB idle, {result['rss_busy_mib']:.0f} MiB busy"
                  f" = {result['kib_per_game']:.0f} KiB per game")
        for pace in ("0", "0.010"):
            process, path = start_daemon(folder / f"timing{pace}", "--discard-pace", pace)
            try:
                hits, misses = asyncio.run(timing_games(path, args.timing_games))
            finally:
                stop_daemon(process)
            print(f"discard timing, pace {float(pace) * 1000:g} ms: hit {summary(hits)}; "
                  f"miss {summary(misses)}; mean difference "
                  f"{1000 * (statistics.fmean(hits) - statistics.fmean(misses)):+.3f} ms"
                  if hits and misses else f"discard timing, pace {pace}: not enough hits")
        in_process_timing()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def in_process_timing(games: int = 200) -> None:
    """The engine's own cost of a discard, hit or miss (what the pacing must cover)."""
    hits: list[float] = []
    misses: list[float] = []
    for number in range(games):
        game = Game(number + 5000)
        for seat in Seat:
            game.apply(seat, make_bot("easy", number).act(game.view(seat)))
        rng = random.Random(number)
        while game.phase == "discarding":
            seat = game.turn
            assert seat is not None
            tile = rng.choice(parse_tiles(game.view(seat).own_pool))
            hit = tile.kind in game.waits_of(seat.other)
            started = time.perf_counter()
            game.apply(seat, Discard(tile=str(tile)))
            (hits if hit else misses).append(time.perf_counter() - started)
    print(f"engine discard cost in process: hit {summary(hits)}; miss {summary(misses)}")


if __name__ == "__main__":
    main()
