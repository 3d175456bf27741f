"""The saved games list as a new player meets it: Down from the filter goes to the
list (it used to change the filter), an empty list says why and what to do, a match left at its
first curtain is listed as abandoned without scores."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import OptionList, Select, Static

from minefield.bots.simulate import play_match
from minefield.tui.screens.games import GamesScreen
from tests.tui.conftest import focused, screen_text
from tests.tui.test_games import MATCH_MASTER, menu_app, open_games, saved_games


def info(screen: GamesScreen) -> str:
    return str(screen.query_one("#games-info", Static).render())


async def test_tab_then_down_goes_to_the_list_and_keeps_the_filter(tmp_path: Path) -> None:
    saved_games(tmp_path)
    app = menu_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_games(pilot)
        await pilot.press("tab")
        await pilot.pause()
        assert app.focused is screen.query_one("#games-filter", Select)
        await pilot.press("down")
        await pilot.pause()
        assert screen.choice == "all" and len(screen.shown) == 5
        assert focused(app) is screen.query_one("#games-list", OptionList)


async def test_an_empty_filter_says_why_and_what_to_do(tmp_path: Path) -> None:
    saved_games(tmp_path)
    app = menu_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_games(pilot)
        screen.query_one("#games-filter", Select).value = "network"
        await pilot.pause()
        assert screen.shown == []
        text = " ".join(info(screen).split())
        assert "None of the 5 saved is of Network games" in text, text
        assert "m shows the next filter" in text


async def test_a_match_left_at_its_first_curtain_is_abandoned_without_scores(
        tmp_path: Path) -> None:
    play_match(0, MATCH_MASTER, "easy", "easy", record_folder=tmp_path)
    for path in sorted(tmp_path.glob("*.jsonl")):
        lines = path.read_text().splitlines()
        if json.loads(lines[0])["match"]["game"] == 1:
            path.write_text(lines[0] + "\n")  # the header only: no move was made
        else:
            path.unlink()
    app = menu_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_games(pilot)
        text = screen_text(app)
        line = next(line for line in text.splitlines() if "match" in line and "B easy" in line)
        assert "match abandoned" in line, line
        assert "25000" not in line and "/" not in line.split("abandoned")[1], line
