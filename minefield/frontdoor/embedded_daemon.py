"""The game daemon inside ``minefield ssh-server``: its thread, and the one way to reach it.

Unless told of a running daemon (``--socket``), the front door runs one in its own process, in
a thread with its own event loop (:class:`DaemonHandle`). Every question the front door asks
it (who is online, the open tables) is a method of the handle that runs in the daemon's loop
(:func:`asyncio.run_coroutine_threadsafe`) and answers with the lobby's own models: nothing of
the front door touches the daemon's rooms or connections from its own thread.

Why a thread of its own, not the SSH server's loop: every byte of every session's screen goes
through asyncssh (its packets, its encryption) in that loop, and when 200 screens repaint at
once the daemon would wait behind them (measured: a ping's p99 of 0.55 s). In its own loop it
only shares the interpreter, which switches threads every few milliseconds.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

from minefield.frontdoor.door_config import FrontDoorError
from minefield.frontdoor.lobby_profiles import ThreadProfiles
from minefield.frontdoor.moderation import ThreadModerators
from minefield.frontdoor.ratings import ThreadRaters
from minefield.protocol.lobby import LobbyState
from minefield.server.admission import drop_player
from minefield.server.config import ServerConfig
from minefield.server.daemon import Daemon, ServeError
from minefield.server.tournaments import Tournaments

_T = TypeVar("_T")


class DaemonHandle:
    """The embedded daemon: ``start()`` (blocking: run it in an executor) starts its thread and
    returns once it listens; its methods ask it, safely from any other thread; ``stop()``
    (blocking) stops it. Its games' ratings are asked of ``raters`` (the front door's players'
    file), given to the daemon as it is made; so are who may come in and the message of the
    day, asked of ``moderators`` (the same file)."""

    def __init__(self, config: ServerConfig, raters: ThreadRaters,
                 moderators: ThreadModerators | None = None) -> None:
        self.config = config
        #: Who the daemon asks to rate its games and for its lobby's ratings.
        self.raters = raters
        self._daemon = Daemon(config, rate_game=raters.rate_game, ratings_of=raters.ratings_of)
        self._daemon.lobby.programs_of = raters.programs_of  # programs marked in the lobby
        # The lobby's profile screen: the club's figures, games and records (the players' file).
        profiles = ThreadProfiles(raters.accounts_path, raters.games_dir, raters.shared_account)
        self._daemon.lobby.profiles.profile_of = profiles.profile_of
        self._daemon.lobby.profiles.record_of = profiles.record_of
        if moderators is not None:
            self._daemon.admission = moderators.admission
            self._daemon.lobby.motd_of = moderators.motd
        self._thread = threading.Thread(target=self._run, name="game-daemon", daemon=True)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._started = threading.Event()
        self._error: BaseException | None = None

    @property
    def games_dir(self) -> Path:
        """The daemon's folder of game records."""
        return self.config.games_dir

    # -- life ----------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the daemon; return once it listens (FrontDoorError if it cannot)."""
        self._thread.start()
        self._started.wait()
        if self._error is not None:
            raise self._error

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        try:
            await self._daemon.start()
        except ServeError as error:
            self._error = FrontDoorError(f"the game server: {error}")
            self._started.set()
            return
        except BaseException as error:  # pragma: no cover - reported to the starter
            self._error = error
            self._started.set()
            raise
        self._started.set()
        await self._stop.wait()
        await self._daemon.stop()

    def stop(self) -> None:
        """Stop the daemon (its games stay in their records) and wait for the thread."""
        if self._loop is not None and self._stop is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout=30)

    # -- questions -------------------------------------------------------------------------------

    # To ask the daemon something new: a method here with a typed answer (the daemon's or the
    # wire's models, never the daemon's own objects: they belong to its loop), over _ask for
    # a plain read or _ask_async for a coroutine of the daemon's.

    async def _ask(self, question: Callable[[Daemon], _T]) -> _T | None:
        """``question(daemon)`` answered in the daemon's loop (where alone its state may be
        read), awaited from the caller's loop; None when the daemon does not run."""

        async def answer(daemon: Daemon) -> _T:
            return question(daemon)

        return await self._ask_async(answer)

    async def _ask_async(self, question: Callable[[Daemon], Awaitable[_T]]) -> _T | None:
        """``await question(daemon)`` run in the daemon's loop, awaited from the caller's loop;
        None when the daemon does not run."""
        loop = self._loop
        if loop is None or not self._thread.is_alive() or self._error is not None:
            return None
        daemon = self._daemon

        async def answer() -> _T:
            return await question(daemon)

        try:
            future = asyncio.run_coroutine_threadsafe(answer(), loop)
        except RuntimeError:  # the loop has just closed: the daemon stopped
            return None
        return await asyncio.wrap_future(future)

    async def lobby(self) -> LobbyState | None:
        """The daemon's lobby now: every player connected and what they do (``lobby``,
        ``waiting``, ``watching``, ``hosting``, ``result``, ``playing``), the public tables
        waiting for a player and the games being played (with their watchers); None when the
        daemon does not run."""
        return await self._ask(lambda daemon: daemon.lobby.now())

    async def tournaments(self, work: Callable[[Tournaments], Awaitable[_T]]) -> _T | None:
        """``work(tournaments)`` done in the daemon's loop (the tournaments are the daemon's,
        :mod:`~minefield.server.tournaments`); None when the daemon does not run. What it
        raises (a :class:`~minefield.server.tournament_terms.TournamentError`) comes back."""

        async def question(daemon: Daemon) -> _T:
            if daemon.tournaments is None:
                raise RuntimeError("the daemon has no tournaments (it has not started)")
            return await work(daemon.tournaments)

        return await self._ask_async(question)

    async def drop(self, keys: list[str], line: str) -> int | None:
        """End every connection of the players whose identity keys are ``keys`` (in any
        case), telling them ``line`` (an admin's kick or ban); how many there were (None
        when the daemon does not run). Their seats run their grace (R25b)."""
        return await self._ask(lambda daemon: drop_player(daemon.connections, keys, line))


__all__ = ["DaemonHandle"]
