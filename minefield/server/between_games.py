"""Between games at a room: a rematch asked for and accepted, a match's next game (R30).

A request between games is served under the room's lock. Once both players asked (a bot
always has) the game begins at the room's one start path (:meth:`Room.begin
<minefield.server.room.Room.begin>`); until then both players are told who asked. A request
that cannot be served now gets a ``not_allowed`` error and changes nothing.
"""

from __future__ import annotations

from minefield.protocol.messages import Notice
from minefield.protocol.wire import RoomState
from minefield.rules.game import Seat
from minefield.server.room import Room


async def ask_rematch(room: Room, seat: Seat) -> None:
    """``seat`` asks for (or accepts) a rematch; both asked: a new series (a new game
    with the seats swapped; in a match room, once the match is over, a new match, R30)."""
    async with room.lock:
        if room.closed:
            return
        if room.between_games or (room.is_match and not room.ended):
            room.not_allowed(seat, "This room plays a match: ask for its next game "
                              "(next_game) once a game is over; a rematch (a new match) "
                              "once the match is over.")
            return
        if not room.ended:
            room.not_allowed(seat, "A rematch can be asked for once the game is over.")
            return
        room.rematch_asks.add(seat)
        for other, seated in room.seats.items():
            if seated.is_bot:
                room.rematch_asks.add(other)
        if room.rematch_asks == set(Seat):
            await room.begin("rematch")
            return
        room.send([RoomState(seat=s, rematch=sorted(room.rematch_asks)) for s in Seat])
        name = room.seats[seat].info(room.play.now()).name
        room.send([Notice(seat=seat.other, text=f"{name} asks for a rematch.")])


async def ask_next_game(room: Room, seat: Seat) -> None:
    """In a match, ``seat`` is ready for the next game; once both players are (a bot
    always is) it starts (:meth:`Room.begin <minefield.server.room.Room.begin>`). A request
    that cannot be served now (a single game, a game still going on, the match over) gets a
    ``not_allowed`` error and changes nothing."""
    async with room.lock:
        if room.closed:
            return
        series = room.series
        problem = None
        if not room.is_match:
            problem = ("This room plays a single game: there is no next game (ask for a "
                       "rematch once it is over).")
        elif series is not None and series.over:
            problem = "The match is over: there is no next game."
        elif series is None or not room.ended:
            problem = "The next game of the match can be asked for once this game is over."
        if problem is not None or series is None:
            room.not_allowed(seat, problem or "")
            return
        series.next_asked.add(room.seats[seat].record_name)
        for seated in room.seats.values():
            if seated.is_bot:
                series.next_asked.add(seated.record_name)
        if series.next_asked == set(series.players):
            await room.begin("next")
            return
        now = room.play.now()
        room.send([series.table.snapshot(s, now) for s in Seat])
        shown = room.seats[seat].info(now).name
        other = room.seats[seat.other].info(now).name
        room.send([Notice(seat=seat.other, text=f"{shown} is ready for the next game of "
                           "the match."),
                    Notice(seat=seat, text=f"The next game starts when {other} is ready "
                           "too.")])


__all__ = ["ask_next_game", "ask_rematch"]
