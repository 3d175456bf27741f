"""Every private Textual API the app relies on, in one place (they change between versions).

Each function here wraps one use and has a test in ``tests/tui/test_textual_private.py``, so a
Textual upgrade that moves one of them fails there, by name, rather than somewhere in a game.
Textual is pinned exactly in ``pyproject.toml``.
"""

from __future__ import annotations

import os
from contextlib import suppress
from typing import Any, TypeVar

from rich.console import RenderableType
from rich.segment import Segments
from textual import events
from textual.app import App
from textual.css.model import RuleSet
from textual.css.query import NoMatches
from textual.css.stylesheet import Stylesheet
from textual.screen import ModalScreen, Screen
from textual.widget import AwaitMount, Widget
from textual.widgets import Header, Input
from textual.widgets._footer import FooterKey
from textual.widgets._header import HeaderTitle


def follow_driver_environment() -> None:
    """Take Textual's driver and colour system from the environment as it is now.

    Textual reads ``TEXTUAL_DRIVER`` and ``TEXTUAL_COLOR_SYSTEM`` into ``textual.constants``
    once, when it is first imported. The front door's process server imports it once for
    every session and then forks; a browser session's child is given the web driver in its
    own environment, after that import.
    """
    import textual.constants

    setattr(textual.constants, "DRIVER", os.environ.get("TEXTUAL_DRIVER") or None)  # noqa: B010
    setattr(textual.constants, "COLOR_SYSTEM",  # noqa: B010
            os.environ.get("TEXTUAL_COLOR_SYSTEM") or "auto")


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


class SteadyHeader(Header):
    """Textual's header, whose title watchers tolerate a moment without the title widget.

    ``Header._on_mount`` watches the app's and the screen's title and sub-title and updates its
    ``HeaderTitle`` child, catching only ``NoScreen``. When a title changes while a header is
    still being composed or already torn down (screens replaced quickly as a network game
    moves on, while the table sets the room code), its query raises ``NoMatches`` and the app
    stops. This one does the same work and skips that moment; it replaces ``Header._on_mount``
    (``prevent_default``), keeping ``Widget._on_mount``'s own work.
    """

    def _on_mount(self, event: events.Mount) -> None:
        event.prevent_default()
        Widget._on_mount(self, event)

        async def set_title() -> None:
            with suppress(NoMatches):
                self.query_one(HeaderTitle).update(self.format_title())

        for owner in (self.app, self.screen):
            self.watch(owner, "title", set_title)
            self.watch(owner, "sub_title", set_title)


def screen_lines(screen: Screen[Any]) -> list[str]:
    """The text of every line the screen shows now (tests read the screen with it)."""
    return [strip.text for strip in screen._compositor.render_strips()]


def mount_offstage(app: App[Any], screen: Screen[Any]) -> AwaitMount:
    """Compose, style and mount ``screen`` without showing it (it stays out of the screen
    stack); await the result for its widgets. Install it first, so that it is kept.

    Textual mounts a screen when it is first pushed or switched to (``App._get_screen`` calls
    ``App._register``); this does that step ahead, so that showing it later only lays it out.
    """
    return AwaitMount(screen, app._register(app, screen))


def lay_out_offstage(screen: Screen[Any]) -> None:
    """Lay out and render a screen mounted by :func:`mount_offstage` at the app's size, without
    showing it: its widgets get their sizes and keep their rendered lines, so that showing it
    later redraws only what changed meanwhile (``Screen._refresh_layout`` draws only the
    current screen; the compositor's render only fills the widgets' line caches here)."""
    screen._refresh_layout(screen.app.size)
    screen._compositor.render_update(full=True, screen_stack=[screen])


def footer_key_styled(widget: Widget, compact: bool) -> bool:
    """Give ``widget``, when it is one of a :class:`~textual.widgets.Footer`'s keys (Textual's
    private ``FooterKey``) not mounted yet, the style it would take when mounted: the
    footer's ``compact`` style, or for the command palette's key (which Textual does not bind
    to the footer's) the compact style; whether it was a key.

    Textual's keys start compact and take the footer's style from a binding when mounted:
    each change restyles the key with the whole stylesheet (twice per key at a width where
    the footer is not compact), and the footer makes its keys anew at every change of the
    bindings. A key made in its style is not restyled: the binding then changes nothing."""
    if not isinstance(widget, FooterKey):
        return False
    style = True if widget.has_class("-command-palette") else compact
    widget.set_reactive(FooterKey.compact, style)
    widget.set_class(style, "-compact", update=False)
    return True


#: Parsed CSS sources by Textual's own key: (source text, location, defaults or not, tie
#: breaker, scope).
ParsedCss = dict[tuple[Any, ...], list[RuleSet]]


def parsed_css(stylesheet: Stylesheet) -> ParsedCss:
    """Every CSS source ``stylesheet`` has parsed, with its rules.

    Textual keeps them in ``Stylesheet._parse_cache`` (an LRU cache that
    ``Stylesheet._parse_rules`` reads before parsing a source); the rules depend on the
    stylesheet's variables (the theme) too, and the cache is emptied when they change.
    """
    cache = stylesheet._parse_cache
    return {key: rules for key in list(cache.keys()) if (rules := cache.get(key)) is not None}


