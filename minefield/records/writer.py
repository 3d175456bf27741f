"""Writing records: a private file, one line per call, each on disk before the call returns.

The seed in the header reveals the whole deal (R2), so a record is created readable by its
owner only (mode 0600, in a folder of mode 0700). Every line is written whole, flushed and
fsynced before :meth:`RecordWriter.command` returns: a crash loses at most the line being
written, which the reader reports and ignores. :class:`RecordWriter` is the
:class:`~minefield.table.game_table.Recorder` of a game table.

>>> import tempfile
>>> from minefield.records.header import Players
>>> from minefield.rules.game import ChooseHand, Game, Seat
>>> from minefield.rules.tiles import tiles_to_str
>>> game = Game(seed=7)
>>> with tempfile.TemporaryDirectory() as folder:
...     with RecordWriter.start(game, "hotseat", Players(east="Ann", west="Bob"),
...                             Path(folder)) as writer:
...         _ = game.apply(Seat.EAST, ChooseHand(tiles=tiles_to_str(game.tiles_of(Seat.EAST)[:13])))
...         writer.command(1, Seat.EAST, game.commands[-1][1])
...     writer.seq, oct(writer.path.stat().st_mode & 0o777), writer.path.suffix
(1, '0o600', '.jsonl')
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType

from minefield.paths import records_dir
from minefield.records.format import MAX_LINE_BYTES, CommandLine, dump_line, utc_now
from minefield.records.header import MatchHeader, Mode, Players, RecordHeader
from minefield.records.reader import ReadRecord, RecordError, read_record
from minefield.records.result import ResultLine
from minefield.rules.game import ChooseHand, Discard, Game, Seat
from minefield.rules.match import Match, Settlement

RECORD_SUFFIX = ".jsonl"
FILE_MODE = 0o600
FOLDER_MODE = 0o700
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | os.O_CLOEXEC
_ATTEMPTS = 8  # fresh names tried before giving up (a clash needs the same 32 random bits)

Clock = Callable[[], datetime]


def ensure_folder(folder: Path) -> Path:
    """Create ``folder`` (and its parents) if needed; a new folder gets mode 0700."""
    folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    return folder


def new_record_path(folder: Path, mode: Mode, now: datetime | None = None) -> Path:
    """A fresh name in ``folder`` (created, 0700): ``<UTC timestamp>-<mode>-<random>.jsonl``,
    such as ``20250102T030405.678Z-practice-1f2e3d4c.jsonl`` (names sort by time)."""
    ensure_folder(folder)
    stamp = (now or utc_now()).astimezone(UTC)
    text = stamp.strftime("%Y%m%dT%H%M%S") + f".{stamp.microsecond // 1000:03d}Z"
    return folder / f"{text}-{mode}-{secrets.token_hex(4)}{RECORD_SUFFIX}"


def _write_all(descriptor: int, data: bytes) -> None:
    """Write every byte, then fsync: the line is on disk when this returns."""
    view = memoryview(data)
    while view:
        written = os.write(descriptor, view)
        view = view[written:]
    os.fsync(descriptor)


def _fsync_folder(folder: Path) -> None:
    """Make a new file's name durable too (where the platform allows opening a folder)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


