"""The SSH server of ``minefield ssh-server``: keys in, the client in a pseudo-terminal out.

:class:`FrontDoor` owns everything: the host key, the players' database, the limits, the
process server of the sessions (:mod:`.spawner`) and, unless told of a running one, the game
daemon in the same event loop. Each SSH connection gets a :class:`_Connection` (authentication,
limits) and each session channel a :class:`_Session` (the command, the name prompt, the bytes
between the channel and the child's terminal).

Only public keys authenticate; passwords, keyboard-interactive, host-based and GSS are not
offered. No shell, no subsystem (sftp), no scp, no agent or X11 forwarding, no port
forwarding of any kind: asyncssh refuses what is not asked for, and every request a session
can make is answered here. Log lines name the key's fingerprint and the address, never a seed
or a tile (the front door never sees one: the bytes of a game pass through unread).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncssh

from minefield.errors import MinefieldError
from minefield.frontdoor.accounts import (
    Account,
    Accounts,
    KeyRefused,
    NameRefused,
    RenameLimited,
    utc,
)
from minefield.frontdoor.allowlist import AllowList, read_allowed
from minefield.frontdoor.commands import (
    ALLOWED,
    APP_ACTIONS,
    HELP,
    BadName,
    FrontCommand,
    parse_command,
)
from minefield.frontdoor.grammar import Refused
from minefield.frontdoor.limits import Gate, Limits
from minefield.frontdoor.prompt import LineEditor
from minefield.frontdoor.ratings import Rater
from minefield.frontdoor.spawner import Child, Spawner, SpawnError, set_size
from minefield.frontdoor.web_door import PublicUrl, WebDoor, WebDoorError, web_answer
from minefield.paths import CONFIG_ENV, DATA_ENV
from minefield.server.config import SOCKET_ENV, ServerConfig
from minefield.server.identity import user_name
from minefield.server.lobby import RatingsOf
from minefield.server.rating import RateGame
from minefield.session.address import DOOR_ENV
from minefield.session.protocol import RatingChange

log = logging.getLogger("minefield.frontdoor")

HOST_KEY_NAME = "ssh_host_ed25519_key"
ACCOUNTS_NAME = "players.sqlite"
ALLOW_NAME = "allowed_keys"
#: How often finished games are looked for, to rate them.
RATING_PERIOD = 2.0
#: Tries at the name prompt before the session closes.
NAME_TRIES = 5
#: Connections refused with words at once; past this, a flood: they are cut without any.
MAX_REFUSING = 1000
#: The longest a Unix socket path may be (sun_path is 108 bytes with its NUL).
MAX_SOCKET_PATH = 100
#: Keepalives left unanswered before a connection is taken for dead: asyncssh asks after a
#: silent interval, asks again each interval, and closes at the interval after the last one
#: (so a client is given ``keepalive`` seconds: ``(KEEPALIVE_UNANSWERED + 1)`` intervals).
KEEPALIVE_UNANSWERED = 2
#: What a player's terminal needs to be itself again after a game drawn on it (what Textual
#: itself writes as it stops): mouse reporting off (every mode it turns on), bracketed paste,
#: in-band resize, focus reports and the keyboard protocol off, the main screen back with its
#: line wrapping, colours and attributes reset, the cursor shown.
RESTORE_TERMINAL = (b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1016l"
                    b"\x1b[?2004l\x1b[?2048l\x1b[?1004l\x1b[<u\x1b[?1049l\x1b[?7h\x1b[0m"
                    b"\x1b[?25h")
#: The largest packet a logged-in client may send (asyncssh's own limit is 256 KiB).
LONGEST_PACKET = 1024 * 1024
#: The longest a stop waits for the players' connections to take their last bytes.
STOP_SECONDS = 3.0
#: A TERM the client may pass on: a plain terminal name (anything else is replaced).
PLAIN_TERM = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
#: The TERM given instead of one that is not a plain name.
FALLBACK_TERM = "xterm-256color"


class FrontDoorError(MinefieldError):
    """The front door cannot start (one line)."""


@dataclass(slots=True)
class FrontDoorConfig:
    """Everything ``ssh-server`` can be told."""

    data: Path
    host: str = "127.0.0.1"
    port: int = 2222
    host_key: Path | None = None
    #: A running daemon's socket; None: run one in this process.
    socket: Path | None = None
    #: True: any key may come in; else the keys of ``allow`` (default: ``allowed_keys`` in
    #: the data folder, created empty).
    open: bool = False
    allow: Path | None = None
    limits: Limits = field(default_factory=Limits)
    #: A client that answers nothing this long is gone: its connection is closed (SSH
    #: keepalives ask it every third of this; see :data:`KEEPALIVE_SECONDS`).
    keepalive: float = 45.0
    #: Options of the embedded daemon (tests shorten its clocks).
    daemon_options: dict[str, Any] = field(default_factory=dict)
    #: ``--web ADDR:PORT``: the browser door listens there (None: no browser door), and
    #: players' browsers reach it at ``public_url`` (:mod:`.web_door`).
    web: tuple[str, int] | None = None
    public_url: str | None = None

    @property
    def host_key_path(self) -> Path:
        """Where the host key is (made on first start)."""
        return self.host_key or self.data / HOST_KEY_NAME

    @property
    def allow_path(self) -> Path:
        """The allow-list (``--allow``, else ``allowed_keys`` in the data folder)."""
        return self.allow or self.data / ALLOW_NAME


def load_host_key(path: Path) -> tuple[asyncssh.SSHKey, bool]:
    """The host key at ``path``, made (ed25519, mode 0600) when there is none; and whether it
    was made now."""
    if path.exists():
        mode = path.stat().st_mode & 0o777
        if mode & 0o077:
            raise FrontDoorError(f"the host key {path} is readable by others (mode "
                                 f"{mode:o}): chmod 600 it")
        try:
            return asyncssh.read_private_key(path), False
        except (OSError, asyncssh.KeyImportError) as error:
            raise FrontDoorError(f"cannot read the host key {path}: {error}") from None
    key = asyncssh.generate_private_key("ssh-ed25519", comment="minefield ssh-server")
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(key.export_private_key())
    return key, True


def check_allow_file(path: Path) -> None:
    """``--allow FILE`` must be a file this process can read (FrontDoorError if not)."""
    if not path.is_file():
        raise FrontDoorError(f"--allow {path}: no such file")
    try:
        with path.open("rb"):
            pass
    except OSError as error:
        raise FrontDoorError(f"--allow {path}: cannot read it "
                             f"({(error.strerror or str(error)).lower()})") from None


def daemon_socket_path(data: Path) -> Path:
    """The embedded daemon's socket: in the data folder, or in /tmp when that path is too long
    for a Unix socket."""
    path = data / "run" / "daemon.sock"
    if len(str(path)) <= MAX_SOCKET_PATH:
        return path
    import hashlib

    tag = hashlib.sha256(str(data).encode()).hexdigest()[:12]
    return Path(f"/tmp/minefield-ssh-{os.getuid()}-{tag}") / "daemon.sock"


class DaemonThread:
    """The embedded game daemon: in this process, in a thread with its own event loop.

    Not in the SSH server's loop: every byte of every session's screen goes through asyncssh
    (its packets, its encryption) in that loop, and when 200 screens repaint at once the
    daemon would wait behind them (measured: a ping's p99 of 0.55 s). In its own loop it only
    shares the interpreter, which switches threads every few milliseconds.
    """

    def __init__(self, daemon: Any) -> None:
        self.daemon = daemon
        self.thread = threading.Thread(target=self._run, name="game-daemon", daemon=True)
        self.loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._started = threading.Event()
        self._error: BaseException | None = None

    def start_and_wait(self) -> None:
        """Start the daemon; return once it listens (FrontDoorError if it cannot)."""
        self.thread.start()
        self._started.wait()
        if self._error is not None:
            raise self._error

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        from minefield.server.daemon import ServeError

        self.loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        try:
            await self.daemon.start()
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
        await self.daemon.stop()

    def stop(self) -> None:
        """Stop the daemon (its games stay in their records) and wait for the thread."""
        if self.loop is not None and self._stop is not None and self.thread.is_alive():
            self.loop.call_soon_threadsafe(self._stop.set)
        self.thread.join(timeout=30)


class FrontDoor:
    """The server: ``await door.start()``, then ``await door.stop()``."""

    def __init__(self, config: FrontDoorConfig) -> None:
        self.config = config
        self.gate = Gate(config.limits)
        self.accounts: Accounts | None = None
        self.spawner = Spawner()
        self.daemon: Any = None  # minefield.server.daemon.Daemon when embedded
        self.socket: Path = config.socket or daemon_socket_path(config.data)
        self.shared_account = user_name(os.getuid())
        self.sessions: set[_Session] = set()
        self.connections: set[_Connection] = set()
        self.fingerprint = ""
        #: Connections being refused (they get a key exchange so that they can be told why).
        self.refusing = 0
        self._allowed = AllowList()
        self._allow_mtime: float | None = None
        self._server: asyncssh.SSHAcceptor | None = None
        self._rater: Rater | None = None
        self._rating_task: asyncio.Task[None] | None = None
        self._respawn_lock = asyncio.Lock()
        self._daemon_thread: DaemonThread | None = None
        self.web: WebDoor | None = None

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
            self.accounts = Accounts(config.data / ACCOUNTS_NAME)
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
                lambda: _Connection(self), config.host, config.port,
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
        assert self.accounts is not None
        self._rater = Rater(self.accounts, self._games_dir(), self.shared_account)
        self._rating_task = asyncio.create_task(self._rate_forever())
        log.info("listening on %s:%d (the game server: %s)", config.host, config.port,
                 "in this process" if self.daemon is not None else self.socket)
        if config.web is not None:
            await self._start_web(config.web)

    async def _start_web(self, address: tuple[str, int]) -> None:
        """The browser door (FrontDoorError, everything stopped, if it cannot listen)."""
        public = PublicUrl.parse(self.config.public_url or f"http://{address[0]}:{address[1]}")
        self.web = WebDoor(self, address[0], address[1], public,
                           self.config.data / ACCOUNTS_NAME)
        try:
            await self.web.start()
        except WebDoorError as error:
            self.web = None
            await self.stop()
            raise FrontDoorError(str(error)) from None

    def _games_dir(self) -> Path:
        if self.daemon is not None:
            return Path(self.daemon.config.games_dir)
        return self.config.data / "server" / "games"

    async def _start_daemon(self) -> None:
        if self.config.socket is not None:
            await _check_shared_account(self.config.socket, self.shared_account)
            return
        from minefield.server.daemon import Daemon

        options = {"hand_seconds": 180, "discard_seconds": 15, **self.config.daemon_options}
        daemon_config = ServerConfig(socket=self.socket, data=self.config.data / "server",
                                     shared_account=self.shared_account, **options)
        daemon = Daemon(daemon_config)
        daemon.rate_game, daemon.lobby.ratings_of = self._rater_for_daemon(
            daemon_config.games_dir)
        self._daemon_thread = DaemonThread(daemon)
        await asyncio.get_running_loop().run_in_executor(None, self._daemon_thread.start_and_wait)
        self.daemon = daemon

    def _rater_for_daemon(self, games_dir: Path) -> tuple[RateGame, RatingsOf]:
        """How the embedded daemon rates a game as it ends (its result screen shows the
        ratings at once) and finds the ratings its lobby shows: this front door's
        :class:`Rater`, with a connection to the players' SQLite file of its own in each of
        the daemon's record threads (a connection belongs to one thread). The names and
        ratings stay the front door's: the daemon only asks."""
        local = threading.local()
        path, shared = self.config.data / ACCOUNTS_NAME, self.shared_account

        def rater() -> Rater:
            found: Rater | None = getattr(local, "rater", None)
            if found is None:
                found = local.rater = Rater(Accounts(path), games_dir, shared)
            return found

        def rate(game: str, east: str, west: str, score: float) -> list[RatingChange] | None:
            return rater().rate_game(game, east, west, score)

        def ratings_of(players: list[str]) -> dict[str, int]:
            return rater().ratings_of(players)

        return rate, ratings_of

    async def stop(self) -> None:
        """Stop listening, end the sessions, stop the daemon and the process server."""
        if self.web is not None:
            await self.web.stop()
        if self._server is not None:
            self._server.close()
        if self._rating_task is not None:
            self._rating_task.cancel()
        for session in list(self.sessions):
            session.end("the server is stopping")
        await self._let_connections_go()
        if self._daemon_thread is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._daemon_thread.stop)
        self.spawner.stop()
        if self.accounts is not None:
            self.accounts.close()

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
                    self._rater.scan()
                except Exception as error:  # a rating problem never stops the server
                    log.error("rating failed (%s)", type(error).__name__)

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
        folder = self.config.data / "players" / str(account.id)
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(folder),
            "LANG": "C.UTF-8",
            "TERM": term if terminal and term else "dumb",
            DATA_ENV: str(folder / "data"),
            CONFIG_ENV: str(folder / "config"),
            SOCKET_ENV: str(self.socket),
        }
        if colorterm in ("truecolor", "24bit") and terminal:
            env["COLORTERM"] = colorterm
        if not terminal:
            env["NO_COLOR"] = "1"
        return env

    async def spawn(self, argv: list[str], env: dict[str, str], rows: int, columns: int,
                    terminal: bool, quiet: bool = False) -> Child:
        """A session's child; the process server is started again if it has gone (once)."""
        try:
            return self.spawner.spawn(argv, env, rows, columns, terminal=terminal, quiet=quiet)
        except SpawnError as error:
            async with self._respawn_lock:
                if self.spawner.alive():
                    raise
                log.error("%s: starting it again", error)
                loop = asyncio.get_running_loop()
                await loop.run_in_executor(None, self.spawner.restart)
            return self.spawner.spawn(argv, env, rows, columns, terminal=terminal, quiet=quiet)

    # -- what the commands answer ------------------------------------------------------------

    def whoami(self, fingerprint: str, account: Account | None, as_json: bool) -> str:
        """``whoami``: the name, the key, the rating."""
        if as_json:
            return json.dumps({"name": account.name if account else None,
                               "fingerprint": fingerprint,
                               "rating": round(account.rating) if account else None})
        if account is None:
            return (f"You have no name yet (key {fingerprint}): ssh -t to this server to "
                    "choose one, or: name NEW")
        keys = len(account.fingerprints)
        return (f"{account.name}: rating {account.rating:.0f} (deviation {account.deviation:.0f},"
                f" {account.games} rated games); key {fingerprint}"
                f"{f' and {keys - 1} more' if keys > 1 else ''}")

    def ladder(self, as_json: bool) -> str:
        """``ladder``: every rated player, best first."""
        assert self.accounts is not None
        rows = self.accounts.ladder()
        if as_json:
            return json.dumps([{"name": a.name, "rating": round(a.rating),
                                "deviation": round(a.deviation), "games": a.games}
                               for a in rows])
        if not rows:
            return "No rated games yet: a game between two players here counts."
        lines = [f"{'#':>3}  {'name':<16} {'rating':>6} {'±':>4} {'games':>5}"]
        for place, a in enumerate(rows, start=1):
            lines.append(f"{place:>3}  {a.name:<16} {a.rating:>6.0f} {a.deviation:>4.0f} "
                         f"{a.games:>5}")
        return "\n".join(lines)

    def who(self, as_json: bool, tables: list[dict[str, Any]],
            doing: dict[str, str] | None = None) -> str:
        """``who``: the players online and what they do; the open ``tables`` and what each
        player connected to the daemon does there, ``doing`` (:meth:`lobby_now`): that comes
        first (hosting a table or waiting for a quick match from the lobby, on a result); a
        session the daemon does not know of (the name prompt, ``history``, the menu) is told
        by what it was started for."""
        online: dict[str, str] = dict(doing or {})
        for session in self.sessions:
            if session.account is not None and session.status:
                online.setdefault(session.account.name, session.status)
        if as_json:
            return json.dumps({"online": [{"name": n, "status": s}
                                          for n, s in sorted(online.items())],
                               "tables": tables})
        lines = [f"Online ({len(online)}): " + (", ".join(f"{n} ({s})"
                                                       for n, s in sorted(online.items()))
                                                 or "nobody")]
        if not tables:
            lines.append("No open tables.")
        for table in tables:
            where = (f"join {table['code']}" if "code" in table else f"game {table['game']}")
            watching = (f", {table['watchers']} watching (watch {table['game']})"
                        if table.get("watchers") else "")
            lines.append(f"{where}: {table['host']}'s table ({table['rules']}), players "
                         f"{', '.join(table['players'])}{watching}")
        return "\n".join(lines)

    async def lobby_now(self) -> tuple[list[dict[str, Any]], dict[str, str]]:
        """The daemon's lobby tables (public rooms waiting for a player, games being played)
        and what each player connected to it does (``lobby``, ``waiting``, ``watching``,
        ``hosting``, ``result``, ``playing``): the embedded daemon's, read in its own thread;
        a separate daemon's are in its own lobby."""
        thread = self._daemon_thread
        if self.daemon is None or thread is None or thread.loop is None:
            return [], {}
        lobby = self.daemon.lobby

        async def read() -> tuple[list[dict[str, Any]], dict[str, str]]:
            state = lobby.now()
            return ([table.model_dump(exclude_none=True) for table in state.tables],
                    {player.name: player.status for player in state.online})

        future = asyncio.run_coroutine_threadsafe(read(), thread.loop)
        return await asyncio.wrap_future(future)


