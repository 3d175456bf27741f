"""R25 in the app: a clock that runs out plays the automatic move, shown with no input."""

from __future__ import annotations

import re

from textual.widgets import Static

from minefield.protocol.messages import PlayerInfo
from minefield.rules.game import Seat
from minefield.rules.prepared import game_with_hands
from minefield.rules.settings import RuleSettings
from minefield.session import LocalSession
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.games import GameRequest
from minefield.tui.screens.builder import HandBuilderScreen
from minefield.tui.screens.dialogs import CurtainScreen
from minefield.tui.screens.play import PlayScreen
from tests.tui.conftest import StandInBot, screen_text, settle, stand_in


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


def app_with(request: GameRequest) -> MinefieldApp:
    return MinefieldApp(request, think_seconds=0, bot_factory=stand_in, catch_errors=False,
                        preferences=Preferences(hint="off"))


async def test_r25_clock_on_the_command_line_runs_in_practice() -> None:
    """``practice --clock 60+10``: the hand clock runs and shows in the header (as in network
    play), then the discard clock of whoever is to discard."""
    app = app_with(GameRequest("practice", seed=1, seat=Seat.EAST,
                               rule=("hand_seconds=60", "discard_seconds=10")))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        builder = app.screen
        assert isinstance(builder, HandBuilderScreen)
        assert re.search(r"You (1:00|0:[0-5]\d)", builder.sub_title or "")
        session = app.session
        assert session is not None and session.settings.discard_seconds == 10


async def test_r25_in_hotseat_a_clock_starts_when_its_player_lifts_the_curtain() -> None:
    """``hotseat --clock 60+10``: behind the first curtain no clock runs; East's starts at
    Enter with its whole minute, West's waits for West (the hand-over is nobody's time); the
    header shows both by name."""
    app = app_with(GameRequest("hotseat", seed=1, rule=("hand_seconds=60", "discard_seconds=10")))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, CurtainScreen)
        table = app.table
        assert table is not None
        assert not any(c.running for t in table.tables.values() for c in t.clocks.values())
        await pilot.press("enter")
        await settle(pilot)
        builder = app.screen
        assert isinstance(builder, HandBuilderScreen) and builder.seat is Seat.EAST
        assert builder.table is not None
        east, west = builder.table.clocks[Seat.EAST], builder.table.clocks[Seat.WEST]
        assert east.running and east.remaining == 60.0 and east.limit == 60
        assert not west.running
        # Both clocks by name (it read only "You 0:09"): East's runs, West's waits.
        shown = builder.sub_title or ""
        assert re.search(r"East (1:00|0:[0-5]\d) · West 1:00", shown), shown
        assert "You" not in shown


async def test_r25_in_hotseat_a_discard_the_clock_made_is_said_to_be_the_clocks() -> None:
    """East lets the discard clock run out: the held screen says the clock discarded the tile,
    not "You discarded"."""
    game = game_with_hands("23m456m345p678s55s", "123m456p789s3332z", east_pool="1z2z2p6p9p",
                           settings=RuleSettings(discard_seconds=1))
    players = {seat: PlayerInfo(name=seat.value.title()) for seat in Seat}
    app = MinefieldApp(think_seconds=0, preferences=Preferences(hint="off"), catch_errors=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.play(LocalSession(game, "hotseat", (Seat.EAST, Seat.WEST), players))
        await settle(pilot)
        await pilot.press("enter")  # East lifts the curtain: East's discard clock runs
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        for _ in range(1000):  # the clock runs out after 1 s; nothing is pressed
            if screen.hold:
                break
            await pilot.pause(0.02)
        await pilot.pause()
        assert screen.hold and len(screen.view.discards[Seat.EAST]) == 1
        status = str(screen.query_one("#status", Static).render())
        tile = screen.view.discards[Seat.EAST][-1]
        assert status == (f"Time ran out: the clock discarded {tile} for you (R25). Enter "
                          "passes to West."), status
        assert "You discarded" not in screen_text(app)
