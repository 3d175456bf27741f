"""The daemon's lobby: who is connected, public tables listed with their code, private ones
never, games with their players and nothing of the game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from minefield.server.daemon import Daemon
from minefield.session.remote_start import host, join
from tests.server.conftest import ME, Raw, autoplay, start_daemon


async def until_lobby(client: Raw, check: Any) -> dict[str, Any]:
    """The first lobby state for which ``check(state)`` is true (bounded)."""
    for _ in range(100):
        state = await client.until("lobby")
        if check(state):
            return state
    raise AssertionError("the lobby never showed it")


async def test_public_tables_are_listed_private_ones_never(daemon: Daemon) -> None:
    watcher = await Raw.connect(daemon.config.socket)
    watcher.hello("lobby", player="cat")
    first = await watcher.until("lobby")
    assert first == {"type": "lobby", "online": [{"name": "cat", "status": "lobby"}],
                     "tables": []}
    private = await host(socket=daemon.config.socket, player="bob")
    public = await host(socket=daemon.config.socket, player="ann", public=True,
                        rules="beginner")
    state = await until_lobby(watcher, lambda s: len(s["online"]) == 3)
    assert state["tables"] == [{"code": public.code, "game": None, "host": "ann",
                                "rules": "beginner", "public": True, "players": ["ann"],
                                "watchers": 0, "rated": True}]
    assert {p["name"]: p["status"] for p in state["online"]} == {
        "ann": "hosting", "bob": "hosting", "cat": "lobby"}
    assert private.code is not None and private.code not in str(state)
    guest = await join(public.code or "", socket=daemon.config.socket, player="dan")
    state = await until_lobby(watcher, lambda s: s["tables"] and s["tables"][0]["game"])
    table = state["tables"][0]
    assert table["code"] is None and sorted(table["players"]) == ["ann", "dan"]
    assert table["host"] in ("ann", "dan") and table["public"] is True
    assert {p["name"]: p["status"] for p in state["online"]}["dan"] == "playing"
    # Nothing of the game: no tiles, no seed in any lobby line.
    for line in watcher.received:
        text = line.decode()
        assert "seed" not in text and "tiles" not in text and "hand" not in text
    for session in (private, public, guest):
        await session.close()
    watcher.close()


async def test_a_casual_table_says_so_in_the_lobby(daemon: Daemon) -> None:
    """R36: a table is rated or casual, shown before the game starts."""
    watcher = await Raw.connect(daemon.config.socket)
    watcher.hello("lobby", player="cat")
    await watcher.until("lobby")
    casual = await host(socket=daemon.config.socket, player="ann", public=True, rated=False)
    state = await until_lobby(watcher, lambda s: s["tables"])
    assert [(t["code"], t["rated"]) for t in state["tables"]] == [(casual.code, False)]
    await casual.close()
    watcher.close()


async def test_a_bot_game_is_never_a_public_table(daemon: Daemon) -> None:
    watcher = await Raw.connect(daemon.config.socket)
    watcher.hello("lobby", player="cat")
    await watcher.until("lobby")
    game = await host(socket=daemon.config.socket, player="ann", public=True, bot="easy")
    state = await until_lobby(watcher, lambda s: s["tables"])
    assert state["tables"][0]["code"] is None and state["tables"][0]["public"] is False
    assert sorted(state["tables"][0]["players"]) == ["Bot (easy)", "ann"]
    await game.close()
    watcher.close()


async def test_the_lobby_answers_pings_and_refuses_nothing_else(daemon: Daemon) -> None:
    client = await Raw.connect(daemon.config.socket)
    client.hello("lobby", player="cat")
    await client.until("lobby")
    client.send({"type": "command", "command_id": "x", "command": {"type": "discard"}})
    client.send({"type": "ping"})
    assert (await client.until("pong"))["type"] == "pong"
    client.close()


async def test_a_flood_in_the_lobby_is_limited_as_a_players_is(short_dir: Path) -> None:
    """Protocol 6: over the burst a line is dropped with a rate_limited error; past the
    allowance of dropped lines the connection is closed (as a player's and a watcher's)."""
    server = await start_daemon(short_dir, burst=2, rate=0.01, abuse=1)
    try:
        cat = await Raw.connect(server.config.socket)
        cat.hello("lobby", player="cat")
        await cat.until("lobby")
        for _ in range(4):
            cat.send({"type": "ping"})
        answers = [await cat.recv() for _ in range(4)]
        assert [a and a["type"] for a in answers] == ["pong", "pong", "error", "error"]
        assert [(a["code"], a["fatal"]) for a in answers[2:] if a] == [
            ("rate_limited", False), ("rate_limited", True)]
        assert answers[2] is not None and "this one was dropped" in answers[2]["message"]
        assert await cat.recv() is None
    finally:
        await server.stop()


async def test_each_player_online_has_the_rating_the_keeper_knows(daemon: Daemon) -> None:
    asked: list[list[str]] = []

    def ratings_of(keys: list[str]) -> dict[str, int]:  # the front door knows only ann
        asked.append(keys)
        return {key: 1662 for key in keys if key.startswith("ann@")}

    daemon.lobby.ratings_of = ratings_of
    watcher = await Raw.connect(daemon.config.socket)
    watcher.hello("lobby", player="cat")
    ann = await host(socket=daemon.config.socket, player="ann", public=True)
    state = await until_lobby(watcher, lambda s: len(s["online"]) == 2)
    online = {p["name"]: p for p in state["online"]}
    assert online["ann"] == {"name": "ann", "status": "hosting", "rating": 1662}
    assert online["cat"].get("rating") is None  # unknown: left out of the line
    assert any(sorted(keys) == [f"ann@{ME}", f"cat@{ME}"] for keys in asked)
    await ann.close()
    watcher.close()


async def test_without_a_ratings_keeper_nobody_has_a_rating(daemon: Daemon) -> None:
    assert daemon.lobby.ratings_of is None  # the OpenSSH route: no front door
    watcher = await Raw.connect(daemon.config.socket)
    watcher.hello("lobby", player="cat")
    state = await watcher.until("lobby")
    assert state["online"] == [{"name": "cat", "status": "lobby"}]
    watcher.close()


async def test_a_failing_ratings_keeper_leaves_the_lobby_working(daemon: Daemon) -> None:
    def broken(keys: list[str]) -> dict[str, int]:
        raise OSError("the players' file is gone")

    daemon.lobby.ratings_of = broken
    watcher = await Raw.connect(daemon.config.socket)
    watcher.hello("lobby", player="cat")
    state = await watcher.until("lobby")
    assert state["online"] == [{"name": "cat", "status": "lobby"}]
    watcher.close()


async def test_each_player_online_is_shown_doing_what_they_do(daemon: Daemon) -> None:
    """``lobby``, ``waiting`` (a quick match), ``hosting`` (a table nobody joined), ``playing``,
    ``watching``, ``result`` (the game over, its room still open): what ``who`` and both SSH
    routes' lobbies show."""
    socket = daemon.config.socket
    cat = await Raw.connect(socket)
    cat.hello("lobby", player="cat")
    dan = await Raw.connect(socket)
    dan.hello("lobby", player="dan")
    await dan.until("lobby")
    dan.send({"type": "quick_match"})
    assert (await dan.until("matching"))["state"] == "waiting"
    ann = await host(socket=socket, player="ann", public=True)
    bob = await host(socket=socket, player="bob", bot="easy", seed="7")
    await bob.open()
    state = await until_lobby(cat, lambda s: any(t["game"] for t in s["tables"]))
    game = next(t["game"] for t in state["tables"] if t["game"])
    eve = await Raw.connect(socket)
    eve.hello("watch", game=game, player="eve")
    await eve.until("watch")
    state = await until_lobby(cat, lambda s: len(s["online"]) == 5)
    assert {p["name"]: p["status"] for p in state["online"]} == {
        "ann": "hosting", "bob": "playing", "cat": "lobby", "dan": "waiting", "eve": "watching"}
    await autoplay(bob)  # R25's moves to the end: bob is on the result screen
    state = await until_lobby(cat, lambda s: {p["name"]: p["status"] for p in s["online"]}
                              .get("bob") == "result")
    # What the front door's who reads is the same.
    assert state["online"] == [p.model_dump(exclude_none=True) for p in daemon.lobby.now().online]
    dan.send({"type": "cancel"})
    state = await until_lobby(cat, lambda s: {p["name"]: p["status"] for p in s["online"]}
                              .get("dan") == "lobby")
    for session in (ann, bob):
        await session.close()
    for raw in (cat, dan, eve):
        raw.close()
