"""The SSH server of ``minefield ssh-server``: keys in, the client in a pseudo-terminal out.

:class:`FrontDoor` owns everything: the host key and the players' database (configured by
:mod:`.door_config`), the limits, the process server of the sessions (:mod:`.spawner`) and,
unless told of a running one, the game daemon in a thread of this process
(:mod:`.embedded_daemon`, reached only through its :class:`~.embedded_daemon.DaemonHandle`).
Each SSH connection gets a :class:`~.ssh_connection.DoorConnection` (authentication, limits)
and each session channel a :class:`~.ssh_session.DoorSession` (the command and its route in
:mod:`.routes`, the name prompt, the bytes between the channel and the child's terminal).

Only public keys authenticate; passwords, keyboard-interactive, host-based and GSS are not
offered. No shell, no subsystem (sftp), no scp, no agent or X11 forwarding, no port
forwarding of any kind: asyncssh refuses what is not asked for, and every request a session
can make is answered by the session. Log lines name the key's fingerprint and the address,
never a seed or a tile (the front door never sees one: the bytes of a game pass through
unread).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import asyncssh

from minefield.frontdoor.accounts import Account, Accounts
from minefield.frontdoor.allowlist import AllowList, read_allowed
from minefield.frontdoor.club import Club
from minefield.frontdoor.door_config import (
    KEEPALIVE_UNANSWERED,
    RATING_PERIOD,
    STOP_SECONDS,
    FrontDoorConfig,
    FrontDoorError,
    check_allow_file,
    daemon_socket_path,
    load_host_key,
)
from minefield.frontdoor.embedded_daemon import DaemonHandle
from minefield.frontdoor.limits import Gate
from minefield.frontdoor.metrics import DoorMetrics
from minefield.frontdoor.moderation import Moderator, ThreadModerators
from minefield.frontdoor.public_url import PublicUrl, WebDoorError
from minefield.frontdoor.ratings import RatingScanner, ThreadRaters
from minefield.frontdoor.review_pages import ReviewPages
from minefield.frontdoor.spawner import Child, Spawner, SpawnError
from minefield.frontdoor.ssh_connection import DoorConnection
from minefield.frontdoor.ssh_session import DoorSession
from minefield.paths import player_home, player_roots
from minefield.protocol.address import WEB_ENV
from minefield.server.config import SOCKET_ENV, ServerConfig
from minefield.server.identity import user_name
from minefield.server.kept_games import KeptGames
from minefield.server.moderation_store import ModerationStore

if TYPE_CHECKING:
    from minefield.frontdoor.web_door import WebDoor

log = logging.getLogger("minefield.frontdoor")
_T = TypeVar("_T")


class FrontDoor:
    """The server: ``await door.start()``, then ``await door.stop()``."""

    def __init__(self, config: FrontDoorConfig) -> None:
        self.config = config
        self.gate = Gate(config.limits)
        self.spawner = Spawner()
        self.socket: Path = config.socket or daemon_socket_path(config.data)
        self.shared_account = user_name(os.getuid())
        #: The game daemon of this process (None: a running one was named, ``--socket``).
        self.daemon = None if config.socket is not None else self._embedded_daemon()
        self.sessions: set[DoorSession] = set()
        self.connections: set[DoorConnection] = set()
        self.fingerprint = ""
        #: Connections being refused (they get a key exchange so that they can be told why).
        self.refusing = 0
        self._allowed = AllowList()
        self._allow_mtime: float | None = None
        self._server: asyncssh.SSHAcceptor | None = None
        self._rater: RatingScanner | None = None
        self._rating_task: asyncio.Task[None] | None = None
        self._respawn_lock = asyncio.Lock()
        #: The browser door (``--web``), once started.
        self.web: WebDoor | None = None
        self._accounts: Accounts | None = None
        self._moderator: Moderator | None = None
        #: The kept games (the daemon's index, in the players' file), once started.
        self.kept: KeptGames | None = None
        self._club_threads = threading.local()
        #: The review pages made for ``review GAME --html`` (the last few kept).
        self.reviews = ReviewPages()
        #: The server's figures (always counted; served only with ``--metrics``).
        self.metrics = DoorMetrics(self)

    @property
    def accounts(self) -> Accounts:
        """The players' database (opened by :meth:`start`)."""
        if self._accounts is None:
            raise FrontDoorError("the front door has not started")
        return self._accounts

    @property
    def moderator(self) -> Moderator:
        """The admins, bans and message of the day (opened by :meth:`start`)."""
        if self._moderator is None:
            raise FrontDoorError("the front door has not started")
        return self._moderator

    def _embedded_daemon(self) -> DaemonHandle:
        """The game daemon run in this process (not started yet): its clocks shortened by
        ``daemon_options`` in tests, its games rated by this front door's players' file."""
        options = {"hand_seconds": 180, "discard_seconds": 15, **self.config.daemon_options}
        daemon_config = ServerConfig(socket=self.socket, data=self.config.data / "server",
                                     shared_account=self.shared_account,
                                     database=self.config.accounts_path, **options)
        raters = ThreadRaters(self.config.accounts_path, daemon_config.games_dir,
                              self.shared_account)
        moderators = ThreadModerators(self.config.accounts_path, self.shared_account)
        return DaemonHandle(daemon_config, raters, moderators)

    # -- life ----------------------------------------------------------------------------------

    async def start(self) -> None:
        """Make the data folder and host key, start the sessions' process server and the
        daemon, listen."""
        config = self.config
        if not config.open and config.allow is not None:  # before any file is made
            check_allow_file(config.allow)
        try:
            config.data.mkdir(parents=True, exist_ok=True, mode=0o700)
            os.chmod(config.data, 0o700)
            host_key, made = load_host_key(config.host_key_path)
            self._accounts = Accounts(config.accounts_path)
            self._moderator = Moderator(self._accounts, ModerationStore(config.accounts_path),
                                        self.shared_account)
        except OSError as error:
            raise FrontDoorError(f"cannot use the data folder {config.data}: "
                                 f"{(error.strerror or str(error)).lower()}") from None
        self.fingerprint = host_key.get_fingerprint("sha256")
        log.info("host key %s (%s)%s", self.fingerprint, config.host_key_path,
                 ", made now" if made else "")
        if config.open:
            log.info("open: any key may come in and claim a name")
        else:
            path = config.allow_path
            if config.allow is None and not path.exists():
                path.touch(mode=0o600)
            self._reload_allowed()
            if not self._allowed:
                log.warning("allow-list %s is empty: nobody may come in (add keys to it, or "
                            "run with --open)", path)
            else:
                log.info("allow-list %s: %d keys", path, len(self._allowed))
        await asyncio.get_running_loop().run_in_executor(None, self.spawner.start)
        try:
            await self._start_daemon()
            self._server = await asyncssh.create_server(
                lambda: DoorConnection(self), config.host, config.port,
                server_host_keys=[host_key], server_version="Minefield",
                public_key_auth=True, password_auth=False, kbdint_auth=False,
                host_based_auth=False, gss_auth=False,
                agent_forwarding=False, x11_forwarding=False, allow_scp=False,
                sftp_factory=None, encoding=None, line_editor=False,
                login_timeout=config.limits.login_seconds,
                keepalive_interval=config.keepalive / (KEEPALIVE_UNANSWERED + 1),
                keepalive_count_max=KEEPALIVE_UNANSWERED, reuse_address=True)
        except OSError as error:
            self.spawner.stop()
            raise FrontDoorError(f"cannot listen on {config.host}:{config.port}: "
                                 f"{(error.strerror or str(error)).lower()}") from None
        self._rater = RatingScanner(config.accounts_path, self._games_dir(),
                                    self.shared_account)
        self.kept = KeptGames(config.accounts_path, self._games_dir())
        self._rating_task = asyncio.create_task(self._rate_forever())
        if config.web is not None:
            await self._start_web(*config.web)
        if config.metrics is not None:
            await self._start_metrics(*config.metrics)
        # Said once everything asked for is up: an operator (and a test) may connect then.
        log.info("listening on %s:%d (the game server: %s)", config.host, config.port,
                 "in this process" if self.daemon is not None else self.socket)

    async def _start_metrics(self, host: str, port: int) -> None:
        """The metrics' listener (FrontDoorError, everything stopped, if it cannot listen)."""
        try:
            await self.metrics.start(host, port)
        except OSError as error:
            await self.stop()
            why = os.strerror(error.errno) if error.errno else str(error)
            raise FrontDoorError(f"--metrics {host}:{port}: cannot listen "
                                 f"({why.lower()})") from None

    async def _start_web(self, host: str, port: int) -> None:
        """The browser door (FrontDoorError, everything stopped, if it cannot listen)."""
        # The browser door (aiohttp, webauthn) is loaded only when asked for (--web).
        from minefield.frontdoor.web_door import WebDoor

        public = PublicUrl.parse(self.config.public_url or f"http://{host}:{port}")
        self.web = WebDoor(self, host, port, public, self.config.accounts_path)
        try:
            await self.web.start()
        except WebDoorError as error:
            self.web = None
            await self.stop()
            raise FrontDoorError(str(error)) from None

    def _games_dir(self) -> Path:
        if self.daemon is not None:
            return self.daemon.games_dir
        return self.config.data / "server" / "games"

    async def _start_daemon(self) -> None:
        if self.daemon is None:
            await _check_shared_account(self.socket, self.shared_account)
            return
        await asyncio.get_running_loop().run_in_executor(None, self.daemon.start)

    async def stop(self) -> None:
        """Stop listening, end the sessions, stop the daemon and the process server."""
        if self.web is not None:
            await self.web.stop()
        await self.metrics.stop()
        if self._server is not None:
            self._server.close()
        if self._rating_task is not None:
            self._rating_task.cancel()
        if self._rater is not None:
            self._rater.stop()
        for session in list(self.sessions):
            session.end("the server is stopping")
        await self._let_connections_go()
        if self.daemon is not None:
            await asyncio.get_running_loop().run_in_executor(None, self.daemon.stop)
        self.spawner.stop()
        if self._moderator is not None:
            self._moderator.store.close()
        if self._accounts is not None:
            self._accounts.close()

    async def _let_connections_go(self) -> None:
        """Give the sessions just ended a moment to reach their players (the restored terminal,
        the last line); then close every connection left."""
        deadline = time.monotonic() + STOP_SECONDS
        while self.connections and time.monotonic() < deadline:
            if all(connection.channels <= 0 for connection in self.connections):
                break
            await asyncio.sleep(0.05)
        for connection in list(self.connections):
            connection.close("the server stopped", "the server is stopping",
                             asyncssh.DISC_BY_APPLICATION)
        waits = [asyncio.ensure_future(c.conn.wait_closed()) for c in list(self.connections)
                 if c.conn is not None]
        if waits:
            await asyncio.wait(waits, timeout=STOP_SECONDS)
            for wait in waits:
                wait.cancel()

    async def _rate_forever(self) -> None:
        while True:
            await asyncio.sleep(RATING_PERIOD)
            if self._rater is not None:
                try:
                    await self._rater.scan()
                except Exception as error:  # a rating problem never stops the server
                    log.error("rating failed (%s)", type(error).__name__)
            if self.daemon is None and self.kept is not None:  # a separate daemon's games
                try:
                    await asyncio.to_thread(self.kept.scan)
                except Exception as error:
                    log.error("keeping games failed (%s)", type(error).__name__)

    async def ask_club(self, question: Callable[[Club], _T]) -> _T:
        """``question`` answered by the club (:mod:`.club`: the kept games and the players)
        in a worker thread, with a connection of that thread's own to the players' file."""
        kept = self.kept
        if kept is None:
            raise FrontDoorError("the front door has not started")

        def answer() -> _T:
            club: Club | None = getattr(self._club_threads, "club", None)
            if club is None:
                club = Club(Accounts(self.config.accounts_path), kept, self.shared_account)
                self._club_threads.club = club
            club.web = self.web.public.origin if self.web is not None else None  # its links
            return question(club)

        return await asyncio.to_thread(answer)

    # -- who may come in -----------------------------------------------------------------------

    def _reload_allowed(self) -> None:
        path = self.config.allow_path
        try:
            mtime = path.stat().st_mtime
        except OSError:
            mtime = None
        if mtime != self._allow_mtime:
            self._allowed = read_allowed(path) if mtime is not None else AllowList()
            self._allow_mtime = mtime

    def admits(self, fingerprint: str, address: str | None = None) -> bool:
        """True when the key may come in (``--open``, or on the allow-list, re-read when the
        file changes, from ``address`` when its line says ``from=``; None: from anywhere)."""
        if self.config.open:
            return True
        self._reload_allowed()
        return self._allowed.admits(fingerprint, address)

    def spawn_env(self, account: Account, term: str | None, colorterm: str | None,
                  terminal: bool) -> dict[str, str]:
        """The environment of a session's client: its terminal, its own settings and data
        folders, the daemon's socket; nothing else of the server's."""
        folder = player_home(self.config.data, account.id)
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(folder),
            "LANG": "C.UTF-8",
            "TERM": term if terminal and term else "dumb",
            **player_roots(folder),
            SOCKET_ENV: str(self.socket),
        }
        if self.web is not None:  # the result screen gives the game's link
            env[WEB_ENV] = self.web.public.origin
        if colorterm in ("truecolor", "24bit") and terminal:
            env["COLORTERM"] = colorterm
        if not terminal:
            env["NO_COLOR"] = "1"
        return env

    async def spawn(self, argv: list[str], env: dict[str, str], rows: int, columns: int,
                    terminal: bool) -> Child:
        """A session's child; the process server is started again if it has gone (once)."""
        try:
            return self.spawner.spawn(argv, env, rows, columns, terminal=terminal)
        except SpawnError as error:
            async with self._respawn_lock:
                if self.spawner.alive():
                    raise
                log.error("%s: starting it again", error)
                loop = asyncio.get_running_loop()
                await loop.run_in_executor(None, self.spawner.restart)
            return self.spawner.spawn(argv, env, rows, columns, terminal=terminal)


async def _check_shared_account(path: Path, account: str) -> None:
    """A running daemon at ``path`` must trust this process's user as its shared account
    (``serve --shared-account USER``), or every player would be one person."""
    from minefield.protocol.messages import PROTOCOL_VERSION

    try:
        reader, writer = await asyncio.wait_for(asyncio.open_unix_connection(str(path)), 5.0)
    except (OSError, TimeoutError) as error:
        raise FrontDoorError(f"no game server at {path} ({type(error).__name__}): start one "
                             "with minefield serve, or leave out --socket") from None
    try:
        hello = {"type": "hello", "version": PROTOCOL_VERSION, "action": "join",
                 "code": "AAAAAA"}
        writer.write(json.dumps(hello).encode() + b"\n")
        line = await asyncio.wait_for(reader.readline(), 5.0)
    except (OSError, TimeoutError):
        line = b""
    finally:
        writer.close()
    if b"is shared" not in line:
        raise FrontDoorError(f"the game server at {path} does not trust this user ({account}) "
                             f"to name its players: run it with --shared-account {account}")


__all__ = ["FrontDoor", "FrontDoorConfig", "FrontDoorError", "load_host_key", "read_allowed"]
