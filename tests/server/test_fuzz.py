"""Random, malformed, oversized and out-of-turn messages thrown at a running daemon.

It never crashes, a game next door goes on, and no line sent to a seat holds the other seat's
tiles before the end (R26).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import shutil
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minefield.protocol.messages import MAX_LINE_BYTES, PROTOCOL_VERSION
from minefield.rules.auto import auto_command
from minefield.rules.game import Game, Seat
from minefield.rules.tiles import parse_tiles, tiles_to_str
from tests.server.test_crash import DaemonProcess

SEED = "9"
GAME = Game(SEED)
TILES = {seat: GAME.view(seat).own_tiles for seat in Seat}
_names = itertools.count()


class Blocking:
    """A blocking wire client with a timeout on every read."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(20.0)
        self.sock.connect(str(path))
        self.file = self.sock.makefile("rb")

    def send(self, data: bytes | dict[str, Any]) -> None:
        if isinstance(data, dict):
            data = json.dumps(data).encode() + b"\n"
        with contextlib.suppress(OSError):  # the server closed on us: one of its answers
            self.sock.sendall(data)

    def hello(self, action: str, **fields: Any) -> None:
        self.send({"type": "hello", "version": PROTOCOL_VERSION, "action": action, **fields})

    def lines(self, until: str | None = None, limit: int = 500) -> list[bytes]:
        """Lines until a message of type ``until`` (or the end of the stream)."""
        seen: list[bytes] = []
        for _ in range(limit):
            try:
                line = self.file.readline()
            except TimeoutError:
                raise
            except OSError:
                return seen
            if not line:
                return seen
            seen.append(line)
            if until is not None and json.loads(line).get("type") == until:
                return seen
        raise AssertionError(f"no {until!r} in {limit} lines")

    def close(self) -> None:
        self.file.close()
        self.sock.close()


@pytest.fixture(scope="module")
def running() -> Iterator[DaemonProcess]:
    folder = Path(tempfile.mkdtemp(prefix="mf", dir="/tmp"))
    process = DaemonProcess(folder)
    process.args += ["--idle-seconds", "60"]
    asyncio.run(process.start())
    yield process
    process.stop()
    shutil.rmtree(folder, ignore_errors=True)


def some_tiles() -> st.SearchStrategy[str]:
    kinds = st.sampled_from([*parse_tiles(TILES[Seat.EAST]), *parse_tiles(TILES[Seat.WEST])])
    return st.lists(kinds, min_size=0, max_size=15).map(tiles_to_str)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12)


def line_strategy() -> st.SearchStrategy[bytes]:
    command_id = st.text(max_size=70) | st.from_regex(r"[a-z0-9]{1,8}", fullmatch=True)
    one_tile = st.sampled_from([*parse_tiles(TILES[Seat.EAST]), *parse_tiles(TILES[Seat.WEST])]
                               ).map(str) | st.text(max_size=5)
    messages = st.one_of(
        st.fixed_dictionaries({"type": st.just("command"), "command_id": command_id,
                               "command": st.fixed_dictionaries({"type": st.just("discard"),
                                                                 "tile": one_tile})}),
        st.fixed_dictionaries({"type": st.just("command"), "command_id": command_id,
                               "command": st.fixed_dictionaries({
                                   "type": st.just("choose_hand"), "tiles": some_tiles()})}),
        st.fixed_dictionaries({"type": st.just("draft"), "tiles": some_tiles()}),
        st.sampled_from([{"type": "ping"}, {"type": "rematch"}, {"type": "leave"},
                         {"type": "hello", "version": 1, "action": "resume"}]),
        st.dictionaries(st.sampled_from(["type", "seat", "command", "tiles", "x"]), json_values,
                        max_size=4),
    )
    return st.one_of(
        messages.map(lambda m: json.dumps(m).encode() + b"\n"),
        json_values.map(lambda v: json.dumps(v).encode() + b"\n"),
        st.binary(max_size=300).map(lambda b: b.replace(b"\n", b"") + b"\n"),
        st.just(b"x" * (MAX_LINE_BYTES + 100) + b"\n"),
        st.just(b'{"type": "ping"' + b" " * MAX_LINE_BYTES + b"}\n"),
    )


def check_private(lines: list[bytes], seat: Seat) -> None:
    """No line for ``seat`` shows the other seat's tiles before the end (R26)."""
    other = TILES[seat.other]
    for line in lines:
        message = json.loads(line)
        if "game_ended" in line.decode():
            continue
        assert other.encode() not in line
        table = message.get("table")
        if table is not None:
            assert message["seat"] == seat.value and table["view"]["seat"] == seat.value
            assert table["view"]["own_tiles"] == TILES[seat]
        for event in message.get("events", []):
            if event.get("type") == "hand_chosen" and event["seat"] != seat.value:
                assert event["hand"] is None


def neighbours(path: Path) -> tuple[dict[Seat, Blocking], dict[Seat, list[bytes]]]:
    """A game next door: two players seated, hands not chosen yet; the lines each got."""
    ann, bob = Blocking(path), Blocking(path)
    ann.hello("host", player="ann", seed=SEED)
    ann_lines = ann.lines("snapshot")
    welcome = json.loads(ann_lines[0])
    bob.hello("join", player="bob", code=welcome["code"])
    bob_lines = bob.lines("snapshot")
    ann_lines += ann.lines("snapshot")  # the game starts: a new table for the host
    seat = Seat(welcome["seat"])
    return {seat: ann, seat.other: bob}, {seat: ann_lines, seat.other: bob_lines}


def test_garbage_never_crashes_the_daemon_leaks_or_disturbs_a_game(
        running: DaemonProcess) -> None:
    players, received = neighbours(running.socket)

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(first_is_hello=st.booleans(), lines=st.lists(line_strategy(), min_size=1,
                                                        max_size=8))
    def throw(first_is_hello: bool, lines: list[bytes]) -> None:
        client = Blocking(running.socket)
        seat: Seat | None = None
        seen: list[bytes] = []
        if first_is_hello:
            client.hello("host", player=f"fz{next(_names)}", bot="easy", seed=SEED)
            seen += client.lines("snapshot")
            seat = Seat(json.loads(seen[0])["seat"])
        for line in lines:
            client.send(line)
        client.send({"type": "ping"})
        seen += client.lines("pong")
        client.close()
        assert running.process is not None and running.process.poll() is None
        for line in seen:
            message = json.loads(line)  # every line from the server is one JSON object
            assert isinstance(message, dict) and "type" in message
            if message["type"] == "error":
                assert message["message"]
        if seat is not None:
            check_private(seen, seat)

    throw()
    # The game next door: both choose their hands and both see both.
    for seat, client in players.items():
        hand = auto_command(GAME.view(seat)).model_dump()
        client.send({"type": "command", "command_id": f"hand-{seat}", "command": hand})
    for seat, client in players.items():
        for _ in range(2):
            received[seat] += client.lines("applied")
        applied = [json.loads(line) for line in received[seat] if b'"applied"' in line]
        assert {m["by"] for m in applied} == {"east", "west"}
        assert [m["command_id"] for m in applied if m["by"] == seat.value] == [f"hand-{seat}"]
        check_private(received[seat], seat)
        client.close()
    assert running.process is not None and running.process.poll() is None
