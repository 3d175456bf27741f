"""The result screen of a rated network game: each player's rating before and after
(Glicko-2, sent by the server once the result is in), on an 80x24 snapshot; a game that is
not rated shows no rating line."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static

from minefield.protocol.messages import PlayerInfo, Rated, RatingChange
from minefield.rules.game import Seat
from minefield.session import LocalSession
from minefield.tui.app import MinefieldApp
from minefield.tui.screens.result import ResultScreen
from tests.tui.conftest import make_app, screen_text, settle
from tests.tui.test_snapshots import ron_game

RATED = Rated(seat=Seat.EAST, game="20261201T120000.000Z-network-beef", players=[
    RatingChange(name="East", before=1500, after=1662, deviation=290),
    RatingChange(name="West", before=1500, after=1338, deviation=290)])


async def show_result(pilot: Pilot[Any], rated: Rated | None = RATED) -> None:
    app = pilot.app
    assert isinstance(app, MinefieldApp)
    players = {seat: PlayerInfo(name=seat.value.title()) for seat in Seat}
    await app.play(LocalSession(ron_game(), "hotseat", (Seat.EAST, Seat.WEST), players))
    await settle(pilot)
    if rated is not None and app.table is not None:
        await app.table.update(rated)  # as the server sends it, after the result
        await settle(pilot)


async def test_the_ratings_come_after_the_result_and_show_on_it() -> None:
    app = make_app(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await show_result(pilot, rated=None)
        assert isinstance(app.screen, ResultScreen)
        assert not app.screen.query_one("#result-ratings", Static).display
        assert "Rating:" not in screen_text(app)
        assert app.table is not None
        await app.table.update(RATED)
        await settle(pilot)
        assert "Rating: East 1500 → 1662 (+162) · West 1500 → 1338 (-162)" in screen_text(app)


def test_rated_result_80x24(snap_compare: Any) -> None:
    assert snap_compare(make_app(seed=1), terminal_size=(80, 24), run_before=show_result)
