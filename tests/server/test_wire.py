"""The wire as ``assets/protocol.md`` documents it: each test names the section it checks and
talks to a real daemon with hand-written JSON lines, as a client in another language would."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from minefield.protocol.messages import MAX_LINE_BYTES, Applied, Snapshot
from minefield.protocol.wire import WireProblem, parse_hello, parse_in_game
from minefield.rules.auto import auto_command
from minefield.rules.game import Game, Seat
from minefield.session.remote_start import host, join
from tests.server.conftest import ME, Raw, autoplay, moved_aside, start_daemon

SEED = "5"


def padded_ping(size: int) -> bytes:
    """A valid ping of exactly ``size`` bytes (JSON allows the spaces), newline not counted."""
    head, tail = b'{"type": "ping"', b"}"
    return head + b" " * (size - len(head) - len(tail)) + tail + b"\n"


async def seated(folder: Path, **config: Any) -> tuple[Any, Raw, Seat]:
    """A daemon and a raw client in a seeded bot game, past its welcome and first snapshot."""
    server = await start_daemon(folder, **config)
    raw = await Raw.connect(server.config.socket)
    raw.hello("host", player="ann", bot="easy", seed=SEED)
    welcome = await raw.until("welcome")
    await raw.until("snapshot")
    return server, raw, Seat(welcome["seat"])


# -- 1. framing --------------------------------------------------------------------------------


def test_the_limit_counts_the_line_without_its_newline() -> None:
    line = padded_ping(MAX_LINE_BYTES)
    assert len(line) == MAX_LINE_BYTES + 1
    assert parse_in_game(line).type == "ping"
    with pytest.raises(WireProblem) as problem:
        parse_in_game(padded_ping(MAX_LINE_BYTES + 1))
    assert problem.value.code == "too_long" and problem.value.fatal


async def test_a_line_of_exactly_the_limit_is_served_and_one_byte_more_closes(
        short_dir: Path) -> None:
    server, raw, _seat = await seated(short_dir)
    try:
        raw.send(padded_ping(MAX_LINE_BYTES))  # 65,536 bytes and the newline: allowed (1)
        assert (await raw.recv()) == {"type": "pong"}
        raw.send(padded_ping(MAX_LINE_BYTES + 1))  # one more: too_long, fatal (6)
        messages = await raw.drain()
        assert messages[-1]["type"] == "error" and messages[-1]["code"] == "too_long"
        assert messages[-1]["fatal"]
        assert all(message["type"] != "pong" for message in messages)
    finally:
        await server.stop()


async def test_a_line_too_long_in_the_handshake_closes(short_dir: Path) -> None:
    server = await start_daemon(short_dir)
    try:
        raw = await Raw.connect(server.config.socket)
        raw.send(b'{"type": "hello", "x": "' + b"x" * MAX_LINE_BYTES + b'"}\n')
        (error,) = await raw.drain()
        assert error["code"] == "too_long" and error["fatal"]
    finally:
        await server.stop()


# -- 2. the hello's types ------------------------------------------------------------------------


@pytest.mark.parametrize("fields", [
    {"version": True}, {"version": "1"}, {"version": 1.0},
    {"version": 1, "match": "yes"}, {"version": 1, "match": 1}, {"version": 1, "match": "true"},
])
def test_a_hello_field_of_the_wrong_type_is_a_bad_message(fields: dict[str, Any]) -> None:
    line = json.dumps({"type": "hello", "action": "host", **fields})
    with pytest.raises(WireProblem) as problem:
        parse_hello(line)
    assert problem.value.code == "bad_message"


@pytest.mark.parametrize("fields", [{"version": True}, {"version": 1, "match": "yes"},
                                    {"version": 1, "match": 1}])
async def test_the_daemon_refuses_a_hello_of_the_wrong_type_and_closes(
        short_dir: Path, fields: dict[str, Any]) -> None:
    server = await start_daemon(short_dir)
    try:
        raw = await Raw.connect(server.config.socket)
        raw.send({"type": "hello", "action": "host", "player": "ann", "bot": "easy", **fields})
        (error,) = await raw.drain()
        assert error["code"] == "bad_message" and error["fatal"]
        assert not list((server.config.games_dir).glob("*.jsonl"))  # no game was opened
    finally:
        await server.stop()


# -- 3. every command is answered applied or rejected --------------------------------------------


async def test_a_malformed_command_is_rejected_under_its_id_and_changes_nothing(
        short_dir: Path) -> None:
    server, raw, seat = await seated(short_dir)
    try:
        hand = auto_command(Game(SEED).view(seat))
        twelve = hand.model_dump()["tiles"][:-2]  # 12 tiles
        for command_id, command in [("twelve", {"type": "choose_hand", "tiles": twelve}),
                                    ("notile", {"type": "discard", "tile": "9z"}),
                                    ("missing", {"type": "discard"})]:
            raw.send({"type": "command", "command_id": command_id, "command": command})
            answer = await raw.recv()
            assert answer is not None and answer["type"] == "rejected", answer
            assert answer["command_id"] == command_id and answer["reason"]
        # Without a valid command_id there is nothing to reject: a bad_message error.
        raw.send({"type": "command", "command_id": "", "command": {"type": "discard"}})
        error = await raw.until("error")
        assert error["code"] == "bad_message" and not error["fatal"]
        # Nothing changed: the real hand is applied as the table's first command.
        raw.send({"type": "command", "command_id": "hand", "command": hand.model_dump()})
        applied = await raw.until("applied")
        assert applied["command_id"] == "hand" and applied["seq"] == 1
    finally:
        raw.close()
        await server.stop()


# -- 8. every discard waits the pace, hit or miss, applied or not ---------------------------------


async def test_a_refused_discard_waits_the_pace_as_an_applied_one_does(short_dir: Path) -> None:
    pace = 0.3
    server, raw, _seat = await seated(short_dir, discard_pace=pace)
    try:
        for command in ({"type": "discard", "tile": "1m"},  # not now: the hands are not chosen
                        {"type": "discard", "tile": "1x"}):  # not a tile
            sent = time.monotonic()
            raw.send({"type": "command", "command_id": f"d{command['tile']}",
                      "command": command})
            answer = await raw.until("rejected")
            assert time.monotonic() - sent >= pace, answer
        raw.send({"type": "ping"})  # not a discard: not held
        await raw.until("pong")
    finally:
        raw.close()
        await server.stop()


# -- 2, 6. wrong room codes: which attempt is refused -------------------------------------------


async def test_after_five_wrong_codes_the_sixth_attempt_is_refused_even_with_the_right_code(
        short_dir: Path) -> None:
    server = await start_daemon(short_dir, code_retry_seconds=3600.0)
    try:
        host = await Raw.connect(server.config.socket)
        host.hello("host", player="ann")
        code = (await host.until("welcome"))["code"]
        wrong = "ABCDEF" if code != "ABCDEF" else "ABCDEG"
        for attempt in range(1, 7):
            raw = await Raw.connect(server.config.socket)
            raw.hello("join", player="bob", code=code if attempt == 6 else wrong)
            (error,) = await raw.drain()
            assert error["code"] == ("rate_limited" if attempt == 6 else "bad_code"), attempt
            assert error["fatal"]
        # Another person is not limited by bob's mistakes.
        raw = await Raw.connect(server.config.socket)
        raw.hello("join", player="cat", code=code)
        assert (await raw.until("welcome"))["seat"]
        raw.close()
        host.close()
    finally:
        await server.stop()


# -- 6. rate limits: per connection, and how many over the limit before the close -----------------


async def test_the_message_rate_is_per_connection_and_the_close_follows_the_dropped_ones(
        short_dir: Path) -> None:
    server = await start_daemon(short_dir, burst=4, rate=0.001, abuse=3)
    try:
        flooding = await Raw.connect(server.config.socket)
        flooding.hello("host", player="ann", bot="easy")
        await flooding.until("snapshot")
        other = await Raw.connect(server.config.socket)  # the same person, another connection
        other.hello("host", player="ann", bot="easy")
        await other.until("snapshot")
        for _ in range(20):
            flooding.send({"type": "ping"})
        messages = await flooding.drain()
        kinds = [(m["type"], m.get("code"), m.get("fatal")) for m in messages
                 if m["type"] in ("pong", "error")]
        # burst pongs, then at least `abuse` dropped (answered, not fatal), then the close.
        assert kinds[:4] == [("pong", None, None)] * 4
        dropped = kinds[4:-1]
        assert len(dropped) >= 3 and set(dropped) == {("error", "rate_limited", False)}
        assert kinds[-1] == ("error", "rate_limited", True)
        other.send({"type": "ping"})  # the other connection has its own allowance
        assert (await other.until("pong")) == {"type": "pong"}
        other.close()
    finally:
        await server.stop()


async def test_an_unnamed_flood_does_not_stop_the_others(short_dir: Path) -> None:
    """A connection that never says hello holds a place only until the hello limit."""
    server = await start_daemon(short_dir, max_unnamed_per_account=3)
    try:
        waiting = [await Raw.connect(server.config.socket) for _ in range(3)]
        refused = await Raw.connect(server.config.socket)
        (error,) = await refused.drain()
        assert error["code"] == "rate_limited" and error["fatal"]
        assert "waiting to say hello" in error["message"]
        for raw in waiting:  # once they say hello, the place is free again
            raw.hello("host", player=f"p{id(raw) % 1000}", bot="easy")
            await raw.until("snapshot")
        late = await Raw.connect(server.config.socket)
        late.hello("host", player="zed", bot="easy")
        await late.until("snapshot")
        for raw in (*waiting, late):
            raw.close()
    finally:
        await server.stop()


async def test_the_server_is_full_at_its_total(short_dir: Path) -> None:
    server = await start_daemon(short_dir, max_connections=2)
    try:
        first = await Raw.connect(server.config.socket)
        first.hello("host", player="ann", bot="easy")
        await first.until("snapshot")
        second = await Raw.connect(server.config.socket)
        second.hello("host", player="bob", bot="easy")
        await second.until("snapshot")
        third = await Raw.connect(server.config.socket)
        (error,) = await third.drain()
        assert error["code"] == "rate_limited" and "server is full" in error["message"]
        first.close()
        for _ in range(200):  # the daemon notices the close, then has room again
            fourth = await Raw.connect(server.config.socket)
            fourth.hello("resume", player="ann")
            answer = await fourth.recv()
            if answer is not None and answer["type"] == "welcome":
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("a closed connection's place was never freed")
        fourth.close()
        second.close()
    finally:
        await server.stop()


# -- 4, 7. what a whole game sends, and what its record keeps --------------------------------------


async def test_a_game_sends_terms_in_the_view_no_game_started_and_records_name_at_account(
        short_dir: Path) -> None:
    server = await start_daemon(short_dir)
    try:
        ann = await host(socket=server.config.socket, player="ann", seed=SEED)
        bob = await join(ann.code or "", socket=server.config.socket, player="bob")
        await ann.open()
        await bob.open()
        seen, _ = await asyncio.gather(autoplay(ann), autoplay(bob))
        await ann.close()
        await bob.close()
    finally:
        await server.stop()
    tables = [m.table for m in seen if isinstance(m, Snapshot | Applied)]
    # 4: view.terms exists (all off in a single game); the names on the wire are bare.
    first = json.loads(tables[-1].model_dump_json())
    assert first["view"]["terms"] == {"dealer_bonus": False, "ryanshi": False,
                                      "paarenchan": False}
    assert sorted(p["name"] for p in first["players"].values()) == ["ann", "bob"]
    events = [event.type for m in seen if isinstance(m, Applied) for event in m.events]
    assert tables[-1].view.phase == "ended" and "discarded" in events
    assert "game_started" not in events  # 4: the snapshot starts a game
    # 7: the record is the server's, in games/finished/, naming players name@account.
    await moved_aside(server.config.games_dir)
    (record,) = (server.config.games_dir / "finished").glob("*.jsonl")
    header = json.loads(record.read_text().splitlines()[0])
    assert sorted(header["players"].values()) == [f"ann@{ME}", f"bob@{ME}"]
    assert (server.config.games_dir.stat().st_mode & 0o077) == 0
