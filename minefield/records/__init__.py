"""Game records: one JSONL format for every game.

A record is a header line (seed, rules, mode, players, start time), one line per accepted
command and, once the game has ended, a result line with the revealed deal
(:mod:`~minefield.records.format`; the header is :mod:`~minefield.records.header`, the last
line :mod:`~minefield.records.result`). :class:`RecordWriter` writes it line by line, fsynced,
in a private file; :func:`read_record` reads it tolerantly; :func:`replay_record` rebuilds the
game and checks the stored result; :func:`list_history` lists a folder of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minefield._lazy import lazy_exports

if TYPE_CHECKING:
    from minefield.records.format import CommandLine
    from minefield.records.header import MatchHeader, Mode, Players, RecordHeader
    from minefield.records.history import HistoryEntry, list_history
    from minefield.records.reader import Problem, ReadRecord, RecordError, read_record
    from minefield.records.replay import Replay, replay_record
    from minefield.records.result import RecordDeal, RecordResult, ResultLine
    from minefield.records.writer import MatchRecorder, RecordWriter, new_record_path, write_game

#: Each exported name and its module, imported when the name is first used (PEP 562).
_EXPORTS = {
    "CommandLine": "minefield.records.format",
    "MatchHeader": "minefield.records.header",
    "Mode": "minefield.records.header",
    "Players": "minefield.records.header",
    "RecordDeal": "minefield.records.result",
    "RecordHeader": "minefield.records.header",
    "RecordResult": "minefield.records.result",
    "ResultLine": "minefield.records.result",
    "HistoryEntry": "minefield.records.history",
    "list_history": "minefield.records.history",
    "Problem": "minefield.records.reader",
    "ReadRecord": "minefield.records.reader",
    "RecordError": "minefield.records.reader",
    "read_record": "minefield.records.reader",
    "Replay": "minefield.records.replay",
    "replay_record": "minefield.records.replay",
    "MatchRecorder": "minefield.records.writer",
    "RecordWriter": "minefield.records.writer",
    "new_record_path": "minefield.records.writer",
    "write_game": "minefield.records.writer",
}
if not TYPE_CHECKING:  # type checkers read the imports above
    __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

__all__ = [
    "CommandLine", "HistoryEntry", "MatchHeader", "MatchRecorder", "Mode", "Players",
    "Problem", "ReadRecord",
    "RecordDeal", "RecordError", "RecordHeader", "RecordResult", "RecordWriter", "Replay",
    "ResultLine", "list_history", "new_record_path", "read_record",
    "replay_record", "write_game",
]
