"""Replaying a record: the game rebuilt from its seed, rules and commands (R2, ARCHITECTURE 2).

A record is *consistent* when its commands, numbered 1, 2, 3... without a gap, are all accepted
by the engine and, if it has a result line, lead to exactly that result and deal. A record
without a result (any number of commands) is consistent too: it is a shared position.

>>> from minefield.records.format import Players, RecordHeader, dump_line
>>> from minefield.records.reader import parse_record
>>> from minefield.rules.game import Game
>>> header = dump_line(RecordHeader.for_game(Game(seed=7), "hotseat", Players(east="A", west="B")))
>>> replay = replay_record(parse_record(header, "position"))
>>> replay.consistent, replay.game.phase, replay.result
(True, 'choosing', None)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from minefield.records.format import ResultLine
from minefield.records.reader import ReadRecord
from minefield.rules.game import Game, IllegalCommand

#: The longest value quoted in a difference; longer ones are only said to differ.
_QUOTED = 40


@dataclass(frozen=True, slots=True)
class Replay:
    """A record replayed: the game, the commands applied, the result it reached, and what
    does not agree with the record (empty when consistent)."""

    game: Game
    applied: int
    result: ResultLine | None
    stored: ResultLine | None
    problems: tuple[str, ...]

    @property
    def consistent(self) -> bool:
        """True when the commands replay to the stored result (or there is none)."""
        return not self.problems

    def __repr__(self) -> str:
        return (f"Replay(applied={self.applied}, consistent={self.consistent}, "
                f"phase={self.game.phase}, <tiles hidden>)")


def replay_record(record: ReadRecord) -> Replay:
    """Replay ``record``'s good command lines and compare with its result line.

    Replaying stops at the first missing or rejected command. Never raises for a bad record.
    """
    game = Game(record.header.seed, record.header.rules)
    problems: list[str] = []
    applied = 0
    for expected, (command, line) in enumerate(
            zip(record.commands, record.command_lines, strict=True), start=1):
        if command.seq != expected:
            problems.append(f"command {expected} is missing (line {line} holds command "
                            f"{command.seq})")
            break
        try:
            game.apply(command.seat, command.command)
        except IllegalCommand as error:
            problems.append(f"command {command.seq} (line {line}) is refused: {error}")
            break
        applied += 1
    result = ResultLine.of_game(game) if game.result is not None else None
    stored = record.result
    if not problems and stored is not None:
        if result is None:
            problems.append(f"the record has a result (line {record.result_line}) but its "
                            f"{applied} commands do not end the game")
        else:
            differences = compare(stored.model_dump(mode="json"), result.model_dump(mode="json"))
            if differences:
                problems.append(f"the result (line {record.result_line}) differs from the "
                                "replay: " + "; ".join(differences))
    return Replay(game=game, applied=applied, result=result, stored=stored,
                  problems=tuple(problems))


def compare(stored: Any, replayed: Any, where: str = "") -> list[str]:
    """Each difference between two JSON values: ``result.points: stored 8000, replayed 12000``.

    >>> compare({"a": 1, "b": {"c": [1]}}, {"a": 1, "b": {"c": [2]}})
    ['b.c: stored [1], replayed [2]']
    """
    if isinstance(stored, dict) and isinstance(replayed, dict):
        differences: list[str] = []
        for key in [*stored, *(k for k in replayed if k not in stored)]:
            path = f"{where}.{key}" if where else str(key)
            differences.extend(compare(stored.get(key), replayed.get(key), path))
        return differences
    if stored == replayed:
        return []
    shown = [json.dumps(v) for v in (stored, replayed)]
    if any(len(text) > _QUOTED for text in shown):
        return [f"{where}: differs"]
    return [f"{where}: stored {shown[0]}, replayed {shown[1]}"]


__all__ = ["Replay", "compare", "replay_record"]
