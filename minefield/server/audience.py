"""Watchers on the daemon: a ``watch`` hello attaches a connection to a game, without a seat.

A room's watchers are its :class:`Audience`. They are sent only what both players see (R26):
each :class:`~minefield.protocol.watching.WatchTable` is made (:func:`~minefield.protocol.
watching.public_table`) from the very messages the room has just sent its seats (the room
hands every batch to :meth:`Audience.heard` after sending it), dropping the part of a view
that is one seat's own (its 34 tiles, hand, pool, furiten). So a watcher can never be told
something no player was told, nor sooner: a discard reaches a watcher after its pace, with
the players' answer (protocol 8). The first table a watcher gets is made under the room's
lock, when everything on the table has been sent.

Watchers cannot act: a ``command`` is answered with ``rejected`` under its id, ``draft``,
``rematch`` and ``next_game`` with a ``not_allowed`` error (not fatal), ``ping`` with
``pong``, ``leave`` with ``closed``. Each watcher's messages are rate limited as a player's
are. How many watch is in the lobby (``watchers``) and in every watcher's table.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence

from pydantic import BaseModel

from minefield.protocol.messages import (
    Applied,
    Clocks,
    Draft,
    Leave,
    Presence,
    SendCommand,
    Snapshot,
)
from minefield.protocol.watching import (
    MAX_WATCHERS,
    WatchClosed,
    WatchRejected,
    WatchState,
    WatchTable,
    public_table,
)
from minefield.protocol.wire import (
    AskNextGame,
    AskRematch,
    Hello,
    Ping,
    Pong,
    WireError,
    WireProblem,
    parse_in_game,
)
from minefield.rules.game import Seat
from minefield.server.connection import Connection, read_line
from minefield.server.room import Room

log = logging.getLogger("minefield.server")

#: What a watcher's command is answered with.
CANNOT_PLAY = "You are watching this game: watchers cannot play."


class Audience:
    """The watchers of one room and the last table they were sent."""

    def __init__(self, room: Room) -> None:
        self.game = room.id
        self.members: set[Connection] = set()
        self.last: WatchTable | None = None

    def __len__(self) -> int:
        return len(self.members)

    def __repr__(self) -> str:
        return f"Audience({self.game!r}, {len(self.members)} watching)"

    def heard(self, game: str, messages: Sequence[BaseModel]) -> None:
        """The room playing ``game`` has just sent its seats ``messages``: what both players
        now see goes to the watchers (when it changed)."""
        if not self.members:
            return
        table = self.last
        for message in messages:
            if isinstance(message, Snapshot | Applied):
                table = public_table(game, message.table, len(self.members))
            elif isinstance(message, Presence) and table is not None:
                update: dict[str, object] = {"players": message.players}
                if message.clocks is not None:
                    update["clocks"] = message.clocks
                table = table.model_copy(update=update)
            elif isinstance(message, Clocks) and table is not None:
                table = table.model_copy(update={"clocks": message.clocks})
        self._show(table)

    def _show(self, table: WatchTable | None) -> None:
        if table is None or table == self.last:
            return
        self.last = table
        self.game = table.game
        state = WatchState(table=table)
        for member in list(self.members):
            member.send(state)

    def add(self, room: Room, conn: Connection, now: float) -> None:
        """``conn`` watches from now on: the table now (the room's lock held: everything on
        it has been sent to the players), and the new count to everyone."""
        assert room.table is not None
        self.members.add(conn)
        table = public_table(room.id, room.table.table(Seat.EAST, now), len(self.members))
        if table == self.last:
            conn.send(WatchState(table=table))
        else:
            self._show(table)

    def remove(self, conn: Connection) -> None:
        """``conn`` no longer watches: the others are told the new count."""
        self.members.discard(conn)
        if self.last is not None:
            self._show(self.last.model_copy(update={"watchers": len(self.members)}))

    def closed(self, reason: str) -> None:
        """The room closed: every watcher is told why, and closed."""
        for member in list(self.members):
            member.send(WatchClosed(reason=reason))
            member.close()
        self.members.clear()


def find_room(rooms: Iterable[Room], game: str) -> Room | None:
    """The open room playing ``game`` (or a match's earlier game ``game``), or None."""
    for room in rooms:
        if not room.closed and not room.waiting and game in room.game_ids:
            return room
    return None


async def serve_watcher(rooms: Iterable[Room], conn: Connection, hello: Hello,
                        clock: Callable[[], float]) -> None:
    """A watcher's life: the game found, the tables sent as they change, its lines
    answered (it cannot act), until it or the room goes."""
    if hello.game is None:
        conn.fail("bad_message", "watch needs the game's id (as the lobby and who list it)")
        return
    room = find_room(rooms, hello.game)
    if room is None:
        conn.fail("no_game", f"no game {hello.game} is being played on this server: who "
                  "lists the games")
        return
    async with room.lock:
        if room.closed or room.table is None:
            conn.fail("no_game", f"the game {hello.game} is over")
            return
        audience = room.audience
        if audience is None:
            audience = room.audience = Audience(room)
        if len(audience) >= MAX_WATCHERS:
            conn.fail("not_allowed", f"this game already has {MAX_WATCHERS} watchers")
            return
        audience.add(room, conn, clock())
    log.info("%s: watching game %s", repr(conn), room.id)
    conn.watching = room.id
    try:
        while (line := await read_line(conn, clock)) is not None:
            _answer(conn, line, clock())
            if conn.closing_since is not None:
                return
    finally:
        conn.watching = None
        audience.remove(conn)


def _answer(conn: Connection, line: bytes, received: float) -> None:
    """One line from a watcher, answered: nothing a watcher sends changes a game."""
    if not conn.bucket.take(received):
        if not conn.abuse.take(received):
            conn.fail("rate_limited", "too many messages: disconnected")
            return
        text = (f"too many messages: at most {conn.config.rate:g} a second "
                f"(bursts of {conn.config.burst}); this one was dropped")
        try:
            dropped = parse_in_game(line)
        except WireProblem:
            dropped = None
        if isinstance(dropped, SendCommand):  # every command is answered under its id
            conn.send(WatchRejected(command_id=dropped.command_id, reason=text))
        else:
            conn.send(WireError(code="rate_limited", message=text))
        return
    try:
        message = parse_in_game(line)
    except WireProblem as problem:
        if problem.fatal:
            conn.fail(problem.code, str(problem))
        elif problem.command_id is not None:
            conn.send(WatchRejected(command_id=problem.command_id, reason=CANNOT_PLAY))
        else:
            conn.send(WireError(code=problem.code, message=str(problem)))
        return
    if isinstance(message, SendCommand):
        conn.send(WatchRejected(command_id=message.command_id, reason=CANNOT_PLAY))
    elif isinstance(message, Ping):
        conn.send(Pong())
    elif isinstance(message, Draft | AskRematch | AskNextGame):
        conn.send(WireError(code="not_allowed", message=f"{message.type}: {CANNOT_PLAY}"))
    elif isinstance(message, Leave):
        conn.ended_because("stopped watching")
        conn.send(WatchClosed(reason="You stopped watching."))
        conn.close()


__all__ = ["CANNOT_PLAY", "Audience", "find_room", "serve_watcher"]
