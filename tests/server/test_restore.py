"""The one restore (minefield/server/restore.py): a command id applied before a kill -9 is
never applied again after the restart (protocol 7), and records older than command ids still
go on.

The daemon runs in a subprocess and is killed with SIGKILL at the two moments that matter:
after a command's record line is written and fsynced but before anyone is answered (the
daemon kills itself from inside the record writer: the client never hears of its command),
and after the command was applied and answered. Either way the client resends the same
``command_id`` with another tile once the game is back at its turn: the server answers with a
snapshot and the table does not change.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from minefield.protocol.messages import TableView
from minefield.records.reader import read_record
from minefield.records.replay import replay_record
from minefield.rules.auto import auto_command
from minefield.rules.game import ChooseHand, Discard, Game, PlayerView, Seat
from minefield.rules.tiles import parse_tiles
from tests.server.conftest import LIMIT, Raw
from tests.server.test_crash import DaemonProcess

SEED = "5"
#: The command id at which the daemon kills itself, its line on disk and nobody told.
KILL_AT = "dies-here"

#: Runs the daemon with RecordWriter.command wrapped: once the line of the command whose id
#: is $MF_TEST_KILL_AT (or whose seq is $MF_TEST_KILL_AT_SEQ) is written and fsynced, the
#: process sends itself SIGKILL.
KILLING_DAEMON = """
import os, signal, sys
from minefield.records.writer import RecordWriter
command = RecordWriter.command
def command_then_die(self, seq, seat, what, **keys):
    command(self, seq, seat, what, **keys)
    if (keys.get("command_id") == os.environ["MF_TEST_KILL_AT"]
            or seq == int(os.environ.get("MF_TEST_KILL_AT_SEQ", "0"))):
        os.kill(os.getpid(), signal.SIGKILL)
RecordWriter.command = command_then_die
from minefield.server.__main__ import main
sys.argv[0] = "minefield-test-daemon"
sys.exit(main())
"""


class KillingDaemon(DaemonProcess):
    """The daemon of :data:`KILLING_DAEMON` (the same options as :class:`DaemonProcess`)."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder)
        self.args = [sys.executable, "-c", KILLING_DAEMON, *self.args[3:]]

    async def start(self) -> None:
        os.environ["MF_TEST_KILL_AT"] = KILL_AT
        try:
            await super().start()
        finally:
            del os.environ["MF_TEST_KILL_AT"]


@pytest.fixture
def daemons(short_dir: Path) -> Iterator[tuple[KillingDaemon, DaemonProcess]]:
    """Two daemons on the same socket and data: one that dies at :data:`KILL_AT`, one plain."""
    killing, plain = KillingDaemon(short_dir), DaemonProcess(short_dir)
    yield killing, plain
    for process in (killing, plain):
        process.stop()


def view_of(message: dict[str, Any]) -> PlayerView:
    return TableView.model_validate(message["table"]).view


async def my_turn(raw: Raw) -> dict[str, Any]:
    """Read until a table where this seat must discard; that message."""
    for _ in range(200):
        message = await raw.recv()
        assert message is not None, "the stream ended before this seat's turn"
        if message["type"] in ("snapshot", "applied") and view_of(message).my_turn:
            return message
    raise AssertionError("never this seat's turn")


async def play_to_my_discard(socket: Path) -> tuple[Raw, Seat, dict[str, Any]]:
    """A game against the bot: the hand chosen, read until it is this seat's turn."""
    raw = await Raw.connect(socket)
    raw.hello("host", player="ann", bot="easy", seed=SEED)
    seat = Seat((await raw.until("welcome"))["seat"])
    view = Game(SEED).view(seat)
    hand = auto_command(view)
    assert isinstance(hand, ChooseHand)
    raw.send({"type": "command", "command_id": "hand-1", "command": hand.model_dump()})
    return raw, seat, await my_turn(raw)


def two_tiles(message: dict[str, Any]) -> tuple[str, str]:
    """Two different tiles this seat may discard now."""
    pool = sorted({str(tile) for tile in parse_tiles(view_of(message).own_pool)})
    assert len(pool) >= 2
    return pool[0], pool[-1]


def discard(command_id: str, tile: str) -> dict[str, Any]:
    return {"type": "command", "command_id": command_id,
            "command": Discard(tile=tile).model_dump()}


async def resume_at_my_turn(socket: Path) -> tuple[Raw, dict[str, Any]]:
    raw = await Raw.connect(socket)
    raw.hello("resume", player="ann")
    await raw.until("welcome")
    return raw, await my_turn(raw)


