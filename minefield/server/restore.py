"""Durability at start: the daemon takes up every unfinished game from its records.

:func:`restore_rooms` is the one restore, used by the daemon when it starts
(:meth:`~minefield.server.daemon.Daemon.start`). Each record of ``games/`` that has no result
line is an unfinished game: a single game is replayed from its record, a match from the
records of its games (the finished ones settled, R31-R33, the last one replayed). Records
that cannot go on are left where they are (and said so in the log, never with their text,
which may quote a command's tiles); those that ended before they could be moved aside go to
``finished/``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import Sequence
from pathlib import Path

from minefield.records.reader import ReadRecord, RecordError, read_record
from minefield.records.replay import replay_match, replay_record
from minefield.records.writer import RECORD_SUFFIX, RecordWriter, ensure_folder
from minefield.rules.game import Seat
from minefield.rules.match import Match
from minefield.server.durable import FINISHED_FOLDER, HeldRecorder
from minefield.server.room import Room, Services
from minefield.server.seats import seated_from_record
from minefield.session.protocol import MAX_LINE_BYTES
from minefield.session.table import GameTable

log = logging.getLogger("minefield.server")


class MatchOver(RecordError):
    """The records of a match that is over: nothing to go on with (they go to ``finished/``)."""


def restore_rooms(services: Services) -> list[Room]:
    """Every unfinished game in the records folder, going on again (the daemon, at start):
    a single game from its record, a match from the records of its games."""
    folder = ensure_folder(services.config.games_dir)
    for private in (services.config.data, folder):  # players must not read records
        os.chmod(private, 0o700)
    rooms: list[Room] = []
    matches: dict[str, list[Path]] = {}
    for path in sorted(folder.glob(f"*{RECORD_SUFFIX}")):
        match = _match_of(path)
        if match is not None:  # the games of a match go on together, below
            matches.setdefault(match, []).append(path)
            continue
        try:
            room = _restore_game(services, path)
        except RecordError:  # its text may quote a command's tiles: not in the log
            if _ended(path):  # ended before it could be moved aside
                finished = ensure_folder(folder / FINISHED_FOLDER)
                path.rename(finished / path.name)
                continue
            log.warning("record %s cannot go on (ended, damaged or not a network game): "
                        "left as it is", path.name)
            continue
        except OSError as error:
            log.warning("record %s not resumed (%s)", path.name, type(error).__name__)
            continue
        rooms.append(room)
    for match_id, paths in matches.items():
        match_room = _restore_match(services, folder, match_id, paths)
        if match_room is not None:
            rooms.append(match_room)
    return rooms


def _restore_match(services: Services, folder: Path, match_id: str, paths: list[Path]
                   ) -> Room | None:
    """The match ``match_id`` whose records in ``folder`` are ``paths``, going on; None if it
    cannot (a match that is over has its records moved to ``finished/``).

    When they do not replay by themselves (a daemon killed while it moved a match's
    records aside), the match's records in ``finished/`` are added and it is tried again.
    """
    records: list[ReadRecord] = []
    for path in paths:
        try:
            records.append(read_record(path))
        except RecordError:
            log.warning("record %s of a match cannot be read: the match is left as it is",
                        path.name)
            return None
    finished = folder / FINISHED_FOLDER
    for attempt in range(2):
        try:
            return _restore_match_records(services, records)
        except MatchOver:
            ensure_folder(finished)
            for path in paths:
                path.rename(finished / path.name)
            return None
        except RecordError:  # its text may quote a command's tiles: not in the log
            more = _match_records_in(finished, match_id) if attempt == 0 else []
            if more:
                records += more
                continue
            log.warning("the match of record %s cannot go on (damaged or not a network "
                        "game): left as it is", paths[-1].name)
            return None
        except OSError as error:
            log.warning("the match of record %s not resumed (%s)", paths[-1].name,
                        type(error).__name__)
            return None
    return None  # pragma: no cover - the loop returns


def _restore_game(services: Services, path: Path) -> Room:
    """The unfinished game of the record at ``path``, going on (after a restart).

    Raises :class:`RecordError` for a record that cannot go on (ended, not a network
    game, or commands that do not replay).
    """
    writer, record = RecordWriter.resume(path)
    try:
        if record.header.mode != "network":
            raise RecordError(f"{path.name}: not a network game")
        replay = replay_record(record)
        if not replay.consistent or replay.applied != writer.seq:
            raise RecordError(f"{path.name}: its commands do not replay")
    except BaseException:
        writer.close()
        raise
    now = services.now()
    grace = services.config.grace_seconds
    players = record.header.players
    seats = {seat: seated_from_record(players.of(seat), grace, now) for seat in Seat}
    room = Room(services, path.name.removesuffix(RECORD_SUFFIX), replay.game, seats)
    room._writer = HeldRecorder(writer)
    room.table = GameTable(replay.game, room._infos(now), recorder=room._writer, now=now)
    room.table.seq = replay.applied
    return room


def _restore_match_records(services: Services, records: Sequence[ReadRecord]) -> Room:
    """The match whose games' records are ``records`` (after a restart), going on: the
    finished games are replayed and settled (R31-R33), the last game is dealt again and
    its commands replayed; a game that ended without its result line gets it now.

    Raises :class:`MatchOver` when the match is over, :class:`RecordError` when its
    records do not replay (or are not a network match).
    """
    replay = replay_match(records)
    if not replay.consistent or replay.match is None or not replay.games:
        raise RecordError("the records of a match do not replay")
    if replay.over:
        raise MatchOver("the match is over")
    last = replay.games[-1]
    record, before = last.record, last.before
    if any(game.record.header.mode != "network" for game in replay.games):
        raise RecordError("not a network match")
    match = Match.replay(before.seed, before.match_players, record.header.rules,
                         [game.replay.game.result for game in replay.games[:-1]
                          if game.replay.game.result is not None])
    path = Path(record.name)
    writer = None if record.ended else RecordWriter.resume(path)[0]
    try:
        now = services.now()
        grace = services.config.grace_seconds
        players = record.header.players
        seats = {seat: seated_from_record(players.of(seat), grace, now) for seat in Seat}
        room = Room(services, path.name.removesuffix(RECORD_SUFFIX), match.new_game(),
                   seats)
        room._writer = None if writer is None else room._held(writer)
        room._prepared = room._writer
        table = room._new_match_table(match, now)
        for line in record.commands:
            table.table.game.apply(line.seat, line.command)
        table.table.seq = len(record.commands)
        table.table.start_clocks(now)
        game = table.table.game
        if game.phase == "ended" and table.settlement is None and table.table.on_end:
            table.table.on_end(game)  # ended before its result line was written
            if writer is not None:
                writer.result(game, table.settlement)
    except BaseException:
        if writer is not None:
            writer.close()
        raise
    room.match_ids = [Path(g.record.name).name.removesuffix(RECORD_SUFFIX)
                      for g in replay.games[:-1]]
    room._match_paths = [Path(g.record.name) for g in replay.games]
    return room

def _match_of(path: Path) -> str | None:
    """The public id of the match the record at ``path`` belongs to (its header's
    ``match.id``), None for a single game or a header that cannot be read."""
    try:
        with path.open("rb") as file:
            line = file.readline(MAX_LINE_BYTES + 1)
        header = json.loads(line)
    except (OSError, ValueError):
        return None
    match = header.get("match") if isinstance(header, dict) else None
    ident = match.get("id") if isinstance(match, dict) else None
    return ident if isinstance(ident, str) else None


def _match_records_in(folder: Path, match_id: str) -> list[ReadRecord]:
    """The readable records of the match ``match_id`` in ``folder`` (none if it cannot be
    listed)."""
    records = []
    try:
        paths = sorted(folder.glob(f"*{RECORD_SUFFIX}"))
    except OSError:
        return []
    for path in paths:
        if _match_of(path) == match_id:
            with contextlib.suppress(RecordError):
                records.append(read_record(path))
    return records


def _ended(path: Path) -> bool:
    """True when the record at ``path`` has its result line."""
    try:
        return read_record(path).ended
    except RecordError:
        return False


__all__ = ["MatchOver", "restore_rooms"]
