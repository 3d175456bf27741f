"""A room's play on its own: it reaches its room only through the Stage it is given.

These run a :class:`~minefield.server.play.Play` with a stand-in room (a :class:`Stage`) and a
stand-in daemon (an :class:`Engine`), no socket and no daemon: what a play needs from its
room is what the Stage protocol says, and no more.
"""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from minefield.protocol.messages import Rejected, ServerMessageType
from minefield.protocol.wire import RoomState
from minefield.records.header import TableHeader
from minefield.rules.game import Seat
from minefield.server.bots import BotPool
from minefield.server.config import ServerConfig
from minefield.server.identity import Identity
from minefield.server.play import Play
from minefield.server.seats import Seated

_T = TypeVar("_T")
#: Every wait here is bounded by this (a safety net, never an assertion on time).
LIMIT = 10.0


class Engine:
    """The daemon as a play sees it: the loop's clock, record work run inline, no bots."""

    def __init__(self, folder: Path) -> None:
        self.config = ServerConfig(socket=folder / "minefield.sock", data=folder / "data",
                                   discard_pace=0.0, code_seconds=600.0)
        self.bots = BotPool(1)

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    async def _run(self, function: Callable[..., _T], *args: Any) -> _T:
        return function(*args)

    def run_io(self, function: Callable[..., _T], *args: Any) -> Awaitable[_T]:
        return self._run(function, *args)


class Client:
    """A seat's connection: what it was sent."""

    def __init__(self) -> None:
        self.sent: list[BaseModel] = []

    def send(self, message: BaseModel) -> None:
        self.sent.append(message)

    def close(self) -> None:
        pass


class Stage:
    """A waiting room as its play sees it: two seats, a code, what it sent and why it closed."""

    def __init__(self, code_expires: float | None) -> None:
        self.client = Client()
        self.seats = {Seat.EAST: Seated(identity=Identity(key="ann@x", name="ann"),
                                        client=self.client),
                      Seat.WEST: Seated()}
        self.code_expires = code_expires
        self.sent: list[ServerMessageType | RoomState] = []
        self.closed_for: list[str] = []
        self.play: Play | None = None
        self.rules_name = "standard"

    def send(self, messages: Sequence[ServerMessageType | RoomState]) -> None:
        self.sent.extend(messages)

    def table_header(self) -> TableHeader:
        return TableHeader(kind="private", rated=True)

    def game_ended(self) -> None:
        raise AssertionError("no game was played")

    async def close_locked(self, reason: str, abandoned: bool = False) -> None:
        self.closed_for.append(reason)


async def test_a_waiting_plays_alarm_closes_its_room_through_the_stage(tmp_path: Path) -> None:
    """The alarm of a room waiting for its second player closes it once its code expired:
    the play asks its room to close (the room tells the seats), it sends nothing itself."""
    engine = Engine(tmp_path)
    stage = Stage(code_expires=engine.now() + 0.01)
    play = Play(engine, stage, "g1", asyncio.Lock())
    play.wake()
    async with asyncio.timeout(LIMIT):
        while not stage.closed_for:
            await asyncio.sleep(0.01)
    assert stage.closed_for == ["No one joined within 10 minutes: the room code has expired."]
    assert stage.sent == []
    play.stop()


async def test_a_refused_command_goes_to_the_seat_the_stage_names(tmp_path: Path) -> None:
    """A malformed command is answered ``rejected`` on the connection of the seat the room
    holds for it, and the game is unchanged (protocol 7)."""
    engine = Engine(tmp_path)
    stage = Stage(code_expires=None)
    play = Play(engine, stage, "g1", asyncio.Lock())
    await play.refuse(Seat.EAST, "c1", "malformed command: no tiles", engine.now(),
                      discard=True)
    assert stage.client.sent == [Rejected(seat=Seat.EAST, command_id="c1",
                                          reason="malformed command: no tiles")]
    assert play.series is None and not play.closed


async def test_a_play_does_not_keep_its_room(tmp_path: Path) -> None:
    """A play holds its room weakly: a room and its play make no reference cycle (a full
    collection of a daemon with many games stalls every game)."""
    gc.disable()
    try:
        stage = Stage(code_expires=None)
        stage.play = Play(Engine(tmp_path), stage, "g1", asyncio.Lock())
        ref = weakref.ref(stage)
        del stage
        assert ref() is None
    finally:
        gc.enable()
