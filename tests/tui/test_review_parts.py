"""The review screen's parts that teach: Tab goes from the discards to the regrets,
luck and skill, how readable your wait was and the build, each computed from the finished game
(R26: both hands are revealed at the end). The estimate is refitted from time to time, so these
tests compare the screen with the trainer's own computation, never with fixed percentages."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from minefield.cli.review import load_review
from minefield.records.header import Players
from minefield.records.writer import write_game
from minefield.rules.game import Seat
from minefield.rules.tiles import kind_str
from minefield.trainer.build import build_of
from minefield.trainer.defense_review import GameReview, assess
from minefield.trainer.readable import readability
from minefield.trainer.regrets import luck_and_skill, regrets
from minefield.tui.config import Preferences
from minefield.tui.review_app import ReviewApp
from minefield.tui.screens.result import ResultScreen
from minefield.tui.screens.review import PART_NAMES, PARTS, ReviewScreen
from minefield.tui.widgets.phrases import Phrases, PhraseStatic
from minefield.tui.widgets.tiles import TileRow
from tests.trainer.test_regrets import careless_game
from tests.tui.conftest import settle
from tests.tui.test_trainer import _to_the_result_after_a_deal_in, fast_app


@pytest.fixture(scope="module")
def careless_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole practice game: the strong bot (East) against a careless player (West, played
    by the easy bot)."""
    folder = tmp_path_factory.mktemp("records")
    return write_game(careless_game(1), "practice", Players(east="Bot (strong)", west="You"),
                      folder)


async def _ready(pilot: Pilot[Any]) -> ReviewScreen:
    screen = pilot.app.screen
    assert isinstance(screen, ReviewScreen)
    for worker in list(screen.workers):
        await worker.wait()
    await pilot.pause()
    return screen


def _detail(screen: ReviewScreen) -> str:
    return str(screen.query_one("#review-detail").render())


async def _to_part(pilot: Pilot[Any], screen: ReviewScreen, part: str) -> str:
    """Tab until ``part`` shows; its text."""
    for _ in PARTS:
        if screen.part == part:
            break
        await pilot.press("tab")
        await pilot.pause()
    assert screen.part == part
    info = str(screen.query_one("#review-info").render())
    assert PART_NAMES[part] in info
    return _detail(screen)


def _app(review: GameReview, names: dict[Seat, str]) -> ReviewApp:
    return ReviewApp(review, names, "strong", preferences=Preferences(hint="off",
                                                                     honor_names="numbers"))


async def test_tab_shows_the_regrets_and_luck(careless_record: Path) -> None:
    review, names = load_review(careless_record, None)
    steps = list(assess(review, "strong"))
    found = regrets(steps)
    assert found
    async with _app(review, names).run_test(size=(100, 40)) as pilot:
        screen = await _ready(pilot)
        assert screen.part == "discards" and "Your regrets" not in _detail(screen)
        text = await _to_part(pilot, screen, "regrets")
        assert text.startswith("Your regrets")
        top = found[0]
        assert f"1. Discard {top.number}, {top.tile}: " in text
        assert f"where {top.safer.tile} was" in text
        assert f"Expected points lost: {sum(r.lost for r in found)}." in text
        assert "It is not luck" in text
        text = await _to_part(pilot, screen, "luck")
        summary = luck_and_skill(steps, review.ron_points)
        assert text.startswith("Luck and skill")
        assert f"What your choices cost: {summary.choices} expected points" in text
        assert f"Danger no choice could avoid: {summary.unavoidable}" in text
        await pilot.press("shift+tab")
        await pilot.pause()
        assert screen.part == "regrets"
        await pilot.press("escape")
        await pilot.pause()


async def test_tab_shows_how_readable_your_wait_was(careless_record: Path) -> None:
    review, names = load_review(careless_record, None)
    found = readability(review, "person")  # East was reading a person: you
    async with _app(review, names).run_test(size=(100, 40)) as pilot:
        screen = await _ready(pilot)
        text = await _to_part(pilot, screen, "readable")
        assert text.startswith("How readable your wait was")
        assert "as Bot (strong)'s view rated" in text
        for reading in found.readings:
            assert f"Discard {reading.number}, they threw {reading.tile}: " in text
        for moved in found.gave_away:
            assert f"after your {moved.tile} (discard {moved.number})" in text


