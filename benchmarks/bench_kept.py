"""Benchmark: ``games --json``, ``record`` and ``stats`` with 10,000 kept games.

A data folder like ``minefield ssh-server``'s is made in a temporary folder: ``--players``
players in ``players.sqlite`` and ``--games`` finished network records in
``server/games/finished/`` (deals played out by two easy bots, ``--deals`` of them, each
written again under many game ids, pairs of players, tables and end times: records the reader
takes as real). Then, in this process:

- the index made from the records (:meth:`KeptGames.rebuild`, what ``ssh-server
  rebuild-stats`` does), timed;
- ``games --json`` (the 20 newest visible games; and one player's), ``record GAME`` (a random
  visible game) and ``stats NAME --json`` (a player with about games * 2 / players games):
  answers per second over ``--seconds`` each (the answer's text, as the front door prints it).

With ``--ssh N``: an ``ssh-server`` is started on the folder (once it has rated the games it
finds) and each command is also run N times through the OpenSSH client (a connection each:
key exchange included), one after the other.

Run from the repository root: ``python benchmarks/bench_kept.py`` (``--help`` for options).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from minefield.bots.levels import make_bot
from minefield.bots.simulate import play_game
from minefield.frontdoor.accounts import Accounts
from minefield.frontdoor.club import Club
from minefield.records.format import dump_line
from minefield.records.header import TABLE_KINDS, Players, RecordHeader, TableHeader
from minefield.records.writer import RecordWriter
from minefield.rules.game import Game
from minefield.server.identity import user_name
from minefield.server.kept_games import KeptGames

#: The front door's shared account: the user running it (its players are NAME@USER).
SHARED = user_name(os.getuid())
#: The template records' moves are timed from here (one second apart), then moved in time.
TEMPLATE_DAY = "2000-01-01T00:"


def templates(deals: int) -> list[tuple[Game, bytes]]:
    """``deals`` deals played out by easy bots: each game and its record's lines after the
    header (moves dated from :data:`TEMPLATE_DAY`)."""
    made = []
    folder = Path(tempfile.mkdtemp())
    try:
        for seed in range(1, deals + 1):
            game = Game(seed=seed)
            play_game(game, make_bot("easy", seed), make_bot("easy", seed + 7))
            base = datetime(2000, 1, 1, tzinfo=UTC)
            moments = iter(base + timedelta(seconds=n) for n in range(10_000))
            header = RecordHeader.for_game(game, "network", Players(east="e", west="w"), base)
            path = folder / f"t{seed}.jsonl"
            with RecordWriter(path, header, clock=lambda it=moments: next(it)) as writer:
                for seq, (seat, command) in enumerate(game.commands, start=1):
                    writer.command(seq, seat, command)
                writer.result(game)
            body = path.read_bytes().split(b"\n", 1)[1]
            made.append((game, body))
    finally:
        shutil.rmtree(folder)
    return made


def make_folder(data: Path, games: int, players: int, deals: int, seed: int) -> list[str]:
    """The data folder: players and finished records; the players' names."""
    rng = random.Random(seed)
    accounts = Accounts(data / "players.sqlite")
    names = [f"p{i:03d}" for i in range(players)]
    for name in names:
        accounts.claim(f"SHA256:bench-{name}", name)
    accounts.close()
    finished = data / "server" / "games" / "finished"
    finished.mkdir(parents=True)
    made = templates(deals)
    start = datetime(2025, 1, 1, tzinfo=UTC)
    for number in range(games):
        game, body = rng.choice(made)
        east, west = rng.sample(names, 2)
        kind = rng.choice([k for k in TABLE_KINDS if k != "bot"])
        moment = start + timedelta(hours=number)
        header = RecordHeader.for_game(
            game, "network", Players(east=f"{east}@{SHARED}", west=f"{west}@{SHARED}"),
            moment, table=TableHeader(kind=kind, rated=rng.random() < 0.7))
        day = moment.strftime("%Y-%m-%dT%H:").encode()
        (finished / f"g{number:06d}.jsonl").write_bytes(
            dump_line(header) + body.replace(TEMPLATE_DAY.encode(), day))
    return names


def per_second(what: str, seconds: float, ask: Callable[[int], str]) -> None:
    """Call ``ask`` for ``seconds`` and print the answers per second."""
    count, size, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        size += len(ask(count))
        count += 1
    elapsed = time.perf_counter() - start
    print(f"{what}: {count / elapsed:,.0f} answers/s ({elapsed / count * 1000:.2f} ms each, "
          f"{size // count:,} bytes)")


