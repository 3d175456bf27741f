"""The watch screen (``minefield watch GAME``): only what a watcher is sent, drawn with the
table's widgets; each hand face down until the end (R26), both revealed at the end; nothing
to play, q stops; an 80x24 snapshot."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from minefield.protocol.messages import PlayerInfo
from minefield.protocol.watching import WatchTable, public_table
from minefield.rules.auto import auto_command
from minefield.rules.game import Game, Seat
from minefield.rules.tiles import parse_tiles
from minefield.table.game_table import GameTable
from minefield.tui.watch_app import WatchApp, discard_order
from minefield.tui.widgets.replay import SeatTiles
from minefield.tui.widgets.tiles import TileRow
from tests.tui.conftest import screen_text, settle

GAME_ID = "20261201T120000.000Z-network-abcd"
PLAYERS = {Seat.EAST: PlayerInfo(name="Ann"), Seat.WEST: PlayerInfo(name="Bob")}


def watched(seed: int, discards: int | None) -> WatchTable:
    """The table a watcher is sent after both hands and ``discards`` discards (None: to the
    end), made as the daemon makes it: from a seat's view, its own part dropped."""
    table = GameTable(Game(seed), dict(PLAYERS), now=0.0)
    for seat in Seat:
        table.submit(seat, None, auto_command(table.game.view(seat)), 0.0)
    made = 0
    while table.game.phase != "ended" and (discards is None or made < discards):
        turn = table.game.turn
        assert turn is not None
        table.submit(turn, None, auto_command(table.game.view(turn)), 0.0)
        made += 1
    return public_table(GAME_ID, table.table(Seat.EAST, 0.0), 1)


def tables_of(*sent: WatchTable) -> Any:
    async def tables() -> AsyncIterator[WatchTable]:
        for table in sent:
            yield table
        await asyncio.Event().wait()

    return tables


async def test_hands_stay_face_down_until_the_end() -> None:
    table = watched(3, 6)
    app = WatchApp(tables_of(table))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "East to discard" in text and "discard 7 of 34" in text
        assert "face down until the end (R26)" in text and "1 watching" in text
        for seat in Seat:
            panel = app.screen.query_one(f"#watch-{seat.value}", SeatTiles)
            assert panel.has_class("-hidden")
            assert all(not row.tiles for row in panel.query(TileRow))
        for number, (seat, tile) in enumerate(discard_order(table.discards), start=1):
            assert f"{number:>2} {seat.value.title()} {tile}" in text


async def test_the_end_shows_both_hands_and_the_result() -> None:
    end = watched(3, None)
    assert end.end is not None
    app = WatchApp(tables_of(watched(3, 2), end))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.screen.has_class("-ended")
        text = screen_text(app)
        assert "the game has ended" in text
        assert ("Draw" in text) if end.end.result == "draw" else ("Ron!" in text)
        for seat in Seat:
            panel = app.screen.query_one(f"#watch-{seat.value}", SeatTiles)
            assert panel.has_class("-open")
            hand = panel.query_one(".replay-hand", TileRow)
            shown = sorted(str(tile) for tile in hand.tiles)
            assert shown == sorted(str(tile) for tile in parse_tiles(end.end.hands[seat] or ""))
            assert len(shown) == 13


async def test_nothing_to_play_and_q_stops_watching() -> None:
    app = WatchApp(tables_of(watched(3, 0)))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("1", "enter", "space", "d")  # keys that play at a seat do nothing
        await settle(pilot)
        assert app.is_running
        await pilot.press("q")
        await settle(pilot)
    assert not app.is_running


async def test_a_closed_room_is_said_on_the_screen() -> None:
    async def tables() -> AsyncIterator[WatchTable]:
        yield watched(3, 4)

    app = WatchApp(tables, lambda: "Both players left.")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Both players left. q to quit." in screen_text(app)


def test_watch_80x24(snap_compare: Any) -> None:
    assert snap_compare(WatchApp(tables_of(watched(3, 9))), terminal_size=(80, 24))
