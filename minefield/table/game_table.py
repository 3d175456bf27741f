"""One table: a game, its players and clocks, and the messages each seat gets (no asyncio).

:class:`GameTable` is the part of running a game that is the same in this process and on the
daemon: it applies commands once each (a command id seen before is not applied again), keeps
the drafts and clocks of R25, plays the automatic move when a clock runs out, writes the record
before anyone hears of a command, and turns every change into the
:mod:`~minefield.protocol.messages` messages of each seat, built from that seat's view and its
redacted events only (R26). Time comes in as an argument (``now``, in seconds on any monotonic
clock), so the table is as testable as the engine.

>>> from minefield.rules.game import Discard, Game
>>> table = GameTable(Game(seed=1), {Seat.EAST: PlayerInfo(name="Ann"),
...                                  Seat.WEST: PlayerInfo(name="Bob")})
>>> [m.type for m in table.submit(Seat.EAST, "c1", Discard(tile="1m"), now=0.0)]
['rejected']
>>> table.seq
0
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from minefield.errors import MinefieldError
from minefield.protocol.messages import (
    Applied,
    Clocks,
    MatchView,
    Notice,
    PlayerInfo,
    Presence,
    Rejected,
    SeatClock,
    ServerMessageType,
    Snapshot,
    TableView,
)
from minefield.rules.auto import auto_command
from minefield.rules.game import ChooseHand, Discard, Game, IllegalCommand, Seat

#: How many recent command ids a seat's duplicates are recognised by.
REMEMBERED_IDS = 64


class Recorder(Protocol):
    """Where a table writes its game record (:mod:`minefield.records`), line by line."""

    def command(self, seq: int, seat: Seat, command: ChooseHand | Discard, *,
                command_id: str | None = None, automatic: bool = False) -> None:
        """Append one accepted command (durably, before the call returns): ``command_id`` is
        the id the seat sent it with (None for a move the table played), ``automatic`` marks
        a move played because the seat's clock ran out (R25)."""
        ...

    def result(self, game: Game) -> None:
        """Append the result line of an ended game."""
        ...


class RecordFailed(MinefieldError, RuntimeError):
    """The record could not be written; the game goes on without it."""