async def test_tab_shows_the_build(careless_record: Path) -> None:
    review, names = load_review(careless_record, None)
    built = build_of(review)
    async with _app(review, names).run_test(size=(100, 40)) as pilot:
        screen = await _ready(pilot)
        text = await _to_part(pilot, screen, "build")
        assert text.startswith("The build")
        assert f"Yours: {built.yours.hand}" in text
        for wait in built.yours.waits:
            assert f"{wait.tile}: {wait.live} live, pays {wait.points}" in text
        assert (f"The strong bot's: {built.bot.hand}" in text if not built.same
                else "The strong bot keeps the same 13." in text)
        assert "What it would have earned against the same discards (replayed)" in text \
            or built.same
        await pilot.press("tab")  # round again to the discards
        await pilot.pause()
        assert screen.part == "discards"


def _paragraphs(screen: ReviewScreen) -> list[tuple[str, list[str]]]:
    """Each paragraph of the detail with the lines it is drawn on at the detail's width."""
    detail = screen.query_one("#review-detail", PhraseStatic)
    visual = detail.render()
    assert isinstance(visual, Phrases)
    lines = visual.at(detail.content_region.width).plain.splitlines()
    found = []
    for paragraph in visual.content.plain.split("\n"):
        drawn = [lines.pop(0)]
        while len(" ".join(drawn).split()) < len(paragraph.split()):
            drawn.append(lines.pop(0))
        assert " ".join(drawn).split() == paragraph.split()  # no word or figure cut
        found.append((paragraph, drawn))
    return found


async def test_wrapped_bullets_keep_their_alignment_at_80x24(careless_record: Path) -> None:
    """A bullet that wraps goes on under its text, never at column 0 (the
    discards' reasons, the regrets, the reading and the build)."""
    review, names = load_review(careless_record, None)
    async with _app(review, names).run_test(size=(80, 24)) as pilot:
        screen = await _ready(pilot)
        checked = 0
        for part in PARTS:
            await _to_part(pilot, screen, part)
            for paragraph, drawn in _paragraphs(screen):
                bullet = re.match(r" *(?:•|\d+\.) ", paragraph)
                if bullet is not None:  # never a marker alone on its line
                    assert drawn[0][bullet.end():].strip(), (paragraph, drawn)
                for line in drawn[1:]:
                    if bullet is not None:
                        assert line[:bullet.end()] == " " * bullet.end(), (paragraph, line)
                        assert line[bullet.end()] != " "
                        checked += 1
        assert checked >= 3  # at 80 columns some bullets do wrap


async def test_the_parts_from_the_result_screens_v() -> None:
    """After a practice game, `v` on the result opens the review; Tab reaches every part, each
    computed for the player's seat (here East, who dealt in on a tile the estimate rated low)."""
    app = fast_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await _to_the_result_after_a_deal_in(app, pilot)
        assert isinstance(app.screen, ResultScreen)
        await pilot.press("v")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await settle(pilot)  # the review's worker (the session's reader runs on)
        assert set(screen.sections[Seat.EAST]) == set(PARTS) - {"discards"}
        steps = screen.assessed[Seat.EAST]
        titles = {"regrets": "Your regrets", "luck": "Luck and skill",
                  "readable": "How readable your wait was", "build": "The build"}
        for part, title in titles.items():
            text = await _to_part(pilot, screen, part)
            assert text.startswith(title)
        summary = luck_and_skill(steps, screen.review.ron_points)
        text = await _to_part(pilot, screen, "luck")
        assert f"Points lost: {summary.lost}, the ron on discard" in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ResultScreen)


async def test_the_arrows_go_from_regret_to_regret(careless_record: Path) -> None:
    """In the regrets part, → shows the next regret: its line stands out and the pool shows
    its discard (the tile taken under the cursor)."""
    review, names = load_review(careless_record, None)
    found = regrets(list(assess(review, "strong")))
    assert len(found) >= 2
    async with _app(review, names).run_test(size=(100, 40)) as pilot:
        screen = await _ready(pilot)
        await _to_part(pilot, screen, "regrets")
        assert screen.index == found[0].index and "[reverse]  1. Discard" in screen.part_text()
        await pilot.press("right")
        await pilot.pause()
        assert screen.index == found[1].index
        assert f"[reverse]  2. Discard {found[1].number}, " in screen.part_text()
        pool = screen.query_one("#review-pool", TileRow)
        assert pool.cursor is not None and kind_str(pool.tiles[pool.cursor].kind) == found[1].tile
        for _ in range(10):
            await pilot.press("right")
        await pilot.pause()
        assert screen.index == found[min(len(found), 5) - 1].index  # the last one named
        await pilot.press("shift+tab")  # back to the discards: the arrows step again
        await pilot.pause()
        before = screen.index
        await pilot.press("left")
        await pilot.pause()
        assert screen.index == max(0, before - 1)
