"""A full seeded practice game played by keyboard, checking the screen at each step."""

from __future__ import annotations

import threading

from textual.pilot import Pilot

from minefield.rules.game import ChooseHand, Discard, Game, PlayerView, Seat
from minefield.tui.app import MinefieldApp
from minefield.tui.screens.builder import HandBuilderScreen
from minefield.tui.screens.dialogs import ConfirmScreen
from minefield.tui.screens.play import PlayScreen
from minefield.tui.screens.result import ResultScreen
from tests.tui.conftest import StandInBot, make_app, screen_text, settle

# Seed 1 deals East 1123447899m 124456889p 234459s 234566777z (dora indicator 8s); this hand
# waits on 4p and 7p, both below mangan even with ippatsu.
HAND = ["1m", "2m", "3m", "7m", "8m", "9m", "4p", "4p", "5p", "2s", "3s", "4s", "6p"]


async def type_tiles(pilot: Pilot[int], tiles: list[str]) -> None:
    """Type tiles as a player would: a digit, then the suit letter."""
    for tile in tiles:
        await pilot.press(tile[0], tile[1])


async def test_practice_game_by_keyboard_to_the_result(config_dir: object) -> None:
    app = make_app(seed=1, seat=Seat.EAST)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandBuilderScreen)
        text = screen_text(app)
        assert "Hand 0/13" in text and "Dead wall" in text
        assert "8s" in text  # the dora indicator is in view (R3)

        await type_tiles(pilot, HAND[:12])
        await pilot.pause()
        assert "Hand 12/13" in screen_text(app)
        await pilot.press("enter")  # 12 tiles: confirming is explained, not an error
        await pilot.pause()
        assert isinstance(app.screen, HandBuilderScreen)
        assert "Choose exactly 13 tiles" in screen_text(app)

        await type_tiles(pilot, HAND[12:])
        await pilot.pause()
        text = screen_text(app)
        assert "Hand 13/13" in text and "Tenpai, 2 waits" in text
        assert "4p  2 live  no ron" in text and "7p  4 live  no ron" in text
        assert "No wait reaches mangan" in text

        await pilot.press("enter")  # no eligible wait: asks once more (issue: confirmation)
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, PlayScreen)
        text = screen_text(app)
        assert "Your turn" in text and "Not furiten." in text and "Pool 21" in text

        for turn in range(1, 18):
            if not isinstance(app.screen, PlayScreen):
                break
            await pilot.press("enter")
            await settle(pilot)
            await pilot.pause()
            if isinstance(app.screen, PlayScreen):
                text = screen_text(app)
                assert f"East {turn}/17" in text
                assert f"Pool {21 - turn}" in text
                # R15b, R27: West's first discard is 7p, a wait below mangan: furiten at once,
                # with its cause.
                assert "FURITEN since discard 2: 7p was one of your waits" in text
        assert isinstance(app.screen, ResultScreen)
        text = screen_text(app)
        assert ("Ron!" in text and "points" in text) or "Draw" in text
        await pilot.press("end")  # the seed closes the result, after the game's log
        await pilot.pause()
        text = screen_text(app)
        assert "Ura dora indicator" in text and "seed 00000000000000000000000000000001" in text


class GatedBot(StandInBot):
    """Discards only once the test opens the gate (it thinks in a worker thread meanwhile)."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()

    def act(self, view: PlayerView) -> ChooseHand | Discard:
        if view.phase == "discarding":
            self.gate.wait(timeout=10)
        return super().act(view)


async def test_discarding_out_of_turn_is_disabled_not_an_error() -> None:
    bot = GatedBot()
    app = make_app(seed=1, seat=Seat.WEST, bot_factory=lambda level, seed: bot)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        builder = app.screen
        assert isinstance(builder, HandBuilderScreen)
        await pilot.press("i")  # no hint in these preferences: nothing happens
        for _ in range(13):
            await pilot.press("space", "right")
        await pilot.press("enter")
        await pilot.pause()
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("y")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        assert screen.view.discards_made == 0  # East, the bot, is thinking
        assert screen.check_action("discard", ()) is None  # shown dimmed in the footer
        assert "Bot (easy)'s turn" in screen_text(app)  # its seat is on the line above
        await pilot.press("enter", "space")  # nothing happens: no error, no discard
        assert len(screen.view.discards[Seat.WEST]) == 0
        bot.gate.set()
        await settle(pilot)
        await pilot.pause()
        assert screen.view.discards_made == 1 and screen.view.my_turn
        assert screen.check_action("discard", ()) is True
        assert isinstance(app, MinefieldApp) and app.crash.errors == []


def test_the_seeded_hand_is_what_the_test_expects() -> None:
    tiles = Game(1).view(Seat.EAST).own_tiles
    assert tiles == "1123447899m124456889p234459s234566777z"
