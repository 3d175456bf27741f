"""Each private Textual API the app relies on still works as used (minefield.tui.textual_private).

A Textual upgrade that renames one of them fails here, by name.
"""

from __future__ import annotations

from typing import ClassVar

import pytest
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.css.query import NoMatches
from textual.css.stylesheet import Stylesheet
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import Header, Input, Static
from textual.widgets._footer import FooterKey
from textual.widgets._header import HeaderTitle

from minefield.tui.textual_private import (
    OrderedInput,
    SteadyHeader,
    add_exit_report,
    add_parsed_css,
    close_now,
    default_exception_handler,
    follow_driver_environment,
    footer_key_styled,
    mount_offstage,
    parsed_css,
    screen_lines,
)
from minefield.tui.widgets.footer import FitFooter, KeysFooter


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


class Titled(App[None]):
    def __init__(self, header: type[Header]) -> None:
        super().__init__()
        self.header = header

    def compose(self) -> ComposeResult:
        yield self.header()


async def _retitle_without_title_widget(header: type[Header]) -> Titled:
    """Set the sub-title while the header has no title widget (a header being composed or torn
    down as screens are replaced), as the table does with a room code."""
    app = Titled(header)
    async with app.run_test(size=(40, 5)) as pilot:
        await app.query_one(HeaderTitle).remove()
        app.sub_title = "room ABC234"
        await pilot.pause()
        app.title = "Minefield"
        await pilot.pause()
    return app


async def test_textual_header_fails_when_retitled_without_its_title() -> None:
    """The failure SteadyHeader exists for: Textual's own Header stops the app."""
    with pytest.raises(NoMatches):
        await _retitle_without_title_widget(Header)


async def test_steady_header_is_retitled_without_its_title() -> None:
    app = await _retitle_without_title_widget(SteadyHeader)
    assert app.return_code in (None, 0)


async def test_steady_header_shows_the_titles() -> None:
    app = Titled(SteadyHeader)
    async with app.run_test(size=(60, 5)) as pilot:
        app.title, app.sub_title = "Minefield", "room ABC234"
        await pilot.pause()
        assert "room ABC234" in "\n".join(screen_lines(app.screen))


class Backstage(Screen[None]):
    def compose(self) -> ComposeResult:
        yield Static("built backstage", id="backstage")


async def test_mount_offstage_builds_a_screen_that_is_not_shown() -> None:
    app = Tiny()
    async with app.run_test(size=(40, 5)) as pilot:
        screen = Backstage()
        app.install_screen(screen, "backstage")
        await mount_offstage(app, screen)
        assert screen.is_mounted and screen not in app.screen_stack
        assert str(screen.query_one("#backstage", Static).content) == "built backstage"
        assert screen.query_one("#backstage").styles.height is not None  # styled (Static: auto)
        await pilot.pause()
        assert "hello from the screen" in "\n".join(screen_lines(app.screen))
        await app.push_screen("backstage")
        await pilot.pause()
        assert app.screen is screen
        assert "built backstage" in "\n".join(screen_lines(app.screen))


def test_parsed_css_is_what_the_stylesheet_parses_from() -> None:
    """``Stylesheet._parse_cache``: what ``parse`` put there is read back, and what is put
    there is used instead of parsing the source."""
    css, where = "Static { color: red; }", ("test.tcss", "")
    first = Stylesheet()
    first.add_source(css, read_from=where)
    first.parse()
    parsed = parsed_css(first)
    assert list(parsed) == [(css, where, False, 0, "")]
    assert parsed[(css, where, False, 0, "")] == first.rules
    other = Stylesheet()
    other.add_source(css, read_from=where)
    marked = Stylesheet()
    marked.add_source("Label { color: blue; }", read_from=where)
    marked.parse()
    add_parsed_css(other, {(css, where, False, 0, ""): marked.rules})  # not what css says
    other.parse()
    assert other.rules == marked.rules



async def test_forget_gone_widgets_empties_textuals_styles_memo_and_dead_watchers() -> None:
    from textual._styles_cache import StylesCache

    from minefield.tui.textual_private import forget_gone_widgets

    app = App[None]()
    async with app.run_test(size=(40, 10)) as pilot:
        await app.mount(Header(), Static("one"))
        await pilot.pause()
        assert StylesCache.get_inner_outer.cache_info().currsize > 0
        await app.query_one(Header).remove()
        await app.mount(Header())
        await pilot.pause()
        watching = getattr(app, "__watchers")["title"]
        assert any(watcher._closing for watcher, _ in watching)  # Textual keeps the gone one
        forget_gone_widgets(app)
        assert StylesCache.get_inner_outer.cache_info().currsize == 0
        assert len(watching) == 1 and not watching[0][0]._closing  # the header on screen