def ssh_command(host: str, port: int) -> str:
    """What a player types to reach this server at ``host`` and ``port``, in a terminal.

    >>> ssh_command("box", 2222), ssh_command("box", 22)
    ('ssh -t -p 2222 box', 'ssh -t box')
    """
    return f"ssh -t {host}" if port == 22 else f"ssh -t -p {port} {host}"


async def _check_shared_account(path: Path, account: str) -> None:
    """A running daemon at ``path`` must trust this process's user as its shared account
    (``serve --shared-account USER``), or every player would be one person."""
    from minefield.session.protocol import PROTOCOL_VERSION

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


def _why_lost(exc: Exception | None) -> str:
    """Why asyncssh says a connection ended, in the words of the log."""
    if exc is None:
        return "closed"
    text = str(exc)
    if "keepalive" in text:
        return "keepalive (the client stopped answering)"
    if "Login timeout" in text:
        return "login timeout"
    return f"closed ({text[:80]})" if text else "closed"


class _Connection(asyncssh.SSHServer):
    """One SSH connection: its address, its key, its limits.

    A logged-in connection holds a place under the per-address and total caps while it has no
    session counted (a session takes that place over), and one that keeps no session open is
    closed after the login timeout (``ssh -N`` would otherwise hold a connection forever).
    """

    def __init__(self, door: FrontDoor) -> None:
        self.door = door
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.fingerprint: str | None = None
        self.pending = False
        self.refusal: str | None = None
        self.refused_keys: set[str] = set()
        #: Why the server closed it (None: the client or the network did).
        self.end_reason: str | None = None
        self.logged_in = False
        self.closed = False
        #: Holding a place of its own under the caps (logged in, no session counted).
        self.bare = False
        #: Session channels open, and those counted by the gate.
        self.channels = 0
        self.counted_sessions = 0
        self._no_session_timer: asyncio.TimerHandle | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.door.connections.add(self)
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        refusal = self.door.gate.connect(self.address, time.monotonic())
        if refusal is None:
            self.pending = True
            return
        log.warning("refused %s: %s", self.address, refusal)
        if self.door.refusing >= MAX_REFUSING:  # a flood: no words, no key exchange
            conn.abort()
            return
        # The OpenSSH client shows nothing the server says before the key exchange, so the
        # refusal waits for it and is said as a banner and as the reason of the disconnect.
        self.refusal = refusal
        self.door.refusing += 1

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self.door.connections.discard(self)
        if self._no_session_timer is not None:
            self._no_session_timer.cancel()
            self._no_session_timer = None
        if self.bare:
            self.bare = False
            self.door.gate.release_connection(self.address)
        if self.refusal is not None:
            log.info("connection from %s ended: refused (%s)", self.address, self.refusal)
            self.refusal = None
            self.door.refusing -= 1
            return
        if self.pending:
            self.pending = False
            self.door.gate.logged_in_or_gone(self.address)
        why = self.end_reason or _why_lost(exc)
        log.info("connection of %s from %s ended: %s", self.fingerprint or "no key",
                 self.address, why)

    def close(self, why: str, reason: str, code: int = asyncssh.DISC_BY_APPLICATION) -> None:
        """Close the connection, logging ``why`` and telling the client ``reason``."""
        if self.closed or self.conn is None:
            return
        self.end_reason = why
        self.conn.disconnect(code, f"minefield: {reason}")

    # -- sessions held ------------------------------------------------------------------------

    def channel_opened(self) -> None:
        """A session channel opened: the connection is in use."""
        self.channels += 1
        if self._no_session_timer is not None:
            self._no_session_timer.cancel()
            self._no_session_timer = None

    def channel_closed(self) -> None:
        """A session channel closed; with none left, the login timeout runs again."""
        self.channels -= 1
        if self.channels <= 0:
            self._expect_session()

    def _expect_session(self) -> None:
        if self.closed or not self.logged_in or self._no_session_timer is not None:
            return
        seconds = self.door.config.limits.login_seconds
        self._no_session_timer = asyncio.get_running_loop().call_later(
            seconds, self._no_session)

    def _no_session(self) -> None:
        self._no_session_timer = None
        if self.channels <= 0:
            seconds = self.door.config.limits.login_seconds
            self.close(f"login timeout (no session for {seconds:g} s)",
                       f"no session opened in {seconds:g} s: closing")

    def session_counted(self) -> None:
        """A session of this connection is about to be counted: it takes the connection's
        place under the caps."""
        if self.bare:
            self.bare = False
            self.door.gate.release_connection(self.address)

    def session_uncounted(self, counted: bool) -> None:
        """A session was refused (``counted`` False) or ended; with none counted, the
        connection holds its own place again."""
        if counted:
            self.counted_sessions -= 1
        if self.counted_sessions <= 0 and self.logged_in and not self.closed and not self.bare:
            self.bare = True
            self.door.gate.hold_connection(self.address)

    def begin_auth(self, username: str) -> bool:
        if self.refusal is not None and self.conn is not None:
            self.conn.send_auth_banner(f"minefield: {self.refusal}\r\n")
            self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS,
                                 f"minefield: {self.refusal}")
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def host_based_auth_supported(self) -> bool:
        return False

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        fingerprint = key.get_fingerprint("sha256")
        if not self.door.admits(fingerprint, self.address):
            if fingerprint not in self.refused_keys:
                self.refused_keys.add(fingerprint)
                log.info("key %s from %s is not on the allow-list", fingerprint, self.address)
                if self.conn is not None:
                    self.conn.send_auth_banner(
                        f"minefield: the key {fingerprint} is not allowed on this server: "
                        "ask its owner to add it\r\n")
            return False
        self.fingerprint = fingerprint  # the last key checked is the one that signs (RFC 4252)
        return True

    def validate_ca_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        return False  # certificates are not accepted: a key is its own identity

    def auth_completed(self) -> None:
        if self.pending:
            self.pending = False
            self.door.gate.logged_in_or_gone(self.address)
        full = self.door.gate.log_in(self.address)
        if full is not None:
            log.warning("refused login of %s from %s: %s", self.fingerprint, self.address,
                        full)
            self.close(f"cap ({full})", full, asyncssh.DISC_TOO_MANY_CONNECTIONS)
            return
        self.bare = self.logged_in = True
        log.info("login %s from %s", self.fingerprint, self.address)
        if self.conn is not None and hasattr(self.conn, "_max_recv_pktlen"):
            # asyncssh cuts a packet over 256 KiB with a protocol error; a logged-in client's
            # long command (a paste gone wrong) gets the one-line refusal of any long one.
            self.conn._max_recv_pktlen = max(self.conn._max_recv_pktlen, LONGEST_PACKET)
        self._expect_session()

    def session_requested(self) -> _Session:
        return _Session(self.door, self)

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str,
                             orig_port: int) -> bool:
        log.info("refused port forwarding for %s from %s", self.fingerprint, self.address)
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                        "minefield: no port forwarding here")

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        log.info("refused remote forwarding for %s from %s", self.fingerprint, self.address)
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        log.info("refused socket forwarding for %s from %s", self.fingerprint, self.address)
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                        "minefield: no forwarding here")

    def unix_server_requested(self, listen_path: str) -> bool:
        log.info("refused socket forwarding for %s from %s", self.fingerprint, self.address)
        return False


