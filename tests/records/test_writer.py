"""The writer: private files, one fsynced line per call, round trips through the reader."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest

from minefield.protocol.messages import PlayerInfo
from minefield.records.header import RecordHeader
from minefield.records.reader import RecordError, read_record
from minefield.records.replay import replay_record
from minefield.records.result import ResultLine
from minefield.records.writer import RecordWriter, new_record_path, write_game
from minefield.rules.game import ChooseHand, Game, Seat
from minefield.table.game_table import GameTable
from tests.records.conftest import DRAW_SEED, PLAYERS, RON_SEED, Clock, played


@pytest.mark.parametrize("seed", [RON_SEED, DRAW_SEED])
def test_round_trip(tmp_path: Path, seed: int) -> None:
    game = played(seed)
    path = write_game(game, "practice", PLAYERS, tmp_path, clock=Clock())
    record = read_record(path)
    assert record.problems == ()
    assert record.header == RecordHeader.for_game(game, "practice", PLAYERS,
                                                  record.header.started)
    assert [(c.seat, c.command) for c in record.commands] == game.commands
    assert [c.seq for c in record.commands] == list(range(1, len(game.commands) + 1))
    assert record.command_lines == tuple(range(2, len(game.commands) + 2))
    assert record.result == ResultLine.of_game(game)
    assert record.result_line == len(game.commands) + 2
    times = [record.header.started, *(c.at for c in record.commands)]
    assert times == sorted(times) and len(set(times)) == len(times)


def test_file_is_private(tmp_path: Path) -> None:
    """The seed reveals the deal (R2): the file is 0600, a new folder 0700."""
    folder = tmp_path / "new" / "records"
    path = write_game(played(RON_SEED), "hotseat", PLAYERS, folder)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert path.parent == folder


def test_file_is_private_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        path = write_game(Game(seed=4), "hotseat", PLAYERS, tmp_path)
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_fresh_names(tmp_path: Path) -> None:
    names = {new_record_path(tmp_path, "simulate").name for _ in range(20)}
    assert len(names) == 20
    pattern = re.compile(r"^\d{8}T\d{6}\.\d{3}Z-simulate-[0-9a-f]{8}\.jsonl$")
    assert all(pattern.match(name) for name in names)


def test_an_existing_file_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "taken.jsonl"
    path.write_text("mine\n")
    header = RecordHeader.for_game(Game(seed=1), "practice", PLAYERS)
    with pytest.raises(FileExistsError):
        RecordWriter(path, header)
    assert path.read_text() == "mine\n"


def test_each_line_is_on_disk_when_the_call_returns(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Every line is written whole and fsynced before ``command`` returns."""
    synced: list[int] = []
    real_fsync = os.fsync

    def fsync(descriptor: int) -> None:
        synced.append(os.fstat(descriptor).st_size)
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", fsync)  # the os module the writer calls
    game = played(RON_SEED)
    with RecordWriter.start(Game(game.seed), "practice", PLAYERS, tmp_path) as writer:
        header_size = writer.path.stat().st_size
        assert header_size in synced
        for seq, (seat, command) in enumerate(game.commands, start=1):
            writer.command(seq, seat, command)
            content = writer.path.read_bytes()
            assert content.endswith(b"\n") and content.count(b"\n") == seq + 1
            assert synced[-1] == len(content)
        writer.result(game)
        assert writer.closed
    content = writer.path.read_bytes()
    assert synced[-1] == len(content) and content.count(b"\n") == len(game.commands) + 2


def test_lines_out_of_order_are_refused(tmp_path: Path) -> None:
    game = played(RON_SEED)
    with RecordWriter.start(game, "practice", PLAYERS, tmp_path) as writer:
        with pytest.raises(ValueError, match="command 2 written after 0"):
            writer.command(2, *game.commands[1])
        writer.command(1, *game.commands[0])
        with pytest.raises(ValueError, match="the game has 6 commands, the record 1"):
            writer.result(game)
    with pytest.raises(ValueError, match="closed"):
        writer.command(2, *game.commands[1])
    assert len(read_record(writer.path).commands) == 1


def test_repr_hides_seed_and_tiles(tmp_path: Path) -> None:
    game = played(RON_SEED)
    with RecordWriter.start(game, "practice", PLAYERS, tmp_path) as writer:
        writer.command(1, *game.commands[0])
        text = repr(writer)
    chosen = game.commands[0][1]
    assert isinstance(chosen, ChooseHand)
    hand = chosen.tiles
    assert game.seed not in text and hand not in text
    assert "seq=1" in text


def test_resume_cuts_the_half_written_line(tmp_path: Path) -> None:
    """After a crash, the writer goes on from the last whole line."""
    game = played(RON_SEED)
    with RecordWriter.start(game, "network", PLAYERS, tmp_path) as writer:
        for seq, (seat, command) in enumerate(game.commands[:3], start=1):
            writer.command(seq, seat, command)
    with writer.path.open("ab") as file:
        file.write(b'{"seq": 4, "seat": "ea')
    resumed, record = RecordWriter.resume(writer.path)
    with resumed:
        assert resumed.seq == 3 and len(record.commands) == 3
        replayed = replay_record(record).game
        for seq, (seat, command) in enumerate(game.commands[3:], start=4):
            replayed.apply(seat, command)
            resumed.command(seq, seat, command)
        resumed.result(replayed)
    again = read_record(writer.path)
    assert again.problems == () and again.result == ResultLine.of_game(game)
    with pytest.raises(RecordError, match="has ended"):
        RecordWriter.resume(writer.path)


def test_writer_is_a_table_recorder(tmp_path: Path) -> None:
    """The game table writes each accepted command before anyone hears of it, and the result
    at the end; the record replays to the same game."""
    reference = played(RON_SEED)
    game = Game(reference.seed)
    writer = RecordWriter.start(game, "hotseat", PLAYERS, tmp_path)
    table = GameTable(game, {Seat.EAST: PlayerInfo(name="Ann"),
                             Seat.WEST: PlayerInfo(name="Bob")}, recorder=writer)
    for index, (seat, command) in enumerate(reference.commands):
        table.submit(seat, f"c{index}", command, now=0.0)
    assert game.phase == "ended" and writer.closed
    replay = replay_record(read_record(writer.path))
    assert replay.consistent and replay.game.state_key() == reference.state_key()
