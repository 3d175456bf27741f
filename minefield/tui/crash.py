"""Unexpected errors: keep the game, never show hidden tiles.

A bug in a screen should cost the player a message, not the game: the app logs the error
(without local variables, which may hold tiles), tells the player, and rebuilds the game's
screen from its session, which still holds the game. Only a crash loop ends the app, and then
its report shows no local variables either.
"""

from __future__ import annotations

import math
import traceback
from collections.abc import Callable
from datetime import datetime
from time import monotonic
from typing import TYPE_CHECKING, Any

from textual.app import App

from minefield.paths import error_log_path
from minefield.tui.textual_private import add_exit_report, close_now

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


def log_error(error: BaseException) -> str:
    """Append the traceback (without local variables: they may hold tiles) to the error log;
    where it was written, for the player's message."""
    return _append(f"--- {datetime.now().isoformat(timespec='seconds')}\n"
                   + "".join(traceback.format_exception(error)))


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
