"""Watchers on the daemon: only what both players see (R26), nothing sooner, no moves; the
lobby counts them; a closed room tells them."""

from __future__ import annotations

import asyncio
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from minefield.protocol.messages import Applied, Snapshot
from minefield.protocol.watching import WatchState, WatchTable
from minefield.rules.auto import auto_command
from minefield.rules.game import Game, Seat
from minefield.server.audience import CANNOT_PLAY
from minefield.server.connection import Connection
from minefield.server.daemon import Daemon
from minefield.session.remote import RemoteSession
from minefield.session.remote_start import host, join
from minefield.session.watch_link import WatchLink
from tests.server.conftest import Raw, autoplay, start_daemon
from tests.server.test_lobby_state import until_lobby

SEED = "5"
#: The keys of a watcher's table: nothing of one seat's own view (R26).
TABLE_KEYS = {"game", "seq", "phase", "settings", "terms", "dora_indicator", "discards", "turn",
              "ready", "end", "players", "clocks", "match", "watchers"}
PRIVATE_KEYS = ("own_tiles", "own_hand", "own_pool", "own_furiten", "hand_chosen")


def hidden_tiles(seed: str) -> list[str]:
    """Everything of either seat that no one but that seat may see before the end: its 34
    tiles, the hand R25's automatic move keeps, and its pool."""
    game = Game(seed)
    hidden = [game.view(seat).own_tiles for seat in Seat]
    for seat in Seat:
        game.apply(seat, auto_command(game.view(seat)))
    for seat in Seat:
        view = game.view(seat)
        assert view.own_hand is not None
        hidden += [view.own_hand, view.own_pool]
    return hidden


async def two_players(daemon: Daemon) -> tuple[RemoteSession, RemoteSession]:
    ann = await host(socket=daemon.config.socket, player="ann", seed=SEED)
    bob = await join(ann.code or "", socket=daemon.config.socket, player="bob")
    return ann, bob


async def watch(daemon: Daemon, game: str, name: str = "cat") -> tuple[Raw, dict[str, Any]]:
    raw = await Raw.connect(daemon.config.socket)
    raw.hello("watch", game=game, player=name)
    return raw, await raw.until("watch")


async def test_a_watcher_sees_only_what_both_players_see(daemon: Daemon) -> None:
    """R26: every line a watcher gets before the end is scanned for both seats' hidden tiles
    (34 tiles, hand, pool) and one seat's own keys; at the end, the result both players get."""
    ann, bob = await two_players(daemon)
    game = ann.game_id
    cat, first = await watch(daemon, game)
    table = first["table"]
    assert set(table) == TABLE_KEYS and table["game"] == game and table["watchers"] == 1
    assert table["phase"] == "choosing" and table["ready"] == {"east": False, "west": False}
    assert {info["name"] for info in table["players"].values()} == {"ann", "bob"}
    await ann.open()
    await bob.open()
    seen_ann, _ = await asyncio.gather(autoplay(ann), autoplay(bob))
    tables = [first["table"]]
    while tables[-1]["phase"] != "ended":
        tables.append((await cat.until("watch"))["table"])
    hidden = hidden_tiles(SEED)
    ended_at = next(i for i, line in enumerate(cat.received) if b"game_ended" in line)
    assert ended_at == len(cat.received) - 1  # the last line: nothing after the end yet
    for line in cat.received[:ended_at]:
        for tiles in hidden:
            assert tiles.encode() not in line
        for key in PRIVATE_KEYS:
            assert key.encode() not in line
        message = json.loads(line)
        assert message["type"] == "watch" and set(message["table"]) == TABLE_KEYS
    # The tables follow the game: discard rows only grow, and the end is the players' end.
    for earlier, later in itertools.pairwise(tables):
        for seat in ("east", "west"):
            assert later["discards"][seat][:len(earlier["discards"][seat])] == (
                earlier["discards"][seat])
    # Each chosen hand is told as it is chosen (as the other player is told), never its tiles.
    assert any(sum(t["ready"].values()) == 1 for t in tables)
    last = seen_ann[-1]
    assert last.type == "applied" and last.table.view.end is not None
    end = WatchTable.model_validate(tables[-1]).end
    assert end == last.table.view.end  # the result screen's, hands and pools revealed
    assert tables[-1]["discards"] == json.loads(last.table.view.model_dump_json())["discards"]
    for session in (ann, bob):
        await session.close()
    cat.close()


