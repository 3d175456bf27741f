"""The drills screen's "From my games" (:mod:`minefield.trainer.game_drills`) as a player meets
it: the costliest position of their saved games is asked, a right and a wrong answer are
graded and saved as that kind, and with no saved games the screen says so in one line."""

from __future__ import annotations

import asyncio
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, Select

from minefield.paths import records_dir
from minefield.records.header import Players
from minefield.records.writer import write_game
from minefield.rules.names import name_text
from minefield.trainer.game_drills import GameDrill, find_positions
from minefield.trainer.progress import open_progress
from minefield.trainer.regrets import cheapest
from minefield.tui.screens.drills import DrillsScreen
from tests.records.conftest import played
from tests.tui.test_drill_screen import menu_app, saved_drills


def save_games(*seeds: int) -> None:
    """Practice games (the player West against the normal bot) in the records folder."""
    for seed in seeds:
        write_game(played(seed), "practice", Players(east="Bot (normal)", west="You"),
                   records_dir())


async def from_my_games(pilot: Pilot[Any]) -> DrillsScreen:
    """Menu ``d``, Kind = From my games, once its drill (or its refusal) is shown."""
    await pilot.press("d")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, DrillsScreen)
    screen.query_one("#drill-kind", Select).value = "from_games"
    for _ in range(300):
        await asyncio.gather(*(worker.wait() for worker in list(screen.workers)),
                             return_exceptions=True)
        await pilot.pause()
        question = str(screen.query_one("#drill-question").render())
        if isinstance(screen.drill, GameDrill) or "saved games" in question:
            return screen
    raise AssertionError("no drill was made")


def question_of(screen: DrillsScreen) -> str:
    return str(screen.query_one("#drill-question").render())


def answer_of(screen: DrillsScreen) -> str:
    return str(screen.query_one("#drill-answer").render())


async def test_the_cheapest_tile_of_a_costly_discard_is_right_and_saved() -> None:
    save_games(1)
    app = menu_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await from_my_games(pilot)
        drill = screen.drill
        assert isinstance(drill, GameDrill) and drill.form == "discard"
        positions, _ = find_positions()
        assert drill.id == positions[0].id  # the costliest position first
        assert "From my games" in question_of(screen) and "Your game of " in question_of(screen)
        step = drill._secret.step
        assert step is not None
        await pilot.press(*name_text(cheapest(step).tile, "letters"), "enter")
        await pilot.pause()
        assert screen.result is not None and screen.result.correct
        shown = answer_of(screen)
        assert "Right" in shown and "In the game you discarded" in shown and "The truth" in shown
    assert saved_drills() == ["from_games"]


async def test_the_tile_played_in_the_game_is_wrong_and_saved() -> None:
    save_games(1)
    app = menu_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await from_my_games(pilot)
        drill = screen.drill
        assert isinstance(drill, GameDrill) and drill._secret.step is not None
        await pilot.press(*name_text(drill._secret.step.chosen.tile, "letters"), "enter")
        await pilot.pause()
        assert screen.result is not None and not screen.result.correct
        assert "Not right" in answer_of(screen) and "Not the cheapest" in answer_of(screen)
    assert saved_drills() == ["from_games"]


async def test_with_no_saved_games_it_says_so_in_one_line() -> None:
    app = menu_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await from_my_games(pilot)
        assert screen.drill is None
        assert question_of(screen).strip() == ("No saved games to drill from yet: play a "
                                               "practice game first.")
        await pilot.press("5", "m", "enter")  # nothing to answer: nothing is saved
        await pilot.pause()
        assert app.is_running
    assert saved_drills() == []


async def test_a_readable_wait_is_asked_and_the_discard_that_gave_it_away_is_right() -> None:
    """Seed 5: West's souzu chinitsu, after three manzu discards, is the costliest position
    (R19, R26); at the 80 x 24 a player may use, the question names the wait and the discards,
    the discard that gave it away most is right, and the answer is saved under the kind with
    its own pattern."""
    save_games(5)
    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await from_my_games(pilot)
        drill = screen.drill
        assert isinstance(drill, GameDrill) and drill.form == "wait"
        assert drill._secret.wait is not None
        question = question_of(screen)
        assert "waiting on 5s 6s 8s 9s" in question and "Your discards in order: 8m 7m 6m" in (
            question)
        assert "gave your wait away" in question
        assert screen.query_one("#drill-input", Input).placeholder.startswith(
            "type the discard that gave your wait away")
        await pilot.press(*"5s", "enter")  # not one of the discards: one line, nothing saved
        await pilot.pause()
        assert screen.result is None and "5s is not one of your discards" in answer_of(screen)
        best = drill._secret.wait.moment.best
        await pilot.press("backspace", "backspace", *best.tile, "enter")
        await pilot.pause()
        assert screen.result is not None and screen.result.correct
        shown = answer_of(screen)
        assert "Right, it gave" in shown and "Their view of their pool" in shown
        assert "your readable wait" in shown
    assert saved_drills() == ["from_games"]
    store, _ = open_progress()
    try:
        (saved,) = store.drill_history()
    finally:
        store.close()
    assert (saved.position, saved.pattern, saved.correct) == (drill.id, "game_wait", True)
    assert saved.position.endswith(":west:wait7")  # the sort of position, in its id
