"""Finished network records for the tests of kept games and profiles: games played to their
end by two easy bots (each deal once per test run), written as a daemon would write them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path

from minefield.bots.levels import make_bot
from minefield.bots.simulate import play_game
from minefield.records.header import Players, RecordHeader, TableHeader, TableKind
from minefield.records.writer import RECORD_SUFFIX, RecordWriter
from minefield.rules.game import Game

START = datetime(2026, 1, 1, tzinfo=UTC)


@cache
def played(seed: int) -> Game:
    """Deal ``seed`` played to its end by two easy bots."""
    game = Game(seed=seed)
    play_game(game, make_bot("easy", seed), make_bot("easy", seed + 1))
    return game


def write_record(games_dir: Path, game_id: str, seed: int, east: str, west: str,
                 kind: TableKind | None = "public", rated: bool = True, minute: int = 0,
                 finished: bool = True) -> Path:
    """The record of game ``game_id`` (deal ``seed`` played out) between ``east`` and
    ``west`` at a table of ``kind`` (None: an old record with no table), its moves a second
    apart from ``minute`` minutes after :data:`START`, in ``finished/`` or not."""
    game = played(seed)
    folder = games_dir / "finished" if finished else games_dir
    folder.mkdir(parents=True, exist_ok=True)
    started = START + timedelta(minutes=minute)
    moments = iter(started + timedelta(seconds=n) for n in range(1000))
    table = TableHeader(kind=kind, rated=rated) if kind is not None else None
    header = RecordHeader.for_game(game, "network", Players(east=east, west=west), started,
                                   table=table)
    path = folder / f"{game_id}{RECORD_SUFFIX}"
    with RecordWriter(path, header, clock=lambda: next(moments)) as writer:
        for seq, (seat, command) in enumerate(game.commands, start=1):
            writer.command(seq, seat, command)
        writer.result(game)
    return path


__all__ = ["START", "played", "write_record"]