class RecordWriter:
    """Writes one game's record: the header at once, then a line per call, fsynced.

    ``RecordWriter(path, header)`` creates ``path`` (it must not exist) with mode 0600.
    :meth:`start` picks a fresh name in a folder. ``command`` and ``result`` raise
    :class:`OSError` when the disk fails (the writer is then closed) and :class:`ValueError`
    for a line out of order. The writer closes itself after the result line.
    """

    def __init__(self, path: Path | str, header: RecordHeader, *, clock: Clock = utc_now
                 ) -> None:
        data = dump_line(header)
        if len(data) > MAX_LINE_BYTES:
            raise ValueError(f"the header is longer than {MAX_LINE_BYTES // 1024} KiB "
                             "(player names too long?)")
        path = Path(path)
        descriptor = os.open(path, _NEW_FILE, FILE_MODE)
        self._attach(path, header, descriptor, 0, clock)
        try:
            if hasattr(os, "fchmod"):
                os.fchmod(descriptor, FILE_MODE)  # exactly 0600 whatever the umask
            self._write(data)
        except BaseException:
            self.close()
            path.unlink(missing_ok=True)  # ours, and holding no line: leave nothing behind
            raise
        _fsync_folder(path.parent)

    def _attach(self, path: Path, header: RecordHeader, descriptor: int, seq: int,
                clock: Clock) -> None:
        self.path = path
        self.header = header
        self.seq = seq
        self._clock = clock
        self._ended = False
        self._descriptor: int | None = descriptor

    @classmethod
    def create(cls, header: RecordHeader, folder: Path | None = None, *,
               clock: Clock = utc_now, match: MatchHeader | None = None) -> RecordWriter:
        """A new record in ``folder`` (default :func:`records_dir`) under a fresh name;
        ``match`` sets the header's match object (ValueError when it does not fit)."""
        if match is not None:
            header = RecordHeader.model_validate({**dict(header), "match": match})
        folder = folder if folder is not None else records_dir()
        for _ in range(_ATTEMPTS - 1):
            try:
                return cls(new_record_path(folder, header.mode, header.started), header,
                           clock=clock)
            except FileExistsError:
                continue
        return cls(new_record_path(folder, header.mode, header.started), header, clock=clock)

    @classmethod
    def start(cls, game: Game, mode: Mode, players: Players, folder: Path | None = None, *,
              clock: Clock = utc_now, match: MatchHeader | None = None,
              preset: str | None = None) -> RecordWriter:
        """The record of ``game`` (its seed and rules), started now, in ``folder``.

        ``match`` for a game of a match: ``MatchHeader.of_match(match)`` taken before the game
        (``players`` must be its seats); then write the result with the game's settlement.
        ``preset``: the rules preset the players chose (the header's ``preset``).
        """
        return cls.create(RecordHeader.for_game(game, mode, players, clock(), match=match,
                                                preset=preset), folder, clock=clock)

    @classmethod
    def resume(cls, path: Path | str, *, clock: Clock = utc_now
               ) -> tuple[RecordWriter, ReadRecord]:
        """Go on writing an unfinished record (after a crash): the writer and what was read.

        A half-written last line is cut off first; the next command is ``seq + 1``. Replay the
        record (:func:`~minefield.records.replay.replay_record`) to get the game back.
        Raises :class:`RecordError` for an unreadable or ended record.
        """
        record = read_record(path)
        if record.ended:
            raise RecordError(f"{path}: the game has ended: nothing to add")
        writer = cls.__new__(cls)
        writer._attach(Path(path), record.header,
                       os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC),
                       record.commands[-1].seq if record.commands else 0, clock)
        try:
            assert writer._descriptor is not None
            os.ftruncate(writer._descriptor, record.complete_size)  # the half-written line
            os.fsync(writer._descriptor)
        except BaseException:
            writer.close()
            raise
        return writer, record

    def command(self, seq: int, seat: Seat, command: ChooseHand | Discard, *,
                command_id: str | None = None, automatic: bool = False) -> None:
        """Append accepted command number ``seq`` (the next one) of ``seat``; ``command_id``
        is the id the client sent it with, ``automatic`` marks a move its clock played."""
        if self._ended:
            raise ValueError(f"{self.path.name}: the record already has its result")
        if seq != self.seq + 1:
            raise ValueError(f"{self.path.name}: command {seq} written after {self.seq}")
        self._write(dump_line(CommandLine(seq=seq, seat=seat, command=command,
                                          at=self._clock(), command_id=command_id,
                                          automatic=automatic)))
        self.seq = seq

    def result(self, game: Game, settlement: Settlement | None = None) -> None:
        """Append the result line of the ended ``game`` and close the file.

        ``settlement`` (what :meth:`Match.settle <minefield.rules.match.Match.settle>` returned
        for this game) adds the payments and match_over of a game of a match; ValueError for a
        settlement in a single game's record or of another game. A game of a match written
        without one has a result without payments (``replay --match`` reports it).
        """
        if self._ended:
            raise ValueError(f"{self.path.name}: the record already has its result")
        if len(game.commands) != self.seq:
            raise ValueError(f"{self.path.name}: the game has {len(game.commands)} commands, "
                             f"the record {self.seq}")
        match = self.header.match
        if settlement is not None:
            if match is None:
                raise ValueError(f"{self.path.name}: a single game's record takes no settlement")
            if (settlement.game_number != match.game
                    or settlement.seats != {Seat.EAST: match.players.east,
                                            Seat.WEST: match.players.west}):
                raise ValueError(f"{self.path.name}: the settlement is game "
                                 f"{settlement.game_number}'s, the record is game {match.game}")
        self._write(dump_line(ResultLine.of_game(game, settlement)))
        self._ended = True
        self.close()

    def _write(self, data: bytes) -> None:
        if self._descriptor is None:
            raise ValueError(f"{self.path.name}: the record is closed")
        try:
            _write_all(self._descriptor, data)
        except OSError:
            self.close()  # a half-written line stays last: the reader ignores it
            raise

    @property
    def closed(self) -> bool:
        """True once the file is closed (after the result, an error or :meth:`close`)."""
        return self._descriptor is None

    def close(self) -> None:
        """Close the file (an unfinished record stays valid: it is a position)."""
        if self._descriptor is not None:
            descriptor, self._descriptor = self._descriptor, None
            os.close(descriptor)

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "ended" if self._ended else "closed" if self.closed else "open"
        return f"RecordWriter({self.path.name!r}, seq={self.seq}, {state})"


