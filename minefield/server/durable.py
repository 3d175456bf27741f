"""A game's record on the daemon: lines are queued on the event loop, written in a thread.

:class:`HeldRecorder` is the :class:`~minefield.session.table.Recorder` a room gives its
:class:`~minefield.session.table.GameTable`. The table applies a command on the event loop
(a fraction of a millisecond) and hands the record its line; the line waits in the recorder
until the room awaits :meth:`HeldRecorder.flush` in a record thread, which appends and fsyncs
it (:class:`~minefield.records.writer.RecordWriter`, one fsync per line). The room sends the
command's messages only after the flush returned: a command is on disk before anyone hears of
it, as with a writer called directly, but the record threads only wait on the disk (the
system call releases the GIL) instead of running the game's Python code against the loop.

>>> import tempfile
>>> from pathlib import Path
>>> from minefield.records.format import Players
>>> from minefield.records.reader import read_record
>>> from minefield.records.writer import RecordWriter
>>> from minefield.rules.game import Discard, Game, Seat
>>> game = Game(seed=7)
>>> with tempfile.TemporaryDirectory() as folder:
...     held = HeldRecorder(RecordWriter.start(game, "network", Players(east="a", west="b"),
...                                            Path(folder)))
...     held.command(1, Seat.EAST, Discard(tile="1m"))
...     before = len(read_record(held.writer.path).commands)
...     held.flush()
...     after = len(read_record(held.writer.path).commands)
...     held.close()
>>> before, after, held.pending
(0, 1, False)
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from minefield.records.writer import RecordWriter
from minefield.rules.game import ChooseHand, Discard, Game, Seat
from minefield.rules.match import Settlement

#: The folder (in ``games/``) where records of games that are over go: a restart reads only
#: the unfinished ones.
FINISHED_FOLDER = "finished"


class HeldRecorder:
    """A :class:`RecordWriter` whose lines wait for :meth:`flush` (see the module).

    One flush at a time; :meth:`close` waits for a running flush (a descriptor is never
    closed under a thread that writes to it). A failed flush raises the writer's error
    (:class:`OSError`; the writer has closed itself) and drops the lines after it.

    For a game of a match, ``settlement`` gives what the match settled for the game when it
    ended (:class:`~minefield.session.match_table.MatchTable` settles before the record hears
    of the end): the result line carries it (R31-R33).
    """

    def __init__(self, writer: RecordWriter,
                 settlement: Callable[[], Settlement | None] | None = None) -> None:
        self.writer = writer
        self._settlement = settlement
        self._lines: list[Callable[[], None]] = []
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"HeldRecorder({self.writer!r}, {len(self._lines)} waiting)"

    @property
    def pending(self) -> bool:
        """True when lines wait for :meth:`flush`."""
        return bool(self._lines)

    @property
    def closed(self) -> bool:
        """True once the writer is closed (after the result, an error or :meth:`close`)."""
        return self.writer.closed

    def command(self, seq: int, seat: Seat, command: ChooseHand | Discard) -> None:
        """Queue accepted command number ``seq`` of ``seat`` (written by :meth:`flush`)."""
        self._lines.append(lambda: self.writer.command(seq, seat, command))

    def result(self, game: Game) -> None:
        """Queue the result line of the ended ``game`` (the writer closes after it)."""
        settlement = self._settlement() if self._settlement is not None else None
        self._lines.append(lambda: self.writer.result(game, settlement))

    def flush(self) -> None:
        """Append and fsync every waiting line, in order (in a record thread)."""
        with self._lock:
            lines, self._lines = self._lines, []
            for line in lines:
                line()

    def close(self) -> None:
        """Close the file; lines still waiting are dropped (nobody was told of them)."""
        with self._lock:
            self._lines = []
            self.writer.close()


__all__ = ["FINISHED_FOLDER", "HeldRecorder"]
