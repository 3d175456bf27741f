"""Modal screens: the hot-seat curtain, confirmations, errors and the too-small notice."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Static

from minefield.rules.seats import Seat
from minefield.tui.messages import CurtainLifted
from minefield.tui.widgets.footer import KeysFooter

#: The smallest terminal the game is laid out for.
MIN_WIDTH, MIN_HEIGHT = 80, 24

#: Tab and Shift+Tab in a form, moving the focus the moment the key arrives. Textual hands each
#: key to the widget focused when the key comes in and moves the focus only when that widget
#: has let Tab go by: typed fast (``Ann``, Tab, ``Bob`` arriving together), ``Bob`` was already
#: the first field's and the game began as "AnnBob". A priority binding runs before
#: the keys after it are handed out.
FORM_FOCUS_KEYS: list[BindingType] = [
    Binding("tab", "app.focus_next", "Next field", show=False, priority=True),
    Binding("shift+tab", "app.focus_previous", "Previous field", show=False, priority=True),
]


class CurtainScreen(Screen[None]):
    """Hot-seat: shown between two moments of different players; nothing private exists
    while it is up (the previous player's screen is gone)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "ready", "Ready"),
        Binding("escape", "app.menu", "Menu"),
    ]

    def __init__(self, seat: Seat, reason: str, name: str | None = None) -> None:
        super().__init__()
        self.seat = seat
        self.reason = reason
        self.name_shown = name  # in a match, who sits in that seat in this game

    def compose(self) -> ComposeResult:
        who = self.seat.value.title()
        if self.name_shown:
            who += f" ({self.name_shown})"
        with Vertical(id="curtain-box"):
            yield Static(f"Pass to {who} - press Enter when ready", id="curtain-title",
                         markup=False)
            yield Static(self.reason, id="curtain-reason")
            with Center():
                yield Button("Ready", id="ready", variant="primary")
        yield KeysFooter()

    def action_ready(self) -> None:
        """The next player is at the keyboard."""
        self.post_message(CurtainLifted(self.seat))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_ready()


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question; y confirms, Escape or n goes back, Enter presses the focused button
    (No, unless ``enter_says_yes``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str, yes: str = "Yes", no: str = "No, go back",
                 enter_says_yes: bool = False) -> None:
        super().__init__()
        self.question = question
        self._labels = (yes, no)
        self._first = "#yes" if enter_says_yes else "#no"

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="question")
            with Horizontal(classes="buttons"):
                yield Button(self._labels[0], id="yes", variant="warning")
                yield Button(self._labels[1], id="no", variant="primary")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one(self._first, Button).focus()

    def action_answer(self, yes: bool) -> None:
        """Close with the answer."""
        self.dismiss(yes)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")


class MessageScreen(ModalScreen[None]):
    """A message to read, such as an unexpected error; any of Enter or Escape closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,escape", "close", "Close")]

    def __init__(self, title: str, message: str) -> None:
        super().__init__()
        self.title_text = title
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog -error"):
            yield Static(self.title_text, classes="dialog-title")
            yield Static(self.message, classes="question", markup=False)  # paths, as written
            with Horizontal(classes="buttons"):
                yield Button("OK", id="ok", variant="primary")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#ok", Button).focus()

    def action_close(self) -> None:
        """Close the message."""
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)


class LinkScreen(ModalScreen[None]):
    """Covers the game while the link to the game server is down; it blocks every key but the
    app's own (help, quit) and goes away by itself when the link is back."""

    BINDINGS: ClassVar[list[BindingType]] = []

    def __init__(self, detail: str = "") -> None:
        super().__init__()
        self._detail = detail

    @property
    def detail(self) -> str:
        """What is known about the link (shown under the title)."""
        return self._detail

    @detail.setter
    def detail(self, text: str) -> None:
        self._detail = text
        if self.is_mounted:
            self.query_one("#link-detail", Static).update(text)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Reconnecting…", classes="dialog-title")
            yield Static(self._detail, id="link-detail", classes="question", markup=False)


class TooSmallScreen(ModalScreen[None]):
    """Covers everything while the terminal is smaller than the game needs."""

    def __init__(self, width: int, height: int) -> None:
        super().__init__()
        self.need = (width, height)

    def compose(self) -> ComposeResult:
        width, height = self.need
        yield Static(f"Terminal too small: Minefield needs at least {width}x{height}.\n"
                     "Make the window larger (ctrl+q quits).", id="too-small")


def cover_if_too_small(app: App[Any], width: int | None = None, height: int | None = None) -> None:
    """Cover ``app`` with a :class:`TooSmallScreen` while its terminal (``width`` x ``height``,
    default its size now) is smaller than ``MIN_WIDTH`` x ``MIN_HEIGHT``; uncover it after."""
    width = app.size.width if width is None else width
    height = app.size.height if height is None else height
    too_small = width < MIN_WIDTH or height < MIN_HEIGHT
    covering = [s for s in app.screen_stack if isinstance(s, TooSmallScreen)]
    if too_small and not covering:
        app.push_screen(TooSmallScreen(MIN_WIDTH, MIN_HEIGHT))
    elif not too_small and covering and app.screen is covering[-1]:
        app.pop_screen()
