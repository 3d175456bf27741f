"""The saved games from the menu: the list newest first at 80
columns, the filter by mode, a game replayed (caption per step, a step number to jump to) and
reviewed, a match as its scoreboard and games, and unusable records refused with the reason.

Regenerate the snapshot with ``pytest tests/tui/test_games.py --snapshot-update`` only after
looking at it.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList

from minefield.bots.simulate import play_match
from minefield.records.header import Players
from minefield.records.history import HistoryEntry
from minefield.records.writer import write_game
from minefield.rules.game import Seat
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.screens.games import GameReplayScreen, GamesScreen, entry_line
from minefield.tui.screens.menu import MenuScreen
from minefield.tui.screens.review import ReviewScreen
from tests.records.conftest import DRAW_SEED, RON_SEED, played
from tests.tui.conftest import on_top, screen_text

#: Easy bots, match 0 of master seed 4: six games (see tests/records/test_match_records.py).
MATCH_MASTER, MATCH_GAMES = 4, 6


def at(hour: int) -> datetime:
    """A fixed time of 1 March 2025 (the list shows local time; the tests compare lines)."""
    return datetime(2025, 3, 1, hour, 0, tzinfo=UTC)


def saved_games(folder: Path) -> dict[str, Path]:
    """A records folder: a match (oldest), an unfinished game, a hot-seat draw, a practice
    ron (newest) and a file that is no record."""
    match_folder = folder
    play_match(0, MATCH_MASTER, "easy", "easy", record_folder=match_folder)
    for path in sorted(folder.glob("*.jsonl")):  # the match's games: fixed times
        lines = path.read_text().splitlines()
        header = json.loads(lines[0])
        header["started"] = "2025-03-01T08:00:00.000Z"
        path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    files = {
        "unfinished": write_game(played(5, stop=3), "practice",
                                 Players(east="You", west="Bot (easy)"), folder,
                                 clock=lambda: at(9)),
        "draw": write_game(played(DRAW_SEED), "hotseat", Players(east="East", west="West"),
                           folder, clock=lambda: at(10)),
        "ron": write_game(played(RON_SEED), "practice",
                          Players(east="Bot (normal)", west="You"), folder,
                          clock=lambda: at(11)),
    }
    broken = folder / "zz-broken.jsonl"
    broken.write_bytes(b"\x00 not a record\n")
    old = at(7).timestamp()  # listed by its time of change: the oldest
    os.utime(broken, (old, old))
    return files


def menu_app(folder: Path) -> MinefieldApp:
    """The app at its menu, keeping records in ``folder``."""
    return MinefieldApp(think_seconds=0, catch_errors=False, record_folder=folder,
                        preferences=Preferences(hint="off"))


async def open_games(pilot: Pilot[Any]) -> GamesScreen:
    """From the menu, g: the list once the folder is read."""
    await pilot.pause()
    assert isinstance(pilot.app.screen, MenuScreen)
    await pilot.press("g")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, GamesScreen)
    await screen.workers.wait_for_complete()
    await pilot.pause()
    return screen


def listed(app: MinefieldApp) -> list[str]:
    """The list's lines as shown on screen."""
    return [line for line in screen_text(app).splitlines() if "2025-" in line]


async def go_to(pilot: Pilot[Any], screen: GamesScreen, words: str) -> None:
    """Put the cursor on the first line holding ``words``."""
    index = next(i for i, entry in enumerate(screen.shown) if words in entry_line(entry))
    screen.query_one("#games-list", OptionList).highlighted = index
    await pilot.pause()


async def test_the_list_is_newest_first_one_line_each_at_80_columns(tmp_path: Path) -> None:
    saved_games(tmp_path)
    app = menu_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_games(pilot)
        lines = listed(app)
        assert len(lines) == 4  # a line per game and one for the match: no line wraps
        assert "practice Bot (normal) v You" in lines[0] and "East won on" in lines[0]
        assert lines[0].rstrip(" ▎").endswith("8000")  # R23: a non-dealer mangan
        assert "hot-seat East v West" in lines[1] and "draw" in lines[1]
        assert "unfinished" in lines[2]
        assert "bots" in lines[3] and f"match, {MATCH_GAMES} games" in lines[3]
        assert "unreadable" in screen_text(app) and "zz-broken.jsonl" in screen_text(app)
        assert all(len(line) <= 80 for line in screen_text(app).splitlines())


