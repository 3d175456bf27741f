"""R25 in the app: a clock that runs out plays the automatic move, shown with no input."""

from __future__ import annotations

import re

from minefield.rules.game import Seat
from minefield.rules.settings import RuleSettings
from minefield.session import LocalSession
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.screens.builder import HandBuilderScreen
from minefield.tui.screens.play import PlayScreen
from tests.tui.conftest import StandInBot


async def test_r25_the_hand_clock_runs_out_and_the_chosen_tiles_are_kept() -> None:
    app = MinefieldApp(preferences=Preferences(hint="off"), catch_errors=False)
    session = LocalSession.practice(seed=1, bot=StandInBot(), human=Seat.EAST,
                                    settings=RuleSettings(hand_seconds=5), think_seconds=0)
    async with app.run_test(size=(100, 32)) as pilot:
        await app.play(session)
        await pilot.pause()
        builder = app.screen
        assert isinstance(builder, HandBuilderScreen)
        assert re.search(r"You 0:0[1-5]", builder.sub_title or "")  # the clock is shown
        await pilot.press("7", "z", "7", "z")  # two red dragons chosen, then nothing
        await pilot.pause()
        for _ in range(1000):  # the clock runs out after 5 s; nothing is pressed
            if isinstance(app.screen, PlayScreen):
                break
            await pilot.pause(0.02)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        assert (screen.view.own_hand or "").endswith("77z")  # R25: the draft is kept
        notes: list[str] = []
        for _ in range(250):  # the notice may follow the new screen by a message or two
            notes = [str(n.message) for n in app._notifications]
            if any("automatic move" in n for n in notes):
                break
            await pilot.pause(0.02)
        assert any("automatic move" in n for n in notes), notes
