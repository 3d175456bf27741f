"""kill -9 of the daemon mid-game: it restarts from its records and the game goes on."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from minefield.protocol.messages import Applied, Link, Snapshot
from minefield.rules.game import Seat
from minefield.session.remote import RemoteSession
from minefield.session.remote_start import host, join
from tests.server.conftest import LIMIT, ME, autoplay, next_of
from tests.server.test_daemon import SEED, local_result


class DaemonProcess:
    """``python -m minefield.server`` in a subprocess."""

    def __init__(self, folder: Path) -> None:
        self.socket = folder / "run" / "minefield.sock"
        self.args = [sys.executable, "-m", "minefield.server", "--socket", str(self.socket),
                     "--data", str(folder / "data"), "--shared-account", ME, "--test-seeds",
                     "--bot-think", "0", "--bot-workers", "1"]
        self.log = folder / "daemon.log"
        self.process: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(self.args, stdout=subprocess.DEVNULL, stderr=log)
        async with asyncio.timeout(LIMIT):
            while True:  # until it listens
                try:
                    _, writer = await asyncio.open_unix_connection(str(self.socket))
                except OSError:
                    assert self.process.poll() is None, self.log.read_text()
                    await asyncio.sleep(0.05)
                    continue
                writer.close()
                return

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=LIMIT)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=LIMIT)
            except subprocess.TimeoutExpired:
                self.process.kill()


@pytest.fixture
def daemon_process(short_dir: Path) -> Iterator[DaemonProcess]:
    process = DaemonProcess(short_dir)
    yield process
    process.stop()


def last_seq(seen: Sequence[object]) -> int:
    return max((m.table.seq for m in seen if isinstance(m, Snapshot | Applied)), default=0)


async def test_kill_9_mid_game_loses_nothing_and_the_game_finishes_the_same(
        daemon_process: DaemonProcess) -> None:
    await daemon_process.start()
    ann = await host(socket=daemon_process.socket, player="ann", seed=SEED)
    bob = await join(ann.code or "", socket=daemon_process.socket, player="bob")
    sessions: list[RemoteSession] = [ann, bob]
    for session in sessions:
        await session.open()
    before = await asyncio.gather(*(autoplay(s, stop_at_seq=12) for s in sessions))
    seen_before = {s: last_seq(seen) for s, seen in zip(sessions, before, strict=True)}
    discards_before = {
        s: next(m for m in reversed(seen) if isinstance(m, Snapshot | Applied)).table.view.discards
        for s, seen in zip(sessions, before, strict=True)}

    daemon_process.kill()
    for session in sessions:
        assert (await next_of(session, Link)).state == "reconnecting"
    await daemon_process.start()

    after = await asyncio.gather(*(autoplay(s) for s in sessions))
    expected = local_result(SEED)
    for session, seen in zip(sessions, after, strict=True):
        snapshot = next(m for m in seen if isinstance(m, Snapshot))
        assert snapshot.table.seq >= seen_before[session]  # nothing any client saw is lost
        for seat in Seat:
            old = discards_before[session][seat]
            assert snapshot.table.view.discards[seat][:len(old)] == old
        links = [m.state for m in seen if isinstance(m, Link)]
        assert links[:1] == ["connected"]
        last = seen[-1]
        assert isinstance(last, Applied) and last.table.view.end is not None
        end = last.table.view.end
        assert (end.result, end.winner, end.discard_number) == (
            expected.result, expected.winner, expected.discard_number)
        await session.close()
    assert os.path.exists(daemon_process.socket)
