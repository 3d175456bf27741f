"""The daemon over a real socket: rooms, codes, resume, duplicates, limits, bots, rematch."""

from __future__ import annotations

import asyncio
import logging
import re
import stat
from pathlib import Path

import pytest

from minefield.protocol.messages import (
    MAX_LINE_BYTES,
    Applied,
    Closed,
    Link,
    Presence,
    Snapshot,
)
from minefield.records.reader import read_record
from minefield.rules.auto import auto_command
from minefield.rules.game import Discarded, Game, GameEnded, Seat
from minefield.server.daemon import Daemon
from minefield.session.daemon_socket import RemoteError
from minefield.session.remote_start import host, join, resume
from tests.server.conftest import ME, Raw, autoplay, moved_aside, next_of, start_daemon

SEED = "5"


def local_result(seed: str) -> GameEnded:
    """The game both clients play (R25's automatic moves), played in this process."""
    game = Game(seed)
    for seat in Seat:
        game.apply(seat, auto_command(game.view(seat)))
    while game.phase != "ended":
        assert game.turn is not None
        game.apply(game.turn, auto_command(game.view(game.turn)))
    assert game.result is not None
    return game.result


async def test_two_players_play_a_seeded_game_to_the_same_end(daemon: Daemon) -> None:
    ann = await host(socket=daemon.config.socket, player="ann", seed=SEED)
    assert ann.code is not None and len(ann.code) == 6 and ann.player == "ann"
    bob = await join(ann.code.lower(), socket=daemon.config.socket, player="bob")
    assert bob.local_seats == (ann.local_seats[0].other,)
    await ann.open()
    await bob.open()
    seen_ann, seen_bob = await asyncio.gather(autoplay(ann), autoplay(bob))
    expected = local_result(SEED)
    for seen, session in ((seen_ann, ann), (seen_bob, bob)):
        last = seen[-1]
        assert isinstance(last, Applied) and last.table.view.end is not None
        end = last.table.view.end
        assert (end.result, end.winner, end.discard_number) == (
            expected.result, expected.winner, expected.discard_number)
        assert all(m.seat is session.local_seats[0] for m in seen)
        await session.close()
    # The record is the daemon's, private, and moved aside once the game has ended.
    games = daemon.config.games_dir
    await moved_aside(games)
    (record,) = (games / "finished").glob("*.jsonl")
    assert stat.S_IMODE(record.stat().st_mode) == 0o600
    assert stat.S_IMODE(games.stat().st_mode) == 0o700
    read = read_record(record)
    assert read.header.mode == "network" and read.ended
    assert {read.header.players.east, read.header.players.west} == {f"ann@{ME}", f"bob@{ME}"}


async def test_the_socket_is_private_to_its_user(daemon: Daemon) -> None:
    path = daemon.config.socket
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


async def test_a_second_daemon_on_the_same_socket_is_refused(daemon: Daemon) -> None:
    from minefield.server.daemon import ServeError

    with pytest.raises(ServeError, match="already running"):
        await start_daemon(daemon.config.data.parent)


async def test_a_duplicate_command_id_is_applied_once(daemon: Daemon) -> None:
    raw = Raw(*await asyncio.open_unix_connection(str(daemon.config.socket)))
    raw.hello("host", player="ann", bot="easy", seed=SEED)
    welcome = await raw.until("welcome")
    snapshot = await raw.until("snapshot")
    seat = Seat(welcome["seat"])
    view = Game(SEED).view(seat)
    assert snapshot["table"]["view"]["own_tiles"] == view.own_tiles
    hand = auto_command(view).model_dump()
    for _ in range(2):
        raw.send({"type": "command", "command_id": "dup-1", "command": hand})
    applied = await raw.until("applied")
    assert applied["command_id"] == "dup-1" and applied["by"] == seat.value
    again = await raw.until("snapshot")  # the resend: the table, not a second application
    assert again["table"]["view"]["own_hand"] == applied["table"]["view"]["own_hand"]
    raw.close()


