"""The drills screen as a player meets it: a read-the-wait answer is graded and saved
(it used to end the app with a KeyError), and an unexpected error inside an answer is logged
without hidden tiles and told, and the app goes on."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Select

from minefield.paths import error_log_path
from minefield.rules.names import KANJI
from minefield.trainer.drill_answers import DrillAnswer
from minefield.trainer.drills import Drill
from minefield.trainer.progress import open_progress
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.screens import drills as drills_screen
from minefield.tui.screens.dialogs import MessageScreen
from minefield.tui.screens.drills import DrillsScreen, store_recorder
from minefield.tui.screens.menu import MenuScreen
from tests.tui.conftest import screen_text


def menu_app(catch_errors: bool = False) -> MinefieldApp:
    """The app at the menu, as a player starts it (errors caught when asked)."""
    return MinefieldApp(think_seconds=0, preferences=Preferences(hint="off"),
                        catch_errors=catch_errors)


async def drill_of(pilot: Pilot[Any], kind: str) -> tuple[DrillsScreen, Drill]:
    """Menu ``d``, Kind = ``kind``: the drill once made."""
    await pilot.press("d")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, DrillsScreen)
    screen.query_one("#drill-kind", Select).value = kind
    for _ in range(200):
        # The first drill (Due) is cancelled by the choice: its wait raises WorkerCancelled.
        await asyncio.gather(*(worker.wait() for worker in list(screen.workers)),
                             return_exceptions=True)
        await pilot.pause()
        if isinstance(screen.drill, Drill) and screen.drill.kind == kind:
            return screen, screen.drill
    raise AssertionError("no drill was made")


def saved_drills() -> list[str]:
    """The kinds of the drill answers in the progress store."""
    store, problem = open_progress()
    assert problem is None, problem
    try:
        return [record.kind for record in store.drill_history()]
    finally:
        store.close()


@pytest.mark.parametrize("typed", ["6m 9m", "5m", "369s E", "wh 東"])
async def test_a_read_the_wait_answer_is_graded_and_saved(typed: str) -> None:
    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen, _ = await drill_of(pilot, "read_wait")
        await pilot.press(*typed, "enter")
        await pilot.pause()
        assert screen.result is not None and app.is_running
        assert "The truth" in str(screen.query_one("#drill-answer").render())
    assert saved_drills() == ["read_wait"]


async def test_an_empty_answer_says_what_to_type() -> None:
    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen, _ = await drill_of(pilot, "read_wait")
        await pilot.press("enter")
        await pilot.pause()
        assert screen.result is None
        assert "Type an answer first" in screen_text(app)


async def test_an_error_inside_a_drill_answer_is_logged_without_hidden_tiles_and_told(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The crash handler used to log only while a game was on: without one (the drills) the
    app ended with a traceback and wrote no errors.log. Now it logs (no error text, no local
    variables: they may name the opponent's hand), says so, and the app goes on."""
    hidden: list[str] = []

    def broken(drill: Drill, text: str) -> DrillAnswer:
        table = drill._secret.table
        assert table is not None
        hand = str(table.opponent_hand)
        hidden.append(hand)
        raise KeyError(hand)  # as KeyError: 5 named a hidden wait

    monkeypatch.setattr(drills_screen, "answer_text", broken)
    app = menu_app(catch_errors=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await drill_of(pilot, "read_wait")
        await pilot.press("5", "m", "enter")
        await pilot.pause()
        await pilot.pause()
        assert app.is_running and hidden and app.crash.errors == ["KeyError"]
        assert isinstance(app.screen, MessageScreen)
        text = screen_text(app)
        assert "Something went wrong" in text and "(KeyError)" in text, text
        assert "errors.log" in text.replace("\n", "")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)  # the broken screen is gone, the menu works
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, DrillsScreen)
    log = error_log_path().read_text()
    assert "KeyError" in log and "in on_input_submitted" in log, log
    assert hidden[0] not in log


async def test_the_drill_follows_the_honor_names_when_the_setting_changes() -> None:
    """A sentence already shown kept the old honor names after the setting changed."""
    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        store = app.trainer.progress(lambda problem: None)
        screen = DrillsScreen(store_recorder(store.record_drill), store.drill_history, seed=1)
        await app.push_screen(screen)
        screen.query_one("#drill-kind", Select).value = "read_wait"
        for _ in range(200):
            await asyncio.gather(*(w.wait() for w in list(screen.workers)),
                                 return_exceptions=True)
            await pilot.pause()
            if screen.drill is not None and screen.drill.kind == "read_wait":
                break
        drill = screen.drill
        assert isinstance(drill, Drill) and drill.position is not None
        honors = [k for k in drill.position.pool_kinds if k >= 27]
        assert honors  # this seed's pool holds E, W and Gr
        app.prefs.apply(app.preferences.model_copy(update={"honor_names": "kanji"}),
                              save=False)
        await pilot.pause()
        renamed = str(screen.query_one("#drill-question").render())
        pool = next(line for line in renamed.splitlines() if line.startswith("Your pool"))
        assert [KANJI[k - 27] in pool for k in honors] == [True] * len(honors), pool
        assert not any(f" {name}" in pool for name in ("E", "S", "W", "N", "Wh", "Gr", "Rd"))
