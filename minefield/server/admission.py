"""Who the daemon lets in, as its club's admins decide: bans at the hello, and sessions ended.

The daemon keeps no accounts and no bans: whoever keeps them (the SSH front door, whose admins
ban and kick) gives it an :data:`Admission`, asked in a record thread at every hello with the
player's identity, which answers with the one line that refuses a banned player (None: come
in). So a ban holds on every way in that reaches this daemon: the front door's own sessions,
its browser door, and the OpenSSH route (``minefield ssh-entry`` names its player as the
shared account's lines do). A refused hello gets a fatal ``not_allowed`` error with that line,
before the player is seen in the lobby or at a table.

:func:`drop_player` ends a player's connections (a kick or a new ban): each is sent the line as a
fatal ``not_allowed`` error and closed, and a seat so left runs its grace as after any lost
connection (R25b): the game goes on.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from minefield.server.connection import Connection
from minefield.server.identity import Identity, IdentityError

log = logging.getLogger("minefield.server")

#: ``(identity) -> line``: why the player may not come in, None when they may.
Admission = Callable[[Identity], str | None]


class Banned(IdentityError):
    """A banned player's hello: the line that refuses it (a fatal ``not_allowed``)."""


async def admit(admission: Admission | None, identity: Identity,
                run_io: Callable[..., Awaitable[Any]]) -> None:
    """Let ``identity`` in, or raise :class:`Banned` with the line that refuses it (asked of
    ``admission`` in a record thread; None: nobody keeps bans). A failure to ask lets the
    player in (logged): the front door, which keeps the bans, refuses its own banned keys
    at login anyway."""
    if admission is None:
        return
    try:
        line: str | None = await run_io(admission, identity)
    except Exception as error:
        log.error("admission of a hello failed (%s)", type(error).__name__)
        return
    if line is not None:
        log.info("the hello of %s refused: banned", identity.key)
        raise Banned(line)


def drop_player(connections: Iterable[Connection], keys: Iterable[str], line: str) -> int:
    """End every connection of the players whose identity keys are ``keys`` (in any case:
    a player's name is unique without regard to case), telling each ``line`` (a fatal
    ``not_allowed`` error); how many there were."""
    folded = {key.casefold() for key in keys}
    dropped = 0
    for conn in list(connections):
        if conn.identity is not None and conn.identity.key.casefold() in folded and \
                conn.closing_since is None:
            conn.ended_because("ended by an admin")
            conn.fail("not_allowed", line)
            dropped += 1
    if dropped:
        log.info("%s: %d connections ended by an admin", ", ".join(sorted(folded)), dropped)
    return dropped


__all__ = ["Admission", "Banned", "admit", "drop_player"]
