"""Bot seats on the daemon: every move is computed in a worker process.

A strong bot needs about half a second for its hand: in the daemon's process that would stall
every game. :class:`BotPool` sends the bot's view to a :class:`ProcessPoolExecutor` (workers
at a lower priority, so people's games keep the CPU) and awaits the command. A failing or
crashed worker never stops a game: the automatic move (R25) is played instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context

from minefield.bots import make_bot
from minefield.rules.auto import auto_command
from minefield.rules.game import COMMAND_ADAPTER, ChooseHand, Discard, PlayerView

log = logging.getLogger(__name__)

#: Bots are nicer than the daemon: their CPU goes to people's games first.
WORKER_NICENESS = 10
#: How often a worker checks that the daemon that started it is still there.
PARENT_CHECK_SECONDS = 1.0


def _follow_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(1)  # the daemon died (kill -9 included): nobody will ask this worker again


def _start_worker(parent: int) -> None:
    """In each worker as it starts: a lower priority, and an end with the daemon, process
    ``parent`` (a worker left behind by a daemon killed with ``kill -9`` would wait forever;
    one whose daemon died while it was starting ends at once)."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    threading.Thread(target=_follow_parent, args=(parent,), name="follow-daemon",
                     daemon=True).start()


def bot_move(level: str, seed: int, view_json: str) -> str:
    """In a worker: the command (JSON) of a ``level`` bot seeded ``seed`` for the view (JSON)."""
    view = PlayerView.model_validate_json(view_json)
    return make_bot(level, seed).act(view).model_dump_json()


class BotPool:
    """Worker processes that compute bot moves; create once, :meth:`close` at the end."""

    def __init__(self, workers: int | None = None) -> None:
        self._workers = workers or os.cpu_count() or 1
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: the daemon has threads (record writers) and an event loop.
            self._pool = ProcessPoolExecutor(self._workers, mp_context=get_context("spawn"),
                                             initializer=_start_worker,
                                             initargs=(os.getpid(),))
        return self._pool

    async def act(self, level: str, seed: int, view: PlayerView
                  ) -> tuple[ChooseHand | Discard, str | None]:
        """The bot's command, and None; or the automatic move (R25) and why, if it failed."""
        loop = asyncio.get_running_loop()
        try:
            text = await loop.run_in_executor(self._executor(), bot_move, level, seed,
                                              view.model_dump_json())
            return COMMAND_ADAPTER.validate_json(text), None
        except BrokenProcessPool:
            log.warning("the bot worker pool broke; starting a new one")
            pool, self._pool = self._pool, None
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
            problem = "its worker process stopped"
        except Exception as error:  # the bot's message may name its tiles: only the type
            problem = type(error).__name__
        return auto_command(view), problem

    def close(self) -> None:
        """Stop the workers."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


__all__ = ["BotPool", "bot_move"]
