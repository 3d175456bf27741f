"""Games played one after the other in one app keep nothing of the games before: no screen,
no widget, and none of their rendered lines (Textual keeps a widget's ``StylesCache`` in an
``lru_cache`` after the widget has gone: a session grew 8-20 MB a game)."""

from __future__ import annotations

import gc

from textual.dom import DOMNode

from minefield.rules.game import Seat
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.screens.result import ResultScreen
from tests.tui.conftest import settle, stand_in
from tests.tui.test_snapshots import ron_game
from tests.tui.test_ux_result import practice


def alive(kind: str) -> int:
    """How many objects of the class named ``kind`` are alive."""
    gc.collect()
    return sum(1 for thing in gc.get_objects() if type(thing).__name__ == kind)


async def test_games_one_after_the_other_leave_no_widget_nor_its_rendered_lines() -> None:
    app = MinefieldApp(think_seconds=0, bot_factory=stand_in, preferences=Preferences(
        hint="off"), catch_errors=False)
    async with app.run_test(size=(100, 32)) as pilot:
        counts = []
        for _ in range(4):
            await app.play(practice(ron_game(), Seat.WEST))
            await settle(pilot)
            assert isinstance(app.screen, ResultScreen)
            counts.append((alive("StylesCache"),
                           sum(1 for thing in gc.get_objects() if isinstance(thing, DOMNode))))
        caches, widgets = zip(*counts, strict=True)
        # Each cache belongs to a widget alive now: the games before left none behind.
        assert caches[-1] <= widgets[-1], counts
        assert caches[-1] <= caches[1] + 5, counts
