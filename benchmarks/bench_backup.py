"""Benchmark: ``minefield ssh-server backup DEST`` of a data folder with 10,000 kept games.

The folder is made as ``bench_kept.py`` makes it (``--players`` players in ``players.sqlite``,
``--games`` finished records, the index of kept games built from them), then backed up
``--runs`` times into fresh folders, as the command does it (:func:`minefield.server.backup.
backup`, in this process: the command adds only its start-up). Prints the median time, the
folder's size and how many files were copied.

Run from the repository root: ``python benchmarks/bench_backup.py`` (``--help`` for options).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_kept import make_folder  # the same data folder as bench_kept's
from minefield.server.backup import backup
from minefield.server.kept_games import KeptGames


def size_mb(folder: Path) -> float:
    """The bytes of the files under ``folder``, in MB."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6


def main() -> None:
    """Make the folder, time the backups."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="bench-backup-"))
    try:
        data = root / "door"
        data.mkdir()
        make_folder(data, args.games, args.players, args.deals, args.seed)
        kept = KeptGames(data / "players.sqlite", data / "server" / "games")
        kept.rebuild()
        kept.close()
        times = []
        for run in range(args.runs):
            dest = root / f"saved{run}"
            start = time.perf_counter()
            report = backup(data, dest)
            times.append(time.perf_counter() - start)
            if run < args.runs - 1:
                shutil.rmtree(dest)
        print(f"{args.games:,} games, {size_mb(data):.1f} MB: {report.summary(data, dest)}")
        print(f"backup: median {statistics.median(times):.2f} s, min {min(times):.2f} s, "
              f"max {max(times):.2f} s over {args.runs} runs")
    finally:
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