async def test_no_server_permission_and_version_are_one_line_errors(short_dir: Path) -> None:
    with pytest.raises(RemoteError, match=r"no game server at .*: start one with `minefield"):
        await resume(socket=short_dir / "none.sock")
    server = await start_daemon(short_dir)
    try:
        raw = await Raw.connect(server.config.socket)
        raw.send({"type": "hello", "version": 99, "action": "resume"})
        (error,) = await raw.drain()
        assert error["type"] == "error" and error["code"] == "version" and error["fatal"]
        assert "protocol version 1, the client 99" in error["message"]
        with pytest.raises(RemoteError, match="no unfinished game"):
            await resume(socket=server.config.socket, player="nobody")
    finally:
        await server.stop()


async def test_wrong_expired_and_used_codes(short_dir: Path) -> None:
    server = await start_daemon(short_dir, code_seconds=0.2)
    try:
        ann = await host(socket=server.config.socket, player="ann")
        await ann.open()
        closed = await next_of(ann, Closed)
        assert "expired" in closed.reason
        with pytest.raises(RemoteError, match="has expired"):
            await join(ann.code or "", socket=server.config.socket, player="bob")
        with pytest.raises(RemoteError, match="no room has the code"):
            await join("ABCDEF", socket=server.config.socket, player="bob")
        with pytest.raises(RemoteError, match="not a room code"):
            await join("0OIL1", socket=server.config.socket, player="bob")
        # Wrong codes are limited per person: after the burst, refused without a look.
        for _ in range(10):
            try:
                await join("ABCDEF", socket=server.config.socket, player="bob")
            except RemoteError as error:
                if error.code == "rate_limited":
                    break
        else:
            raise AssertionError("wrong codes were never rate limited")
        with pytest.raises(RemoteError, match="too many wrong room codes"):
            await join("ABCDEF", socket=server.config.socket, player="bob")
        # Another person is not limited by bob's mistakes; a used code cannot be used again.
        cat = await host(socket=server.config.socket, player="cat")
        dan = await join(cat.code or "", socket=server.config.socket, player="dan")
        with pytest.raises(RemoteError, match="already been used"):
            await join(cat.code or "", socket=server.config.socket, player="eve")
        for session in (ann, cat, dan):
            await session.close()
    finally:
        await server.stop()


async def test_a_player_holds_one_seat_per_game(daemon: Daemon) -> None:
    ann = await host(socket=daemon.config.socket, player="ann")
    again = await join(ann.code or "", socket=daemon.config.socket, player="ann")
    assert again.local_seats == ann.local_seats  # the host's own seat, not the other one
    bob = await join(ann.code or "", socket=daemon.config.socket, player="bob")
    assert bob.local_seats != ann.local_seats
    for session in (ann, again, bob):
        await session.close()


async def test_the_player_name_is_honoured_only_from_the_shared_account(short_dir: Path
                                                                         ) -> None:
    server = await start_daemon(short_dir, shared_account="someone-else")
    try:
        session = await host(socket=server.config.socket, player="mallory", bot="easy")
        assert session.player == ME
        await session.close()
    finally:
        await server.stop()
    server = await start_daemon(short_dir)
    try:
        with pytest.raises(RemoteError, match="shared"):
            await host(socket=server.config.socket, bot="easy")
    finally:
        await server.stop()


async def test_a_bot_game_over_the_socket_finishes(daemon: Daemon) -> None:
    session = await host(socket=daemon.config.socket, player="ann", bot="normal", seed="11")
    await session.open()
    seen = await autoplay(session)
    last = seen[-1]
    assert isinstance(last, Applied) and last.table.view.phase == "ended"
    assert last.table.players[session.local_seats[0].other].kind == "bot"
    await session.close()