async def resend_is_a_snapshot(raw: Raw, command_id: str, tile: str, before: dict[str, Any]
                               ) -> None:
    """Resend ``command_id`` with ``tile``: a snapshot comes back, the table unchanged. A
    presence message the daemon pushes meanwhile (the resumed seat's own, which can come after
    its first snapshot on a loaded machine) is not an answer and is passed over; anything else
    before the snapshot (an ``applied``) fails."""
    raw.send(discard(command_id, tile))
    answer = await raw.recv()
    while answer is not None and answer["type"] == "presence":
        answer = await raw.recv()
    assert answer is not None and answer["type"] == "snapshot", answer
    assert answer["table"]["seq"] == before["table"]["seq"]
    assert answer["table"]["view"]["discards"] == before["table"]["view"]["discards"]
    assert answer["table"]["view"]["own_pool"] == before["table"]["view"]["own_pool"]


def record_of(folder: Path) -> Path:
    (path,) = (folder / "data" / "games").glob("*.jsonl")
    return path


async def test_an_id_written_but_not_answered_before_a_kill_is_not_applied_again(
        daemons: tuple[KillingDaemon, DaemonProcess], short_dir: Path) -> None:
    """Killed between the fsync of the line and the answer: the client never heard of its
    discard; resent with the same id and another tile, it is not applied."""
    killing, plain = daemons
    await killing.start()
    raw, seat, turn = await play_to_my_discard(killing.socket)
    first, other = two_tiles(turn)
    raw.send(discard(KILL_AT, first))
    async with asyncio.timeout(LIMIT):
        assert [m["type"] for m in await raw.drain()] == []  # killed before any answer
        assert killing.process is not None
        assert await asyncio.to_thread(killing.process.wait) == -9
    lines = read_record(record_of(short_dir)).commands
    assert (lines[-1].command_id, lines[-1].command) == (KILL_AT, Discard(tile=first))

    await plain.start()
    again, turn = await resume_at_my_turn(plain.socket)  # the bot has discarded meanwhile
    assert first in view_of(turn).discards[seat]
    await resend_is_a_snapshot(again, KILL_AT, other, turn)
    again.close()
    ids = [line.command_id for line in read_record(record_of(short_dir)).commands]
    assert ids.count(KILL_AT) == 1


async def test_an_id_applied_and_answered_before_a_kill_is_not_applied_again(
        daemons: tuple[KillingDaemon, DaemonProcess], short_dir: Path) -> None:
    """Killed after the answer: the same id resent with another tile after the restart is
    answered with a snapshot, not applied."""
    _, plain = daemons
    await plain.start()
    raw, seat, turn = await play_to_my_discard(plain.socket)
    first, other = two_tiles(turn)
    raw.send(discard("d-1", first))
    applied = await raw.until("applied")
    assert applied["command_id"] == "d-1"
    plain.kill()
    raw.close()

    await plain.start()
    again, turn = await resume_at_my_turn(plain.socket)
    assert view_of(turn).discards[seat] == [first]
    await resend_is_a_snapshot(again, "d-1", other, turn)
    again.close()


async def test_a_record_without_command_ids_goes_on_after_a_restart(
        daemons: tuple[KillingDaemon, DaemonProcess], short_dir: Path) -> None:
    """A record written before command ids were kept (no "command_id" key on its lines) is
    taken up as before: the game resumes where it was and goes on."""
    _, plain = daemons
    await plain.start()
    raw, _, turn = await play_to_my_discard(plain.socket)
    plain.kill()
    raw.close()
    path = record_of(short_dir)
    lines = path.read_bytes().splitlines()
    old = [lines[0]]
    for line in lines[1:]:
        data = json.loads(line)
        data.pop("command_id", None)
        old.append(json.dumps(data).encode())
    path.write_bytes(b"\n".join(old) + b"\n")
    assert all(line.command_id is None for line in read_record(path).commands)

    await plain.start()
    again, resumed = await resume_at_my_turn(plain.socket)
    assert resumed["table"]["seq"] == turn["table"]["seq"]
    tile, _ = two_tiles(resumed)
    again.send(discard("hand-1", tile))  # an id of the old record: not known, so applied
    applied = await again.until("applied")
    assert applied["table"]["seq"] == turn["table"]["seq"] + 1
    again.close()
    replay = replay_record(read_record(path))
    assert replay.consistent and replay.applied == turn["table"]["seq"] + 1
