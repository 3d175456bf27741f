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
from collections.abc import Awaitable, Callable
from datetime import datetime
from time import monotonic
from typing import TYPE_CHECKING, Any, Protocol

from textual.app import App
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


class GameKeeper(Protocol):
    """What :class:`CrashRecovery` asks of the app it keeps alive."""

    def has_game(self) -> bool:
        """True while a game is kept here (an error then does not end the app)."""
        ...

    async def rebuild_game(self) -> None:
        """Show the game again from its session after an error."""
        ...

    async def leave_broken_screen(self) -> None:
        """After an error without a game: close the screens over the menu (the one whose
        handler failed no longer answers its keys)."""
        ...


class CrashRecovery:
    """Keeps ``app``'s game through an unexpected error: the error is logged, the player told,
    and the game's screen rebuilt from its session (``keeper``'s :meth:`~GameKeeper.
    rebuild_game`). Without a game, with ``catch_errors`` off (tests), or in a crash loop
    (:class:`RecoveryCounter`), the app exits with a report that shows no local variables.

    The app hands it what Textual's hooks catch (:meth:`guard` around ``run_action``,
    :meth:`recover_from` for ``_handle_exception``, :meth:`exit_with_report` for
    ``_fatal_error``)."""

    def __init__(self, app: App[Any], keeper: GameKeeper, catch_errors: bool = True) -> None:
        self._app = app
        self._keeper = keeper
        self.catch_errors = catch_errors
        self.counter = RecoveryCounter()
        #: The names of the errors met (and of the other seat's failures), for tests and notes.
        self.errors: list[str] = []

    def new_game(self) -> None:
        """A new game starts with a clean count of recoveries."""
        self.counter.reset()

    async def guard(self, action: Awaitable[bool]) -> bool:
        """Run an action; a bug in a screen's action becomes a message, not a dead app (key
        bindings run actions on the app's own message loop, which an error would stop)."""
        try:
            return await action
        except Exception as error:
            if not self.catch_errors:
                raise
            self.recover_from(error)
            return True

    def recover_from(self, error: Exception) -> None:
        """An unexpected error: log it, tell the player, and rebuild the game's screen from the
        session, which still holds the game (without a game, as in the drills, back to the
        menu: :meth:`~GameKeeper.leave_broken_screen`). In a crash loop the app exits with a
        report, the error logged too. With ``catch_errors`` off (tests) Textual's own handling:
        exit with the traceback."""
        if not self.catch_errors:
            default_exception_handler(self._app, error)
            return
        original = error
        if isinstance(error, WorkerFailed) and isinstance(error.error, Exception):
            error = error.error  # the session worker's own error, with its traceback
        where = log_error(error)
        self.errors.append(type(error).__name__)
        if not self.counter.may_recover():
            default_exception_handler(self._app, original)
            return
        self._app.call_later(self._recover, type(error).__name__, where,
                             self._keeper.has_game())

    def seat_failed(self, failure: SeatFailed) -> None:
        """The bot failed (its session played the automatic move): log where, not its text."""
        log_failure(failure)
        self.errors.append(failure.kind)

    async def _recover(self, name: str, where: str, game: bool) -> None:
        kept = ("Your game is kept and goes on." if game
                else "What you were doing was not finished: you are back at the menu.")
        try:
            if game:
                await self._keeper.rebuild_game()
            else:
                await self._keeper.leave_broken_screen()
        finally:
            await self._app.push_screen(MessageScreen(
                "Something went wrong",
                f"An unexpected error ({name}) happened. {kept}\n"
                f"Details were written to {where}."))

    def exit_with_report(self) -> None:
        """Exit after an error, with a traceback that shows no local variables (hidden tiles)."""
        exit_with_report(self._app)
