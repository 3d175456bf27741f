"""A network game: the session over the game daemon's socket (``minefield host/join/resume``).

:class:`RemoteSession` has the interface of
:class:`~minefield.session.local.LocalSession`: ``open()``, ``updates()``, ``send()``,
``draft()``, ``close()``. The daemon runs the game; this session only carries messages.
Connect with :func:`~minefield.session.remote_start.host`, ``join`` or ``resume``
(:mod:`.remote_start`): each returns a connected session or raises
:class:`~minefield.session.daemon_socket.RemoteError` with one line for the player.

Once open, nothing raises into the app: the server's errors arrive as
:class:`~minefield.protocol.messages.Notice` or
:class:`~minefield.protocol.messages.Rejected`. When the link drops, the updates say
``Link(state="reconnecting")``; the session reconnects with backoff (the resume handshake),
then yields the fresh :class:`~minefield.protocol.messages.Snapshot` and
``Link(state="connected")``. A command sent meanwhile is sent again with the same id once the
snapshot shows it can still apply (the daemon applies an id once), so nothing plays twice.
After ``reconnect_seconds`` without success: ``Link(state="lost")`` and ``Closed``.

A match (``host(match=True)``, R30-R35) has the interface of a local match
(:class:`~minefield.session.base.MatchSession`): every table carries the match's public state
(:attr:`RemoteSession.match`), and after a game :meth:`RemoteSession.next_game` tells the
server this player is ready for the next one; once both are, a new ``welcome`` (a new game id,
maybe the other seat, R31) and its snapshot arrive.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from minefield.protocol.messages import (
    PROTOCOL_VERSION,
    Applied,
    Closed,
    Draft,
    Leave,
    Link,
    MatchView,
    Notice,
    Rejected,
    SendCommand,
    ServerMessageType,
    Snapshot,
)
from minefield.protocol.server_lines import parse_server_line
from minefield.protocol.wire import (
    AskNextGame,
    AskRematch,
    Hello,
    Ping,
    Pong,
    RoomState,
    Welcome,
    WireError,
    WireProblem,
    encode,
)
from minefield.rules.game import ChooseHand, Discard, IllegalCommand, PlayerView, Seat
from minefield.rules.settings import RuleSettings
from minefield.session.base import SessionTraits
from minefield.session.daemon_socket import PING_SECONDS, RemoteError, open_socket

log = logging.getLogger(__name__)

#: A link silent for this long is taken as lost (a pong comes every ping).
SILENT_SECONDS = 30.0
#: How long to keep trying to reconnect before giving up.
RECONNECT_SECONDS = 120.0
#: How long the handshake may take.
HANDSHAKE_SECONDS = 15.0
#: Errors after which reconnecting cannot help.
_FINAL_ERRORS = frozenset({"version", "no_game", "not_allowed", "bad_code", "handshake"})


@dataclass(slots=True)
class _Pending:
    """A command sent but not answered yet, and the table's seq when it was sent."""

    command: ChooseHand | Discard
    seen_seq: int


