"""The daemon's records: on disk before anyone hears, a failing disk; finished games freed."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from minefield.protocol.messages import Applied, Notice
from minefield.records.writer import RecordWriter
from minefield.rules.game import Seat
from minefield.server.daemon import Connection, Daemon
from minefield.session.remote_start import host, join
from tests.server.conftest import LIMIT, autoplay
from tests.server.test_daemon import SEED


@pytest.fixture
def no_collector() -> Iterator[None]:
    """The cyclic garbage collector off: what is freed is freed by reference counting."""
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    yield
    if was:
        gc.enable()


async def test_nothing_is_sent_before_its_line_is_fsynced(daemon: Daemon,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """Every Applied is queued for a seat only once its line is written and fsynced."""
    written: list[int] = []
    early: list[int] = []
    sent: list[int] = []
    command, send = RecordWriter.command, Connection.send

    def command_then_note(self: RecordWriter, seq: int, seat: Seat, what: Any,
                          **keys: Any) -> None:
        command(self, seq, seat, what, **keys)
        written.append(seq)

    def send_and_check(self: Connection, message: BaseModel) -> None:
        if isinstance(message, Applied):
            sent.append(message.seq)
            if message.seq not in written:
                early.append(message.seq)
        send(self, message)

    monkeypatch.setattr(RecordWriter, "command", command_then_note)
    monkeypatch.setattr(Connection, "send", send_and_check)
    ann = await host(socket=daemon.config.socket, player="ann", seed=SEED)
    assert ann.code is not None
    bob = await join(ann.code, socket=daemon.config.socket, player="bob")
    await ann.open()
    await bob.open()
    await asyncio.gather(autoplay(ann), autoplay(bob))
    assert len(sent) >= 2 * len(written) > 4 and early == []
    for session in (ann, bob):
        await session.close()


async def test_a_disk_that_fails_is_told_and_the_game_goes_on(daemon: Daemon,
                                                               monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    def full(self: RecordWriter, seq: int, seat: Seat, command: object, **keys: object
             ) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(RecordWriter, "command", full)
    ann = await host(socket=daemon.config.socket, player="ann", seed=SEED)
    assert ann.code is not None
    bob = await join(ann.code, socket=daemon.config.socket, player="bob")
    await ann.open()
    await bob.open()
    seen_ann, seen_bob = await asyncio.gather(autoplay(ann), autoplay(bob))
    for seen in (seen_ann, seen_bob):
        notices = [m for m in seen if isinstance(m, Notice) and m.severity == "error"]
        assert len(notices) == 1 and "No space left on device" in notices[0].text
        last = seen[-1]
        assert isinstance(last, Applied) and last.table.view.phase == "ended"
    for session in (ann, bob):
        await session.close()


async def test_a_finished_game_is_freed_without_the_garbage_collector(
        daemon: Daemon, no_collector: None) -> None:
    """No reference cycle holds a game once its players are gone (a full collection of a
    daemon with many games stalls every game)."""
    ann = await host(socket=daemon.config.socket, player="ann", seed=SEED)
    assert ann.code is not None
    bob = await join(ann.code, socket=daemon.config.socket, player="bob")
    (room,) = daemon.rooms.values()
    room_ref, game_ref = weakref.ref(room), weakref.ref(room.game)
    del room
    await ann.open()
    await bob.open()
    await asyncio.gather(autoplay(ann), autoplay(bob))
    await asyncio.gather(ann.close(), bob.close())  # both at once: writes to a gone peer
    async with asyncio.timeout(LIMIT):
        while daemon.rooms or daemon.connections:
            await asyncio.sleep(0.01)
        # The handlers' and the record threads' last steps (they may hold the room a moment
        # on a loaded machine); with the collector off, a cycle would hold it for ever.
        while room_ref() is not None:
            await asyncio.sleep(0.01)
    assert room_ref() is None
    assert game_ref() is None
