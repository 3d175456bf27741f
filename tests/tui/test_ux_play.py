"""The play screen at 80x24 first: the game log, every wait readable, labels said once."""

from __future__ import annotations

import re

import pytest
from textual.containers import VerticalScroll
from textual.pilot import Pilot

from minefield.rules.game import Seat
from minefield.rules.tiles import parse_tiles
from minefield.session import LocalSession
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.render import TILE_STYLES, TileStyle
from minefield.tui.screens.builder import HandBuilderScreen
from minefield.tui.screens.dialogs import ConfirmScreen
from minefield.tui.screens.play import PlayScreen
from minefield.tui.widgets.log import GameLog, log_lines
from minefield.tui.widgets.panels import WaitEntry, WaitPanel
from minefield.tui.widgets.tiles import TileRow
from tests.tui.conftest import make_app, screen_text, settle
from tests.tui.test_practice import HAND, type_tiles

# Seed 1 deals West 2346668m2245777p9p11223366678s22334556z (dora indicator 8s). This hand
# waits on 6s, 9s and 3z, each with a long list of yaku.
THREE_WAITS = [str(t) for t in parse_tiles("11223366678s33z")]
#: West's wait 3z shows by its name (the default "letters"), in the same column.
WAIT_LINES = ("6s  1 live  ron ok", "9s  4 live  ron ok", "W   2 live  ron ok")


async def choose(pilot: Pilot[int], tiles: list[str]) -> None:
    """Type the hand and confirm it (yes to the question, if asked)."""
    await type_tiles(pilot, tiles)
    await pilot.press("enter")
    await pilot.pause()
    if isinstance(pilot.app.screen, ConfirmScreen):
        await pilot.press("y")
    await settle(pilot)
    await pilot.pause()


def shown_in(app: MinefieldApp, selector: str) -> str:
    """The text drawn in one widget's region, its lines joined by spaces."""
    region = app.screen.query_one(selector).region
    lines = screen_text(app).splitlines()[region.y:region.bottom]
    return " ".join(line[region.x:region.right].strip() for line in lines)


def log_text(app: MinefieldApp) -> str:
    """Every line of the play screen's log, scrolled into view or not."""
    log = app.screen.query_one(GameLog)
    return str(log.query_one("#log-text").render())


@pytest.mark.parametrize("style", TILE_STYLES)
async def test_every_wait_is_on_screen_at_80x24(style: TileStyle) -> None:
    app = make_app(seat=Seat.WEST, preferences=Preferences(hint="off", tile_style=style))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await type_tiles(pilot, THREE_WAITS)
        await pilot.pause()
        assert isinstance(app.screen, HandBuilderScreen)
        text = screen_text(app)
        assert "Tenpai, 3 waits" in text
        for line in WAIT_LINES:
            assert line in text, text
        # The instruction is whole; no yaku is split from its han.
        assert ("Keep 13 of your 34 tiles as your hand; the other 21 become your discard pool."
                in shown_in(app, "#info"))
        for token in ("riichi 1", "iipeikou 1", "honitsu 3", "seat wind 1", "dora 1"):
            assert token in text
        assert not re.search(r"^\s*\d+\s*$", text, re.MULTILINE)

        await pilot.press("enter")
        await settle(pilot)
        await pilot.pause()
        assert isinstance(app.screen, PlayScreen)
        text = screen_text(app)
        for line in WAIT_LINES:
            assert line in text, text
        assert "Not furiten." in text and " 1 Bot (easy) " in text  # the log, beside the pool
        assert app.screen.check_action("scroll_lower", (1,)) is False  # nothing below


async def test_the_log_names_each_discarder_and_the_own_furiten() -> None:
    app = make_app(seat=Seat.EAST)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await choose(pilot, HAND)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        assert "No discards yet." in screen_text(app)
        for _ in range(2):
            await pilot.press("enter")
            await settle(pilot)
            await pilot.pause()
        view = screen.view
        mine, theirs = view.discards[Seat.EAST], view.discards[Seat.WEST]
        log = log_text(app)
        assert f" 1 You {mine[0]}" in log and " 2 Bot (easy) 7p" in log
        assert f" 3 You {mine[1]}" in log and f" 4 Bot (easy) {theirs[1]}" in log
        # R15b, R27: the bot's 7p froze this hand: said at once, after that discard.
        assert log.index(" 2 Bot (easy) 7p") < log.index(
            "You are furiten: your wait 7p passed below mangan") < log.index(" 3 You")
        text = screen_text(app)
        assert f" 4 Bot (easy) {theirs[1]}" in text  # the newest line is in view


async def test_the_arrows_stay_with_the_pool_when_the_log_is_long() -> None:
    """Neither the log nor the waits take the focus: Down moves over the pool, PgDn and [ ]
    scroll."""
    app = make_app(seat=Seat.EAST)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await choose(pilot, HAND)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        for _ in range(6):  # 12 discards: more log lines than the log shows
            await pilot.press("enter")
            await settle(pilot)
            await pilot.pause()
        log = screen.query_one(GameLog)
        assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y  # the newest in view
        assert not isinstance(app.focused, VerticalScroll)  # neither the log nor the waits
        await pilot.press("down")
        await pilot.pause()
        assert screen.cursor == screen.query_one("#pool", TileRow).columns
        await pilot.press("left_square_bracket")
        await pilot.pause()
        assert log.scroll_y < log.max_scroll_y  # earlier lines, by keyboard


