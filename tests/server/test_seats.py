"""R25b on the daemon (minefield/server/seats.py): a player away with grace has their move
clock stopped; they find it where it stopped (at least 5 s) when they return, and no
automatic move is played for them then; once their grace is spent their clock runs again from
where it stopped and the automatic move is played when it runs out, marked in the record.
Every clock the other player is shown comes with the server's messages (presence included).

The waits here let real time pass (a discard clock of 2 s, a grace of 6 s); nothing asserts
on how long anything took.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from minefield.protocol.messages import Applied, Presence, ServerMessageType
from minefield.records.reader import read_record
from minefield.rules.auto import auto_command
from minefield.rules.game import Game, Seat
from minefield.server.seats import RETURN_SECONDS
from minefield.session.remote import RemoteSession
from minefield.session.remote_start import host, join, resume
from tests.server.conftest import LIMIT, start_daemon

SEED = "5"
DISCARD_SECONDS = 2
GRACE_SECONDS = 6.0


async def next_matching(session: RemoteSession, check: Callable[[ServerMessageType], bool],
                        what: str) -> ServerMessageType:
    """The session's next update that passes ``check`` (bounded)."""
    async with asyncio.timeout(LIMIT):
        async for message in session.updates():
            if check(message):
                return message
    raise AssertionError(f"the updates ended before {what}")


def east_presence(present: bool, grace: bool) -> Callable[[ServerMessageType], bool]:
    def check(message: ServerMessageType) -> bool:
        return (isinstance(message, Presence)
                and message.players[Seat.EAST].present is present
                and (message.players[Seat.EAST].grace_left is not None) is grace)
    return check


async def test_r25b_clock_stops_while_away_and_is_found_on_return_then_runs_out_after_grace(
        short_dir: Path) -> None:
    server = await start_daemon(short_dir, hand_seconds=60, discard_seconds=DISCARD_SECONDS,
                                grace_seconds=GRACE_SECONDS)
    try:
        ann = await host(socket=server.config.socket, player="ann", seed=SEED)
        bob = await join(ann.code or "", socket=server.config.socket, player="bob")
        east, west = (ann, bob) if ann.local_seats[0] is Seat.EAST else (bob, ann)
        for session in (east, west):
            await session.open()
        for session in (east, west):
            seat = session.local_seats[0]
            await session.send(seat, auto_command(Game(SEED).view(seat)))
        for _ in range(2):
            await next_matching(west, lambda m: isinstance(m, Applied), "the hands")

        # East, to discard first, loses the link: the clock stops, the grace runs (R25b).
        await east.close()
        away = await next_matching(west, east_presence(False, True), "East away")
        assert isinstance(away, Presence) and away.clocks is not None
        stopped = away.clocks[Seat.EAST]
        assert not stopped.running and stopped.remaining is not None
        assert 0 < stopped.remaining <= DISCARD_SECONDS

        # Longer than East's discard clock, shorter than the grace: under R25 alone the
        # clock would have run out; stopped, it has not.
        await asyncio.sleep(DISCARD_SECONDS + 0.5)
        back = await resume(socket=server.config.socket, player=east.player)
        await back.open()
        present = await next_matching(west, east_presence(True, False), "East back")
        assert isinstance(present, Presence) and present.clocks is not None
        found = present.clocks[Seat.EAST]
        assert found.running and found.remaining == max(stopped.remaining, RETURN_SECONDS)
        snapshot = await next_matching(back, lambda m: m.type == "snapshot", "the snapshot")
        assert snapshot.type == "snapshot"
        assert snapshot.table.clocks[Seat.EAST] == found  # both screens draw the same clock
        assert snapshot.table.view.discards[Seat.EAST] == []  # nothing was played for East

        # No automatic move for a connected player with time left: East's own discard counts.
        view = snapshot.table.view
        own = await back.send(Seat.EAST, auto_command(view))
        applied = await next_matching(back, lambda m: isinstance(m, Applied), "East's discard")
        assert isinstance(applied, Applied)
        assert applied.by is Seat.EAST and applied.command_id == own and not applied.automatic

        # West discards; East leaves again at their turn, with what is left of their grace.
        turn = await next_matching(west, lambda m: isinstance(m, Applied) and m.table.view.my_turn,
                                   "West's turn")
        assert isinstance(turn, Applied)
        await west.send(Seat.WEST, auto_command(turn.table.view))
        await next_matching(back, lambda m: isinstance(m, Applied) and m.table.view.my_turn,
                            "East's turn again")
        await back.close()
        away = await next_matching(west, east_presence(False, True), "East away again")
        assert isinstance(away, Presence) and away.clocks is not None
        grace_left = away.players[Seat.EAST].grace_left
        assert grace_left is not None and grace_left < GRACE_SECONDS  # a budget per game
        stopped = away.clocks[Seat.EAST]
        assert not stopped.running

        # The grace is spent: the clock runs again from where it stopped ...
        spent = await next_matching(west, east_presence(False, False), "East's grace spent")
        assert isinstance(spent, Presence) and spent.clocks is not None
        assert spent.clocks[Seat.EAST].running
        assert spent.clocks[Seat.EAST].remaining == stopped.remaining
        # ... and when it runs out the automatic move is played, and marked in the record.
        auto = await next_matching(west, lambda m: isinstance(m, Applied) and m.by is Seat.EAST,
                                   "East's automatic discard")
        assert isinstance(auto, Applied) and auto.automatic
        await west.close()
    finally:
        await server.stop()
    (path,) = (short_dir / "data" / "games").glob("*.jsonl")
    lines = read_record(path).commands
    assert [(line.seat, line.automatic) for line in lines[2:5]] == [
        (Seat.EAST, False), (Seat.WEST, False), (Seat.EAST, True)]
    assert lines[2].command_id == own
