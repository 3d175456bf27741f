"""The table as a new player finds it at 80x24: a footer whose keys are
whole on every screen, the selected tile's chance and first reason always in sight, a header
that never wraps, wrapped lines that keep their alignment."""

from __future__ import annotations

import re
from typing import Any

from textual.content import Content
from textual.pilot import Pilot
from textual.screen import ModalScreen
from textual.widgets import Footer, Static
from textual.widgets._footer import FooterKey

from minefield.defense.estimate import percent
from minefield.protocol.messages import PlayerInfo
from minefield.rules.game import Seat
from minefield.rules.names import name_text
from minefield.rules.prepared import game_with_hands
from minefield.rules.tiles import kind_str
from minefield.session import LocalSession
from minefield.tui.app import MinefieldApp
from minefield.tui.screens.play import PlayScreen
from minefield.tui.textual_private import screen_lines
from minefield.tui.widgets.log import GameLog
from minefield.tui.widgets.panels import WaitEntry, WaitPanel, wrap_wait
from minefield.tui.widgets.tiles import TileRow
from tests.tui.conftest import StandInBot, make_app, screen_text, settle
from tests.tui.test_snapshots import _play_three
from tests.tui.test_trainer import fast_app, hotseat, practice, prepared

#: East's nine-sided wait (R12): the waits need more lines than the table has at 80x24, so
#: the footer offers "pgdn More below" beside the aids' keys.
MANY_WAITS = "1112345678999m"


def footer_problems(app: MinefieldApp, where: str) -> list[str]:
    """What is wrong with the footer of the screen shown: keys cut at the right edge (or under
    the command palette's key), or no F1 Help on a screen that is not a dialog."""
    screen = app.screen
    footer = screen.query_one(Footer)
    keys = list(footer.query(FooterKey))
    palette = [key for key in keys if key.has_class("-command-palette")]
    edge = palette[0].region.x if palette else footer.region.right
    problems = [f"{where}: '{key.key_display} {key.description}' is cut" for key in keys
                if key not in palette and key.region.right > edge]
    if not isinstance(screen, ModalScreen) and not any(
            key.key_display == "F1" and key.description == "Help" for key in keys):
        problems.append(f"{where}: no F1 Help")
    return problems


