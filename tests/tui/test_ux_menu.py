"""The menu asks how to play before a game starts: bot level, seat and rules preset (practice),
the rules preset (hot-seat), with the saved preferences chosen."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input, Select, Static

from minefield.bots.base import Bot
from minefield.records.reader import read_record
from minefield.rules.auto import auto_command
from minefield.rules.game import Seat
from minefield.rules.settings import RuleSettings
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.screens.builder import HandBuilderScreen
from minefield.tui.screens.dialogs import CurtainScreen
from minefield.tui.screens.menu import MenuScreen
from minefield.tui.screens.new_game import NewGameScreen
from tests.tui.conftest import StandInBot, screen_text, settle


def menu_app(levels: list[str], preferences: Preferences | None = None) -> MinefieldApp:
    """The app at its menu; the bots it builds note their level in ``levels``."""
    def factory(level: str, seed: int) -> Bot:
        levels.append(level)
        return StandInBot(level)

    return MinefieldApp(think_seconds=0, bot_factory=factory, catch_errors=False,
                        preferences=preferences or Preferences(hint="off"))


async def pick(pilot: Pilot[int], steps: int) -> None:
    """Open the focused list, move ``steps`` (negative: up) and take that entry."""
    await pilot.press("enter")
    await pilot.pause()
    await pilot.press(*(["down"] * steps if steps > 0 else ["up"] * -steps), "enter")
    await pilot.pause()


async def test_practice_asks_level_seat_and_rules_first() -> None:
    levels: list[str] = []
    app = menu_app(levels)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("p")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewGameScreen) and app.session is None  # nothing started yet
        assert form.query_one("#level", Select).value == "normal"  # the saved preferences
        assert form.query_one("#rules", Select).value == "standard"
        assert "at least mangan (R14)" in screen_text(app)
        form.query_one("#start").focus()  # the focus starts on the first field
        await pilot.press("shift+tab", "shift+tab", "shift+tab")  # Start, clock, Rules...
        await pick(pilot, 1)
        assert form.query_one("#rules", Select).value == "beginner"
        assert "Every wait wins, riichi being a yaku" in screen_text(app)
        await pilot.press("shift+tab")  # the seat: West
        await pick(pilot, 2)
        await pilot.press("shift+tab")  # the level: easy
        await pick(pilot, -1)
        await pilot.press("s")
        await settle(pilot)
        assert isinstance(app.screen, HandBuilderScreen)
        session = app.session
        assert session is not None and session.local_seats == (Seat.WEST,)
        assert session.settings == RuleSettings.preset("beginner")
        assert levels == ["easy"]


async def test_the_form_starts_with_the_saved_preferences_and_escape_goes_back() -> None:
    levels: list[str] = []
    app = menu_app(levels, Preferences(hint="off", bot_level="strong", rules="beginner"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen) and app.session is None
        await pilot.press("p")
        await pilot.pause()
        await pilot.press("enter")  # in the name field: what is chosen, as saved
        await settle(pilot)
        assert app.session is not None
        assert app.session.settings == RuleSettings.preset("beginner") and levels == ["strong"]


async def test_hotseat_asks_the_rules_preset() -> None:
    app = menu_app([])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewGameScreen) and not form.query("#level")
        form.query_one("#start").focus()  # the focus starts on the first field
        await pilot.press("shift+tab", "shift+tab", "shift+tab")  # Start, clock, Rules...
        await pick(pilot, 1)
        await pilot.press("s")
        await settle(pilot)
        assert isinstance(app.screen, CurtainScreen)
        assert app.session is not None
        assert app.session.settings == RuleSettings.preset("beginner")
        assert "beginner rules" in app.sub_title


async def test_hotseat_names_reach_the_table_the_curtain_and_the_record(
        tmp_path: Path) -> None:
    """Names typed on the form name the seats everywhere: the session's players (scoreboard,
    result, logs read them), the curtain, and the record's players."""
    app = MinefieldApp(think_seconds=0, catch_errors=False, record_folder=tmp_path,
                       preferences=Preferences(hint="off"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewGameScreen)
        form.query_one("#east", Input).value = "Ann"
        form.query_one("#west", Input).value = "ann "
        await pilot.press("ctrl+s")  # two names that are the same: said, no game
        await pilot.pause()
        assert app.screen is form and app.session is None
        assert ("Name: both players are called 'ann': give two different names." in
                str(form.query_one("#preset-note", Static).content))
        form.query_one("#west", Input).value = "Bob"
        form.query_one("#west", Input).focus()
        await pilot.press("enter")  # Enter in a name field starts the game
        await pilot.pause()
        assert isinstance(app.screen, CurtainScreen)
        assert "Pass to East (Ann)" in screen_text(app)
        assert app.table is not None and app.table.names() == {Seat.EAST: "Ann",
                                                               Seat.WEST: "Bob"}
        session = app.session
        assert session is not None
        for seat in Seat:
            await session.send(seat, auto_command(session.view(seat)))
        await settle(pilot)
    record = read_record(next(tmp_path.glob("*.jsonl")))
    assert (record.header.players.east, record.header.players.west) == ("Ann", "Bob")


async def test_a_practice_name_names_the_player() -> None:
    app = menu_app([])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("p")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewGameScreen)
        form.query_one("#name", Input).value = "Bot (strong)"
        await pilot.press("ctrl+s")  # from the name field (s would be typed there)
        await pilot.pause()
        assert app.screen is form and "is a bot's name" in str(
            form.query_one("#preset-note", Static).content)
        form.query_one("#name", Input).value = "  Carla  "
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.table is not None and app.session is not None
        assert app.table.names()[app.session.local_seats[0]] == "Carla"
