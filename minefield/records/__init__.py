"""Game records: one JSONL format for every game (ARCHITECTURE 6).

A record is a header line (seed, rules, mode, players, start time), one line per accepted
command and, once the game has ended, a result line with the revealed deal
(:mod:`~minefield.records.format`). :class:`RecordWriter` writes it line by line, fsynced, in a
private file; :func:`read_record` reads it tolerantly; :func:`replay_record` rebuilds the game
and checks the stored result; :func:`list_history` lists a folder of them.
"""

from minefield.records.format import (
    CommandLine,
    MatchHeader,
    Mode,
    Players,
    RecordDeal,
    RecordHeader,
    RecordResult,
    ResultLine,
)
from minefield.records.history import HistoryEntry, list_history
from minefield.records.reader import Problem, ReadRecord, RecordError, read_record
from minefield.records.replay import Replay, replay_record
from minefield.records.writer import MatchRecorder, RecordWriter, new_record_path, write_game

__all__ = [
    "CommandLine", "HistoryEntry", "MatchHeader", "MatchRecorder", "Mode", "Players",
    "Problem", "ReadRecord",
    "RecordDeal", "RecordError", "RecordHeader", "RecordResult", "RecordWriter", "Replay",
    "ResultLine", "list_history", "new_record_path", "read_record",
    "replay_record", "write_game",
]
