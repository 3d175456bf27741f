"""The daemon's bot workers (minefield/server/bots.py) end with the daemon, however it ends:
killed with SIGKILL, its pool's worker and the ``multiprocessing`` resource tracker it started
are not left running (parent PID 1) for good."""

from __future__ import annotations

from pathlib import Path

from tests.processes import children, survivors
from tests.server.conftest import LIMIT
from tests.server.test_crash import DaemonProcess
from tests.server.test_restore import play_to_my_discard


async def test_the_bot_worker_and_its_resource_tracker_end_when_the_daemon_is_killed(
        short_dir: Path) -> None:
    daemon = DaemonProcess(short_dir)
    await daemon.start()
    try:
        # A game against the bot: its hand (R7) was chosen in a worker of the pool.
        raw, _, _ = await play_to_my_discard(daemon.socket)
        assert daemon.process is not None
        helpers = children(daemon.process.pid)
        commands = " | ".join(helper.command for helper in helpers)
        assert "spawn_main" in commands, commands  # the bot's worker
        assert "resource_tracker" in commands, commands
        daemon.kill()
        left = survivors(helpers, LIMIT)
        assert left == [], f"still running after the daemon's kill -9: {left}"
        raw.writer.close()
    finally:
        daemon.stop()