async def _shown(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await pilot.pause()


async def test_every_screens_footer_fits_80_columns() -> None:
    problems: list[str] = []
    app = fast_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _shown(pilot)
        problems += footer_problems(app, "menu")
        for key, where in (("g", "saved games"), ("d", "drills"), ("t", "progress"),
                           ("p", "practice form"), ("h", "hot-seat form"), ("w", "watch form")):
            await pilot.press(key)
            await _shown(pilot)
            problems += footer_problems(app, where)
            await pilot.press("escape")
            await _shown(pilot)
        # Practice with the aids, more waits than room: "pgdn More below" joins the keys.
        await app.play(practice(game_with_hands(MANY_WAITS, "123m456p789s3332z", dora="2z")))
        await _shown(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert app.screen.check_action("scroll_lower", (1,)), "the waits must not fit"
        problems += footer_problems(app, "the table with More below")
        await pilot.press("d")
        await _shown(pilot)
        problems += footer_problems(app, "the table with the danger overlay")
        await pilot.press("escape")
        await _shown(pilot)
        problems += footer_problems(app, "leaving the game")
    app = fast_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.play(hotseat(game_with_hands(MANY_WAITS, "123m456p789s3332z", dora="2z"),
                               aids=True))
        await _shown(pilot)
        problems += footer_problems(app, "the hot-seat curtain")
        await pilot.press("enter")
        await _shown(pilot)
        problems += footer_problems(app, "hot-seat, East to discard")
        await pilot.press("enter")
        await _shown(pilot)
        problems += footer_problems(app, "hot-seat, passing the keyboard")
    app = make_app(seed=1, seat=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await _shown(pilot)
        problems += footer_problems(app, "the hand builder")
    assert problems == []


async def test_the_selected_tiles_chance_and_first_reason_are_always_in_sight() -> None:
    app = fast_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.play(practice(prepared()))
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        await pilot.press("d")
        await pilot.pause()
        report = app.trainer.report_for(screen.view)
        assert report is not None
        pool = screen.query_one("#pool", TileRow)
        for index, tile in enumerate(pool.tiles):
            if index:
                await pilot.press("right_curly_bracket", "right_curly_bracket", "right")
                await pilot.pause()  # (the reasons of the tile before scrolled down)
            entry = report.of(kind_str(tile.kind))
            text = screen_text(app)
            assert name_text(f"{entry.tile} {percent(entry.danger)}", "letters") in text
            if entry.reasons:
                assert name_text(entry.reasons[0], "letters")[:30] in text
            # The selected tile's own box shows its chance under its name.
            place = pool.places[index]
            assert place.has_class("-cursor") and place.note
            line = screen_lines(screen)[place.region.y + 2]
            assert place.note in line[place.region.x:place.region.right], line


async def test_the_header_never_wraps() -> None:
    """Two names of 20 characters, against the strong bot from discard 10 on: the table's two
    lines stay two (a wrapped one moved the whole table down a line)."""
    app = fast_app()
    async with app.run_test(size=(80, 24)) as pilot:
        game = prepared()
        players = {Seat.EAST: PlayerInfo(name="Annabelle-Marguerite"),
                   Seat.WEST: PlayerInfo(name="Bot (strong)", kind="bot")}
        await app.play(LocalSession(game, "practice", (Seat.EAST,), players, StandInBot(),
                                    think_seconds=0))
        await settle(pilot)
        for discards in range(0, 12, 2):
            lines = screen_lines(app.screen)
            assert lines[1].startswith("Annabelle-Marguerite: East · Bot (strong): West ")
            assert lines[2].startswith(f"discards {discards}/34 ·  Your turn  choose a tile")
            assert lines[3][:55].strip() == "", lines[3]
            assert lines[4].startswith("Bot (strong)") and lines[5].startswith("Annabelle")
            await pilot.press("enter")
            await settle(pilot)


async def test_wrapped_lines_keep_their_alignment() -> None:
    """A wait's yaku go on under the yaku column, never at column 0 (its line ended with a
    comma one cell too wide); a log line goes on under the name, after its number."""
    app = fast_app()
    async with app.run_test(size=(80, 24)) as pilot:
        # Chinitsu with riichi, tanyao, pinfu and ryanpeikou on 2p (R12, R13): long lines.
        game = game_with_hands("2223344556677p", "123m456m789s3332z", dora="2z")
        players = {Seat.EAST: PlayerInfo(name="You"),
                   Seat.WEST: PlayerInfo(name="Bot (strong)", kind="bot")}
        await app.play(LocalSession(game, "practice", (Seat.EAST,), players, StandInBot(),
                                    think_seconds=0))
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        waits = screen.query_one("#waits", WaitPanel)
        shown = [str(line).rstrip() for line in waits.content_for(waits.content_size.width)
                 .split("\n")]
        assert len(shown) > 4 and shown[0] == "Your waits (value without ura):"
        yaku_column = shown[1].index("riichi")
        for line in shown[1:]:
            assert len(line) <= waits.content_size.width
            assert line[:2] in {"2p", "3p", "4p", "5p", "6p", "7p", "8p"} or (
                line[:yaku_column].strip() == "" and line[yaku_column] != " "), shown
        for _ in range(6):
            await pilot.press("enter")
            await settle(pilot)
        log = screen.query_one(GameLog)
        lines = [line[log.content_region.x:log.content_region.right]
                 for line in screen_lines(screen)[log.region.y:log.region.bottom]]
        wrapped = [line for line in lines if line.strip() and not re.match(r" *\d+ ", line)]
        assert wrapped, "'10 Bot (strong) 3s' must wrap beside the pool"
        assert all(line.startswith("    ") and line[4] != " " for line in wrapped), lines


def test_a_waits_lines_fit_their_width() -> None:
    """Every width from 62 to 100 cells: each line of the wait fits, its yaku in full (R13)."""
    entry = WaitEntry("[b]2p[/]  1 live  ron ok  12 han 30 fu  24000 sanbaiman  ",
                      ("riichi 1", "tanyao 1", "pinfu 1", "ryanpeikou 3", "chinitsu 6"))
    for width in range(62, 101):
        lines = wrap_wait(entry, width)
        assert all(Content.from_markup(line).cell_length <= width for line in lines), width
        assert " ".join(Content.from_markup("\n".join(lines)).plain.split()).endswith(
            "riichi 1, tanyao 1, pinfu 1, ryanpeikou 3, chinitsu 6")


async def test_a_passed_waits_furiten_names_each_yaku_of_its_value() -> None:
    """Seed 1: West's second discard is East's wait 7p, 3 han with ippatsu (R16) and below
    mangan (R14): East is furiten (R15b). The message names each yaku, ippatsu too, so its 3
    han and the waits panel's 2 (no ippatsu later) agree."""
    app = make_app(seed=1, seat=Seat.EAST)
    async with app.run_test(size=(100, 32)) as pilot:
        await _play_three(pilot)
        furiten = str(app.screen.query_one("#furiten", Static).render())
        assert ("7p was one of your waits but worth only 3 han 30 fu without ura (riichi 1, "
                "ippatsu 1, pinfu 1), below mangan") in furiten, furiten
        waits = app.screen.query_one("#waits", WaitPanel)
        text = waits.content_for(waits.content_size.width).plain
        assert "7p  3 live  furiten  2 han 30 fu   2000  riichi 1, pinfu 1" in text, text