async def test_the_filter_shows_one_mode(tmp_path: Path) -> None:
    saved_games(tmp_path)
    app = menu_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_games(pilot)
        await pilot.press("m")  # practice
        await pilot.pause()
        assert [e.mode for e in screen.shown] == ["practice", "practice"]
        assert len(listed(app)) == 2
        for _ in range(4):  # hot-seat, network, bots, matches
            await pilot.press("m")
        await pilot.pause()
        assert len(screen.shown) == 1 and f"match, {MATCH_GAMES} games" in listed(app)[0]
        await pilot.press("m")  # all again
        await pilot.pause()
        assert len(screen.shown) == 5


async def test_enter_replays_with_a_caption_per_step_and_a_step_to_jump_to(
        tmp_path: Path) -> None:
    saved_games(tmp_path)
    app = menu_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_games(pilot)
        await pilot.press("enter")  # the newest: the practice ron, 4 discards
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, GameReplayScreen)
        assert "The hands are chosen · step 0/4" in screen_text(app)
        await pilot.press("3", "enter")
        await pilot.pause()
        assert replay.step == 3
        assert "Bot (normal) (East) discards" in screen_text(app)
        assert "step 3/4" in screen_text(app)
        await pilot.press("right")
        await pilot.pause()
        assert "You (West) discards" in screen_text(app) and "step 4/4 · the end" in (
            screen_text(app))
        await pilot.press("q")  # back to the list, not out of the app
        await pilot.pause()
        assert app.screen is screen and app.is_running


async def test_v_reviews_both_seats_the_players_first(tmp_path: Path) -> None:
    saved_games(tmp_path)
    app = menu_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_games(pilot)
        await pilot.press("v")
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen)
        assert set(review.reviews) == {Seat.EAST, Seat.WEST} and review.seat is Seat.WEST
        assert "You (West)" in screen_text(app)
        review.workers.cancel_all()
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


async def test_a_match_opens_as_its_scoreboard_and_games(tmp_path: Path) -> None:
    saved_games(tmp_path)
    app = menu_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_games(pilot)
        await go_to(pilot, screen, "match,")
        await pilot.press("enter")
        await pilot.pause()
        games = app.screen
        assert isinstance(games, GamesScreen) and games.match is not None
        await games.workers.wait_for_complete()
        await pilot.pause()
        text = screen_text(app)
        assert f"final after {MATCH_GAMES} games" in text  # replay --match's scoreboard
        assert "start" in text and "A easy" in text and "B easy" in text
        assert len(games.shown) == MATCH_GAMES
        assert "game 1" in entry_line(games.shown[0])
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameReplayScreen)
        assert "match" in screen_text(app)  # the match line of the replay's header
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert on_top(app) is screen


async def test_unusable_records_are_refused_with_the_reason(tmp_path: Path) -> None:
    files = saved_games(tmp_path)
    lines = files["ron"].read_text().splitlines()
    result = json.loads(lines[-1])
    result["result"]["points"] = 1000  # the stored result no longer matches the game
    files["ron"].write_text("\n".join([*lines[:-1], json.dumps(result)]) + "\n")
    app = menu_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_games(pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and "inconsistent record" in screen_text(app)
        await go_to(pilot, screen, "unfinished")
        await pilot.press("v")
        await pilot.pause()
        assert app.screen is screen and "has not ended" in screen_text(app)
        await go_to(pilot, screen, "unreadable")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and app.is_running


@pytest.mark.parametrize("names", ["kanji"])
async def test_results_follow_the_honor_names(tmp_path: Path, names: str) -> None:
    write_game(played(RON_SEED), "practice", Players(east="Bot (normal)", west="You"),
               tmp_path, clock=lambda: at(11))
    app = MinefieldApp(think_seconds=0, catch_errors=False, record_folder=tmp_path,
                       preferences=Preferences(hint="off", honor_names=names))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_games(pilot)
        entry = screen.shown[0]
        assert isinstance(entry, HistoryEntry)
        result = entry.result
        assert result is not None and result.tile is not None
        tile = result.tile
        line = listed(app)[0]
        assert (tile in line) == (not tile.endswith("z"))


def test_games_list_80x24(tmp_path: Path, snap_compare: Any) -> None:
    saved_games(tmp_path)

    async def open_list(pilot: Pilot[Any]) -> None:
        await open_games(pilot)

    assert snap_compare(menu_app(tmp_path), terminal_size=(80, 24), run_before=open_list)