async def test_a_dropped_link_reconnects_with_a_snapshot_and_resends(daemon: Daemon) -> None:
    ann = await host(socket=daemon.config.socket, player="ann", seed=SEED)
    bob = await join(ann.code or "", socket=daemon.config.socket, player="bob")
    await ann.open()
    await bob.open()
    await autoplay(ann, stop_at_seq=0)
    # Cut bob's link under him, then send his hand while he is away.
    assert bob._writer is not None
    bob._writer.transport.abort()
    assert (await next_of(bob, Link)).state == "reconnecting"
    seat = bob.local_seats[0]
    hand = auto_command(Game(SEED).view(seat))
    command_id = await bob.send(seat, hand)
    snapshot = await next_of(bob, Snapshot)
    assert snapshot.table.view.seat is seat
    assert (await next_of(bob, Link)).state == "connected"
    applied = await next_of(bob, Applied)
    assert applied.command_id == command_id and applied.by is seat
    # Sent again with the same id by hand: not applied twice.
    await bob.send(seat, hand, command_id=command_id)
    again = await next_of(bob, Snapshot)
    assert again.table.seq == applied.table.seq
    for session in (ann, bob):
        await session.close()


async def test_a_disconnected_players_move_is_played_after_the_grace_period(
        short_dir: Path) -> None:
    server = await start_daemon(short_dir, hand_seconds=60, discard_seconds=1,
                                grace_seconds=0.3)
    try:
        ann = await host(socket=server.config.socket, player="ann", seed=SEED)
        bob = await join(ann.code or "", socket=server.config.socket, player="bob")
        east, west = (ann, bob) if ann.local_seats[0] is Seat.EAST else (bob, ann)
        await east.open()
        await west.open()
        # Both choose; then East (to discard first) leaves without a word.
        for session in (east, west):
            seat = session.local_seats[0]
            await session.send(seat, auto_command(Game(SEED).view(seat)))
        for _ in range(2):
            await next_of(west, Applied)
        await east.close()
        presence = await next_of(west, Presence)
        assert not presence.players[Seat.EAST].present
        assert presence.players[Seat.EAST].grace_left is not None
        applied = await next_of(west, Applied)
        assert applied.by is Seat.EAST and applied.automatic
        assert isinstance(applied.events[0], Discarded)
        # East comes back: the game went on without them; they see it.
        again = await resume(socket=server.config.socket, player=east.player)
        await again.open()
        snapshot = await next_of(again, Snapshot)
        assert len(snapshot.table.view.discards[Seat.EAST]) == 1
        for session in (west, again):
            await session.close()
    finally:
        await server.stop()


async def test_a_rematch_swaps_the_seats(daemon: Daemon) -> None:
    ann = await host(socket=daemon.config.socket, player="ann", seed=SEED)
    bob = await join(ann.code or "", socket=daemon.config.socket, player="bob")
    first = {ann: ann.local_seats[0], bob: bob.local_seats[0]}
    await ann.open()
    await bob.open()
    await asyncio.gather(autoplay(ann), autoplay(bob))
    await ann.rematch()
    await bob.rematch()
    for session in (ann, bob):
        snapshot = await next_of(session, Snapshot)
        assert snapshot.table.seq == 0 and snapshot.table.view.phase == "choosing"
        assert session.local_seats == (first[session].other,)
        assert snapshot.seat is first[session].other
    for session in (ann, bob):
        await session.close()


async def test_resume_reattaches_the_unfinished_game(daemon: Daemon) -> None:
    ann = await host(socket=daemon.config.socket, player="ann", bot="easy", seed=SEED)
    await ann.open()
    await autoplay(ann, stop_at_seq=4)
    await ann.close()
    again = await resume(socket=daemon.config.socket, player="ann")
    assert again.game_id == ann.game_id and again.local_seats == ann.local_seats
    await again.open()
    snapshot = await next_of(again, Snapshot)
    assert snapshot.table.seq >= 4
    seen = await autoplay(again)
    assert isinstance(seen[-1], Applied) and seen[-1].table.view.phase == "ended"
    await again.close()


