"""Shared pieces of the TUI tests: a stand-in bot, a settings folder of their own, screen text."""

from __future__ import annotations

import os

os.environ["TEXTUAL_ANIMATIONS"] = "none"

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget

from minefield.bots.base import Bot, Level
from minefield.paths import CACHE_ENV, CONFIG_ENV, DATA_ENV
from minefield.rules.auto import auto_command
from minefield.rules.game import ChooseHand, Discard, PlayerView, Seat
from minefield.session import LocalSession
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.games import GameRequest
from minefield.tui.textual_private import screen_lines


class StandInBot:
    """The R25 automatic move as an opponent: deterministic and instant."""

    def __init__(self, level: str = "easy") -> None:
        self.level: Level = "easy"

    def act(self, view: PlayerView) -> ChooseHand | Discard:
        """Lowest tiles as a hand; the safest discard."""
        return auto_command(view)


def stand_in(level: str, seed: int) -> Bot:
    """A bot factory for tests."""
    return StandInBot(level)


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test gets its own settings and data folders: the real home is never touched."""
    folder = tmp_path / "config"
    monkeypatch.setenv(CONFIG_ENV, str(folder))
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "data"))
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    yield folder


def make_app(mode: str = "practice", seed: int | None = 1, seat: Seat | None = Seat.EAST,
             preferences: Preferences | None = None, **kwargs: Any) -> MinefieldApp:
    """An app that starts a game at once, with a stand-in bot that does not pause."""
    request = GameRequest("practice", seed=seed, seat=seat) if mode == "practice" else (
        GameRequest("hotseat", seed=seed))
    options: dict[str, Any] = {"think_seconds": 0, "bot_factory": stand_in,
                               "preferences": preferences or Preferences(hint="off"),
                               "catch_errors": False}
    options.update(kwargs)
    return MinefieldApp(request, **options)


async def settle(pilot: Pilot[Any]) -> None:
    """Wait until nothing is left to happen by itself: the app's workers other than the
    session's reader (a hint in a thread), the bot's move, and the messages they posted."""
    app = pilot.app
    for worker in list(app.workers):
        if worker.group != "session":
            await asyncio.gather(worker.wait(), return_exceptions=True)
    for _ in range(3):
        session = getattr(app, "session", None)
        if isinstance(session, LocalSession):
            await session.settled()
        await pilot.pause()


def screen_text(app: App[Any]) -> str:
    """Everything on screen now, as plain text lines."""
    return "\n".join(screen_lines(app.screen))


def on_top(app: App[Any]) -> Screen[Any]:
    """The screen on top now. A call, read afresh: mypy keeps ``app.screen`` narrowed by an
    earlier check as if keys could not change it."""
    return app.screen


def focused(app: App[Any]) -> Widget | None:
    """The focused widget now, read afresh (as :func:`on_top`)."""
    return app.focused