class _Session(asyncssh.SSHServerSession[bytes]):
    """One session channel: the command, then the child's terminal."""

    def __init__(self, door: FrontDoor, connection: _Connection) -> None:
        self.door = door
        self.connection = connection
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.raw_command: str | None = None
        self.subsystem: str | None = None
        self.command: FrontCommand | None = None
        self.account: Account | None = None
        self.status = ""
        self.child: Child | None = None
        self.counted = False
        self.terminal = False
        self.size = (80, 24)
        self.last_input = time.monotonic()
        self._input: asyncio.Queue[bytes] = asyncio.Queue()
        self._to_child = bytearray()
        self._reading = False
        self._paused = False
        self._task: asyncio.Task[None] | None = None
        self._ended = False

    # -- requests ------------------------------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan
        self.connection.channel_opened()

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: Any) -> bool:
        self.terminal = True
        if term_size[0] > 0 and term_size[1] > 0:
            self.size = (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.raw_command = command
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        self.subsystem = subsystem[:40]
        return True  # answered with a refusal in session_started (no subsystem runs)

    def break_received(self, msec: int) -> bool:
        return False

    def terminal_size_changed(self, width: int, height: int, pixwidth: int,
                              pixheight: int) -> None:
        if width > 0 and height > 0:
            self.size = (width, height)
            if self.child is not None:
                with contextlib.suppress(OSError):
                    set_size(self.child.master, height, width)

    def session_started(self) -> None:
        self._task = asyncio.create_task(self._run())

    # -- bytes ---------------------------------------------------------------------------------

    def data_received(self, data: bytes, datatype: int | None) -> None:
        self.last_input = time.monotonic()
        if self.child is not None:
            self._to_child += data
            self._write_child()
        elif len(data) < 4096:
            self._input.put_nowait(data)

    def eof_received(self) -> bool:
        self._input.put_nowait(b"")
        return True  # the output side stays open until the command is done

    def pause_writing(self) -> None:
        self._paused = True
        self._stop_reading()

    def resume_writing(self) -> None:
        self._paused = False
        self._start_reading()

    def connection_lost(self, exc: Exception | None) -> None:
        self._ended = True
        self.connection.channel_closed()
        if self.child is not None:  # closed by _play as its task is cancelled
            # At once and for sure: a client left running could reach the game server again
            # and take its seat back while its player is cut off (its connection closing is
            # what starts the seat's grace, R25b).
            self.child.kill()
            self._stop_reading()
        if self._task is not None and not self._task.done():
            self._task.cancel()
        else:
            self._uncount()

    # -- the session ----------------------------------------------------------------------------

    def _say(self, text: str, stderr: bool = False) -> None:
        if self.chan is None or self._ended:
            return
        data = text.encode("utf-8", "replace")
        if self.terminal:
            data = data.replace(b"\n", b"\r\n")
        self.chan.write(data, asyncssh.EXTENDED_DATA_STDERR if stderr else None)

    def _finish(self, status: int) -> None:
        if self.chan is not None and not self._ended:
            self._ended = True
            with contextlib.suppress(OSError, asyncssh.Error):
                self.chan.exit(status)

    def end(self, why: str) -> None:
        """Close the session, telling the player why: the game's screen stops, the player's
        terminal is restored (main screen, mouse off, cursor on), then the line."""
        child = self.child
        if child is not None:
            self._stop_reading()  # nothing more of the game is drawn
            child.hang_up()
            if self.terminal and self.chan is not None and not self._ended:
                self.chan.write(RESTORE_TERMINAL)
        self._say(f"\nminefield: {why}\n", stderr=not self.terminal)
        self._finish(1)

    def _refuse(self, text: str, status: int = 2) -> None:
        self._say(f"minefield: {text}\n", stderr=True)
        self._finish(status)

    def _uncount(self) -> None:
        if self.counted:
            self.counted = False
            self.door.sessions.discard(self)
            fingerprint = self.connection.fingerprint or "?"
            self.door.gate.close_session(self.connection.address, fingerprint)
            self.connection.session_uncounted(True)

    async def _run(self) -> None:
        try:
            await self._serve()
        except asyncio.CancelledError:
            raise
        except Exception as error:  # one session never takes the server down
            log.error("session of %s failed (%s)", self.connection.fingerprint,
                      type(error).__name__)
            self._refuse("the session failed on the server", 1)
        finally:
            if self.child is not None:  # cancelled before _play took charge of it
                self.child.hang_up()
                self._stop_reading()
                self.child.close()  # the master's end: the kernel hangs up the child
                self.child = None
            self._uncount()

    async def _serve(self) -> None:
        door, connection = self.door, self.connection
        fingerprint = connection.fingerprint or "?"
        if self.subsystem is not None:
            log.info("refused subsystem %r for %s from %s", self.subsystem, fingerprint,
                     connection.address)
            self._refuse(f"refused: no subsystem here ({self.subsystem}: no file transfer, "
                         "no sftp or scp); " + ALLOWED)
            return
        try:
            self.command = command = parse_command(self.raw_command)
        except Refused as refusal:
            log.info("refused command from %s at %s (%s)", fingerprint, connection.address,
                     str(refusal)[:60])
            self._refuse(str(refusal) if isinstance(refusal, BadName)
                         else f"refused: {refusal}; {ALLOWED}")
            return
        connection.session_counted()
        full = door.gate.open_session(connection.address, fingerprint)
        if full is not None:
            connection.session_uncounted(False)
            log.warning("refused session of %s from %s: %s", fingerprint, connection.address,
                        full)
            self._refuse(full, 1)
            return
        self.counted = True
        connection.counted_sessions += 1
        door.sessions.add(self)
        assert door.accounts is not None
        self.account = door.accounts.by_key(fingerprint)
        action = command.action
        if action in ("web", "web-sign-out"):
            self._answer_web(action == "web-sign-out")
            return
        if action in ("whoami", "who", "ladder", "name", "help") or action.startswith("key-"):
            await self._answer(command, fingerprint)
            return
        if action in APP_ACTIONS and not self.terminal:
            self._refuse("the game needs a terminal: connect with ssh -t")
            return
        if self.account is None:
            if not self.terminal:
                self._refuse("this key has no name yet: choose one with ssh -t to this "
                             "server, or: name NEW")
                return
            self.account = await self._ask_name(fingerprint)
            if self.account is None:
                return
        await self._play(command)

    async def _answer(self, command: FrontCommand, fingerprint: str) -> None:
        door = self.door
        assert door.accounts is not None
        action = command.action
        if action == "whoami":
            self._say(door.whoami(fingerprint, self.account, command.json) + "\n")
        elif action == "who":
            self._say(door.who(command.json, *await door.lobby_now()) + "\n")
        elif action == "ladder":
            self._say(door.ladder(command.json) + "\n")
        elif action == "help":
            self._say(HELP + "\n")
        elif action == "name":
            assert command.name is not None
            try:
                if self.account is None:
                    self.account = door.accounts.claim(fingerprint, command.name)
                    log.info("key %s claimed the name %s", fingerprint, self.account.name)
                    self._say(f"Welcome, {self.account.name}.\n")
                else:
                    old = self.account.name
                    self.account, released = door.accounts.rename(self.account.id,
                                                                  command.name)
                    log.info("%s is now %s (key %s)%s", old, self.account.name, fingerprint,
                             f"; former names released: {', '.join(released)}"
                             if released else "")
                    self._say(f"You are now {self.account.name}.\n")
            except NameRefused as refusal:
                self._refuse(str(refusal), 1 if isinstance(refusal, RenameLimited) else 2)
                return
        elif action == "key-confirm":
            if not self._confirm_key(command, fingerprint):
                return
        elif self.account is None:
            self._refuse("this key has no name yet: choose one first (name NEW)")
            return
        elif not self._answer_key(command, fingerprint, self.account):
            return
        self._finish(0)

    def _answer_web(self, sign_out_all: bool) -> None:
        """``web``: a browser sign-in link; ``web --sign-out-all``."""
        text, status = web_answer(self.door.web, self.account, sign_out_all)
        if status:
            self._refuse(text, status)
        else:
            self._say(text + "\n")
            self._finish(0)

    def _door_address(self) -> tuple[str, int]:
        """The host and port a player reaches this server at: the listening address, or, when
        that is every address, the one this connection came in on."""
        config = self.door.config
        conn = self.connection.conn
        local = conn.get_extra_info("sockname") if conn is not None else None
        port = int(local[1]) if local else config.port
        host = config.host
        if host in ("", "0.0.0.0", "::", "*") and local:
            host = str(local[0]).removeprefix("::ffff:")
        return host, port

    def _key_list(self, account: Account, fingerprint: str, as_json: bool) -> str:
        """``key list``: the account's keys (``this``: the key asking), and the keys offered a
        code that they have not given yet."""
        assert self.door.accounts is not None
        keys = self.door.accounts.keys_of(account.id)

        def iso(moment: float) -> str:
            return datetime.fromtimestamp(moment, UTC).isoformat(timespec="seconds")

        if as_json:
            return json.dumps({
                "name": account.name,
                "keys": [{"fingerprint": k.fingerprint, "added": iso(k.since),
                          "this": k.fingerprint == fingerprint} for k in keys if not k.pending],
                "pending": [{"fingerprint": k.fingerprint, "expires": iso(k.since)}
                            for k in keys if k.pending]})
        lines = [f"The keys of {account.name}:"]
        for key in keys:
            if key.pending:
                lines.append(f"  {key.fingerprint}  waiting for its code (key confirm) until "
                             f"{utc(key.since)}")
            else:
                lines.append(f"  {key.fingerprint}  added {utc(key.since)}"
                             f"{'  (this key)' if key.fingerprint == fingerprint else ''}")
        return "\n".join(lines)

    def _answer_key(self, command: FrontCommand, fingerprint: str, account: Account) -> bool:
        """``key add``, ``key list`` and ``key remove`` of a named key; False when refused."""
        door = self.door
        assert door.accounts is not None
        if command.action == "key-list":
            self._say(self._key_list(account, fingerprint, command.json) + "\n")
            return True
        if command.action == "key-remove":
            assert command.key is not None
            try:
                removed = door.accounts.remove_key(account.id, command.key)
            except KeyRefused as refusal:
                self._refuse(str(refusal))
                return False
            if not removed:
                log.info("%s withdrew the code of the key %s (key %s)", account.name,
                         command.key, fingerprint)
                self._say(f"The code for the key {command.key} is withdrawn: it will not log "
                          f"in as {account.name}.\n")
                return True
            log.info("%s removed the key %s (key %s from %s)", account.name, command.key,
                     fingerprint, self.connection.address)
            self.account = door.accounts.by_key(fingerprint)
            for session in list(door.sessions):
                if session is not self and session.connection.fingerprint == command.key:
                    session.end(f"this key no longer logs in as {account.name}")
            self._say(f"The key {command.key} no longer logs in as {account.name}.\n")
            return True
        try:
            key = asyncssh.import_public_key(command.key or "")
        except (asyncssh.KeyImportError, ValueError):
            self._refuse("that is not a public key: key add ssh-ed25519 AAAA...")
            return False
        new = key.get_fingerprint("sha256")
        try:
            offer = door.accounts.offer_key(account.id, new, fingerprint)
        except KeyRefused as refusal:
            self._refuse(str(refusal))
            return False
        log.info("%s offered the key %s a code (key %s from %s)", account.name, new,
                 fingerprint, self.connection.address)
        host, port = self._door_address()
        note = ("" if door.admits(new) else
                "\nThis server lets in listed keys only: ask its owner to list that key too.")
        self._say(f"To let the key {new} log in as {account.name}, run this with that key "
                  f"before {utc(offer.expires)} (the code serves once):\n"
                  f"ssh -p {port} {host} key confirm {offer.code}{note}\n")
        return True

    def _confirm_key(self, command: FrontCommand, fingerprint: str) -> bool:
        """``key confirm CODE``: this key joins the player who offered it the code."""
        door = self.door
        assert door.accounts is not None and command.code is not None
        try:
            account, asked_by = door.accounts.confirm_key(fingerprint, command.code)
        except KeyRefused as refusal:
            log.info("key %s from %s: key confirm refused (%s)", fingerprint,
                     self.connection.address, refusal)
            self._refuse(str(refusal))
            return False
        self.account = account
        log.info("key %s joined %s with its code (asked by key %s; confirmed from %s)",
                 fingerprint, account.name, asked_by, self.connection.address)
        self._say(f"This key now logs in as {account.name}.\n")
        return True

    async def _read_key(self) -> bytes:
        idle = self.door.config.limits.idle_seconds
        try:
            return await asyncio.wait_for(self._input.get(), idle)
        except TimeoutError:
            self._refuse(f"nothing typed for {idle:g} s: closing", 1)
            return b""

    async def _ask_name(self, fingerprint: str) -> Account | None:
        """The name prompt of a key's first login (in a terminal). A refused name is said why
        and stays on the line, to be corrected."""
        door = self.door
        assert door.accounts is not None
        self._say(f"Welcome to Minefield. Your key is {fingerprint}.\n"
                  "Choose the name other players will see (2-16 letters, digits, - or _).\n"
                  "Another key of yours has a name here? Leave (Ctrl-C) and run key add with "
                  "that key: this one then logs in as you.\n")
        editor = LineEditor("Name: ", self.size[0])
        self._say(editor.restart())
        for _ in range(NAME_TRIES):
            name = await self._read_line(editor)
            if name is None:
                return None
            try:
                account = door.accounts.claim(fingerprint, name)
            except NameRefused as refusal:
                self._say(f"{refusal}\n")
                editor.width = self.size[0]
                self._say(editor.restart(name))
                continue
            log.info("key %s claimed the name %s", fingerprint, account.name)
            self._say(f"Welcome, {account.name}.\n")
            return account
        self._refuse("no name chosen: try again later", 1)
        return None

    async def _read_line(self, editor: LineEditor) -> str | None:
        """The line typed in ``editor`` (kept as typed); None when the player left."""
        data = b""  # what was typed after the last line comes first
        while True:
            editor.width = self.size[0]
            shown = editor.feed(data)
            if shown:
                self._say(shown)
            if editor.cancelled:
                self._finish(1)
                return None
            if editor.line is not None:
                return editor.line
            data = await self._read_key()
            if not data or self._ended:
                self._finish(1)
                return None

    async def _play(self, command: FrontCommand) -> None:
        """Run the client in a terminal until it exits."""
        account = self.account
        assert account is not None and self.chan is not None and command.entry is not None
        entry = command.entry
        # Nothing typed: the lobby (the menu is one key away in it).
        argv = ["lobby"] if entry.action == "menu" else entry.argv()
        if command.public:
            argv.append("--public")
        if entry.action in ("menu", "host", "join", "resume", "watch"):
            argv += ["--player", account.name, "--socket", str(self.door.socket)]
        self.status = {"menu": "lobby", "host": "hosting", "join": "playing",
                       "resume": "playing", "history": "history",
                       "watch": "watching"}[entry.action]
        env = self.door.spawn_env(account, self._term(),
                                  self.chan.get_environment().get("COLORTERM"), self.terminal)
        env[DOOR_ENV] = ssh_command(*self._door_address())  # for the hints the client shows
        for folder in ("data", "config"):
            (Path(env["HOME"]) / folder).mkdir(parents=True, exist_ok=True, mode=0o700)
        columns, rows = self.size
        try:
            child = await self.door.spawn(argv, env, rows, columns, self.terminal)
            self.child = child
            pid = await child.started()
        except SpawnError as error:
            log.error("session of %s from %s: %s", account.name, self.connection.address, error)
            self._refuse(f"the game could not start ({error}): try again", 1)
            return
        log.info("session of %s (%s) from %s: %s, pid %d", account.name,
                 self.connection.fingerprint, self.connection.address, entry.action, pid)
        self._start_reading()
        watcher = asyncio.create_task(self._idle_watch()) if entry.action == "menu" else None
        try:
            status = await child.exited()
            await self._drain_child()
        finally:  # also when the player's connection went (the task is cancelled)
            if watcher is not None:
                watcher.cancel()
            self._stop_reading()
            child.close()  # only here: no read of the link may be pending on a closed socket
            self.child = None
            self._uncount()
        self._finish(status)

    def _term(self) -> str | None:
        """The client's TERM when it is a plain terminal name; else :data:`FALLBACK_TERM`
        (logged): it reaches the terminal database and the app, and is never trusted."""
        assert self.chan is not None
        term = self.chan.get_terminal_type()
        if term is None or PLAIN_TERM.fullmatch(term):
            return term
        log.info("TERM %r of %s from %s is not a terminal name: %s instead", term[:40],
                 self.connection.fingerprint, self.connection.address, FALLBACK_TERM)
        return FALLBACK_TERM

    async def _idle_watch(self) -> None:
        idle = self.door.config.limits.idle_seconds
        while True:
            left = self.last_input + idle - time.monotonic()
            if left <= 0:
                log.info("session of %s idle in the menu: closed", self.connection.fingerprint)
                self.end(f"nothing typed for {idle:g} s: closing")
                return
            await asyncio.sleep(min(left, 60.0))

    def _start_reading(self) -> None:
        if (self.child is not None and not self._reading and not self._paused
                and not self._ended):
            asyncio.get_running_loop().add_reader(self.child.master, self._read_child)
            self._reading = True

    def _stop_reading(self) -> None:
        if self._reading and self.child is not None:
            asyncio.get_running_loop().remove_reader(self.child.master)
        self._reading = False

    def _read_child(self) -> None:
        child = self.child
        if child is None:
            return
        try:
            data = os.read(child.master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: every process of the terminal has closed it
            data = b""
        if not data:
            self._stop_reading()
            return
        if self.chan is not None and not self._ended:
            self.chan.write(data)

    async def _drain_child(self) -> None:
        """What the child wrote before it exited, still in the terminal."""
        child = self.child
        if child is None or not self._reading:
            return
        for _ in range(100):
            try:
                data = os.read(child.master, 65536)
            except (BlockingIOError, OSError):
                return
            if not data:
                return
            if self.chan is not None and not self._ended:
                self.chan.write(data)

    def _write_child(self) -> None:
        child = self.child
        if child is None:
            return
        loop = asyncio.get_running_loop()
        try:
            written = os.write(child.master, bytes(self._to_child[:4096]))
            del self._to_child[:written]
        except BlockingIOError:
            pass
        except OSError:
            self._to_child.clear()
            return
        if len(self._to_child) > 1024 * 1024:  # a client pasting megabytes into a game
            self._to_child.clear()
        if self._to_child:
            loop.add_writer(child.master, self._write_again)
        else:
            with contextlib.suppress(ValueError, OSError):
                loop.remove_writer(child.master)

    def _write_again(self) -> None:
        if self.child is not None:
            asyncio.get_running_loop().remove_writer(self.child.master)
        self._write_child()


__all__ = ["FrontDoor", "FrontDoorConfig", "FrontDoorError", "load_host_key", "read_allowed",
           "ssh_command"]