async def test_an_over_long_line_is_an_error_and_closes(daemon: Daemon) -> None:
    raw = await Raw.connect(daemon.config.socket)
    raw.hello("host", player="ann", bot="easy")
    await raw.until("snapshot")
    raw.send(b'{"type": "ping", "x": "' + b"x" * (MAX_LINE_BYTES + 10) + b'"}\n')
    messages = await raw.drain()
    errors = [m for m in messages if m["type"] == "error"]
    assert errors and errors[-1]["code"] == "too_long" and errors[-1]["fatal"]


async def test_a_flood_is_limited_then_closed(short_dir: Path) -> None:
    server = await start_daemon(short_dir, burst=5, rate=1.0, abuse=3)
    try:
        raw = await Raw.connect(server.config.socket)
        raw.hello("host", player="ann", bot="easy")
        await raw.until("snapshot")
        for number in range(30):
            raw.send({"type": "command", "command_id": f"f{number}",
                      "command": {"type": "discard", "tile": "1m"}})
        messages = await raw.drain()
        limited = [m for m in messages if m["type"] == "rejected"
                   and "too many messages" in m["reason"]]
        assert limited
        assert messages[-1]["type"] == "error" and messages[-1]["code"] == "rate_limited"
        assert messages[-1]["fatal"]
        # The daemon still serves others.
        session = await host(socket=server.config.socket, player="bob", bot="easy")
        await session.close()
    finally:
        await server.stop()


async def test_bad_messages_are_named_and_the_game_goes_on(daemon: Daemon) -> None:
    raw = await Raw.connect(daemon.config.socket)
    raw.hello("host", player="ann", bot="easy", seed=SEED)
    welcome = await raw.until("welcome")
    await raw.until("snapshot")
    for line in (b"not json\n", b"[1, 2]\n", b'{"type": "fly"}\n',
                 b'{"type": "command", "command_id": 7, "command": {"type": "discard"}}\n',
                 b'{"type": "hello", "version": 1, "action": "resume"}\n', b"\xff\xfe\n"):
        raw.send(line)
        error = await raw.until("error")
        assert not error["fatal"] and error["message"]
    raw.send({"type": "command", "command_id": "early",
              "command": {"type": "discard", "tile": "1m"}})
    rejected = await raw.until("rejected")
    assert rejected["command_id"] == "early"
    raw.send({"type": "ping"})
    await raw.until("pong")
    seat = Seat(welcome["seat"])
    raw.send({"type": "command", "command_id": "hand",
              "command": auto_command(Game(SEED).view(seat)).model_dump()})
    applied = await raw.until("applied")
    assert applied["command_id"] == "hand"
    raw.close()


async def test_no_hello_in_time_closes(short_dir: Path) -> None:
    server = await start_daemon(short_dir, hello_seconds=0.2)
    try:
        raw = await Raw.connect(server.config.socket)
        (error,) = await raw.drain()
        assert error["code"] == "handshake" and error["fatal"]
    finally:
        await server.stop()


async def test_an_idle_connection_is_closed(short_dir: Path) -> None:
    server = await start_daemon(short_dir, idle_seconds=0.3)
    try:
        raw = await Raw.connect(server.config.socket)
        raw.hello("host", player="ann", bot="easy")
        messages = await raw.drain()
        assert messages[-1]["code"] == "idle" and messages[-1]["fatal"]
    finally:
        await server.stop()



async def test_an_ended_record_left_behind_is_moved_aside_on_start(short_dir: Path) -> None:
    from minefield.records.header import Players
    from minefield.records.writer import write_game
    from tests.server.conftest import make_config

    config = make_config(short_dir)
    game = Game(SEED)
    for seat in Seat:
        game.apply(seat, auto_command(game.view(seat)))
    while game.turn is not None:
        game.apply(game.turn, auto_command(game.view(game.turn)))
    path = write_game(game, "network", Players(east="ann", west="bob"), config.games_dir)
    server = Daemon(config)
    await server.start()
    try:
        assert not path.exists() and (config.games_dir / "finished" / path.name).exists()
        assert not server.rooms
    finally:
        await server.stop()


