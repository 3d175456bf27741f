"""Unexpected errors: keep the game, never show hidden tiles.

A bug in a screen should cost the player a message, not the game: the app logs the error
(without local variables or the error's text, which may hold tiles), tells the player, and
rebuilds the game's screen from its session, which still holds the game; without a game (the
drills, a form) the player is back at the menu. Only a crash loop ends the app, its error logged
too, and then its report shows no local variables either.
"""

from __future__ import annotations

import math
import traceback
from collections.abc import Callable, Mapping
from datetime import datetime
from time import monotonic
from typing import TYPE_CHECKING, Any

from textual.actions import ActionParseResult
from textual.app import App
from textual.dom import DOMNode
from textual.worker import WorkerFailed

from minefield.paths import error_log_path
from minefield.tui.screens.dialogs import MessageScreen
from minefield.tui.textual_private import add_exit_report, close_now, default_exception_handler

if TYPE_CHECKING:
    from minefield.session.base import SeatFailed

#: A crash loop (a recovery that fails again, a new screen that cannot mount) makes errors
#: milliseconds apart; a player who meets a bug makes at most one per key press or click, with
#: a message to close in between. So an error counts towards MAX_RECOVERIES only if it comes
#: within RECOVERY_GAP seconds of the one before: a burst of more than MAX_RECOVERIES such
#: errors is a loop and ends the app, while errors spread over a game start the count again
#: each time and never end it.
MAX_RECOVERIES = 5
RECOVERY_GAP = 2.0


class RecoveryCounter:
    """Tells a crash loop from errors spread over a game (see ``RECOVERY_GAP``)."""

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        self._clock = clock
        self.recoveries = 0
        self._last_error_at = -math.inf

    def may_recover(self) -> bool:
        """Count one more error; False when it is one too many of a burst."""
        now = self._clock() if self._clock is not None else monotonic()
        if now - self._last_error_at > RECOVERY_GAP:
            self.recoveries = 0  # a calm spell: not a loop
        self._last_error_at = now
        if self.recoveries >= MAX_RECOVERIES:
            return False
        self.recoveries += 1
        return True

    def reset(self) -> None:
        """A new game starts with a clean count."""
        self.recoveries = 0
        self._last_error_at = -math.inf


def error_report(error: BaseException) -> str:
    """The traceback of ``error`` and of the errors it came from: where (files, lines, the code
    on them) and the errors' types, never local variables or an error's own text, which may
    name hidden tiles (``KeyError: 5`` is a tile kind; R26)."""
    chain: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and all(current is not seen for seen in chain):
        chain.append(current)
        current = current.__cause__ or (
            None if current.__suppress_context__ else current.__context__)
    parts: list[str] = []
    for index, item in enumerate(reversed(chain)):
        if index:
            parts.append("\nThe error above led to this one:\n\n")
        parts.append("Traceback (most recent call last):\n")
        parts.extend(traceback.format_tb(item.__traceback__))
        kind = type(item)
        name = kind.__qualname__ if kind.__module__ == "builtins" else (
            f"{kind.__module__}.{kind.__qualname__}")
        parts.append(f"{name} (its text is not logged: it may name hidden tiles)\n")
    return "".join(parts)


def log_error(error: BaseException) -> str:
    """Append the traceback (:func:`error_report`: no local variables, no error text, as either
    may hold tiles) to the error log; where it was written, for the player's message."""
    return _append(f"--- {datetime.now().isoformat(timespec='seconds')}\n"
                   + error_report(error))


def log_failure(failure: SeatFailed) -> str:
    """Append the other seat's failure: its type and where, never its text (R26)."""
    return _append(f"--- {datetime.now().isoformat(timespec='seconds')}\n{failure}\n")


def _append(text: str) -> str:
    path = error_log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as log:
            log.write(text)
    except OSError:
        return "nowhere (the log could not be written)"
    return str(path)


def exit_with_report(app: App[Any]) -> None:
    """Exit after an unexpected error with a traceback that shows no local variables (they
    may hold hidden tiles)."""
    app.bell()

    from rich.traceback import Traceback  # loaded only for a crash

    add_exit_report(app, Traceback(show_locals=False, width=None))
    close_now(app)


class RecoveringApp(App[int]):
    """An app that keeps its game through an unexpected error: the error is logged, the player
    told, and the game's screen rebuilt from its session (:meth:`rebuild_game`). Without a game
    (:meth:`has_game`), with ``catch_errors`` off (tests), or in a crash loop
    (:class:`RecoveryCounter`), it exits with a report that shows no local variables."""

    def __init__(self, catch_errors: bool = True) -> None:
        super().__init__()
        self.catch_errors = catch_errors
        self.recovery = RecoveryCounter()
        #: The names of the errors met (and of the other seat's failures), for tests and notes.
        self.errors: list[str] = []

    def has_game(self) -> bool:
        """True while a game is kept here (an error then does not end the app)."""
        return False

    async def rebuild_game(self) -> None:
        """Show the game again from its session after an error."""

    async def leave_broken_screen(self) -> None:
        """After an error without a game: close the screens over the menu (the one whose
        handler failed no longer answers its keys)."""

    async def run_action(self, action: str | ActionParseResult,
                         default_namespace: DOMNode | None = None,
                         namespaces: Mapping[str, DOMNode] | None = None) -> bool:
        """Run an action; a bug in a screen's action becomes a message, not a dead app (key
        bindings run actions on the app's own message loop, which an error would stop)."""
        try:
            return await super().run_action(action, default_namespace, namespaces)
        except Exception as error:
            if not self.catch_errors:
                raise
            self.recover_from(error)
            return True

    def _handle_exception(self, error: Exception) -> None:
        """Textual's hook for an error nothing caught (a handler, a worker)."""
        self.recover_from(error)

    def recover_from(self, error: Exception) -> None:
        """An unexpected error: log it, tell the player, and rebuild the game's screen from the
        session, which still holds the game (without a game, as in the drills, back to the
        menu: :meth:`leave_broken_screen`). In a crash loop the app exits with a report, the
        error logged too. With ``catch_errors`` off (tests) Textual's own handling: exit with
        the traceback."""
        if not self.catch_errors:
            default_exception_handler(self, error)
            return
        original = error
        if isinstance(error, WorkerFailed) and isinstance(error.error, Exception):
            error = error.error  # the session worker's own error, with its traceback
        where = log_error(error)
        self.errors.append(type(error).__name__)
        if not self.recovery.may_recover():
            default_exception_handler(self, original)
            return
        self.call_later(self._recover, type(error).__name__, where, self.has_game())

    async def _recover(self, name: str, where: str, game: bool) -> None:
        kept = ("Your game is kept and goes on." if game
                else "What you were doing was not finished: you are back at the menu.")
        try:
            if game:
                await self.rebuild_game()
            else:
                await self.leave_broken_screen()
        finally:
            await self.push_screen(MessageScreen(
                "Something went wrong",
                f"An unexpected error ({name}) happened. {kept}\n"
                f"Details were written to {where}."))

    def _fatal_error(self) -> None:
        """Exit after an error, with a traceback that shows no local variables (hidden tiles)."""
        exit_with_report(self)
