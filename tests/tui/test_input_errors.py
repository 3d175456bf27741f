"""Unexpected errors: a stream of harmless ones never ends the game, a crash loop does, and the
other seat's failure is logged without its text."""

from __future__ import annotations

from pathlib import Path

import pytest

from minefield.bots.base import Bot
from minefield.paths import CONFIG_ENV, error_log_path
from minefield.rules.game import ChooseHand, Discard, PlayerView, Seat
from minefield.rules.tiles import parse_tiles
from minefield.session import LocalSession
from minefield.tui import crash as crash_module
from minefield.tui.crash import MAX_RECOVERIES
from minefield.tui.screens.builder import HandBuilderScreen
from minefield.tui.screens.dialogs import MessageScreen
from minefield.tui.screens.result import ResultScreen
from minefield.tui.table_controller import TableController
from tests.tui.conftest import StandInBot, make_app, screen_text, settle
from tests.waiting import LOOKS, PAUSE_SECONDS


class Clock:
    """A clock that moves only when told (the app reads it as ``monotonic``)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def broken_toggle(self: HandBuilderScreen, index: int) -> None:
    """A bug in the hand builder: every toggle fails."""
    raise RuntimeError("a bug in the hand builder")


@pytest.mark.long
async def test_spaced_out_errors_never_end_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    monkeypatch.setattr(crash_module, "monotonic", clock)
    monkeypatch.setattr(HandBuilderScreen, "toggle", broken_toggle)
    app = make_app(catch_errors=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        session = app.session
        for _ in range(MAX_RECOVERIES + 2):
            clock.now += 60  # a minute of play between two errors
            await pilot.press("space")
            await pilot.pause()
            assert isinstance(app.screen, MessageScreen)
            await pilot.press("enter")
            await pilot.pause()
        assert app.is_running and app.session is session
        assert app.crash.errors == ["RuntimeError"] * (MAX_RECOVERIES + 2)
        assert isinstance(app.screen, HandBuilderScreen)


async def test_a_tight_crash_loop_still_ends_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(crash_module, "monotonic", Clock())  # no time passes at all

    def cannot_show(self: TableController) -> object:
        raise RuntimeError("the table cannot be drawn")

    app = make_app(catch_errors=True)
    with pytest.raises(RuntimeError, match="the table cannot be drawn"):
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            monkeypatch.setattr(TableController, "target", cannot_show)
            assert app.table is not None
            await app.table.show()  # fails, and so does every recovery
            for _ in range(LOOKS):  # a safety net: each recovery takes a few turns of the
                if not app.is_running:  # loop, more on a loaded machine
                    break
                await pilot.pause(PAUSE_SECONDS)
    assert app.return_code == 1
    # The error that ends the app is logged too (it used to leave no errors.log).
    assert app.crash.errors == ["RuntimeError"] * (MAX_RECOVERIES + 1)
    lines = error_log_path().read_text().splitlines()
    entries = [line for line in lines if line.startswith("--- ")]
    assert len(entries) == MAX_RECOVERIES + 1


class TellingBot(StandInBot):
    """A bot whose failure message holds its own tiles, ``failures`` times in a row."""

    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures
        self.hidden = ""

    def act(self, view: PlayerView) -> ChooseHand | Discard:
        """Fail with the tiles in the message, then play as the stand-in."""
        if self.failures:
            self.failures -= 1
            self.hidden = view.own_tiles
            raise RuntimeError(f"cannot decide with {self.hidden}")
        return super().act(view)


def bot_factory(bot: Bot) -> object:
    """A factory that hands out ``bot``."""
    return lambda level, seed: bot


async def test_the_bots_failure_is_logged_and_shown_without_its_text() -> None:
    bot = TellingBot(failures=1)
    app = make_app(bot_factory=bot_factory(bot), catch_errors=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        assert len(parse_tiles(bot.hidden)) == 34  # the bot's tiles were in the message
        # R25: the automatic move was played for it, and the game goes on at once.
        assert isinstance(app.session, LocalSession) and app.session.view(Seat.EAST).opponent_ready
        assert isinstance(app.screen, HandBuilderScreen)
        notes = [str(n.message) for n in app._notifications]
        assert any("The bot failed (RuntimeError)" in n for n in notes), notes
        assert not any(bot.hidden in n or "cannot decide" in n for n in notes)
        assert bot.hidden not in screen_text(app)
    log = error_log_path().read_text()
    assert "RuntimeError" in log and "in act" in log  # the type and where, for the bug report
    assert bot.hidden not in log and "cannot decide" not in log


async def test_a_bot_that_always_fails_still_finishes_the_game_without_its_text() -> None:
    bot = TellingBot(failures=100)
    app = make_app(bot_factory=bot_factory(bot), catch_errors=True, seat=Seat.WEST)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        for _ in range(12):  # West keeps the first 13 tiles, then discards
            await pilot.press("space", "right")
        await pilot.press("enter")
        await pilot.pause()
        if not isinstance(app.screen, HandBuilderScreen) and "Confirm" in screen_text(app):
            await pilot.press("y")
        for _ in range(60):
            if isinstance(app.screen, ResultScreen):
                break
            await settle(pilot)
            await pilot.press("enter")
        assert app.is_running and app.crash.errors and set(app.crash.errors) == {"RuntimeError"}
        assert bot.hidden not in screen_text(app)
    log = error_log_path().read_text()
    assert log.count("RuntimeError") == len(app.crash.errors) and bot.hidden not in log


async def test_the_error_message_shows_a_log_path_with_brackets(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    folder = tmp_path / "[/odd]"
    monkeypatch.setenv(CONFIG_ENV, str(folder))
    monkeypatch.setattr(HandBuilderScreen, "toggle", broken_toggle)
    app = make_app(catch_errors=True)
    async with app.run_test(size=(120, 32)) as pilot:
        await pilot.pause()
        await pilot.press("space")
        await pilot.pause()
        assert isinstance(app.screen, MessageScreen)
        assert "[/odd]" in screen_text(app) and app.crash.errors == ["RuntimeError"]
