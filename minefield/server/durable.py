"""A game's record on the daemon: lines are queued on the event loop, written in a thread.

:class:`HeldRecorder` is the :class:`~minefield.table.game_table.Recorder` a room gives its
:class:`~minefield.table.game_table.GameTable`. The table applies a command on the event loop
(a fraction of a millisecond) and hands the record its line; the line waits in the recorder
until the room awaits :meth:`HeldRecorder.flush` in a record thread, which appends and fsyncs
it (:class:`~minefield.records.writer.RecordWriter`, one fsync per line). The room sends the
command's messages only after the flush returned: a command is on disk before anyone hears of
it, as with a writer called directly, but the record threads only wait on the disk (the
system call releases the GIL) instead of running the game's Python code against the loop.

>>> import tempfile
>>> from pathlib import Path
>>> from minefield.records.header import Players, RecordHeader
>>> from minefield.records.reader import read_record
>>> from minefield.rules.game import Discard, Game, Seat
>>> game = Game(seed=7)
>>> with tempfile.TemporaryDirectory() as folder:
...     header = RecordHeader.for_game(game, "network", Players(east="a", west="b"))
...     held = HeldRecorder.new(Path(folder) / "game.jsonl", header)
...     held.command(1, Seat.EAST, Discard(tile="1m"), command_id="c1")
...     created = held.path.exists()
...     held.flush()
...     lines = read_record(held.path).commands
...     held.close()
>>> created, [(line.seq, line.command_id) for line in lines], held.pending
(False, [(1, 'c1')], False)
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from minefield.records.header import RecordHeader
from minefield.records.writer import RecordWriter
from minefield.rules.game import ChooseHand, Discard, Game, Seat
from minefield.rules.match import Settlement

#: The folder (in ``games/``) where records of games that are over go: a restart reads only
#: the unfinished ones.
FINISHED_FOLDER = "finished"


class HeldRecorder:
    """A record whose lines wait for :meth:`flush` (see the module).

    Made with :meth:`new` for a game that starts (the file is created, its header written and
    fsynced, by the first flush: in a record thread, before anyone hears of the game) or with
    a :class:`RecordWriter` resumed after a restart. One flush at a time; :meth:`close` waits
    for a running flush (a descriptor is never closed under a thread that writes to it). A
    failed flush raises the writer's error (:class:`OSError`, or ValueError for a header that
    cannot be written; the writer has closed itself) and drops the lines after it.

    For a game of a match, ``settlement`` gives what the match settled for the game when it
    ended (:class:`~minefield.table.match_table.MatchTable` settles before the record hears
    of the end): the result line carries it (R31-R33).
    """

    def __init__(self, writer: RecordWriter | None = None, *, path: Path | None = None,
                 header: RecordHeader | None = None,
                 settlement: Callable[[], Settlement | None] | None = None) -> None:
        if writer is None and (path is None or header is None):
            raise ValueError("a held record needs a writer, or the path and header of a new one")
        self._writer = writer
        self.path = writer.path if writer is not None else path
        self._settlement = settlement
        self._lines: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self._closed = False
        if writer is None:
            assert path is not None and header is not None
            self._lines.append(lambda: self._create(path, header))

    @classmethod
    def new(cls, path: Path, header: RecordHeader,
            settlement: Callable[[], Settlement | None] | None = None) -> HeldRecorder:
        """The record of a game that starts: created at ``path`` by the first :meth:`flush`."""
        return cls(path=path, header=header, settlement=settlement)

    def _create(self, path: Path, header: RecordHeader) -> None:
        self._writer = RecordWriter(path, header)

    def __repr__(self) -> str:
        return f"HeldRecorder({self.path}, {len(self._lines)} waiting)"

    @property
    def writer(self) -> RecordWriter:
        """The file's writer (once the first flush created it)."""
        if self._writer is None:
            raise ValueError(f"{self.path}: the record is not created yet")
        return self._writer

    @property
    def pending(self) -> bool:
        """True when lines wait for :meth:`flush`."""
        return bool(self._lines)

    @property
    def closed(self) -> bool:
        """True once the writer is closed (after the result, an error or :meth:`close`)."""
        return self._closed or (self._writer is not None and self._writer.closed)

    def command(self, seq: int, seat: Seat, command: ChooseHand | Discard, *,
                command_id: str | None = None, automatic: bool = False) -> None:
        """Queue accepted command number ``seq`` of ``seat`` (written by :meth:`flush`) with
        the id its client sent it with (a restarted daemon still knows it was applied)."""
        self._lines.append(lambda: self.writer.command(seq, seat, command,
                                                       command_id=command_id,
                                                       automatic=automatic))

    def result(self, game: Game) -> None:
        """Queue the result line of the ended ``game`` (the writer closes after it)."""
        settlement = self._settlement() if self._settlement is not None else None
        self._lines.append(lambda: self.writer.result(game, settlement))

    def flush(self) -> None:
        """Append and fsync every waiting line, in order (in a record thread)."""
        with self._lock:
            lines, self._lines = self._lines, []
            if self._closed:
                return
            for line in lines:
                line()

    def close(self) -> None:
        """Close the file; lines still waiting are dropped (nobody was told of them)."""
        with self._lock:
            self._lines = []
            self._closed = True
            if self._writer is not None:
                self._writer.close()


__all__ = ["FINISHED_FOLDER", "HeldRecorder"]
