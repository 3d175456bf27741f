"""Replaying a record: the game rebuilt from its seed, rules and commands (R2).

A record is *consistent* when its commands, numbered 1, 2, 3... without a gap, are all accepted
by the engine and, if it has a result line, lead to exactly that result and deal. A record
without a result (any number of commands) is consistent too: it is a shared position.

A game of a match replays alone the same way (dealt with its header's terms; the payments and
match_over are the match's, not the game's). :func:`replay_match` replays a whole match from
the records of its games (:func:`match_records` finds them in a folder): each game, then the
match (:class:`~minefield.rules.match.Match`) from their results, checking every header's
match object and every result's payments against it. It also rebuilds a match to go on with
(a daemon after a restart): :attr:`MatchReplay.match` and :attr:`MatchReplay.unfinished`.

>>> from minefield.records.format import dump_line
>>> from minefield.records.header import Players, RecordHeader
>>> from minefield.records.reader import parse_record
>>> from minefield.rules.game import Game
>>> header = dump_line(RecordHeader.for_game(Game(seed=7), "hotseat", Players(east="A", west="B")))
>>> replay = replay_record(parse_record(header, "position"))
>>> replay.consistent, replay.game.phase, replay.result
(True, 'choosing', None)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from minefield.records.header import MatchHeader
from minefield.records.reader import ReadRecord, RecordError, read_record
from minefield.records.result import ResultLine
from minefield.rules.game import Game, GameTerms, IllegalCommand
from minefield.rules.match import Match, MatchError, Settlement

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
    match = record.header.match
    game = Game(record.header.seed, record.header.rules,
                terms=match.terms if match is not None else GameTerms())
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
            alone = stored.model_copy(update={"result": stored.result.without_match()})
            differences = compare(alone.model_dump(mode="json"), result.model_dump(mode="json"))
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


# ---------------------------------------------------------------------------------------------
# Matches


@dataclass(frozen=True, slots=True)
class MatchGame:
    """One game of a replayed match: its record and replay, the match before it (the
    header's match object) and what it did to the match (None while unfinished)."""

    record: ReadRecord
    replay: Replay
    before: MatchHeader
    settlement: Settlement | None

    def __repr__(self) -> str:
        return (f"MatchGame(game={self.before.game}, {self.record.name!r}, "
                f"settled={self.settlement is not None})")


@dataclass(frozen=True, slots=True)
class MatchReplay:
    """A match replayed from its records: the games replayed in order, the match after the
    last finished one, the unfinished game's record (if any) and the first inconsistency.

    ``match`` is the :class:`~minefield.rules.match.Match` rebuilt from the results: go on
    with it (``match.new_game()`` deals the unfinished game again; replay its record for the
    position). Replaying stops at the first problem, so ``games`` are the ones up to it.
    """

    id: str
    games: tuple[MatchGame, ...]
    match: Match | None
    unfinished: ReadRecord | None
    problems: tuple[str, ...]

    @property
    def consistent(self) -> bool:
        """True when every record replays and agrees with the match."""
        return not self.problems

    @property
    def over(self) -> bool:
        """True when the match has ended (R30)."""
        return self.match is not None and self.match.over

    def __repr__(self) -> str:
        return (f"MatchReplay(id={self.id!r}, games={len(self.games)}, over={self.over}, "
                f"consistent={self.consistent}, <seeds hidden>)")


def match_records(folder: Path) -> tuple[dict[str, list[ReadRecord]], list[str]]:
    """The records of matches in ``folder`` by match id (each list ordered by game number,
    then name), and a message per file that could not be read. Single games are left out.
    Raises :class:`RecordError` when the folder cannot be listed."""
    try:
        paths = sorted(p for p in folder.iterdir() if p.name.endswith(".jsonl"))
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        raise RecordError(f"{folder}: cannot list it: {reason}") from None
    matches: dict[str, list[ReadRecord]] = {}
    unreadable: list[str] = []
    for path in paths:
        try:
            record = read_record(path)
        except RecordError as error:
            unreadable.append(str(error))
            continue
        if record.header.match is not None:
            matches.setdefault(record.header.match.id, []).append(record)
    for records in matches.values():
        records.sort(key=_game_order)
    return matches, unreadable


def _game_order(record: ReadRecord) -> tuple[int, str]:
    assert record.header.match is not None
    return record.header.match.game, record.name


def replay_match(records: Sequence[ReadRecord]) -> MatchReplay:
    """Replay a match from the records of its games (any order; all of one match id).

    Checks that the games are numbered 1, 2, 3... without a gap or a double, that each
    replays to its stored result, that each header's match object (players, dealer streak,
    sticks, scores, hand, terms) and rules are what the match reached, and that each result's
    payments and match_over are what the match settled. The first inconsistency is reported
    with its file and line and ends the replay. Never raises for bad records.
    """
    ordered = sorted(records, key=_game_order)
    if not ordered:
        return MatchReplay(id="", games=(), match=None, unfinished=None,
                           problems=("no records of a match",))
    first = ordered[0].header.match
    assert first is not None
    ids = {r.header.match.id for r in ordered if r.header.match is not None}
    if ids != {first.id} or any(r.header.match is None for r in ordered):
        return MatchReplay(id=first.id, games=(), match=None, unfinished=None,
                           problems=("the records are not all of one match",))
    checker = _MatchChecker(first.id)
    checker.run(ordered)
    return MatchReplay(id=first.id, games=tuple(checker.games), match=checker.match,
                       unfinished=checker.unfinished, problems=tuple(checker.problems[:1]))


class _MatchChecker:
    """Replays the games of one match in order, stopping at the first problem."""

    def __init__(self, match_id: str) -> None:
        self.id = match_id
        self.games: list[MatchGame] = []
        self.match: Match | None = None
        self.unfinished: ReadRecord | None = None
        self.problems: list[str] = []

    def run(self, ordered: Sequence[ReadRecord]) -> None:
        for number, record in enumerate(ordered, start=1):
            header = record.header.match
            assert header is not None
            if header.game != number:
                gap = ("two records of game " if header.game < number
                       else f"game {number} is missing: the next record is game ")
                self.problems.append(f"{record.name}: line 1: {gap}{header.game}")
                return
            if self.match is None:
                self.match = self._start(record, header)
                if self.match is None:
                    return
            if self.unfinished is not None:
                self.problems.append(f"{record.name}: line 1: game {number} follows game "
                                     f"{number - 1}, which is unfinished "
                                     f"({self.unfinished.name})")
                return
            if not self._game(record, header, self.match):
                return

    def _start(self, record: ReadRecord, header: MatchHeader) -> Match | None:
        try:
            return Match(header.seed, header.match_players, record.header.rules)
        except ValueError as error:
            self.problems.append(f"{record.name}: line 1: {error}")
            return None

    def _game(self, record: ReadRecord, header: MatchHeader, match: Match) -> bool:
        """Check and replay one game; False at a problem."""
        if match.over:
            self.problems.append(f"{record.name}: line 1: game {header.game} is after the end "
                                 "of the match")
            return False
        if record.header.rules != match.settings:
            self.problems.append(f"{record.name}: line 1: the rules are not the match's "
                                 "(game 1's)")
            return False
        expected = MatchHeader.of_match(match)
        differences = compare(header.model_dump(mode="json", exclude={"seed"}),
                              expected.model_dump(mode="json", exclude={"seed"}), "match")
        if differences:
            self.problems.append(f"{record.name}: line 1: the match header differs from the "
                                 "match replayed from the earlier games: "
                                 + "; ".join(differences))
            return False
        replay = replay_record(record)
        if not replay.consistent:
            self.problems.append(f"{record.name}: " + "; ".join(replay.problems))
            return False
        stored = record.result
        if stored is None or replay.game.result is None:
            self.games.append(MatchGame(record, replay, header, None))
            self.unfinished = record
            return True
        try:
            settlement = match.settle(replay.game)
        except MatchError as error:
            self.problems.append(f"{record.name}: line {record.result_line}: {error}")
            return False
        self.games.append(MatchGame(record, replay, header, settlement))
        got = stored.result
        if got.payments is None:
            self.problems.append(f"{record.name}: line {record.result_line}: the result of a "
                                 "game of a match has no payments")
            return False
        differences = compare(
            {"payments": {s.value: v for s, v in got.payments.items()},
             "match_over": got.match_over},
            {"payments": {s.value: v for s, v in settlement.payments.items()},
             "match_over": settlement.match_over}, "result")
        if differences:
            self.problems.append(f"{record.name}: line {record.result_line}: the result "
                                 "differs from the match: " + "; ".join(differences))
            return False
        return True


def load_match(folder: Path, match_id: str) -> MatchReplay:
    """The match ``match_id`` replayed from its records in ``folder`` (to verify it, show it
    or go on with it). Raises :class:`RecordError` when no record of that match is there."""
    matches, _ = match_records(folder)
    if match_id not in matches:
        raise RecordError(f"{folder}: no records of match {match_id}")
    return replay_match(matches[match_id])


__all__ = ["MatchGame", "MatchReplay", "Replay", "compare", "load_match", "match_records",
           "replay_match", "replay_record"]
