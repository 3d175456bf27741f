"""The app around the game: errors, help, palette, menu, small terminals, mouse, tile styles."""

from __future__ import annotations

import re

import pytest
from textual.widgets import Markdown

from minefield.paths import error_log_path
from minefield.rules.game import ChooseHand, Discard, PlayerView, Seat
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.screens.builder import HandBuilderScreen
from minefield.tui.screens.dialogs import ConfirmScreen, MessageScreen, TooSmallScreen
from minefield.tui.screens.help import HelpScreen, asset_text
from minefield.tui.screens.menu import MenuScreen
from minefield.tui.widgets.tiles import TileRow
from tests.tui.conftest import make_app, screen_text, settle, stand_in

TILE = re.compile(r"[0-9][mpsz]")


async def test_an_unexpected_error_is_a_message_and_the_game_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(seed=1, catch_errors=True)
    failures = []

    def broken_toggle(self: HandBuilderScreen, index: int) -> None:
        failures.append(index)
        raise RuntimeError("a bug in the hand builder")

    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        session = app.session
        with monkeypatch.context() as patch:
            patch.setattr(HandBuilderScreen, "toggle", broken_toggle)
            await pilot.press("space")
            await pilot.pause()
        assert failures and app.crash.errors == ["RuntimeError"]
        assert isinstance(app.screen, MessageScreen)
        await pilot.pause()
        text = screen_text(app)
        assert "Something went wrong" in text and "(RuntimeError)" in text, text
        await pilot.press("enter")
        await pilot.pause()
        assert app.session is session  # the same game
        assert isinstance(app.screen, HandBuilderScreen)
        await pilot.press("space")
        await pilot.pause()
        assert "Hand 1/13" in screen_text(app)
    report = error_log_path().read_text()
    # Where and what type, never the error's text (it may name hidden tiles).
    assert "RuntimeError" in report and "in broken_toggle" in report
    assert "a bug in the hand builder\n" not in report


async def test_help_shows_the_readme_rules_and_every_key() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "Both players are in riichi from the start" in asset_text("rules.md")
        markdown = app.screen.query_one("#help-text", Markdown).source
        assert asset_text("rules.md").strip() in markdown
        for description in ("Toggle", "Confirm", "Discard", "Pass the keyboard", "Ready",
                            "Play again", "Command palette"):
            assert description in markdown
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HandBuilderScreen)


async def test_the_palette_offers_the_screen_actions() -> None:
    from minefield.tui.command_palette import ScreenActions

    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        provider = ScreenActions(app.screen)
        names = [name for name, _, _ in provider._actions()]
        assert "Toggle" in names and "Confirm" in names and "Help" in names
        assert not any(name in ("Left", "Right") for name in names)  # hidden moves stay out
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Screenshot" not in titles and "Settings" in titles


async def test_menu_starts_games_and_leaving_asks_first() -> None:
    app = MinefieldApp(think_seconds=0, bot_factory=stand_in, preferences=Preferences(hint="off"),
                       catch_errors=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        text = screen_text(app)
        for entry in ("Practice against a bot", "Hot-seat", "Rules and keys", "Settings", "Quit"):
            assert entry in text
        await pilot.press("enter")  # the first entry: practice
        await pilot.pause()
        await pilot.press("enter")  # its form: Start, with the saved level and rules
        await pilot.pause()
        assert isinstance(app.screen, HandBuilderScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, HandBuilderScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen) and app.session is None


async def test_a_small_terminal_gets_a_clear_notice() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.resize_terminal(70, 20)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        assert "Terminal too small" in screen_text(app)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert isinstance(app.screen, HandBuilderScreen)


async def test_tiles_are_chosen_and_discarded_with_the_mouse() -> None:
    app = make_app(seed=1, seat=Seat.EAST)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HandBuilderScreen)
        rack = screen.query_one("#rack", TileRow)
        for place in rack.places[:13]:
            await pilot.click(place)
        await pilot.pause()
        assert len(screen.chosen) == 13
        await pilot.click(screen.query_one("#hand", TileRow).places[0])  # unchoose from the hand
        await pilot.pause()
        assert len(screen.chosen) == 12


@pytest.mark.parametrize("style", ["text", "unicode"])
async def test_other_tile_styles_keep_the_suit_letter(style: str) -> None:
    app = make_app(preferences=Preferences(hint="off", tile_style=style))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        # Honors by their names (the default "letters"): the red dragon is Rd, never 7z.
        assert "1m" in text and "Rd" in text and "7z" not in text
        assert "╭──╮" not in text.split("Hand")[0].split("\n", 4)[-1]


async def test_a_fatal_error_report_shows_no_local_variables() -> None:
    """Textual's own crash report prints locals, which could hold a hidden hand."""
    from rich.console import Console

    app = make_app("hotseat", seed=3)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()

        def deal_with(opponent_hand: str) -> None:
            raise RuntimeError("boom")

        hidden = "".join(["1", "2", "3", "m", "9", "9", "9", "z"])  # never in the source text
        try:
            deal_with(hidden)
        except RuntimeError:
            app._fatal_error()
        console = Console(record=True, width=120)
        for renderable in app._exit_renderables:
            console.print(renderable)
        app._exit_renderables.clear()
        report = console.export_text()
        assert "RuntimeError: boom" in report
        assert hidden not in report and "opponent_hand =" not in report
        app._exception = None
        app._return_code = None


async def test_a_failing_hint_is_no_error() -> None:
    from minefield.bots.base import Bot
    from tests.tui.conftest import StandInBot

    class BrokenHint(StandInBot):
        def act(self, view: PlayerView) -> ChooseHand | Discard:
            raise RuntimeError("no search today")

    def factory(level: str, seed: int) -> Bot:
        return BrokenHint() if level == "strong" else StandInBot()

    app = make_app(bot_factory=factory, preferences=Preferences(hint="practice"))
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        await pilot.pause()
        assert "the bot found no hand to suggest" in screen_text(app)
        assert isinstance(app.screen, HandBuilderScreen) and app.crash.errors == []


async def test_ctrl_z_suspends_like_other_terminal_programs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl+Z runs Textual's suspend (SIGTSTP; ``fg`` resumes) on every screen, the hand
    builder and the menu included (a real suspend needs a terminal: the action is recorded)."""
    app = make_app(seed=1)
    suspended: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        monkeypatch.setattr(app, "action_suspend_process",
                            lambda: suspended.append(type(app.screen).__name__))
        await pilot.press("ctrl+z")
        await pilot.press("escape")  # the menu asks first: leave the game
        await pilot.pause()
        await pilot.press("ctrl+z")
        await pilot.pause()
    assert suspended == ["HandBuilderScreen", "ConfirmScreen"]
