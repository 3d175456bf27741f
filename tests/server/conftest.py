"""A daemon on a real Unix socket in a short temporary folder, and small clients for it."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import pytest

from minefield.protocol.messages import PROTOCOL_VERSION, Applied, ServerMessageType, Snapshot
from minefield.rules.auto import auto_command
from minefield.rules.game import Seat
from minefield.server.config import ServerConfig
from minefield.server.daemon import Daemon
from minefield.server.identity import user_name
from minefield.session.remote import RemoteSession

#: Every wait in these tests is bounded by this (a safety net, never an assertion on time).
LIMIT = 30.0
ME = user_name(os.getuid())


@pytest.fixture
def short_dir() -> Iterator[Path]:
    """A folder with a short path (a Unix socket path has at most 107 bytes)."""
    folder = Path(tempfile.mkdtemp(prefix="mf", dir="/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def make_config(folder: Path, **changes: Any) -> ServerConfig:
    """A daemon configuration for tests: this user is the shared account (so tests can name
    players), seeds are allowed, bots do not pause."""
    config = ServerConfig(socket=folder / "run" / "minefield.sock", data=folder / "data",
                          shared_account=ME, test_seeds=True, bot_think=0.0, bot_workers=1,
                          discard_pace=0.002)
    return replace(config, **changes)


@pytest.fixture
async def daemon(short_dir: Path) -> AsyncIterator[Daemon]:
    """A running daemon in this event loop."""
    server = Daemon(make_config(short_dir))
    await server.start()
    yield server
    await server.stop()


async def start_daemon(folder: Path, **changes: Any) -> Daemon:
    """A running daemon with changed settings (stop it at the end)."""
    server = Daemon(make_config(folder, **changes))
    await server.start()
    return server


class Raw:
    """A client speaking the wire by hand: JSON lines in, dicts out."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.received: list[bytes] = []

    @classmethod
    async def connect(cls, path: Path) -> Raw:
        reader, writer = await asyncio.open_unix_connection(str(path), limit=1 << 20)
        return cls(reader, writer)

    def send(self, message: dict[str, Any] | bytes) -> None:
        data = message if isinstance(message, bytes) else json.dumps(message).encode() + b"\n"
        self.writer.write(data)

    def hello(self, action: str, **fields: Any) -> None:
        self.send({"type": "hello", "version": PROTOCOL_VERSION, "action": action, **fields})

    async def recv(self) -> dict[str, Any] | None:
        """The next message, None at the end of the stream."""
        async with asyncio.timeout(LIMIT):
            line = await self.reader.readline()
        if not line:
            return None
        self.received.append(line)
        message: dict[str, Any] = json.loads(line)
        return message

    async def until(self, kind: str, limit: int = 200) -> dict[str, Any]:
        """Read up to the first message of type ``kind``."""
        for _ in range(limit):
            message = await self.recv()
            assert message is not None, f"the stream ended before a {kind!r} message"
            if message["type"] == kind:
                return message
        raise AssertionError(f"no {kind!r} message in {limit}")

    async def drain(self) -> list[dict[str, Any]]:
        """Everything until the server closes the connection."""
        messages: list[dict[str, Any]] = []
        for _ in range(10_000):
            message = await self.recv()
            if message is None:
                return messages
            messages.append(message)
        raise AssertionError("the server never closed the connection")

    def close(self) -> None:
        self.writer.close()


M = TypeVar("M", bound=ServerMessageType)


async def next_of(session: RemoteSession, kind: type[M], limit: int = 200) -> M:
    """The next update of type ``kind`` (bounded)."""
    updates = session.updates()
    async with asyncio.timeout(LIMIT):
        for _ in range(limit):
            message = await anext(updates)
            if isinstance(message, kind):
                return message
    raise AssertionError(f"no {kind.__name__} in {limit} updates")


async def autoplay(session: RemoteSession, stop_at_seq: int | None = None,
                   game: int | None = None) -> list[ServerMessageType]:
    """Play R25's automatic moves for the session's seat until the game ends (or the table
    reaches ``stop_at_seq``); every update seen. ``game``: only the match's game of that
    number is played (earlier games' tables, such as the ended game's while the next one is
    asked for, are passed over)."""
    seen: list[ServerMessageType] = []
    sent: set[tuple[Seat, int]] = set()
    loop = asyncio.get_running_loop()
    # The safety net is on each wait, not on the whole game: a game played against an app
    # on a loaded machine may take longer than LIMIT, but no update is LIMIT in coming.
    async with asyncio.timeout(LIMIT) as net:
        async for message in session.updates():
            net.reschedule(loop.time() + LIMIT)
            seen.append(message)
            if not isinstance(message, Snapshot | Applied):
                if message.type == "closed":
                    return seen
                continue
            table = message.table
            view = table.view
            if game is not None and (table.match is None or table.match.game != game):
                continue
            if view.phase == "ended" or (stop_at_seq is not None and table.seq >= stop_at_seq):
                return seen
            waiting = any(not info.present and info.name == "(waiting)"
                          for info in table.players.values())
            mine = (view.phase == "choosing" and view.own_hand is None) or view.my_turn
            key = (view.seat, -1 if view.phase == "choosing" else table.seq)
            if mine and not waiting and key not in sent:
                sent.add(key)
                await session.send(view.seat, auto_command(view))
    return seen


async def moved_aside(folder: Path) -> None:
    """Until the records in ``folder`` have been moved to ``finished/`` (a record thread moves
    them after the last message went out; bounded)."""
    for _ in range(int(LIMIT / 0.05)):
        if not list(folder.glob("*.jsonl")):
            return
        await asyncio.sleep(0.05)