class MatchRecorder:
    """The :class:`~minefield.table.game_table.Recorder` of a game of a match: writes through
    ``writer`` (started with ``match=MatchHeader.of_match(match)`` before the game) and, when
    the game ends, writes the result with the game's settlement: the one ``match`` already
    holds for this game (a table that settles before recording), else it settles ``match``
    itself (R31-R33). ``settlement`` is then that :class:`Settlement`.
    """

    def __init__(self, writer: RecordWriter, match: Match) -> None:
        if writer.header.match is None:
            raise ValueError(f"{writer.path.name}: a single game's record, not a match's")
        self.writer = writer
        self.match = match
        self.settlement: Settlement | None = None

    def command(self, seq: int, seat: Seat, command: ChooseHand | Discard, *,
                command_id: str | None = None, automatic: bool = False) -> None:
        """Append one accepted command (:meth:`RecordWriter.command`)."""
        self.writer.command(seq, seat, command, command_id=command_id, automatic=automatic)

    def result(self, game: Game) -> None:
        """Append the result line of the ended ``game`` with its settlement (settling the
        match first when nobody has yet)."""
        if self.settlement is None:
            header = self.writer.header.match
            assert header is not None
            done = [s for s in self.match.history if s.game_number == header.game]
            self.settlement = done[-1] if done else self.match.settle(game)
        self.writer.result(game, self.settlement)

    def __repr__(self) -> str:
        return f"MatchRecorder({self.writer!r}, {self.match!r})"


def write_game(game: Game, mode: Mode, players: Players, folder: Path | None = None, *,
               clock: Clock = utc_now, match: MatchHeader | None = None,
               settlement: Settlement | None = None) -> Path:
    """Write the whole record of ``game`` so far (every command, the result if it has ended)
    in a new file in ``folder``; the file's path. Used for games played without a writer
    attached (``simulate``); ``match`` and ``settlement`` for a game of a match."""
    with RecordWriter.start(game, mode, players, folder, clock=clock, match=match) as writer:
        for seq, (seat, command) in enumerate(game.commands, start=1):
            writer.command(seq, seat, command)
        if game.result is not None:
            writer.result(game, settlement)
    return writer.path


__all__ = ["FILE_MODE", "FOLDER_MODE", "RECORD_SUFFIX", "MatchRecorder", "RecordWriter",
           "ensure_folder",
           "new_record_path", "write_game"]
