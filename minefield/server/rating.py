"""A finished game between two people rated at once, and both players told (the result screen
shows each rating before and after).

The daemon keeps no ratings: whoever keeps them (the SSH front door, owner of the players'
names and ratings) gives the daemon a :data:`RateGame` as
:attr:`Daemon.rate_game <minefield.server.daemon.Daemon.rate_game>`. When a game ends
(:meth:`Daemon.game_ended <minefield.server.daemon.Daemon.game_ended>`), its record already
holding the result, the function runs in a record thread (it writes SQLite) with the game's
id, both players' record names (identity keys) and East's score (1 a win, 0.5 a draw, R13);
it answers each player's :class:`~minefield.protocol.messages.RatingChange`, East first, or
None (not rated: a stranger, the same person twice). Games against a bot and games of a
casual table (R36) are never rated and never asked about. Each seat is then sent
:class:`~minefield.protocol.messages.Rated`; the room keeps it for a player who resumes the
finished game (:func:`rated_for`).

The function must be idempotent (a game rated once, its changes given again when asked
again): a restarted daemon asks again about the games it takes up already ended, and the
front door also rates what it finds in the records folder.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from minefield.protocol.messages import Rated, RatingChange
from minefield.rules.game import Seat

if TYPE_CHECKING:
    from minefield.server.room import Room

log = logging.getLogger("minefield.server")

#: ``(game, east, west, east_score) -> [east's change, west's change]`` or None: not rated.
RateGame = Callable[[str, str, str, float], list[RatingChange] | None]

#: The ratings being made (a task is kept until done).
_PENDING: set[asyncio.Task[None]] = set()


async def rate_ended(room: Room, rate: RateGame) -> None:
    """Rate ``room``'s game that has just ended and tell both seats (nothing for a bot game
    or a game the function does not rate; a failure is logged by kind, the game unchanged)."""
    end = room.game.result
    if end is None or any(seated.identity is None for seated in room.seats.values()):
        return
    if not room.table_header().rated:
        return  # a casual table's game never changes a rating (R36)
    game = room.id
    east, west = room.seats[Seat.EAST].record_name, room.seats[Seat.WEST].record_name
    score = 0.5 if end.winner is None else 1.0 if end.winner == Seat.EAST else 0.0
    try:
        changes = await room.services.run_io(rate, game, east, west, score)
    except Exception as error:  # a rating problem never stops a game or the daemon
        log.error("game %s: rating failed (%s)", game, type(error).__name__)
        return
    if changes is None or room.closed or room.id != game:
        return
    room.rated = Rated(seat=Seat.EAST, game=game, players=changes)
    for seat, seated in room.seats.items():
        if seated.client is not None:
            seated.client.send(room.rated.model_copy(update={"seat": seat}))


def rated_for(room: Room, seat: Seat) -> Rated | None:
    """What ``seat`` is sent on coming back to ``room``: its finished game's ratings, if
    rated."""
    rated = room.rated
    if rated is None or rated.game != room.id or not room.ended:
        return None
    return rated.model_copy(update={"seat": seat})


def schedule(room: Room, rate: RateGame | None) -> None:
    """Start rating ``room``'s ended game (when a rating function is given)."""
    if rate is None:
        return
    task = asyncio.ensure_future(rate_ended(room, rate))
    _PENDING.add(task)
    task.add_done_callback(_PENDING.discard)


__all__ = ["RateGame", "rate_ended", "rated_for", "schedule"]
