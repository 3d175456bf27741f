"""The app's match screens over the network: a hosted match plays in the same
screens as a local one (scoreboard, result with the settlement, the next game on ``n``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from minefield.paths import CACHE_ENV
from minefield.session.remote_start import host, join
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.screens.builder import HandBuilderScreen
from minefield.tui.screens.dialogs import ConfirmScreen
from minefield.tui.screens.play import PlayScreen
from minefield.tui.screens.result import ResultScreen
from minefield.tui.widgets.scoreboard import Scoreboard
from tests.server.conftest import make_config, start_daemon
from tests.server.test_match_server import FAST, SEED, next_game_snapshot, play
from tests.waiting import until


@pytest.fixture(autouse=True)
def own_cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The app keeps its parsed stylesheet in this test's own cache folder, not the home's."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))


@pytest.mark.long
async def test_a_hosted_match_plays_in_the_match_screens(short_dir: Path) -> None:
    daemon = await start_daemon(short_dir, rate=FAST, burst=int(FAST))
    socket = make_config(short_dir).socket
    try:
        session = await host(socket=socket, player="alice", seed=SEED, match=True)
        assert session.code is not None
        bob = await join(session.code, socket=socket, player="bob")
        await bob.open()
        bob_plays = asyncio.create_task(play(bob, 1))
        app = MinefieldApp(session=session, preferences=Preferences(hint="off"),
                           catch_errors=False)
        async with app.run_test(size=(100, 34)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, HandBuilderScreen), "the builder")
            assert app.screen.query(Scoreboard), "the scoreboard is on the table"
            for _ in range(13):
                await pilot.press("space", "right")
            await pilot.press("enter")
            await pilot.pause()
            if isinstance(app.screen, ConfirmScreen):
                await pilot.press("y")
            await until(pilot, lambda: isinstance(app.screen, PlayScreen | ResultScreen),
                        "the play screen")
            while not isinstance(app.screen, ResultScreen):
                screen = app.screen
                if isinstance(screen, PlayScreen) and screen.view.my_turn:
                    made = screen.view.discards_made
                    await pilot.press("enter")

                    def applied(s: PlayScreen = screen, m: int = made) -> bool:
                        return not isinstance(app.screen, PlayScreen) or s.view.discards_made > m

                    await until(pilot, applied, "my discard applied")
                else:
                    await pilot.pause(0.02)
            result = app.screen
            assert isinstance(result, ResultScreen) and result.match is not None
            assert result.match.last is not None and result.match.game == 1
            assert result.query(Scoreboard)
            await bob_plays
            await pilot.press("n")  # alice is ready; the game starts when bob is too
            await until(pilot, lambda: session.match is not None
                        and session.match.next_asked == ["alice"], "alice's request")
            assert isinstance(app.screen, ResultScreen)
            await bob.next_game()
            await next_game_snapshot(bob, 2)
            await until(pilot, lambda: isinstance(app.screen, HandBuilderScreen),
                        "game 2's builder")
            assert session.match is not None and session.match.game == 2
            assert app.screen.query(Scoreboard)
        await bob.close()
        await session.close()
    finally:
        await daemon.stop()
