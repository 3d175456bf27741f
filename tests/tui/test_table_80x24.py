"""The table as a new player finds it at 80x24: a footer whose keys are
whole on every screen, the selected tile's chance and first reason always in sight, a header
that never wraps, wrapped lines that keep their alignment."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.screen import ModalScreen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from minefield.defense.estimate import percent
from minefield.rules.names import name_text
from minefield.rules.prepared import game_with_hands
from minefield.rules.tiles import kind_str
from minefield.tui.app import MinefieldApp
from minefield.tui.screens.play import PlayScreen
from minefield.tui.textual_private import screen_lines
from minefield.tui.widgets.tiles import TileRow
from tests.tui.conftest import make_app, screen_text, settle
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