def in_process(data: Path, names: list[str], seconds: float, seed: int) -> None:
    """Time the index's rebuild and the answers, in this process."""
    rng = random.Random(seed)
    kept = KeptGames(data / "players.sqlite", data / "server" / "games")
    start = time.perf_counter()
    count = kept.rebuild()
    print(f"index rebuilt from {count:,} records in {time.perf_counter() - start:.2f} s")
    accounts = Accounts(data / "players.sqlite")
    club = Club(accounts, kept, SHARED)
    viewer = accounts.by_name(names[0])
    assert viewer is not None
    players = [a for a in (accounts.by_name(n) for n in names) if a is not None]
    visible = [g.game for g in kept.listed(club.keys_of(viewer), limit=10_000)]
    per_second("games --json (newest 20)", seconds,
               lambda _: club.games(viewer, None, None, True))
    per_second("games NAME --json (newest 20 of a player)", seconds,
               lambda n: club.games(viewer, names[n % len(names)], None, True))
    per_second("record GAME", seconds, lambda _: club.record(viewer, rng.choice(visible)))
    times = []
    for account in players[:20]:
        one = time.perf_counter()
        club.stats(viewer, account.name, True)
        times.append(time.perf_counter() - one)
    games = len(kept.of_player(club.keys_of(players[0])))
    print(f"stats NAME --json: {sum(times) / len(times) * 1000:.1f} ms mean, "
          f"{max(times) * 1000:.1f} ms slowest (a player of about {games} games)")
    print("one profile:", club.stats(viewer, viewer.name, True))


def over_ssh(data: Path, names: list[str], times: int) -> None:
    """Start ``ssh-server`` on ``data`` and time each command through OpenSSH."""
    folder = Path(tempfile.mkdtemp(prefix="bk"))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = (folder / "door.log").open("wb")
    command = Path(sys.executable).parent / "minefield"
    server = subprocess.Popen([str(command), "ssh-server", "--listen",
                               f"127.0.0.1:{port}", "--data", str(data), "--open",
                               "--auth-per-minute", "100000", "--sessions-per-address", "1000",
                               "--pending-per-address", "100"],
                              stdout=log, stderr=log)
    try:
        key = folder / "bench"
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)],
                       check=True)
        base = ["ssh", "-T", "-p", str(port), "-i", str(key), "-F", "/dev/null", "-o",
                "IdentitiesOnly=yes", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no",
                "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "127.0.0.1"]
        for _ in range(600):
            if f"listening on 127.0.0.1:{port}" in (folder / "door.log").read_text():
                break
            time.sleep(0.1)
        else:
            raise SystemExit("ssh-server did not start:\n" + (folder / "door.log").read_text())
        subprocess.run([*base, "name", "benchy"], check=True, capture_output=True)
        # The front door rates the records it finds (once): let it finish first.
        rated, before = -1, -2
        while rated != before:
            time.sleep(5)
            ladder = subprocess.run([*base, "ladder", "--json"], check=True,
                                    capture_output=True, text=True).stdout
            before, rated = rated, sum(row["games"] for row in json.loads(ladder))
        print(f"the front door rated {rated // 2:,} games first")
        game = subprocess.run([*base, "games", "--json", "--limit", "1"], check=True,
                              capture_output=True, text=True).stdout.split('"game": "')[1][:7]
        for what in (["games", "--json"], ["record", game], ["stats", names[0], "--json"]):
            start = time.perf_counter()
            for _ in range(times):
                subprocess.run([*base, *what], check=True, capture_output=True)
            elapsed = time.perf_counter() - start
            print(f"over ssh, {' '.join(what)}: {times / elapsed:.1f} commands/s "
                  f"({elapsed / times * 1000:.0f} ms each, a connection each)")
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
        shutil.rmtree(folder)


def main() -> None:
    """Make the folder, time the answers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--ssh", type=int, default=0, metavar="N")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="bench-kept-"))
    try:
        start = time.perf_counter()
        names = make_folder(data, args.games, args.players, args.deals, args.seed)
        print(f"{args.games:,} records of {args.players} players written in "
              f"{time.perf_counter() - start:.1f} s")
        in_process(data, names, args.seconds, args.seed)
        if args.ssh:
            over_ssh(data, names, args.ssh)
    finally:
        shutil.rmtree(data)


if __name__ == "__main__":
    main()
