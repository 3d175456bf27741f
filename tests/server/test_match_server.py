"""Matches on the daemon (R30-R35): two clients play the games of a match, the next
game starts when both ask, the match survives a disconnect and a kill -9 of the daemon, the
records are the match's, and its seed never reaches the wire or the log."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from minefield.protocol.messages import (
    Applied,
    Closed,
    Link,
    MatchView,
    Presence,
    Snapshot,
    TableView,
)
from minefield.protocol.server_lines import parse_server_line
from minefield.records.reader import read_record
from minefield.records.replay import replay_match
from minefield.rules.auto import auto_command
from minefield.rules.game import Seat
from minefield.rules.match import Match, Settlement
from minefield.rules.seed import parse_seed
from minefield.rules.settings import RuleSettings
from minefield.server.daemon import Daemon
from minefield.session.remote import RemoteSession
from minefield.session.remote_start import host, join, resume
from tests.server.conftest import LIMIT, ME, Raw, autoplay, moved_aside, next_of, start_daemon
from tests.server.test_crash import DaemonProcess

#: Under R25's automatic moves this match's game 1 is a draw with the dealer alone tenpai: a
#: noten payment, the dealer stays with a counter stick (R31-R33); game 2 passes the deal.
SEED = "9"
ANN, BOB = f"ann@{ME}", f"bob@{ME}"
#: ``host --match``: the match preset, with the server's clocks (R25).
SETTINGS = RuleSettings.preset("match", hand_seconds=180, discard_seconds=15)
#: These clients play a game in a fraction of a second: more than the rate limit lets through.
FAST = 1000.0


@pytest.fixture
async def daemon(short_dir: Path) -> AsyncIterator[Daemon]:
    """A running daemon that lets these fast clients send as fast as they play."""
    server = await start_daemon(short_dir, rate=FAST, burst=int(FAST))
    yield server
    await server.stop()


def local_match(seed: str, games: int | None = None) -> tuple[Match, list[Settlement]]:
    """The match both clients play with R25's automatic moves, played in this process (all of
    it, or its first ``games`` games)."""
    match = Match(seed, (ANN, BOB), SETTINGS)
    settlements: list[Settlement] = []
    while not match.over and (games is None or len(settlements) < games):
        game = match.new_game()
        for seat in Seat:
            game.apply(seat, auto_command(game.view(seat)))
        while game.phase != "ended":
            assert game.turn is not None
            game.apply(game.turn, auto_command(game.view(game.turn)))
        settlements.append(match.settle(game))
    return match, settlements


def shown(scores: dict[str, int]) -> dict[str, int]:
    """Scores by the names the table shows (the identity keys' display names)."""
    return {name.split("@")[0]: points for name, points in scores.items()}


def last_table(seen: list[Any]) -> TableView:
    table = next(m for m in reversed(seen) if isinstance(m, Snapshot | Applied)).table
    assert isinstance(table, TableView)
    return table


def assert_agrees(view: MatchView | None, match: Match, settlement: Settlement) -> None:
    """The match view after a game agrees with the engine's match after the same game."""
    assert view is not None and view.last is not None
    assert view.game == settlement.game_number and view.hand == settlement.hand_number
    assert view.scores == shown(match.scores) == shown(settlement.scores)
    assert view.last.payments == settlement.payments
    assert view.last.honba == settlement.honba and view.last.renchan == settlement.renchan
    assert view.last.result == settlement.result and view.last.winner == settlement.winner
    assert view.players == {seat: name.split("@")[0] for seat, name in settlement.seats.items()}
    assert view.over == match.over


async def next_game_snapshot(session: RemoteSession, game: int) -> Snapshot:
    """The first snapshot of the match's game number ``game`` (put back for :func:`play`)."""
    while True:
        snapshot = await next_of(session, Snapshot)
        if snapshot.table.match is not None and snapshot.table.match.game == game:
            session._queue.put_nowait(snapshot)  # the next reader acts on it
            return snapshot


async def play(session: RemoteSession, game: int, stop_at_seq: int | None = None
               ) -> list[Any]:
    """:func:`autoplay` of the match's game number ``game``."""
    return list(await autoplay(session, stop_at_seq, game=game))


async def start_pair(socket: Path) -> tuple[RemoteSession, RemoteSession]:
    ann = await host(socket=socket, player="ann", seed=SEED, match=True)
    assert ann.code is not None
    bob = await join(ann.code, socket=socket, player="bob")
    for session in (ann, bob):
        await session.open()
    return ann, bob


async def test_two_players_play_two_games_of_a_match_that_agree_with_the_engine(
        daemon: Daemon) -> None:
    ann, bob = await start_pair(daemon.config.socket)
    _, settlements = local_match(SEED, games=2)
    for number in (1, 2):
        seen = await asyncio.gather(play(ann, number), play(bob, number))
        settlement = settlements[number - 1]
        views = []
        for session, messages in zip((ann, bob), seen, strict=True):
            table = last_table(messages)
            assert table.view.end is not None and table.match is not None
            player = ANN if session is ann else BOB
            assert session.local_seats == (seats_of(settlement.seats, player),)  # R31
            views.append(table.match)
            assert session.match == table.match
        assert views[0] == views[1]  # the match is public: the same for both seats
        assert_agrees(views[0], _after(SEED, number), settlement)
        if number == 1:
            assert settlement.renchan and views[0].last is not None
            assert views[0].last.payments != {Seat.EAST: 0, Seat.WEST: 0}
            first_id = ann.game_id
            await ann.next_game()
            asked = await next_of(bob, Snapshot)  # bob sees that ann is ready
            assert asked.table.match is not None and asked.table.match.next_asked == ["ann"]
            await bob.next_game()
            for session in (ann, bob):
                snapshot = await next_game_snapshot(session, 2)
                view = snapshot.table.match
                assert view is not None and view.last is None and view.honba == 1
                assert snapshot.table.seq == 0 and snapshot.table.view.phase == "choosing"
                assert session.game_id != first_id
    for session in (ann, bob):
        await session.close()


def seats_of(seats: dict[Seat, str], player: str) -> Seat:
    return next(seat for seat, name in seats.items() if name == player)


async def raw_match(raw: Raw) -> list[dict[str, Any]]:
    """Play a whole match over the raw wire with R25's automatic moves (asking for each next
    game at once); every message received."""
    messages: list[dict[str, Any]] = []
    acted: set[tuple[int, str, int]] = set()
    asked: set[int] = set()
    ids = 0
    while True:
        message = await raw.recv()
        assert message is not None, "the server closed the connection"
        messages.append(message)
        if message["type"] not in ("snapshot", "applied"):
            continue
        parsed = parse_server_line(raw.received[-1])
        assert isinstance(parsed, Snapshot | Applied)
        table = parsed.table
        view, match = table.view, table.match
        assert match is not None
        if view.phase == "ended":
            if match.over:
                return messages
            if match.game not in asked:
                asked.add(match.game)
                raw.send({"type": "next_game"})
            continue
        if any(info.name == "(waiting)" for info in table.players.values()):
            continue
        mine = (view.phase == "choosing" and view.own_hand is None) or view.my_turn
        key = (match.game, view.phase, -1 if view.phase == "choosing" else table.seq)
        if mine and key not in acted:
            acted.add(key)
            ids += 1
            command = auto_command(view)
            raw.send({"type": "command", "command_id": f"c{ids}",
                      "command": json.loads(command.model_dump_json())})


async def test_a_whole_match_over_the_wire_never_sends_or_logs_its_seed(
        daemon: Daemon, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="minefield")
    seed = parse_seed(SEED)
    ann, bob = await Raw.connect(daemon.config.socket), await Raw.connect(daemon.config.socket)
    ann.hello("host", player="ann", seed=SEED, match=True)
    welcome = await ann.until("welcome")
    bob.hello("join", player="bob", code=welcome["code"])
    seen_ann, seen_bob = await asyncio.gather(raw_match(ann), raw_match(bob))
    match, settlements = local_match(SEED)
    for seen, raw in ((seen_ann, ann), (seen_bob, bob)):
        final = seen[-1]["table"]["match"]
        assert final["over"] and final["scores"] == shown(match.scores)
        assert final["standings"] == [{"place": s.place, "player": s.player.split("@")[0],
                                       "points": s.points} for s in match.standings()]
        welcomes = [m for m in map(json.loads, raw.received) if m["type"] == "welcome"]
        assert len(welcomes) == len(settlements)  # one per game, each its own id
        assert len({w["game"] for w in welcomes}) == len(settlements)
    for client in (ann, bob):
        assert client.received and all(seed.encode() not in line for line in client.received)
        assert all(m["type"] != "rejected" for m in map(json.loads, client.received))
    assert seed not in caplog.text and "seed" not in caplog.text
    # Every game is a record with the match header and its settlement; once the match is
    # over they are all among the finished records and replay to the same match.
    await moved_aside(daemon.config.games_dir)
    finished = sorted((daemon.config.games_dir / "finished").glob("*.jsonl"))
    assert len(finished) == len(settlements)
    assert not list(daemon.config.games_dir.glob("*.jsonl"))
    replay = replay_match([read_record(path) for path in finished])
    assert replay.consistent and replay.over and replay.match is not None
    assert replay.match.state_key() == match.state_key()
    # A rematch after the match: a new match (a new seed) in the same room, from game 1.
    for client in (ann, bob):
        client.send({"type": "rematch"})
    for client in (ann, bob):
        welcome = await client.until("welcome")
        snapshot = await client.until("snapshot")
        view = snapshot["table"]["match"]
        assert view["game"] == 1 and not view["over"] and view["last"] is None
        assert view["id"] != final["id"] and set(view["scores"].values()) == {25000}
        assert welcome["game"] not in {w["game"] for w in welcomes}
    for client in (ann, bob):
        assert all(seed.encode() not in line for line in client.received)
        client.close()


async def test_a_bad_next_game_is_a_clear_error_and_changes_nothing(daemon: Daemon) -> None:
    ann = await Raw.connect(daemon.config.socket)
    ann.hello("host", player="ann", seed=SEED, bot="easy", match=True)
    await ann.until("welcome")
    before = await ann.until("snapshot")
    ann.send({"type": "next_game", "now": True})
    error = await ann.until("error")
    assert error["code"] == "bad_message" and not error["fatal"]
    assert "now" in error["message"] and "unknown field" in error["message"]
    ann.send({"type": "next_game"})  # the game has not ended
    error = await ann.until("error")
    assert error["code"] == "not_allowed" and not error["fatal"]
    assert "once this game is over" in error["message"]
    ann.send({"type": "rematch"})  # a match room has no rematch
    error = await ann.until("error")
    assert error["code"] == "not_allowed" and "match" in error["message"]
    ann.send({"type": "ping"})
    await ann.until("pong")
    ann.send({"type": "hello", "version": 1, "action": "resume"})
    await ann.until("error")
    ann.send({"type": "ping"})
    await ann.until("pong")
    # Nothing changed: the same game, the same table, nobody asked for the next game.
    ann.send(b'{"type": "next_game"}\n')
    await ann.until("error")
    resumed = await Raw.connect(daemon.config.socket)
    resumed.hello("resume", player="ann")
    await resumed.until("welcome")
    after = await resumed.until("snapshot")
    assert after["table"]["match"] == before["table"]["match"]
    assert after["table"]["match"]["next_asked"] == [] and after["table"]["seq"] == 0
    for raw in (ann, resumed):
        raw.close()


async def test_next_game_in_a_single_game_is_not_allowed(daemon: Daemon) -> None:
    ann = await Raw.connect(daemon.config.socket)
    ann.hello("host", player="ann", seed=SEED, bot="easy")
    snapshot = await ann.until("snapshot")
    assert snapshot["table"]["match"] is None
    ann.send({"type": "next_game"})
    error = await ann.until("error")
    assert error["code"] == "not_allowed" and "single game" in error["message"]
    ann.close()


async def test_a_bot_match_goes_on_when_the_player_asks(daemon: Daemon) -> None:
    ann = await host(socket=daemon.config.socket, player="ann", bot="easy", seed=SEED,
                     match=True)
    assert ann.code is None
    await ann.open()
    seen = await play(ann, 1)
    table = last_table(seen)
    assert table.match is not None and table.view.phase == "ended"
    assert set(table.match.players.values()) == {"ann", "Bot (easy)"}
    await ann.next_game()  # the bot is always ready
    snapshot = await next_game_snapshot(ann, 2)
    assert snapshot.table.view.phase == "choosing"
    await ann.close()


async def test_a_player_gone_between_games_resumes_into_the_match(daemon: Daemon) -> None:
    ann, bob = await start_pair(daemon.config.socket)
    await asyncio.gather(play(ann, 1), play(bob, 1))
    first_id = ann.game_id
    await ann.next_game()
    await ann.close()  # ann asked, then went away: her request goes with her
    asked: list[list[str]] = []
    while not asked or asked[-1]:
        snapshot = await next_of(bob, Snapshot)
        assert snapshot.table.match is not None
        asked.append(snapshot.table.match.next_asked)
    assert asked == [["ann"], []]
    await bob.next_game()
    again = await resume(socket=daemon.config.socket, player="ann", game=first_id)
    assert again.game_id == first_id  # the match waits between games
    await again.open()
    snapshot = await next_of(again, Snapshot)
    view = snapshot.table.match
    assert view is not None and view.game == 1 and view.next_asked == ["bob"]
    assert snapshot.table.view.end is not None
    await again.next_game()
    for session in (again, bob):
        snapshot = await next_game_snapshot(session, 2)
        assert snapshot.table.view.phase == "choosing"
    assert again.game_id == bob.game_id != first_id
    for session in (again, bob):
        await session.close()


async def test_kill_9_mid_match_and_between_games_resumes_the_same_match(
        short_dir: Path) -> None:
    process = DaemonProcess(short_dir)
    process.args += ["--message-rate", str(FAST)]
    try:
        await process.start()
        ann, bob = await start_pair(process.socket)
        sessions = (ann, bob)
        match, settlements = local_match(SEED)
        await asyncio.gather(*(play(s, 1) for s in sessions))
        for session in sessions:
            await session.next_game()
        for session in sessions:
            await next_game_snapshot(session, 2)
        await asyncio.gather(*(play(s, 2, stop_at_seq=10) for s in sessions))

        process.kill()  # mid-game 2
        for session in sessions:
            assert (await next_of(session, Link)).state == "reconnecting"
        await process.start()
        seen = await asyncio.gather(*(play(s, 2) for s in sessions))
        for messages in seen:
            snapshot = next(m for m in messages if isinstance(m, Snapshot))
            view = snapshot.table.match
            assert view is not None and view.game == 2 and snapshot.table.seq >= 10
            assert view.honba == settlements[0].renchan  # the stick of game 1 (R31)
            assert view.scores == shown(settlements[0].scores)
            table = last_table(messages)
            assert_agrees(table.match, _after(SEED, 2), settlements[1])

        process.kill()  # between games 2 and 3
        for session in sessions:
            assert (await next_of(session, Link)).state == "reconnecting"
        await process.start()
        for session in sessions:
            snapshot = await next_of(session, Snapshot)
            view = snapshot.table.match
            assert view is not None and view.game == 2 and view.last is not None
            assert snapshot.table.view.end is not None
            assert view.scores == shown(settlements[1].scores)
        number = 2
        while True:
            for session in sessions:
                await session.next_game()
            number += 1
            for session in sessions:
                await next_game_snapshot(session, number)
            seen = await asyncio.gather(*(play(s, number) for s in sessions))
            view = last_table(seen[0]).match
            assert view is not None and view == last_table(seen[1]).match
            if view.over:
                break
        assert number == len(settlements)
        assert view.scores == shown(match.scores)
        assert view.standings is not None
        assert [(s.place, s.points) for s in view.standings] == [
            (s.place, s.points) for s in match.standings()]
        for session in sessions:
            await session.close()
    finally:
        process.stop()
    records = sorted((short_dir / "data" / "games" / "finished").glob("*.jsonl"))
    replay = replay_match([read_record(path) for path in records])
    assert replay.consistent and replay.match is not None
    assert replay.match.state_key() == match.state_key()
    log = process.log.read_text()
    assert match.id in log  # the daemon logged the match by its public id...
    assert parse_seed(SEED) not in log  # ...and never its seed


def _after(seed: str, games: int) -> Match:
    return local_match(seed, games)[0]


async def test_a_disconnect_in_a_later_game_keeps_the_seat_the_match_gave(
        daemon: Daemon) -> None:
    ann, bob = await start_pair(daemon.config.socket)
    _, settlements = local_match(SEED, games=3)
    assert settlements[2].seats != settlements[0].seats  # game 2 passed the deal (R31)
    for number in (1, 2):
        await asyncio.gather(play(ann, number), play(bob, number))
        for session in (ann, bob):
            await session.next_game()
        for session in (ann, bob):
            await next_game_snapshot(session, number + 1)
    seat = seats_of(settlements[2].seats, BOB)
    assert bob.local_seats == (seat,) and seat is not seats_of(settlements[0].seats, BOB)
    await bob.close()  # bob's link drops in game 3, in the seat game 3 gave him
    while True:
        presence = await next_of(ann, Presence)
        if not presence.players[seat].present:
            break
    assert presence.players[seat].name == "bob"
    assert presence.players[seat].grace_left is not None  # his moves wait for him
    again = await resume(socket=daemon.config.socket, player="bob")
    assert again.local_seats == (seat,) and again.game_id == ann.game_id
    await again.close()
    await ann.close()


async def test_a_match_nobody_goes_on_with_is_closed_and_not_taken_up_again(
        short_dir: Path) -> None:
    server = await start_daemon(short_dir, rate=FAST, burst=int(FAST), rematch_seconds=0.2)
    try:
        ann = await host(socket=server.config.socket, player="ann", bot="easy", seed=SEED,
                         match=True)
        await ann.open()
        await play(ann, 1)
        closed = await next_of(ann, Closed)  # no next game asked within the window
        assert "match is left unfinished" in closed.reason
        await moved_aside(server.config.games_dir)
        assert len(list((server.config.games_dir / "finished").glob("*.jsonl"))) == 1
    finally:
        await server.stop()
    again = await start_daemon(short_dir)
    try:
        assert not again.rooms  # an abandoned match is not restored
    finally:
        await again.stop()


async def test_next_game_asked_while_the_link_is_down_is_sent_after_the_reconnect(
        short_dir: Path) -> None:
    server = await start_daemon(short_dir, rate=FAST, burst=int(FAST))
    try:
        ann, bob = await start_pair(server.config.socket)
        await asyncio.gather(play(ann, 1), play(bob, 1))
        await server.stop()  # a restart between games
        for session in (ann, bob):
            assert (await next_of(session, Link)).state == "reconnecting"
        await ann.next_game()  # while the link is down: sent once it is back
        server = await start_daemon(short_dir, rate=FAST, burst=int(FAST))
        assert (await next_of(ann, Link)).state == "connected"
        connected = asked = False
        async with asyncio.timeout(LIMIT):
            updates = bob.updates()
            while not (connected and asked):  # bob's resume and ann's request, in any order
                message = await anext(updates)
                if isinstance(message, Link):
                    connected = message.state == "connected"
                elif isinstance(message, Snapshot):
                    view = message.table.match
                    assert view is not None and view.game == 1
                    asked = view.next_asked == ["ann"]
        await bob.next_game()
        for session in (ann, bob):
            snapshot = await next_game_snapshot(session, 2)
            assert snapshot.table.view.phase == "choosing"
        for session in (ann, bob):
            await session.close()
    finally:
        await server.stop()


async def test_a_bad_match_field_in_the_hello_is_refused_clearly(daemon: Daemon) -> None:
    raw = await Raw.connect(daemon.config.socket)
    raw.hello("host", player="ann", match="sometimes")
    messages = await raw.drain()
    assert [m["type"] for m in messages] == ["error"]
    assert messages[0]["fatal"] and messages[0]["code"] == "bad_message"
    assert "match" in messages[0]["message"]
    raw.close()
    ok = await Raw.connect(daemon.config.socket)  # the daemon goes on
    ok.hello("host", player="ann", bot="easy", match=True)
    assert (await ok.until("snapshot"))["table"]["match"]["game"] == 1
    ok.close()


async def test_a_restart_finds_the_games_of_a_match_already_moved_aside(
        short_dir: Path) -> None:
    """A daemon killed while it moved a match's records to ``finished/``: the records left
    behind replay with the moved ones (the match goes on, or is over and put aside)."""
    server = await start_daemon(short_dir, rate=FAST, burst=int(FAST))
    games = server.config.games_dir
    try:
        ann, bob = await start_pair(server.config.socket)
        for number in (1, 2):
            await asyncio.gather(play(ann, number), play(bob, number))
            if number == 1:
                for session in (ann, bob):
                    await session.next_game()
                for session in (ann, bob):
                    await next_game_snapshot(session, 2)
        for session in (ann, bob):
            await session.close()
    finally:
        await server.stop()
    first, second = sorted(games.glob("*.jsonl"))  # between games 2 and 3
    (games / "finished").mkdir(exist_ok=True)
    first.rename(games / "finished" / first.name)  # game 1 was moved, game 2 was not yet
    server = await start_daemon(short_dir)
    try:
        assert len(server.rooms) == 1
        again = await resume(socket=server.config.socket, player="ann")
        await again.open()
        snapshot = await next_of(again, Snapshot)
        view = snapshot.table.match
        _, settlements = local_match(SEED, games=2)
        assert view is not None and view.game == 2 and view.last is not None
        assert view.scores == shown(settlements[1].scores)
        await again.close()
    finally:
        await server.stop()
    # Once over, a match whose later records were left behind is put aside whole.
    finished = games / "finished"
    second.rename(finished / second.name)
    other = "10"  # another match (its own id)
    _, settlements = local_match(other)
    server = await start_daemon(short_dir, rate=FAST, burst=int(FAST))
    try:
        raw_ann, raw_bob = await Raw.connect(server.config.socket), await Raw.connect(
            server.config.socket)
        raw_ann.hello("host", player="ann", seed=other, match=True)
        raw_bob.hello("join", player="bob", code=(await raw_ann.until("welcome"))["code"])
        await asyncio.gather(raw_match(raw_ann), raw_match(raw_bob))
        for raw in (raw_ann, raw_bob):
            raw.close()
        await moved_aside(games)
    finally:
        await server.stop()
    other_id = Match(other, (ANN, BOB)).id
    records = [p for p in sorted(finished.glob("*.jsonl"))
               if (m := read_record(p).header.match) is not None and m.id == other_id]
    assert len(records) == len(settlements) > 1
    for record in records[len(records) // 2:]:  # the first games had been moved aside
        record.rename(games / record.name)
    server = await start_daemon(short_dir)
    try:
        assert not server.rooms and not list(games.glob("*.jsonl"))
    finally:
        await server.stop()
