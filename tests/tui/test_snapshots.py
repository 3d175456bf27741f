"""A few SVG snapshots: the hand builder (80x24), the table (80x24 and 100x32), a ron result
(80x24).

Regenerate with ``pytest tests/tui/test_snapshots.py --snapshot-update`` only after looking at
the new SVGs (snapshot_report.html).
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from minefield.protocol.messages import PlayerInfo
from minefield.rules.game import ChooseHand, Discard, Game, Seat
from minefield.rules.tiles import parse_tiles
from minefield.rules.wall import Deal
from minefield.session import LocalSession
from minefield.tui.app import MinefieldApp
from tests.tui.conftest import make_app, settle

HAND = "1m2m3m7m8m9m4p4p5p2s3s4s6p"  # see test_practice.py


async def _type_hand(pilot: Pilot[Any]) -> None:
    for key in HAND:
        await pilot.press(key)
    await pilot.pause()


def test_hand_builder_80x24(snap_compare: Any) -> None:
    assert snap_compare(make_app(seed=1, seat=Seat.EAST), terminal_size=(80, 24),
                        run_before=_type_hand)


async def _play_three(pilot: Pilot[Any]) -> None:
    await _type_hand(pilot)
    await pilot.press("enter", "y")
    for _ in range(3):
        await pilot.press("right", "enter")
        await settle(pilot)
        await pilot.pause()


def test_play_screen_100x32(snap_compare: Any) -> None:
    assert snap_compare(make_app(seed=1, seat=Seat.EAST), terminal_size=(100, 32),
                        run_before=_play_three)


def test_play_screen_80x24(snap_compare: Any) -> None:
    """The smallest table: one-line discard rows and hand, the log beside the pool."""
    assert snap_compare(make_app(seed=1, seat=Seat.EAST), terminal_size=(80, 24),
                        run_before=_play_three)


def ron_game() -> Game:
    """East waits on 1p/9p with ittsu and a dora; West's first discard is 1p: ron with ippatsu."""
    east = parse_tiles("123456789m1199p" "234567p2345678s1s1234567z")
    west = parse_tiles("123456789m123456788p123456789s1234567z")
    deal = Deal.from_tiles(east, west, parse_tiles("8m")[0], parse_tiles("3m")[0])
    game = Game(0, deal=deal)
    game.apply(Seat.EAST, ChooseHand(tiles="123456789m1199p"))
    game.apply(Seat.WEST, ChooseHand(tiles="123456789m2345p"))
    game.apply(Seat.EAST, Discard(tile="1z"))
    game.apply(Seat.WEST, Discard(tile="1p"))
    return game


def test_result_screen_80x24(snap_compare: Any) -> None:
    app = make_app(seed=1)
    game = ron_game()

    async def show_result(pilot: Pilot[Any]) -> None:
        assert isinstance(pilot.app, MinefieldApp)
        players = {seat: PlayerInfo(name=seat.value.title()) for seat in Seat}
        await pilot.app.play(LocalSession(game, "hotseat", (Seat.EAST, Seat.WEST), players))
        await settle(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=show_result)
