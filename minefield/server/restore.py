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

from minefield.protocol.messages import MAX_LINE_BYTES, PlayerInfo
from minefield.records.reader import ReadRecord, RecordError, read_record
from minefield.records.replay import replay_match, replay_record
from minefield.records.writer import RECORD_SUFFIX, RecordWriter, ensure_folder
from minefield.rules.game import Game, Seat
from minefield.rules.match import Match
from minefield.rules.settings import chosen_rules, without_clocks
from minefield.server.durable import FINISHED_FOLDER
from minefield.server.identity import display_name
from minefield.server.room import Room, Services
from minefield.server.seats import RoomMatch, seated_from_record
from minefield.table.series import Series, SingleGame

log = logging.getLogger("minefield.server")


class SeriesOver(RecordError):
    """The records of a series that is over (a single game with its result, a match that is
    over): nothing to go on with; they go to ``finished/``."""


def restore_rooms(services: Services) -> list[Room]:
    """Every unfinished series in the records folder, going on again (the daemon, at start):
    the records are grouped by series (a single game's one record, a match's records of its
    games) and each group is taken up by :func:`restore_room`."""
    folder = ensure_folder(services.config.games_dir)
    for private in (services.config.data, folder):  # players must not read records
        os.chmod(private, 0o700)
    series: dict[str, list[Path]] = {}
    for path in sorted(folder.glob(f"*{RECORD_SUFFIX}")):
        series.setdefault(_match_of(path) or path.name, []).append(path)
    rooms = [_take_up(services, folder, match_id, paths)
             for match_id, paths in series.items()]
    return [room for room in rooms if room is not None]


def _take_up(services: Services, folder: Path, key: str, paths: list[Path]) -> Room | None:
    """The series whose records in ``folder`` are ``paths`` (``key``: its match id, or its
    record's name), going on; None if it cannot. A series that is over has its records moved
    to ``finished/``; one whose records cannot go on is left as it is, and said so in the log
    (never with a record's text: it may quote a command's tiles).

    When a match's records do not replay by themselves (a daemon killed while it moved them
    aside), its records in ``finished/`` are added and it is tried again.
    """
    finished = folder / FINISHED_FOLDER
    try:
        records = [read_record(path) for path in paths]
    except RecordError:
        log.warning("record %s cannot be read: left as it is", paths[-1].name)
        return None
    for attempt in range(2):
        try:
            return restore_room(services, records)
        except SeriesOver:  # ended before its records could be moved aside
            ensure_folder(finished)
            for path in paths:
                path.rename(finished / path.name)
            return None
        except RecordError:
            more = (_match_records_in(finished, key)
                    if attempt == 0 and records[-1].header.match is not None else [])
            if more:
                records += more
                continue
            log.warning("record %s cannot go on (damaged or not a network game): left as it "
                        "is", paths[-1].name)
            return None
        except OSError as error:
            log.warning("record %s not resumed (%s)", paths[-1].name, type(error).__name__)
            return None
    return None  # pragma: no cover - the loop returns


def restore_room(services: Services, records: Sequence[ReadRecord]) -> Room:
    """The room whose series' records are ``records``, going on where they stop (the one
    restore: a single game is one record; a match is the records of its games).

    The series is rebuilt (a match from its finished games, replayed and settled, R31-R33),
    its last game dealt again and its commands applied, with the ids their clients sent them
    with (a command resent with one of them is not applied again, protocol 7); a game that
    ended without its result line gets it now. Raises :class:`SeriesOver` for a game or a
    match that is over, :class:`RecordError` for records that cannot go on (damaged, not a
    network game).
    """
    if any(record.header.mode != "network" for record in records):
        raise RecordError("not a network game")
    series: Series
    if records[-1].header.match is None:
        if len(records) != 1:
            raise RecordError("more than one record for a single game")
        if records[0].ended:
            raise SeriesOver("the game has ended")
        record, earlier = records[0], []
        replay = replay_record(record)
        if not replay.consistent or replay.applied != len(record.commands):
            raise RecordError("its commands do not replay")
        names = {seat: record.header.players.of(seat) for seat in Seat}
        series = SingleGame(Game(record.header.seed, record.header.rules),
                            {seat: PlayerInfo(name=display_name(name))
                             for seat, name in names.items()}, names=names)
    else:
        matched = replay_match(records)
        if not matched.consistent or matched.match is None or not matched.games:
            raise RecordError("the records of a match do not replay")
        if matched.over:
            raise SeriesOver("the match is over")
        record, before = matched.games[-1].record, matched.games[-1].before
        earlier = [game.record for game in matched.games[:-1]]
        match = Match.replay(before.seed, before.match_players, record.header.rules,
                             [game.replay.game.result for game in matched.games[:-1]
                              if game.replay.game.result is not None])
        series = RoomMatch(match, {name: PlayerInfo(name=name) for name in match.players})
    table = series.table
    for line in record.commands:
        table.game.apply(line.seat, line.command)
        if line.command_id is not None:
            table.remember(line.seq, line.seat, line.command_id)
    table.seq = len(record.commands)
    path = Path(record.name)
    writer = None if record.ended else RecordWriter.resume(path)[0]
    try:
        if table.game.phase == "ended":
            if table.on_end is not None:
                table.on_end(table.game)  # a match settles its game (R31-R33)
            if writer is not None:  # it ended before its result line was written
                writer.result(table.game, series.settlement)
    except BaseException:
        writer.close()  # type: ignore[union-attr]
        raise
    now = services.now()
    grace = services.config.grace_seconds
    seats = {seat: seated_from_record(record.header.players.of(seat), grace, now)
             for seat in Seat}
    room = Room(services, path.name.removesuffix(RECORD_SUFFIX), seats)
    # The preset its host chose, for the lobby and its next records (older records: guessed).
    room.rules_name = chosen_rules(without_clocks(record.header.rules), record.header.preset,
                                   match=record.header.match is not None).preset
    table_header = record.header.table
    if table_header is not None:  # older records: a private table's, rated (R36)
        room.kind, room.rated_games = table_header.kind, table_header.rated
        room.tournament = table_header.tournament
        room.public = table_header.kind == "public"
    room.play.follows = record.header.follows
    room.adopt(series, writer, _earlier_ids([*earlier, record]),
               [Path(r.name) for r in (*earlier, record)])
    return room


def _earlier_ids(records: Sequence[ReadRecord]) -> list[str]:
    """The ids a resume may still name for the series whose records are ``records``: each
    game's before the last, and the game each one follows (its header's ``follows``: the
    game before a rematch), oldest first."""
    ids: list[str] = []
    for record in records:
        own = Path(record.name).name.removesuffix(RECORD_SUFFIX)
        for game in (record.header.follows, own):
            if game is not None and game not in ids:
                ids.append(game)
    return ids[:-1]


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


__all__ = ["SeriesOver", "restore_room", "restore_rooms"]