async def test_a_watchers_commands_are_rejected_and_change_nothing(daemon: Daemon) -> None:
    ann, bob = await two_players(daemon)
    cat, first = await watch(daemon, ann.game_id)
    seat = ann.local_seats[0].value
    cat.send({"type": "command", "command_id": "w1",
              "command": {"type": "choose_hand", "tiles": "123456789m1234p"}})
    rejected = await cat.until("rejected")
    assert rejected == {"type": "rejected", "command_id": "w1", "reason": CANNOT_PLAY}
    cat.send({"type": "command", "command_id": "w2", "command": {"type": "discard"}})
    assert (await cat.until("rejected"))["command_id"] == "w2"  # malformed: still rejected
    for kind in ("draft", "rematch", "next_game"):
        cat.send({"type": kind, "tiles": "1m"} if kind == "draft" else {"type": kind})
        error = await cat.until("error")
        assert error["code"] == "not_allowed" and not error["fatal"] and kind in error["message"]
    cat.send({"type": "ping"})
    await cat.until("pong")
    # Nothing changed: the table is the same, no hand chosen, nothing told to the players.
    assert first["table"]["seq"] == 0 and seat in first["table"]["ready"]
    again, table = await watch(daemon, ann.game_id, "dan")
    assert table["table"]["seq"] == 0 and table["table"]["ready"] == {"east": False,
                                                                      "west": False}
    cat.send({"type": "leave"})
    closed = await cat.until("closed")
    assert closed == {"type": "closed", "reason": "You stopped watching."}
    for session in (ann, bob):
        await session.close()
    again.close()
    cat.close()


async def test_the_lobby_counts_each_games_watchers(daemon: Daemon) -> None:
    lobby = await Raw.connect(daemon.config.socket)
    lobby.hello("lobby", player="eve")
    await lobby.until("lobby")
    ann, bob = await two_players(daemon)
    state = await until_lobby(lobby, lambda s: s["tables"])
    assert state["tables"][0]["game"] == ann.game_id and state["tables"][0]["watchers"] == 0
    cat, _ = await watch(daemon, ann.game_id, "cat")
    dan, second = await watch(daemon, ann.game_id, "dan")
    assert second["table"]["watchers"] == 2
    assert (await cat.until("watch"))["table"]["watchers"] == 2  # told of the newcomer
    await until_lobby(lobby, lambda s: s["tables"][0]["watchers"] == 2)
    dan.close()
    assert (await cat.until("watch"))["table"]["watchers"] == 1
    await until_lobby(lobby, lambda s: s["tables"][0]["watchers"] == 1)
    for session in (ann, bob):
        await session.close()
    cat.close()
    lobby.close()


async def test_an_unknown_or_missing_game_is_one_fatal_error(daemon: Daemon) -> None:
    raw = await Raw.connect(daemon.config.socket)
    raw.hello("watch", game="20250102T030405.678Z-network-1f2e3d4c", player="cat")
    error = await raw.until("error")
    assert error["code"] == "no_game" and error["fatal"] and "who" in error["message"]
    assert await raw.recv() is None
    raw = await Raw.connect(daemon.config.socket)
    raw.hello("watch", player="cat")
    error = await raw.until("error")
    assert error["code"] == "bad_message" and error["fatal"]
    # A room still waiting for its second player has no game to watch.
    waiting = await host(socket=daemon.config.socket, player="ann")
    raw = await Raw.connect(daemon.config.socket)
    raw.hello("watch", game=waiting.game_id, player="cat")
    assert (await raw.until("error"))["code"] == "no_game"
    await waiting.close()


async def test_a_closed_room_tells_its_watchers(daemon: Daemon) -> None:
    player = await Raw.connect(daemon.config.socket)
    player.hello("host", player="ann", bot="easy")
    welcome = await player.until("welcome")
    await player.until("snapshot")
    link = await WatchLink.open(welcome["game"], socket=daemon.config.socket, player="cat")
    table = await link.first()
    assert {info.name for info in table.players.values()} == {"ann", "Bot (easy)"}
    player.send({"type": "leave"})
    async with asyncio.timeout(30):
        async for _ in link.states():
            pass
    assert link.closed_reason is not None and "against the bot" in link.closed_reason
    await link.close()
    player.close()


async def test_a_match_is_watched_game_after_game_with_its_scoreboard(daemon: Daemon) -> None:
    """R30: the scoreboard is in every table; the next game goes on in the same stream, under
    its own id, its hands hidden again until its end (R26)."""
    ann = await host(socket=daemon.config.socket, player="ann", seed=SEED, bot="easy",
                     match=True)
    first_id = ann.game_id
    cat, first = await watch(daemon, first_id)
    assert first["table"]["match"]["game"] == 1 and first["table"]["match"]["players"]
    await ann.open()
    await autoplay(ann, game=1)
    ended = first["table"]
    while ended["end"] is None:
        ended = (await cat.until("watch"))["table"]
    assert ended["match"]["last"] is not None and ended["match"]["scores"]
    start = len(cat.received)
    await ann.next_game()
    table = ended
    while table["game"] == first_id:
        table = (await cat.until("watch"))["table"]
    assert table["match"]["game"] == 2 and table["end"] is None and table["seq"] == 0
    assert table["discards"] == {"east": [], "west": []}
    for line in cat.received[start:]:
        for key in PRIVATE_KEYS:
            assert key.encode() not in line
    await ann.close()
    cat.close()


