"""Waiting in an app test for something that comes over a socket or from a worker: the one
``until`` the tests share.

Every wait polls with a limit: a safety net on a loaded machine, never an assertion on time.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot

#: How often ``until`` looks, and how many times before it gives up (20 s in all: a network
#: message takes milliseconds, a match's next game a little more on a loaded machine).
PAUSE_SECONDS = 0.02
LOOKS = 1000


async def until(pilot: Pilot[int], condition: Callable[[], bool], what: str) -> None:
    """Pause the app under ``pilot`` until ``condition`` holds; :class:`AssertionError` naming
    ``what`` if it never does."""
    for _ in range(LOOKS):
        if condition():
            return
        await pilot.pause(PAUSE_SECONDS)
    raise AssertionError(f"never: {what}")