class GameTable:
    """A game with its players, clocks and drafts; every change as per-seat messages.

    ``players`` names both seats. ``recorder`` (optional) gets every accepted command before
    any seat hears of it. ``now`` starts the clocks of phase 1 when the settings have them
    (without it, :meth:`start_clocks` does when the table opens). In a match
    (:class:`~minefield.table.match_table.MatchTable`), ``on_end`` is called with the game
    when it ends, before its result is recorded and before anyone hears of it, and ``match``
    gives the match's public state for every table view.
    """

    def __init__(self, game: Game, players: dict[Seat, PlayerInfo], *,
                 recorder: Recorder | None = None, now: float | None = None,
                 on_end: Callable[[Game], None] | None = None,
                 match: Callable[[], MatchView] | None = None,
                 one_keyboard: bool = False) -> None:
        self.game = game
        self.players = dict(players)
        self.recorder = recorder
        self.on_end = on_end
        self.match = match
        self.seq = 0
        self._seen_ids: dict[Seat, OrderedDict[str, int]] = {s: OrderedDict() for s in Seat}
        self._drafts: dict[Seat, str] = {s: "" for s in Seat}
        #: Each seat's clock (R25): when it runs out while it runs; the time it has left while
        #: it is stopped (its player away with grace, R25b); neither when it has no step.
        self._deadline: dict[Seat, float | None] = {s: None for s in Seat}
        self._left: dict[Seat, float | None] = {s: None for s in Seat}
        #: The seats whose clocks are stopped because their player is away (R25b).
        self._stopped: set[Seat] = set()
        #: Hot-seat: both players at one keyboard. A seat's clock is stopped until its player
        #: is at the keyboard (:meth:`at_keyboard`), and after every move the keyboard changes
        #: hands: neither the hand-over nor the other's turn is anyone's time (R25).
        self.one_keyboard = one_keyboard
        if one_keyboard:
            self._stopped = set(Seat)
        if now is not None:
            self.start_clocks(now)

    def __repr__(self) -> str:
        return f"GameTable(seq={self.seq}, phase={self.game.phase}, <tiles hidden>)"

    # -- what a seat sees -------------------------------------------------------------------------

    def table(self, seat: Seat, now: float) -> TableView:
        """The table as ``seat`` may see it (R26)."""
        return TableView(view=self.game.view(seat), seq=self.seq, players=self.players,
                         clocks=self.clocks(now),
                         match=self.match() if self.match is not None else None)

    def snapshot(self, seat: Seat, now: float) -> Snapshot:
        """The whole table for ``seat`` (on attach, after a reconnect)."""
        return Snapshot(seat=seat, table=self.table(seat, now))

    def clocks(self, now: float) -> dict[Seat, SeatClock]:
        """Both seats' clocks as of ``now``."""
        return {seat: self._clock(seat, now) for seat in Seat}

    def _limit(self, seat: Seat) -> float | None:
        """The time ``seat`` has for its current step (R25), None when it has no clock."""
        settings = self.game.settings
        if self.game.phase == "choosing" and self.game.hand_of(seat) is None:
            return settings.hand_seconds
        if self.game.phase == "discarding" and self.game.turn is seat:
            return settings.discard_seconds
        return None

    def _clock(self, seat: Seat, now: float) -> SeatClock:
        limit, deadline, left = self._limit(seat), self._deadline[seat], self._left[seat]
        if limit is None:
            return SeatClock()
        if deadline is not None:
            return SeatClock(limit=limit, remaining=max(0.0, deadline - now), running=True)
        if left is not None:
            return SeatClock(limit=limit, remaining=left, running=False)
        return SeatClock()

    def start_clocks(self, now: float) -> None:
        """Start the clock of every seat that must act and has none yet (stopped from the
        start for a seat whose player is away, R25b), clear the others (after every command;
        and once when the table opens)."""
        for seat in Seat:
            limit = self._limit(seat)
            if limit is None:
                self._deadline[seat] = self._left[seat] = None
            elif self._deadline[seat] is None and self._left[seat] is None:
                if seat in self._stopped:
                    self._left[seat] = float(limit)
                else:
                    self._deadline[seat] = now + limit

    def stop_clock(self, seat: Seat, now: float) -> None:
        """``seat``'s player is away with grace (R25b): their clock stops where it is (and a
        step that starts meanwhile starts stopped) until :meth:`run_clock`."""
        self._stopped.add(seat)
        deadline = self._deadline[seat]
        if deadline is not None:
            self._left[seat] = max(0.0, deadline - now)
            self._deadline[seat] = None

    def run_clock(self, seat: Seat, now: float, at_least: float = 0.0) -> None:
        """``seat``'s clock runs again from where :meth:`stop_clock` stopped it, with
        ``at_least`` seconds (R25b: a player who returns gets at least 5; one whose grace is
        spent, what was left). A clock that was not stopped runs on as it was."""
        self._stopped.discard(seat)
        left = self._left[seat]
        if left is not None:
            self._deadline[seat] = now + max(left, at_least)
            self._left[seat] = None

    def next_deadline(self) -> tuple[float, Seat] | None:
        """When the first running clock runs out, and whose it is."""
        deadlines = [(deadline, seat) for seat in Seat
                     if (deadline := self._deadline[seat]) is not None]
        return min(deadlines) if deadlines else None

    def must_act(self, seat: Seat) -> bool:
        """True when the game waits on ``seat`` (its hand, or its discard)."""
        if self.game.phase == "choosing":
            return self.game.hand_of(seat) is None
        return self.game.phase == "discarding" and self.game.turn is seat

    # -- what a seat does -------------------------------------------------------------------------

    def submit(self, seat: Seat, command_id: str | None, command: ChooseHand | Discard,
               now: float, *, automatic: bool = False) -> list[ServerMessageType]:
        """Apply ``seat``'s command once: the messages for every seat, or a rejection.

        A ``command_id`` already applied for this seat is not applied again: the seat gets a
        snapshot instead (a command resent after a reconnect). Raises :class:`RecordFailed`
        after applying a command the recorder could not write (the caller reports it).
        """
        seen = self._seen_ids[seat]
        if command_id is not None and command_id in seen:
            return [self.snapshot(seat, now)]
        try:
            events = self.game.apply(seat, command)
        except IllegalCommand as error:
            return [Rejected(seat=seat, command_id=command_id, reason=str(error))]
        self.seq += 1
        if command_id is not None:
            seen[command_id] = self.seq
            while len(seen) > REMEMBERED_IDS:
                seen.popitem(last=False)
        self._deadline[seat] = self._left[seat] = None
        if self.one_keyboard:  # the keyboard is handed over: no clock until the next player
            for other in Seat:
                self.stop_clock(other, now)
        self.start_clocks(now)
        if self.game.phase == "ended" and self.on_end is not None:
            self.on_end(self.game)  # a match settles the game before it is recorded
        problem = self._record(seat, command_id, automatic)
        messages: list[ServerMessageType] = [
            Applied(seat=viewer, seq=self.seq, by=seat,
                    command_id=command_id if viewer is seat else None,
                    automatic=automatic, events=events[viewer], table=self.table(viewer, now))
            for viewer in Seat]
        if problem is not None:
            messages.extend(Notice(seat=s, text=problem, severity="error") for s in Seat)
        return messages

    def _record(self, seat: Seat, command_id: str | None, automatic: bool) -> str | None:
        """Write the last command (and the result at the end); a message if that failed."""
        if self.recorder is None:
            return None
        try:
            self.recorder.command(self.seq, seat, self.game.commands[-1][1],
                                  command_id=command_id, automatic=automatic)
            if self.game.phase == "ended":
                self.recorder.result(self.game)
        except OSError as error:
            self.recorder = None
            return f"The game record could not be written ({error.strerror}); it is not saved."
        return None

    def remember(self, seq: int, seat: Seat, command_id: str) -> None:
        """``seat``'s command number ``seq`` was sent with ``command_id`` (a table rebuilt from
        its record after a restart: that id is not applied again, as before the restart)."""
        seen = self._seen_ids[seat]
        seen[command_id] = seq
        while len(seen) > REMEMBERED_IDS:
            seen.popitem(last=False)

    def draft(self, seat: Seat, tiles: str) -> None:
        """Remember ``seat``'s hand-builder choice for R25's automatic hand."""
        self._drafts[seat] = tiles

    def expire(self, now: float) -> list[ServerMessageType]:
        """Play the automatic move (R25) for every seat whose clock has run out by ``now``."""
        messages: list[ServerMessageType] = []
        while (due := self.next_deadline()) is not None and due[0] <= now:
            seat = due[1]
            command = auto_command(self.game.view(seat), chosen=self._drafts[seat])
            result = self.submit(seat, None, command, now, automatic=True)
            messages.extend(result)
            if any(isinstance(m, Rejected) for m in result):  # never expected: stop that clock
                self._deadline[seat] = None
                break
            name = self.players[seat].name
            messages.extend(Notice(seat=s, text=f"Time ran out: the automatic move was played "
                                   f"for {'you' if s is seat else name} (R25).",
                                   severity="warning") for s in Seat)
        return messages

    def at_keyboard(self, seat: Seat, now: float) -> list[ServerMessageType]:
        """Hot-seat: ``seat``'s player is at the keyboard (the curtain lifted); their clock
        runs from now, and both seats hear of the clocks. Nothing when it already runs."""
        if not self.one_keyboard or seat not in self._stopped:
            return []
        self.run_clock(seat, now)
        return self.clock_messages(now)

    def set_presence(self, seat: Seat, present: bool, grace_left: float | None = None,
                     now: float | None = None) -> list[ServerMessageType]:
        """A player connected or left: the new presence for every seat, with both clocks as
        of ``now`` when given (a presence change may stop or run a clock, R25b)."""
        self.players[seat] = self.players[seat].model_copy(
            update={"present": present, "grace_left": grace_left})
        clocks = self.clocks(now) if now is not None else None
        return [Presence(seat=s, players=self.players, clocks=clocks) for s in Seat]

    def clock_messages(self, now: float) -> list[ServerMessageType]:
        """The clocks for every seat (after a pause, or on a timer)."""
        return [Clocks(seat=s, clocks=self.clocks(now)) for s in Seat]

    def __rich_repr__(self) -> Iterator[Any]:
        yield "seq", self.seq
        yield "tiles", "<hidden>"
