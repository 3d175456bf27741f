"""Text wraps between phrases, never inside a figure or its unit: at 80 columns no line of the
scoreboard, the table's info line, the result, the log or the standings ends in the middle of
"(2500 cc)", "discards 33/34" or "12000 + 1 counter stick x 1000 = 13000"."""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.content import Content
from textual.widgets import Static

from minefield.protocol.messages import MatchView, PlayerInfo
from minefield.rules.game import Seat
from minefield.rules.match import Match
from minefield.session import LocalSession
from minefield.table.match_table import MatchTable
from minefield.tui.screens.play import PlayScreen
from minefield.tui.screens.result import ResultScreen
from minefield.tui.screens.standings import StandingsScreen
from minefield.tui.textual_private import screen_lines
from minefield.tui.widgets.panels import WaitPanel
from minefield.tui.widgets.phrases import Phrases, PhraseStatic, line_breaks
from minefield.tui.widgets.scoreboard import scoreboard_text
from tests.tui.conftest import settle
from tests.tui.test_match import (
    LOSER,
    LOSING_HAND,
    SEED,
    WINNER,
    WINNING_HAND,
    app_for,
    deal,
    ron_on_the_first_discards,
    type_keys,
)

#: A number as written on screen: a score, a count, 33/34, 12%, (2500.
NUMBER = re.compile(r"[(\[]?[-+]?\d[\d,./%:]*[)\]]?[,;]?")
SIGN = {"+", "-", "x", "×", "="}
LONG_NAMES = ("Annabelle", "Bartholomew")
UNITS = {"cc", "fu", "han", "points", "counter", "stick", "sticks", "of"}
CONJUNCTIONS = {"and", "or", "but", "then"}


def figure_splits(lines: list[str]) -> list[tuple[str, str]]:
    """The pairs of consecutive lines of one text that break inside a figure: a line that
    starts with a unit or a sign, or with a number not beginning a phrase (after a "·", a
    sentence or a conjunction); or one that ends with a sign, or with a number before its unit
    (cc, fu, han, points, counter sticks, "of 4"), or with "counter" before "stick"."""
    splits = []
    for above, below in pairwise(line for line in lines if line.strip()):
        last, first = above.split()[-1], below.split()[0]
        phrase_start = (last == "·" or last.endswith((".", ":", ";", ","))
                        or last.lower() in CONJUNCTIONS or first.startswith("("))
        if (first.startswith("cc") or first in SIGN or last in SIGN
                or (NUMBER.fullmatch(first) and not phrase_start)
                or (NUMBER.fullmatch(last) and first.lower().strip("().,;:") in UNITS)
                or (last == "counter" and first.startswith("stick"))):
            splits.append((above, below))
    return splits


def shown_texts(app: App[Any]) -> dict[str, list[list[str]]]:
    """The lines each text widget of the screen shows now, read off the screen, grouped by the
    paragraph of its text they show."""
    lines = screen_lines(app.screen)
    texts = {}
    for widget in app.screen.query(Static):
        region = widget.content_region
        if not widget.display or not region.area or region.bottom > len(lines):
            continue
        shown = [line[region.x:region.right].rstrip()
                 for line in lines[region.y:region.bottom]]
        visual = widget.visual
        paragraphs = visual.plain.split("\n") if isinstance(visual, Content) else [
            " ".join(shown)]
        groups: list[list[str]] = []
        for paragraph in paragraphs:
            group: list[str] = []
            while shown and " ".join(" ".join(group).split()) != " ".join(paragraph.split()):
                group.append(shown.pop(0))
            groups.append(group)
        texts[f"{widget!r}"] = groups
    return texts


def test_the_reported_splits_are_kept_whole() -> None:
    """The issue's "(2500⏎cc)" and "discards⏎33/34": Textual's own wrapping breaks there, this
    one breaks between the phrases."""
    text = "Bartholomew: East · opponent Annabelle: West · discards 33/34"
    plain = Content(text).wrap(57)
    assert figure_splits([line.plain for line in plain]), "Textual wraps inside: the premise"
    breaks = line_breaks(text, 57)
    assert [text[i:j].strip() for i, j in pairwise([0, *breaks, len(text)])] == [
        "Bartholomew: East · opponent Annabelle: West ·", "discards 33/34"]
    board = "Game 1 · hand 1 of 4 · Bartholomew dealer 25000 (2500 cc) · Annabelle 25000 (2500 cc)"
    assert figure_splits([line.plain for line in Content(board).wrap(54)])
    assert Phrases(Content(board)).at(54).plain.split("\n") == [
        "Game 1 · hand 1 of 4 ·", "Bartholomew dealer 25000 (2500 cc) ·",
        "Annabelle 25000 (2500 cc)"]