def test_the_log_holds_only_the_furiten_it_is_given() -> None:
    """The play screen gives the log its own seat's furiten only (R26)."""
    discards = {Seat.EAST: ["1z", "2z"], Seat.WEST: ["7p"]}
    names = {Seat.EAST: "East", Seat.WEST: "West"}
    lines = log_lines(discards, names, {Seat.WEST: None})
    assert [line.split()[:2] for line in lines] == [["1", "East"], ["2", "West"], ["3", "East"]]
    assert not any("furiten" in line for line in lines)


async def test_hotseat_labels_are_said_once() -> None:
    app = make_app("hotseat", seed=2, preferences=Preferences(hint="off"))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        for _ in range(2):  # both players take their 13 lowest tiles
            await pilot.press("enter")
            await pilot.pause()
            for _ in range(13):
                await pilot.press("space", "right")
            await choose(pilot, [])
        await pilot.press("enter", "enter")  # East: ready, discard
        await pilot.pause()
        assert isinstance(app.screen, PlayScreen) and app.screen.hold
        text = screen_text(app)
        assert "West's turn" in text and "(West)" not in text
        assert not re.search(r"\b(East|West)\s+(East|West)\b", text), text
        lines = text.splitlines()
        titles = [(line[:12].strip(), lines[n + 1][:12].strip())
                  for n, line in enumerate(lines[:-1]) if line[:12].strip() in ("East", "West")]
        assert ("West", "0/17") in titles and ("East", "1/17") in titles


async def play_east(preferences: Preferences, pilot: Pilot[int]) -> PlayScreen:
    """East's first turn after choosing the first 13 tiles of the rack."""
    await pilot.pause()
    for _ in range(13):
        await pilot.press("space", "right")
    await pilot.press("enter")
    await pilot.pause()
    if isinstance(pilot.app.screen, ConfirmScreen):
        await pilot.press("y")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, PlayScreen) and screen.view.my_turn
    return screen


async def test_space_selects_and_only_enter_discards() -> None:
    """One key does one thing on both screens: Space selects (as it toggles in the builder),
    Enter discards; the footer shows both keys as bound."""
    app = make_app(seed=1, seat=Seat.EAST)
    async with app.run_test(size=(80, 24)) as pilot:
        play = await play_east(app.preferences, pilot)
        footer = screen_text(app).splitlines()[-1]
        assert "space Select" in footer and "⏎ Discard" in footer, footer
        await pilot.press("right", "space", "space")
        await pilot.pause()
        assert play.view.discards_made == 0 and play.cursor == 1
        assert "Selected" in shown_in(app, "#status")
        tile = str(play._pool[1])
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.session, LocalSession)
        assert app.session.view(Seat.EAST).discards[Seat.EAST] == [tile]


async def test_confirm_discards_takes_a_second_enter_on_the_same_tile() -> None:
    app = make_app(seed=1, seat=Seat.EAST,
                   preferences=Preferences(hint="off", confirm_discards=True))
    async with app.run_test(size=(80, 24)) as pilot:
        play = await play_east(app.preferences, pilot)
        session = app.session
        assert isinstance(session, LocalSession)
        await pilot.press("enter")  # the first press asks
        await pilot.pause()
        assert session.view(Seat.EAST).discards_made == 0 and play.armed == 0
        assert "Enter (or a click on it) again discards it" in shown_in(app, "#status")
        await pilot.press("right", "enter")  # another tile: asked again, nothing discarded
        await pilot.pause()
        assert session.view(Seat.EAST).discards_made == 0 and play.armed == 1
        tile = str(play._pool[1])
        await pilot.press("enter")
        await settle(pilot)
        assert session.view(Seat.EAST).discards[Seat.EAST][:1] == [tile]


def wait_texts(screen: PlayScreen) -> list[str]:
    """The waits panel's lines and each wait's columns."""
    return [part.prefix if isinstance(part, WaitEntry) else part
            for part in screen.query_one("#waits", WaitPanel).parts]


async def test_a_furiten_hand_says_no_wait_can_win() -> None:
    """R15: after the bot's 7p froze this hand, no wait says "ron ok" (or "no ron") any more:
    each says "furiten"."""
    app = make_app(seat=Seat.EAST)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await choose(pilot, HAND)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        before = wait_texts(screen)
        assert before[0] == "Your waits (value without ura):" and len(before) > 1, before
        await pilot.press("enter")
        await settle(pilot)
        assert screen.view.own_furiten is not None
        after = wait_texts(screen)
        assert after[0] == "Your waits (furiten: none can win, R15):"
        assert not any("ron ok" in part or "no ron" in part for part in after)
        assert sum("furiten" in part for part in after[1:]) == len(before) - 1
