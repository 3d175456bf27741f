"""Unexpected errors: a stream of harmless ones never ends the game, a crash loop does, and the
other seat's failure is logged without its text."""

from __future__ import annotations

import pytest

from minefield.tui import app as app_module
from minefield.tui.app import MAX_RECOVERIES, MinefieldApp
from minefield.tui.screens.builder import HandBuilderScreen
from minefield.tui.screens.dialogs import MessageScreen
from tests.tui.conftest import make_app


class Clock:
    """A clock that moves only when told (the app reads it as ``monotonic``)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def broken_toggle(self: HandBuilderScreen, index: int) -> None:
    """A bug in the hand builder: every toggle fails."""
    raise RuntimeError("a bug in the hand builder")


async def test_spaced_out_errors_never_end_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    monkeypatch.setattr(app_module, "monotonic", clock)
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
        assert app.errors == ["RuntimeError"] * (MAX_RECOVERIES + 2)
        assert isinstance(app.screen, HandBuilderScreen)


async def test_a_tight_crash_loop_still_ends_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app_module, "monotonic", Clock())  # no time passes at all

    def cannot_show(self: MinefieldApp, session: object) -> object:
        raise RuntimeError("the table cannot be drawn")

    app = make_app(catch_errors=True)
    with pytest.raises(RuntimeError, match="the table cannot be drawn"):
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            monkeypatch.setattr(MinefieldApp, "_target", cannot_show)
            await app.show_game()  # fails, and so does every recovery
            for _ in range(3 * MAX_RECOVERIES):
                if not app.is_running:
                    break
                await pilot.pause()
    assert app.return_code == 1
    assert app.errors == ["RuntimeError"] * MAX_RECOVERIES
