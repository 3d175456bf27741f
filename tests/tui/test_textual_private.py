"""Each private Textual API the app relies on still works as used (minefield.tui.textual_private).

A Textual upgrade that renames one of them fails here, by name.
"""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Static

from minefield.tui.textual_private import (
    add_exit_report,
    close_now,
    default_exception_handler,
    screen_lines,
)


class Tiny(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("hello from the screen")


async def test_screen_lines_reads_what_the_screen_shows() -> None:
    app = Tiny()
    async with app.run_test(size=(40, 5)) as pilot:
        await pilot.pause()
        lines = screen_lines(app.screen)
    assert len(lines) == 5 and lines[0].startswith("hello from the screen")


async def test_an_exit_report_is_printed_after_close_now_stops_the_app(
        capfd: pytest.CaptureFixture[str]) -> None:
    app = Tiny()
    async with app.run_test(size=(40, 5)) as pilot:
        await pilot.pause()
        add_exit_report(app, Text("the report"))
        close_now(app)  # the message loop stops: no pause after this
    assert not app.is_running
    assert "the report" in capfd.readouterr().err


async def test_the_default_exception_handler_ends_the_app_with_the_error() -> None:
    app = Tiny()
    with pytest.raises(RuntimeError, match="boom"):
        async with app.run_test(size=(40, 5)) as pilot:
            await pilot.pause()
            default_exception_handler(app, RuntimeError("boom"))
            await pilot.pause()
    assert app.return_code == 1