class RemoteSession:
    """A session whose game runs on the daemon. Build it with ``host``, ``join`` or ``resume``
    (:mod:`.remote_start`); then :meth:`open` and read :meth:`updates`."""

    def __init__(self, path: Path, player: str | None = None, *,
                 reconnect_seconds: float = RECONNECT_SECONDS,
                 ping_seconds: float = PING_SECONDS,
                 silent_seconds: float = SILENT_SECONDS) -> None:
        self.path = path
        self.player_option = player
        self.reconnect_seconds = reconnect_seconds
        self.ping_seconds = ping_seconds
        self.silent_seconds = silent_seconds
        #: The room code to share while the room waits for its second player (else None).
        self.code: str | None = None
        #: The game's id (what a resume asks for), the player's name as the server has it.
        self.game_id = ""
        self.player = ""
        #: Seats that asked for a rematch after the game (a new game starts once both have).
        self.rematch_asks: tuple[Seat, ...] = ()
        self._seat = Seat.EAST
        self._settings = RuleSettings()
        self._seq = 0
        self._last_view: PlayerView | None = None
        self._match: MatchView | None = None
        self._next_wanted = False  # next_game() asked while the link was down
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._connected = False
        self._queue: asyncio.Queue[ServerMessageType] = asyncio.Queue()
        self._pending: OrderedDict[str, _Pending] = OrderedDict()
        self._draft: str | None = None
        self._ids = itertools.count(1)
        self._id_prefix = secrets.token_hex(4)
        self._tasks: list[asyncio.Task[None]] = []
        self._opened = False
        self._finished = False  # the server closed the table, or we gave up, or close()

    # -- connecting --------------------------------------------------------------------------------

    @classmethod
    async def connect(cls, hello: Hello, path: Path, **options: Any) -> RemoteSession:
        """Connect, greet with ``hello`` and wait for the welcome and the first snapshot;
        :class:`RemoteError` if that fails."""
        session = cls(path, hello.player, **options)
        await session._handshake(hello)
        return session

    async def _handshake(self, hello: Hello) -> None:
        """Open a connection and greet; queue what arrived up to the snapshot."""
        reader, writer = await open_socket(self.path)
        try:
            writer.write(encode(hello))
            await writer.drain()
            early: list[ServerMessageType] = []
            welcome: Welcome | None = None
            async with asyncio.timeout(HANDSHAKE_SECONDS):
                while True:
                    message = await _read_message(reader)
                    if message is None:
                        raise RemoteError(f"the game server at {self.path} closed the "
                                          "connection")
                    if isinstance(message, WireError):
                        raise RemoteError(message.message, message.code)
                    if isinstance(message, Welcome):
                        welcome = message
                    elif isinstance(message, Closed):
                        raise RemoteError(message.reason or "the game server closed the table")
                    elif welcome is not None and not isinstance(message, Pong | RoomState):
                        early.append(message)
                        if isinstance(message, Snapshot):
                            break
        except TimeoutError:
            writer.close()
            raise RemoteError(f"the game server at {self.path} did not answer") from None
        except (OSError, RemoteError):
            writer.close()
            raise
        assert welcome is not None
        self._welcomed(welcome)
        self._reader, self._writer = reader, writer
        self._connected = True
        for message in early:
            self._take(message)

    def _welcomed(self, welcome: Welcome) -> None:
        if welcome.game != self.game_id:
            self._pending.clear()
            self._draft = None
            self.rematch_asks = ()
            self._next_wanted = False
        self._seat = welcome.seat
        self.game_id = welcome.game
        self.code = welcome.code
        self.player = welcome.player

    # -- the Session interface ---------------------------------------------------------------------

    @property
    def traits(self) -> SessionTraits:
        """A network game: one seat here, no hints, resumable."""
        return SessionTraits(mode="network", shared_screen=False, hints_allowed=False,
                             resumable=True)

    @property
    def local_seats(self) -> tuple[Seat, ...]:
        """The seat played here (it changes when a rematch swaps the seats)."""
        return (self._seat,)

    @property
    def settings(self) -> RuleSettings:
        """The rules of this game."""
        return self._settings

    async def open(self) -> None:
        """Start reading the server's messages and pinging it."""
        if self._opened:
            return
        self._opened = True
        self._tasks = [asyncio.create_task(self._run()), asyncio.create_task(self._ping())]

    async def updates(self) -> AsyncIterator[ServerMessageType]:
        """Every message for this seat, in order, until the table is closed."""
        while True:
            message = await self._queue.get()
            yield message
            if isinstance(message, Closed):
                return

    async def send(self, seat: Seat, command: ChooseHand | Discard,
                   command_id: str | None = None) -> str:
        """Send this seat's command; its outcome arrives as an update. Returns its id.

        While the link is down the command waits, and is sent with the same id after the
        reconnect if the fresh table shows it can still apply.
        """
        if seat not in self.local_seats:
            raise IllegalCommand(f"{seat} is not played at this terminal")
        command_id = command_id or f"{self._id_prefix}-{next(self._ids)}"
        self._pending[command_id] = _Pending(command, self._seq)
        if self._connected:
            self._write(SendCommand(command_id=command_id, command=command))
        return command_id

    async def draft(self, seat: Seat, tiles: str) -> None:
        """The hand builder's current tiles: R25's automatic hand keeps them."""
        if seat not in self.local_seats:
            return
        try:
            message = Draft(tiles=tiles)
        except ValidationError:
            return
        self._draft = message.tiles
        if self._connected:
            self._write(message)

    @property
    def match(self) -> MatchView | None:
        """The match's public state as the latest table showed it (None: a single game)."""
        return self._match

    async def next_game(self) -> None:
        """In a match, after a game: ready for the next one (it starts once both players are,
        with a new ``welcome`` and snapshot). Asked while the link is down, it is sent after
        the reconnect if the game is still over."""
        if self._connected:
            self._write(AskNextGame())
        else:
            self._next_wanted = True

    async def rematch(self) -> None:
        """After the game: ask for a rematch (or accept the other player's request)."""
        if self._connected:
            self._write(AskRematch())

    async def leave(self) -> None:
        """Leave the table on purpose (no grace period: the clocks play for you), then close."""
        if self._connected:
            self._write(Leave())
            with contextlib.suppress(OSError):
                if self._writer is not None:
                    await asyncio.wait_for(self._writer.drain(), 2.0)
        await self.close()

    async def close(self) -> None:
        """Disconnect (the game goes on: ``resume`` comes back to it); the updates end."""
        if self._finished:
            return
        self._finished = True
        self._disconnect()
        for task in self._tasks:
            if task is not asyncio.current_task():
                task.cancel()
        self._queue.put_nowait(Closed(seat=self._seat, reason="left"))

    # -- inside ------------------------------------------------------------------------------------

    def _write(self, message: BaseModel) -> None:
        writer = self._writer
        if writer is None or writer.transport.is_closing():
            return
        try:
            writer.write(encode(message))
        except (OSError, RuntimeError):
            self._disconnect()

    def _disconnect(self) -> None:
        self._connected = False
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None

    def _push(self, message: ServerMessageType) -> None:
        if not self._finished:
            self._queue.put_nowait(message)

    def _take(self, message: ServerMessageType) -> None:
        """A message from the server, on its way to the app."""
        if isinstance(message, Snapshot | Applied):
            self._seq = message.table.seq
            self._last_view = message.table.view
            self._settings = message.table.view.settings
            self._match = message.table.match
        if isinstance(message, Applied | Rejected) and message.command_id is not None:
            self._pending.pop(message.command_id, None)
        self._push(message)

    async def _run(self) -> None:
        """Read until the table closes, reconnecting whenever the link drops."""
        while not self._finished:
            await self._read_until_lost()
            if self._finished:
                return
            self._push(Link(seat=self._seat, state="reconnecting",
                            detail="The link to the game server dropped: reconnecting."))
            problem = await self._reconnect()
            if problem is not None:
                self._push(Link(seat=self._seat, state="lost", detail=problem[:500]))
                self._push(Closed(seat=self._seat, reason=problem[:500]))
                self._finished = True
                self._disconnect()
                return

    async def _read_until_lost(self) -> None:
        reader = self._reader
        while reader is not None and not self._finished:
            try:
                async with asyncio.timeout(self.silent_seconds):
                    message = await _read_message(reader)
            except (TimeoutError, OSError):
                message = None
            if message is None:
                self._disconnect()
                return
            if isinstance(message, Welcome):  # a rematch: a new game, the seats swapped
                self._welcomed(message)
            elif isinstance(message, RoomState):
                self.rematch_asks = tuple(message.rematch)
            elif isinstance(message, WireError):
                self._push(Notice(seat=self._seat, text=message.message[:500],
                                  severity="error"))
                if message.fatal and message.code in _FINAL_ERRORS:
                    self._push(Closed(seat=self._seat, reason=message.message[:500]))
                    self._finished = True
                    self._disconnect()
                    return
            elif isinstance(message, Pong):
                pass
            else:
                self._take(message)
                if isinstance(message, Closed):
                    self._finished = True
                    self._disconnect()
                    return

    async def _reconnect(self) -> str | None:
        """Resume the game with backoff; None once connected, else why not."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.reconnect_seconds
        delay = 0.05
        last = "the game server cannot be reached"
        while not self._finished and loop.time() < deadline:
            await asyncio.sleep(delay * (0.5 + random.random()))
            delay = min(delay * 2, 5.0)
            hello = Hello(version=PROTOCOL_VERSION, action="resume", game=self.game_id,
                          player=self.player_option)
            try:
                await self._handshake(hello)
            except RemoteError as error:
                last = str(error)
                if error.code in _FINAL_ERRORS:
                    return last
                continue
            except OSError as error:
                last = f"the game server cannot be reached ({error.strerror or error})"
                continue
            self._push(Link(seat=self._seat, state="connected"))
            self._resend()
            return None
        return f"{last}: gave up after {self.reconnect_seconds:g} s"

    def _resend(self) -> None:
        """After a reconnect: send again what can still apply, drop the rest."""
        # The snapshot just taken is the truth: a discard sent at another seq was answered or
        # overtaken (the clock may have played it); a hand is sent again while none is chosen.
        for command_id, pending in list(self._pending.items()):
            if isinstance(pending.command, ChooseHand):
                still = self._last_view_choosing
            else:
                still = pending.seen_seq == self._seq and self._last_view_my_turn
            if still:
                self._write(SendCommand(command_id=command_id, command=pending.command))
            else:
                del self._pending[command_id]
        if self._draft is not None and self._last_view_choosing:
            self._write(Draft(tiles=self._draft))
        if self._next_wanted:
            self._next_wanted = False
            view, match = self._last_view, self._match
            if (view is not None and view.phase == "ended" and match is not None
                    and not match.over):
                self._write(AskNextGame())

    @property
    def _last_view_choosing(self) -> bool:
        view = self._last_view
        return view is not None and view.phase == "choosing" and view.own_hand is None

    @property
    def _last_view_my_turn(self) -> bool:
        view = self._last_view
        return view is not None and view.my_turn

    async def _ping(self) -> None:
        while not self._finished:
            await asyncio.sleep(self.ping_seconds)
            if self._connected:
                self._write(Ping())

    def __repr__(self) -> str:
        state = "finished" if self._finished else "connected" if self._connected else "down"
        return f"RemoteSession(seat={self._seat.value}, {state}, <tiles hidden>)"

    def __rich_repr__(self) -> Iterator[Any]:
        yield "seat", self._seat.value
        yield "tiles", "<hidden>"


async def _read_message(reader: asyncio.StreamReader) -> Any:
    """The next message from the server, None at the end; bad lines are skipped."""
    while True:
        try:
            line = await reader.readline()
        except ValueError:  # a line over the limit: the server never sends one
            return None
        if not line.endswith(b"\n"):
            return None
        try:
            return parse_server_line(line)
        except WireProblem as problem:
            log.warning("a message from the server was not understood (%s)", problem.code)


__all__ = ["RemoteSession"]