async def test_nothing_a_watcher_sends_moves_the_game_or_breaks_the_daemon(
        daemon: Daemon) -> None:
    """A watcher throwing the players' own moves, a second hello, bad JSON and a line too long:
    each answered, the game unchanged, the players and another watcher unaffected."""
    ann, bob = await two_players(daemon)
    cat, _ = await watch(daemon, ann.game_id)
    tiles = Game(SEED).view(Seat.EAST).own_tiles
    lines: list[dict[str, Any] | bytes] = [
        {"type": "command", "command_id": "x1", "command": {"type": "choose_hand",
                                                            "tiles": tiles[:26]}},
        {"type": "command", "command_id": "x2", "seat": "east",
         "command": {"type": "discard", "tile": "1m"}},
        {"type": "hello", "version": 1, "action": "join", "code": ann.code or "K7Q3PX"},
        {"type": "leave", "x": 1},
        b"not json\n",
        b"[1, 2]\n",
    ]
    for line in lines:
        cat.send(line)
    answers = [await cat.recv() for _ in lines]
    assert [a["type"] for a in answers if a is not None] == [
        "rejected", "rejected", "error", "error", "error", "error"]
    assert all(a is not None and (a["type"] == "rejected" or not a["fatal"]) for a in answers)
    cat.send(b"x" * 70_000 + b"\n")
    assert (await cat.until("error"))["code"] == "too_long"
    assert await cat.recv() is None
    dan, table = await watch(daemon, ann.game_id, "dan")
    assert table["table"]["seq"] == 0 and table["table"]["ready"] == {"east": False,
                                                                      "west": False}
    await ann.open()
    await bob.open()
    await asyncio.gather(autoplay(ann), autoplay(bob))  # the game is played to its end
    while (await dan.until("watch"))["table"]["end"] is None:
        pass
    for session in (ann, bob):
        await session.close()
    dan.close()


async def test_a_watchers_flood_is_limited_as_a_players_is(short_dir: Path) -> None:
    server = await start_daemon(short_dir, burst=2, rate=0.01, abuse=1)
    try:
        ann, bob = await two_players(server)
        cat, _ = await watch(server, ann.game_id)
        for number in range(4):
            cat.send({"type": "command", "command_id": f"f{number}",
                      "command": {"type": "discard", "tile": "1m"}})
        answers = [await cat.recv() for _ in range(4)]
        assert [a and a["type"] for a in answers] == ["rejected"] * 3 + ["error"]
        assert [a and a.get("reason") for a in answers[:2]] == [CANNOT_PLAY] * 2
        assert answers[2] is not None and "too many messages" in answers[2]["reason"]
        assert answers[3] is not None and answers[3]["code"] == "rate_limited"
        assert answers[3]["fatal"] and await cat.recv() is None
        for session in (ann, bob):
            await session.close()
    finally:
        await server.stop()


async def test_a_watcher_is_told_of_each_move_after_both_players(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing sooner than the players: every message the daemon queues is noted in order;
    each table a watcher gets (by its seq) comes after both seats were sent that seq."""
    sent: list[tuple[str, int]] = []  # (who, seq) in the order the daemon queued them
    original = Connection.send

    def noting(conn: Connection, message: Any) -> None:
        if isinstance(message, WatchState):
            sent.append(("watcher", message.table.seq))
        elif isinstance(message, Applied | Snapshot) and conn.seat is not None:
            sent.append((conn.seat.value, message.table.seq))
        original(conn, message)

    monkeypatch.setattr(Connection, "send", noting)
    ann, bob = await two_players(daemon)
    cat, _ = await watch(daemon, ann.game_id)
    await ann.open()
    await bob.open()
    await asyncio.gather(autoplay(ann), autoplay(bob))
    while (await cat.until("watch"))["table"]["end"] is None:
        pass
    told = [seq for who, seq in sent if who == "watcher"]
    assert len(told) > 10 and told[-1] > 0
    for index, (who, seq) in enumerate(sent):
        if who == "watcher" and seq > 0:
            before = {w for w, s in sent[:index] if s >= seq and w != "watcher"}
            assert before == {"east", "west"}, (seq, sent[:index + 1][-6:])
    for session in (ann, bob):
        await session.close()
    cat.close()