def test_follow_driver_environment_makes_an_app_use_the_web_driver(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A browser session's child, forked after Textual was imported, gets the web driver from
    its environment (textual.constants was read at import)."""
    import textual.constants
    from textual.drivers.web_driver import WebDriver

    monkeypatch.setattr(textual.constants, "DRIVER", textual.constants.DRIVER)
    monkeypatch.setattr(textual.constants, "COLOR_SYSTEM", textual.constants.COLOR_SYSTEM)
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")
    monkeypatch.setenv("TEXTUAL_COLOR_SYSTEM", "truecolor")
    assert App().get_driver_class() is not WebDriver
    follow_driver_environment()
    assert App().get_driver_class() is WebDriver
    assert textual.constants.COLOR_SYSTEM == "truecolor"
    monkeypatch.delenv("TEXTUAL_DRIVER")
    follow_driver_environment()
    assert App().get_driver_class() is not WebDriver


class TwoFields(App[None]):
    """An input of Textual's and an :class:`OrderedInput`, each with ``bob`` in it."""

    def compose(self) -> ComposeResult:
        yield Input("bob", id="plain", select_on_focus=False)  # the cursor after bob
        yield OrderedInput("bob", id="ordered", select_on_focus=False)


def burst(app: App[None], *keys: str) -> None:
    """Keys arriving together, as a packet over SSH brings them: all posted before the app
    handles the first (Pilot's ``press`` waits after each key, and would hide the order)."""
    for key in keys:
        character = key if len(key) == 1 else None
        app.post_message(events.Key(key, character))


@pytest.mark.parametrize(("keys", "value"), [
    (["ctrl+a", "ctrl+k", "b", "o", "b"], "bob"),  # the invitation's name, cleared and typed
    (["x", "backspace", "y"], "boby"),
    (["home", "a", "end", "z"], "abobz"),
])
async def test_an_ordered_input_takes_keys_arriving_together_in_their_order(
        keys: list[str], value: str) -> None:
    app = TwoFields()
    async with app.run_test(size=(40, 6)) as pilot:
        plain = app.query_one("#plain", Input)
        ordered = app.query_one("#ordered", OrderedInput)
        ordered.focus()
        await pilot.pause()
        burst(app, *keys)
        await pilot.pause()
        await pilot.pause()
        assert ordered.value == value
        # Textual's own input, given the same burst, runs its keys' bindings late: the bug.
        plain.focus()
        await pilot.pause()
        burst(app, *keys)
        await pilot.pause()
        await pilot.pause()
        assert plain.value != value


class Keyed(App[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        (key, f"pick('{name}')", name) for key, name in
        (("a", "Alpha"), ("b", "Bravo"), ("c", "Charlie"), ("d", "Delta"))]

    def __init__(self, footer: type[KeysFooter]) -> None:
        super().__init__()
        self.footer = footer

    def action_pick(self, name: str) -> None:
        self.notify(name)

    def compose(self) -> ComposeResult:
        yield Static("keys below")
        yield self.footer()


@pytest.mark.parametrize(("footer_type", "width", "compact"),
                         [(FitFooter, 120, False), (FitFooter, 47, True), (KeysFooter, 47, False)])
async def test_footer_keys_are_made_in_the_footers_style_and_never_restyled(
        monkeypatch: pytest.MonkeyPatch, footer_type: type[KeysFooter], width: int,
        compact: bool) -> None:
    """Textual's footer keys start compact and took the footer's style when mounted, the
    whole stylesheet applied again to each key for each change: footer_key_styled makes them
    in the footer's style (the command palette's key compact, as Textual leaves it), so none
    is restyled, whether the footer is compact or not."""
    restyled: list[object] = []
    update_styles = App.update_styles

    def counted(app: App[None], node: DOMNode, animate: bool = True) -> None:
        if isinstance(node, FooterKey):
            restyled.append(node)
        update_styles(app, node, animate)

    monkeypatch.setattr(App, "update_styles", counted)
    app = Keyed(footer_type)
    async with app.run_test(size=(width, 5)) as pilot:
        await pilot.pause()
        footer = app.query_one(footer_type)
        footer.refresh(recompose=True)  # as a change of the bindings does
        await pilot.pause()
        palette = footer.query_one("FooterKey.-command-palette", FooterKey)
        keys = [key for key in footer.query(FooterKey) if key is not palette]
        assert footer.compact is compact and palette.compact and palette.has_class("-compact")
        assert len(keys) == 4
        assert all(key.has_class("-compact") is compact and key.compact is compact
                   for key in keys)
        assert "Charlie" in "\n".join(screen_lines(app.screen))
    assert restyled == []
    assert not footer_key_styled(Static("not a key"), True)


def test_the_next_app_waits_for_the_input_thread_of_the_last_and_the_game_is_forked() -> None:
    """The browser door's driver leaves its input thread to end by itself, reading the same
    input meanwhile: the lobby waits for it before the game, so that the game's first key is
    the game's and the game runs in a child of its own, as on the SSH doors."""
    import os
    import threading
    import time

    from minefield.cli.lobby import in_a_child
    from minefield.tui.textual_private import INPUT_THREAD, wait_for_input_threads

    parent = os.getpid()

    def where() -> int:
        return 7 if os.getpid() != parent else 3  # 7: in a child

    def lingering() -> threading.Thread:
        thread = threading.Thread(target=time.sleep, args=(0.3,), name=INPUT_THREAD)
        thread.start()
        return thread

    thread = lingering()
    assert in_a_child(where) == 3  # a thread beside it: no fork, the game here
    thread.join()
    thread = lingering()
    wait_for_input_threads()
    assert not thread.is_alive()
    assert in_a_child(where) == 7
