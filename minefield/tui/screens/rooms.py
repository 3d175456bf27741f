"""The menu's network entries, when the app has a game server (an SSH session's menu):
host a room, join one by its code, resume your game.

``ssh -t HOST`` with no command opens the menu of ``minefield ssh-entry``; these entries do
what ``ssh -t HOST host``, ``join CODE`` and ``resume`` do, without leaving the menu.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from minefield.protocol.codes import normalize_code
from minefield.tui.textual_private import OrderedInput
from minefield.tui.widgets.footer import KeysFooter

#: The menu's network entries (key, label), first in the menu when there is a server.
ROOM_ENTRIES = (
    ("host", "Host a room for a friend"),
    ("join", "Join a friend's room (its code)"),
    ("resume", "Resume my game"),
)


@dataclass(frozen=True, slots=True)
class ServerAddress:
    """Where the game server is and who plays: ``socket`` (None: the usual place) and the
    ``player`` name a shared SSH account gives (None: the Unix user)."""

    socket: Path | None = None
    player: str | None = None


class CodeScreen(ModalScreen[str | None]):
    """Asks for a room code; dismissed with the code in its canonical form (None: Escape).

    A code that cannot be one (wrong length, a letter codes never use) is said at once, under
    the field, and the question stays.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Back")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("The room code your friend gave you (6 letters and digits):",
                         classes="question")
            yield OrderedInput(placeholder="K7Q3PX", max_length=16, id="code")
            yield Static("", id="code-problem")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter: the code, if it can be one."""
        event.stop()
        code = normalize_code(event.value)
        if code is None:
            shown = event.value.strip()[:16] or "nothing"
            self.query_one("#code-problem", Static).update(
                f"{shown!r} is not a room code: 6 letters and digits, such as K7Q3PX")
            return
        self.dismiss(code)

    def action_cancel(self) -> None:
        """Back to the menu."""
        self.dismiss(None)


__all__ = ["ROOM_ENTRIES", "CodeScreen", "ServerAddress"]
