"""Every private Textual API the app relies on, in one place (they change between versions).

Each function here wraps one use and has a test in ``tests/tui/test_textual_private.py``, so a
Textual upgrade that moves one of them fails there, by name, rather than somewhere in a game.
Textual is pinned exactly in ``pyproject.toml``.
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.segment import Segments
from textual.app import App
from textual.screen import Screen


def add_exit_report(app: App[Any], renderable: RenderableType) -> None:
    """Print ``renderable`` on the terminal after the app has exited (a fatal error's report).

    Textual keeps what it prints at exit in ``App._exit_renderables``.
    """
    app._exit_renderables.append(Segments(app.console.render(renderable, app.console.options)))


def close_now(app: App[Any]) -> None:
    """Stop the app's message loop at once (after a fatal error), as Textual's own
    ``App._fatal_error`` does with ``App._close_messages_no_wait``."""
    app._close_messages_no_wait()


def default_exception_handler(app: App[Any], error: Exception) -> None:
    """Textual's own handling of an unexpected error (exit with a report): the app overrides
    ``App._handle_exception`` to recover from errors and calls this when it cannot."""
    App._handle_exception(app, error)


def screen_lines(screen: Screen[Any]) -> list[str]:
    """The text of every line the screen shows now (tests read the screen with it)."""
    return [strip.text for strip in screen._compositor.render_strips()]