async def test_the_log_has_one_info_line_per_event_and_no_seed_or_tile(
        short_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="minefield")
    server = await start_daemon(short_dir)
    try:
        ann = await host(socket=server.config.socket, player="ann", seed=SEED)
        bob = await join(ann.code or "", socket=server.config.socket, player="bob")
        await ann.open()
        await bob.open()
        await asyncio.gather(autoplay(ann), autoplay(bob))
        await bob.close()
        again = await resume(socket=server.config.socket, player="ann")
        await again.open()
        await ann.close()
        await again.close()
        await _logged(caplog, "disconnected", 3)
    finally:
        await server.stop()
    # An idle connection, on a daemon of its own (a short idle limit would cut the players
    # above on a loaded machine).
    idle_server = await start_daemon(short_dir / "idle", idle_seconds=0.5)
    try:
        idle = await Raw.connect(idle_server.config.socket)
        idle.hello("host", player="cat", bot="easy")
        await idle.drain()  # closed for being idle
        await _logged(caplog, "disconnected", 4)
    finally:
        await idle_server.stop()
    lines = [record.getMessage() for record in caplog.records
             if record.levelno == logging.INFO and record.name.startswith("minefield")]
    text = "\n".join(lines)

    def count(pattern: str) -> int:
        return sum(1 for line in lines if re.search(pattern, line))

    # The connect line names the Unix account (the person is known from the hello).
    assert count(rf"\({re.escape(ME)}, seat=None\): connected") == 4, text
    assert count(r"ann@.*: hello \(host\)") == 1, text
    assert count(r"ann@.*: opened game \S+ as (east|west)") == 1, text
    assert count(r"bob@.*: joined game \S+ as (east|west)") == 1, text
    assert count(r"ann@.*: resumed game \S+ as (east|west)") == 1, text
    assert count(r"game \S+: ended") >= 1, text
    assert count(r"cat@.*: idle for 0.5 s: closing") == 1, text
    assert count(r"cat@.*: disconnected \(error idle\)") == 1, text
    assert count(r"bob@.*: disconnected \(the client closed the connection\)") == 1, text
    # Never a seed or a tile (the players' names and game ids hold neither).
    assert SEED not in " ".join(re.findall(r"seed\S*", text))
    assert not re.search(r"\b[0-9]+[mpsz]\b", text), text


async def _logged(caplog: pytest.LogCaptureFixture, text: str, count: int) -> None:
    """Until ``count`` log lines hold ``text`` (the daemon logs a disconnect after the client
    has seen it; bounded)."""
    for _ in range(600):
        if sum(text in record.getMessage() for record in caplog.records) >= count:
            return
        await asyncio.sleep(0.05)


async def test_leaving_a_bot_game_closes_it(short_dir: Path) -> None:
    """Quitting a game against a bot ends it: it no longer counts among the player's open
    games (4), and a restart does not take it up again."""
    server = await start_daemon(short_dir, max_games_per_player=2)
    try:
        for number in range(4):  # twice the limit: each one left is closed
            raw = await Raw.connect(server.config.socket)
            raw.hello("host", player="ann", bot="easy", match=number % 2 == 1)
            await raw.until("snapshot")
            raw.send({"type": "leave"})
            closed = await raw.until("closed")
            assert "against the bot: it is closed" in closed["reason"]
            raw.close()
        with pytest.raises(RemoteError, match="no unfinished game"):
            await resume(socket=server.config.socket, player="ann")
        # Just disconnecting is not leaving: that game waits for its player.
        kept = await host(socket=server.config.socket, player="ann", bot="easy")
        await kept.open()
        await next_of(kept, Snapshot)
        await kept.close()
    finally:
        await server.stop()
    games = server.config.games_dir
    assert len(list(games.glob("*.jsonl"))) == 1  # the game just disconnected from
    assert len(list((games / "finished").glob("*.jsonl"))) >= 4
    again = await start_daemon(short_dir)
    try:
        assert len(again.rooms) == 1
    finally:
        await again.stop()
