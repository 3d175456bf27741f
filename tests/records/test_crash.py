"""A game's process killed midway (SIGKILL: no cleanup at all) loses no written command."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from minefield.records.reader import read_record
from minefield.records.replay import replay_record
from tests.records.conftest import RON_SEED, played

ROOT = Path(__file__).resolve().parents[2]

#: Plays the seeded game command by command, writing each, and kills itself after N commands.
SCRIPT = """
import os, signal, sys
from pathlib import Path
from minefield.records.header import Players
from minefield.records.writer import RecordWriter
from tests.records.conftest import played

folder, seed, stop = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
reference = played(seed)
game = played(seed, stop=0)
writer = RecordWriter.start(game, "practice", Players(east="Ann", west="Bot"), folder)
print(writer.path, flush=True)
for seq, (seat, command) in enumerate(reference.commands, start=1):
    if seq > stop:
        break
    game.apply(seat, command)
    writer.command(seq, seat, command)
os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize("stop", [0, 1, 3, 5])
def test_killed_game_keeps_every_written_command(tmp_path: Path, stop: int) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path), str(RON_SEED),
                           str(stop)], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=False)
    assert done.returncode == -signal.SIGKILL, done.stderr
    path = Path(done.stdout.strip())
    record = read_record(path)
    reference = played(RON_SEED)
    assert record.problems == () and record.result is None
    assert [(c.seat, c.command) for c in record.commands] == reference.commands[:stop]
    replay = replay_record(record)
    assert replay.consistent and replay.applied == stop
    assert replay.game.state_key() == played(RON_SEED, stop=stop).state_key()