def add_parsed_css(stylesheet: Stylesheet, parsed: ParsedCss) -> None:
    """Give ``stylesheet`` sources parsed before (with the same variables), which it then
    takes instead of parsing them (see :func:`parsed_css`)."""
    cache = stylesheet._parse_cache
    for key, rules in parsed.items():
        cache.set(key, rules)



#: The name Textual gives the thread that reads an app's input.
INPUT_THREAD = "textual-input"


def wait_for_input_threads(timeout: float = 2.0) -> None:
    """Wait (at most ``timeout`` seconds) for the input threads of apps that have ended.

    Textual's Linux driver joins its input thread when its app stops; its web driver (the
    browser door's) only tells it to stop, and the thread ends at its next look, up to a
    tenth of a second later, still reading the same input meanwhile. The next app of the
    process (the game after the lobby) must not start while it may take that app's first
    key, and a fork (:func:`minefield.cli.lobby.in_a_child`) is made only with no such
    thread left."""
    import threading
    import time

    deadline = time.monotonic() + timeout
    for thread in threading.enumerate():
        if thread.name == INPUT_THREAD and thread is not threading.current_thread():
            thread.join(max(0.0, deadline - time.monotonic()))


def forget_gone_widgets(app: App[Any]) -> None:
    """Let widgets that are gone, and what they rendered, be freed (a session grew
    8-20 MB a game). Two things of Textual keep them:

    - ``StylesCache.get_inner_outer`` is an ``lru_cache`` on a method: its keys (up to 1024)
      keep each widget's ``StylesCache``, with the widget's cached lines;
    - a watcher (``watch``, ``data_bind``) stays in the watched object's list until that
      attribute changes: the app's ``title`` (each header watches it, and it never changes)
      and a long-lived footer's ``compact`` (its keys are made anew, and bound, at every
      change of the bindings). Those of closed nodes go, as Textual's own change would do.

    Called when a game's screens go: the widgets on screen fill the cache again at their
    next frame."""
    from textual._styles_cache import StylesCache

    StylesCache.get_inner_outer.cache_clear()
    nodes: list[object] = [app]
    for screen in app.screen_stack:
        nodes += screen.walk_children(with_self=True)
    for node in nodes:
        watchers: dict[str, list[tuple[Any, Any]]] = getattr(node, "__watchers", None) or {}
        for kept in watchers.values():
            kept[:] = [(watcher, callback) for watcher, callback in kept
                       if not getattr(watcher, "_closing", False)]


class OrderedInput(Input):
    """An :class:`~textual.widgets.Input` whose own keys (Backspace, Ctrl+A, Ctrl+K, the
    arrows, Enter...) take effect in the order they were typed.

    Textual hands a printable key to the focused input at once, but a key the input has a
    binding for goes first up the DOM, one message queue after another, to the app, which
    then runs the binding: keys arriving together (typed fast over SSH, where a packet
    carries several) were reordered. Ctrl+A, Ctrl+K, ``bob`` gave ``bob`` and then an empty
    field; ``bx``, Backspace, ``ob`` gave ``bxo`` and then ``bx``. Here the input runs its own
    non-priority bindings as the key reaches it, in the same queue as the letters."""

    async def _on_key(self, event: events.Key) -> None:
        if not event.is_printable:
            for binding in self._bindings.key_to_bindings.get(event.key, ()):
                if not binding.priority and await self.app.run_action(binding.action, self):
                    event.stop()
                    event.prevent_default()  # the handlers of Input and Widget: nothing to do
                    return
        # Otherwise Textual goes on to Input's own handler (each class's in the MRO).


Result = TypeVar("Result")


class FieldFirstScreen(ModalScreen[Result]):
    """A form opened by a key (priority binding) whose field takes the keys typed with it.

    Textual hands a key to the widget focused when the key comes in. Keys that came in one
    packet with the key that opened this screen find it pushed but not yet composed, with
    nothing focused, and are handed to the screen itself, where they were lost (or, before the
    opening key was a priority binding, went to the screen below: ``ibob`` typed fast in the
    lobby played a bot). Here those keys go on to the field focused once the screen is
    composed, in the order typed (:class:`OrderedInput` keeps that order)."""

    def __init__(self) -> None:
        super().__init__()
        #: Keys handed to this screen itself rather than to a widget of it.
        self._early_keys: list[events.Key] = []

    def _forward_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key):
            self._early_keys.append(event)
        super()._forward_event(event)

    async def on_key(self, event: events.Key) -> None:
        """A key handed to the screen before its field had the focus: the field's."""
        early = next((i for i, key in enumerate(self._early_keys) if key is event), None)
        if early is None:
            return
        del self._early_keys[early]
        field = self.focused
        if field is not None:
            event.stop()
            event.prevent_default()
            field.post_message(events.Key(event.key, event.character))
