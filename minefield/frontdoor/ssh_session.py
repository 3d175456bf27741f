"""One session channel of ``minefield ssh-server``: the command, then the client's terminal.

A :class:`DoorSession` reads what the player typed after the host (no subsystem, no sftp or
scp: refused with words), counts itself under the limits, finds the key's player and hands
the command to its route (:data:`~minefield.frontdoor.routes.ROUTES`): a text command is
answered and the session ends; an app command asks a new key's name (:mod:`.prompt`) and runs
the ordinary client in a pseudo-terminal (:mod:`.spawner`), its bytes pumped to the channel
unread (:mod:`.pty_pump`) until it exits. Log lines name the key's fingerprint and the
address, never anything of a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncssh

from minefield.frontdoor.account_names import NameRefused
from minefield.frontdoor.accounts import Account
from minefield.frontdoor.commands import ALLOWED, BadName, FrontCommand, parse_command
from minefield.frontdoor.door_config import (
    FALLBACK_TERM,
    NAME_TRIES,
    PLAIN_TERM,
    RESTORE_TERMINAL,
)
from minefield.frontdoor.grammar import Refused
from minefield.frontdoor.limits import reason_of
from minefield.frontdoor.moderation_commands import AdminUsage
from minefield.frontdoor.prompt import LineEditor
from minefield.frontdoor.pty_pump import PtyPump
from minefield.frontdoor.reports import ssh_command
from minefield.frontdoor.routes import ROUTES
from minefield.frontdoor.spawner import Child, SpawnError, set_size
from minefield.frontdoor.wire_link import WireLink, asks_for_wire
from minefield.paths import make_player_home
from minefield.protocol.address import DOOR_ENV
from minefield.protocol.wire import ErrorCode

if TYPE_CHECKING:
    from minefield.frontdoor.server import FrontDoor
    from minefield.frontdoor.ssh_connection import DoorConnection

log = logging.getLogger("minefield.frontdoor")

#: The longest a piece of typing is kept while no client runs (the name prompt's keys).
MAX_TYPED = 4096


class DoorSession(asyncssh.SSHServerSession[bytes]):
    """One session channel: the command, then the child's terminal."""

    def __init__(self, door: FrontDoor, connection: DoorConnection) -> None:
        self.door = door
        self.connection = connection
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.raw_command: str | None = None
        self.subsystem: str | None = None
        self.command: FrontCommand | None = None
        self.account: Account | None = None
        #: What the session does, as ``who`` tells it (set when the client starts).
        self.status = ""
        self.child: Child | None = None
        self.counted = False
        self.terminal = False
        self.size = (80, 24)
        self.last_input = time.monotonic()
        self.pump = PtyPump(self._to_player)
        self._input: asyncio.Queue[bytes] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._ended = False
        #: The bridge of a ``wire`` session (a program speaking the protocol), made as the
        #: command arrives so that nothing the program sends is lost.
        self.wire: WireLink | None = None
        #: The command being timed for the metrics (its action) until its first byte goes
        #: back, and when it came.
        self._timing: str | None = None
        self._since = 0.0

    @property
    def fingerprint(self) -> str:
        """The fingerprint of the key that logged in (``?`` before one did)."""
        return self.connection.fingerprint or "?"

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
        if asks_for_wire(command):
            self.wire = WireLink(self)
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
        if self.wire is not None:
            self.wire.feed(data)
        elif self.child is not None:
            self.pump.send(data)
        elif len(data) < MAX_TYPED:
            self._input.put_nowait(data)

    def eof_received(self) -> bool:
        if self.wire is not None:
            self.wire.eof()
        self._input.put_nowait(b"")
        return True  # the output side stays open until the command is done

    def pause_writing(self) -> None:
        if self.wire is not None:
            self.wire.writing(False)
        self.pump.paused = True
        self.pump.stop()

    def resume_writing(self) -> None:
        if self.wire is not None:
            self.wire.writing(True)
        self.pump.paused = False
        self._start_reading()

    def connection_lost(self, exc: Exception | None) -> None:
        self._ended = True
        self.connection.channel_closed()
        if self.child is not None:  # closed by _play as its task is cancelled
            # At once and for sure: a client left running could reach the game server again
            # and take its seat back while its player is cut off (its connection closing is
            # what starts the seat's grace, R25b).
            self.child.kill()
            self.pump.stop()
        if self._task is not None and not self._task.done():
            self._task.cancel()
        else:
            self._uncount()

    def _to_player(self, data: bytes) -> None:
        if self.chan is not None and not self._ended:
            self._first_byte()
            self.chan.write(data)

    def _first_byte(self) -> None:
        """The command's first byte goes back: its latency, for the metrics."""
        if self._timing is not None:
            self.door.metrics.answered(self._timing, self._since)
            self._timing = None

    def _timed(self, action: str) -> None:
        """Count the command ``action`` and time it to its first byte."""
        self.door.metrics.command(action)
        self._timing = action

    def _start_reading(self) -> None:
        if not self._ended:
            self.pump.start()

    # -- what the session says -------------------------------------------------------------------

    def say(self, text: str, stderr: bool = False) -> None:
        """Write ``text`` to the player (a terminal gets ``\\r\\n`` line ends)."""
        if self.chan is None or self._ended:
            return
        data = text.encode("utf-8", "replace")
        if self.terminal:
            data = data.replace(b"\n", b"\r\n")
        self._first_byte()
        self.chan.write(data, asyncssh.EXTENDED_DATA_STDERR if stderr else None)

    @property
    def ended(self) -> bool:
        """True once the session has ended (or its connection gone)."""
        return self._ended

    def finish(self, status: int) -> None:
        """End the session with the exit ``status`` (once)."""
        if self.chan is not None and not self._ended:
            self._ended = True
            with contextlib.suppress(OSError, asyncssh.Error):
                self.chan.exit(status)

    def end(self, why: str) -> None:
        """Close the session, telling the player why: the game's screen stops, the player's
        terminal is restored (main screen, mouse off, cursor on), then the line."""
        child = self.child
        if child is not None:
            self.pump.stop()  # nothing more of the game is drawn
            child.hang_up()
            if self.terminal and self.chan is not None and not self._ended:
                self.chan.write(RESTORE_TERMINAL)
        self.say(f"\nminefield: {why}\n", stderr=not self.terminal)
        self.finish(1)

    def refuse(self, text: str, status: int = 2, code: ErrorCode = "not_allowed") -> None:
        """Say ``minefield: text`` on stderr and end with ``status``; to a program
        (``wire``), the protocol's fatal ``error`` line with ``code`` instead."""
        if self.wire is not None:
            self.wire.refuse(code, text, status)
            return
        self.say(f"minefield: {text}\n", stderr=True)
        self.finish(status)

    def _uncount(self) -> None:
        if self.counted:
            self.counted = False
            self.door.sessions.discard(self)
            self.door.gate.close_session(self.connection.address, self.fingerprint)
            self.connection.session_uncounted(True)

    # -- the session ----------------------------------------------------------------------------

    async def _run(self) -> None:
        try:
            await self._serve()
        except asyncio.CancelledError:
            raise
        except Exception as error:  # one session never takes the server down
            log.error("session of %s failed (%s)", self.connection.fingerprint,
                      type(error).__name__)
            self.refuse("the session failed on the server", 1, "server")
        finally:
            if self.child is not None:  # cancelled before _play took charge of it
                self.child.hang_up()
                self.pump.detach()
                self.child.close()  # the master's end: the kernel hangs up the child
                self.child = None
            self._uncount()

    async def _serve(self) -> None:
        door, connection = self.door, self.connection
        fingerprint = self.fingerprint
        self._since = time.monotonic()
        banned = door.moderator.login_refusal(fingerprint)
        if banned is not None:  # whatever was asked: one line, nothing else said
            self._timed("refused")
            door.metrics.login_refused("banned")
            log.info("refused banned key %s from %s", fingerprint, connection.address)
            self.refuse(banned, 1)
            return
        if self.subsystem is not None:
            self._timed("refused")
            log.info("refused subsystem %r for %s from %s", self.subsystem, fingerprint,
                     connection.address)
            self.refuse(f"refused: no subsystem here ({self.subsystem}: no file transfer, "
                        "no sftp or scp); " + ALLOWED)
            return
        try:
            self.command = command = parse_command(self.raw_command)
        except Refused as refusal:
            self._timed("refused")
            log.info("refused command from %s at %s (%s)", fingerprint, connection.address,
                     str(refusal)[:60])
            self.refuse(str(refusal) if isinstance(refusal, BadName | AdminUsage)
                        else f"refused: {refusal}; {ALLOWED}")
            return
        self._timed(command.action)
        connection.session_counted()
        full = door.gate.open_session(connection.address, fingerprint)
        if full is not None:
            door.metrics.login_refused(reason_of(full))
            connection.session_uncounted(False)
            log.warning("refused session of %s from %s: %s", fingerprint, connection.address,
                        full)
            self.refuse(full, 1, "rate_limited")
            return
        self.counted = True
        connection.counted_sessions += 1
        door.sessions.add(self)
        self.account = door.accounts.by_key(fingerprint)
        await ROUTES[command.action](self, command)

    def door_address(self) -> tuple[str, int]:
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

    # -- the name prompt -----------------------------------------------------------------------

    async def _read_key(self) -> bytes:
        idle = self.door.config.limits.idle_seconds
        try:
            return await asyncio.wait_for(self._input.get(), idle)
        except TimeoutError:
            self.refuse(f"nothing typed for {idle:g} s: closing", 1)
            return b""

    async def _ask_name(self) -> Account | None:
        """The name prompt of a key's first login (in a terminal). A refused name is said why
        and stays on the line, to be corrected."""
        accounts, fingerprint = self.door.accounts, self.fingerprint
        self.say(f"Welcome to Minefield. Your key is {fingerprint}.\n"
                 "Choose the name other players will see (2-16 letters, digits, - or _).\n"
                 "Another key of yours has a name here? Leave (Ctrl-C) and run key add with "
                 "that key: this one then logs in as you.\n")
        editor = LineEditor("Name: ", self.size[0])
        self.say(editor.restart())
        for _ in range(NAME_TRIES):
            name = await self._read_line(editor)
            if name is None:
                return None
            try:
                account = accounts.claim(fingerprint, name)
            except NameRefused as refusal:
                self.say(f"{refusal}\n")
                editor.width = self.size[0]
                self.say(editor.restart(name))
                continue
            log.info("key %s claimed the name %s", fingerprint, account.name)
            self.say(f"Welcome, {account.name}.\n")
            return account
        self.refuse("no name chosen: try again later", 1)
        return None

    async def _read_line(self, editor: LineEditor) -> str | None:
        """The line typed in ``editor`` (kept as typed); None when the player left."""
        data = b""  # what was typed after the last line comes first
        while True:
            editor.width = self.size[0]
            shown = editor.feed(data)
            if shown:
                self.say(shown)
            if editor.cancelled:
                self.finish(1)
                return None
            if editor.line is not None:
                return editor.line
            data = await self._read_key()
            if not data or self._ended:
                self.finish(1)
                return None

    # -- the client in a terminal ----------------------------------------------------------------

    async def run_client(self, command: FrontCommand, status: str, terminal: bool) -> None:
        """Run the client for ``command`` until it exits; ``status``: what ``who`` says the
        player does meanwhile; ``terminal``: the client is the game's (it needs a terminal,
        and talks to the game server as the player)."""
        if terminal and not self.terminal:
            self.refuse("the game needs a terminal: connect with ssh -t")
            return
        if self.account is None:
            if not self.terminal:
                self.refuse("this key has no name yet: choose one with ssh -t to this "
                            "server, or: name NEW")
                return
            self.account = await self._ask_name()
            if self.account is None:
                return
        await self._play(command, status, terminal)

    def _argv(self, command: FrontCommand, account: Account, game: bool) -> list[str]:
        if command.argv is not None:  # made by the server (a kept game's record)
            return list(command.argv)
        entry = command.entry
        assert entry is not None
        # Nothing typed: the lobby (the menu is one key away in it).
        argv = ["lobby"] if entry.action == "menu" else entry.argv()
        if command.public:
            argv.append("--public")
        if game:
            argv += ["--player", account.name, "--socket", str(self.door.socket)]
        return argv

    async def _play(self, command: FrontCommand, status: str, game: bool) -> None:
        account = self.account
        assert account is not None and self.chan is not None
        argv = self._argv(command, account, game)
        self.status = status
        env = self.door.spawn_env(account, self._term(),
                                  self.chan.get_environment().get("COLORTERM"), self.terminal)
        env[DOOR_ENV] = ssh_command(*self.door_address())  # for the hints the client shows
        make_player_home(Path(env["HOME"]))
        columns, rows = self.size
        try:
            child = await self.door.spawn(argv, env, rows, columns, self.terminal)
            self.child = child
            self.pump.attach(child.master)
            pid = await child.started()
        except SpawnError as error:
            log.error("session of %s from %s: %s", account.name, self.connection.address, error)
            self.refuse(f"the game could not start ({error}): try again", 1)
            return
        log.info("session of %s (%s) from %s: %s, pid %d", account.name,
                 self.connection.fingerprint, self.connection.address, command.action, pid)
        self._start_reading()
        menu = command.action == "menu"
        watcher = asyncio.create_task(self._idle_watch()) if menu else None
        try:
            exit_status = await child.exited()
            await self.pump.drain()
        finally:  # also when the player's connection went (the task is cancelled)
            if watcher is not None:
                watcher.cancel()
            self.pump.detach()
            child.close()  # only here: no read of the link may be pending on a closed socket
            self.child = None
            self._uncount()
        self.finish(exit_status)

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


__all__ = ["DoorSession"]
