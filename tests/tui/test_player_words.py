"""Words a player should see instead of internal names: the replay's
header, the Settings screen's themes. (The rules editor: tests/tui/screens/test_rules.py; a
bad --rule value: tests/rules/test_settings.py; analyze: tests/test_cli_analyze.py.)"""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Select

from minefield.bots.levels import make_bot
from minefield.records.header import Players
from minefield.records.reader import read_record
from minefield.records.replay import replay_record
from minefield.records.writer import write_game
from minefield.rules.game import Game, Seat
from minefield.rules.settings import RuleSettings
from minefield.tui.config import Preferences
from minefield.tui.replay_app import ReplayApp
from minefield.tui.screens.settings import SettingsScreen
from tests.tui.conftest import screen_text
from tests.tui.test_trainer import fast_app


def custom_game() -> Game:
    """A hot-seat game under custom rules (R25 clocks, R23 dealer bonus), played to its end by
    two easy bots."""
    game = Game(7, RuleSettings(hand_seconds=60, discard_seconds=10, dealer_bonus=True))
    bots = {Seat.EAST: make_bot("easy", 7), Seat.WEST: make_bot("easy", 8)}
    while game.phase != "ended":
        seat = (next(s for s in Seat if game.hand_of(s) is None) if game.phase == "choosing"
                else game.turn)
        assert seat is not None
        game.apply(seat, bots[seat].act(game.view(seat)))
    return game


async def test_the_replay_header_says_the_mode_and_the_rules_in_words(tmp_path: Path) -> None:
    path = write_game(custom_game(), "hotseat", Players(east="Ann", west="Bob"), tmp_path)
    record = read_record(path)
    app = ReplayApp(record, replay_record(record), preferences=Preferences())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert " · hot-seat · " in text and "hotseat" not in text
        assert ("custom rules: hand clock 60 s, discard clock 10 s, dealer bonus on"
                in text), text
        assert "hand_seconds" not in text and "dealer_bonus" not in text


async def test_settings_call_the_themes_by_name() -> None:
    app = fast_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        theme = app.screen.query_one("#theme", Select)
        labels = [str(prompt) for prompt, _value in theme._options]
        assert "theme: dark" in labels and not any("textual-" in label for label in labels)
        assert "theme: dark" in screen_text(app)