@pytest.mark.parametrize("width", range(56, 81, 2))
def test_no_width_splits_a_figure(width: int) -> None:
    """The widths of the texts at 80 columns (the result's text column is 56 wide, the
    scoreboard 78); narrower, a payment's sum ("18000 + 1 counter stick x 1000 = 19000") may
    start a line of its own, and below its length it is broken at its weakest spaces."""
    texts = [
        scoreboard_text(MatchView(game=2, hand=3, hands=4, players=dict(
            zip(Seat, LONG_NAMES, strict=True)), dealer_streak=1, honba=2,
            scores={LONG_NAMES[0]: 41000, LONG_NAMES[1]: 9000}), washizu=True),
        "West (Annabelle) pays East (Bartholomew) 18000 + 1 counter stick x 1000 = 19000 (R32)",
        "In blood: Annabelle gives Bartholomew 1900 cc (1,000 points = 100 cc)",
    ]
    for text in texts:
        content = Content.from_markup(text)
        lines = Phrases(content).at(width).plain.split("\n")
        assert figure_splits(lines) == [], (width, lines)
        assert " ".join(" ".join(lines).split()) == " ".join(content.plain.split())
        assert all(len(line) <= width for line in lines)


def test_a_phrase_longer_than_the_line_is_still_broken_to_fit() -> None:
    text = "12000 + 1 counter stick x 1000 = 13000"
    lines = Phrases(Content(text)).at(16).plain.split("\n")
    assert all(len(line) <= 16 for line in lines) and " ".join(lines) == text


class OneText(App[None]):
    def compose(self) -> ComposeResult:
        yield PhraseStatic("[b]Bartholomew[/]: East · opponent Annabelle: West · discards 33/34",
                           id="text")


async def test_a_phrase_static_keeps_its_content_and_its_markup() -> None:
    app = OneText()
    async with app.run_test(size=(57, 4)) as pilot:
        await pilot.pause()
        widget = app.query_one("#text", PhraseStatic)
        assert str(widget.content).startswith("[b]Bartholomew[/]")
        assert screen_lines(app.screen)[:2] == [
            "Bartholomew: East · opponent Annabelle: West ·".ljust(57),
            "discards 33/34".ljust(57)]
        assert widget.region.height == 2


async def test_every_text_of_a_washizu_match_at_80x24_keeps_its_figures_whole() -> None:
    """The table (scoreboard, info line), the result (payments, blood, log) and the final
    standings of a hot-seat match with long names and Washizu's stakes, read off the screen."""
    app = app_for(washizu=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = MatchTable(Match(SEED, LONG_NAMES),
                           {name: PlayerInfo(name=name) for name in LONG_NAMES},
                           deals={1: deal(WINNER, LOSER), 2: deal(WINNER, LOSER)})
        players = {seat: PlayerInfo(name=name) for seat, name in table.seats.items()}
        await app.play(LocalSession(table, "hotseat", tuple(table.seats), players))
        await pilot.pause()
        seen: list[str] = []

        def check() -> None:
            seen.append(type(app.screen).__name__)
            for widget, groups in shown_texts(app).items():
                for lines in groups:
                    assert figure_splits(lines) == [], (type(app.screen).__name__, widget, lines)

        for hand in (WINNING_HAND, LOSING_HAND):  # game 1: East wins on West's first discard
            await pilot.press("enter")  # the curtain
            await pilot.pause()
            await type_keys(pilot, hand)
            await pilot.press("enter")
            await pilot.pause()
        await pilot.press("enter")  # East at the keyboard: the table
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        check()
        await type_keys(pilot, "1z")
        await pilot.press("enter", "enter", "enter")  # discard, pass, West at the keyboard
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        check()
        await type_keys(pilot, "1p")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ResultScreen)
        check()
        await pilot.press("n")
        await pilot.pause()
        await ron_on_the_first_discards(pilot, east_wins=True)
        assert isinstance(app.screen, ResultScreen)
        check()
        await pilot.press("n")  # the match is over: the final standings
        await pilot.pause()
        assert isinstance(app.screen, StandingsScreen)
        check()
    assert seen == ["PlayScreen", "PlayScreen", "ResultScreen", "ResultScreen",
                    "StandingsScreen"]


class Waits(App[None]):
    def compose(self) -> ComposeResult:
        yield WaitPanel(id="waits")


async def test_the_wait_panels_prose_wraps_between_phrases() -> None:
    """The builder's and the table's panel: its lines of prose keep their figures whole too."""
    prose = ("Your hand waits on 1p and 4p: worth 12000 (1200 cc) at best, and 8000 + 1 "
             "counter stick x 1000 = 9000 when the sticks are on the table.")
    app = Waits()
    async with app.run_test(size=(80, 10)) as pilot:
        panel = app.query_one(WaitPanel)
        panel.set_parts([prose])
        await pilot.pause()
        for width in range(40, 81, 3):
            lines = panel.content_for(width).plain.split("\n")
            assert len(lines) > 1 or width > len(prose)
            assert figure_splits(lines) == [], (width, lines)
