"""Helpers for record tests: seeded games played by bots, and records of them."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from minefield.bots.levels import make_bot
from minefield.records.header import Players
from minefield.records.writer import write_game
from minefield.rules.game import Game, Seat

#: Seeds whose game (normal bots, bot seeds ``seed`` and ``seed + 100``) ends as stated.
RON_SEED = 0  # East wins 8000 on discard 4
DRAW_SEED = 1  # an exhaustive draw (R11)
PLAYERS = Players(east="Ann", west="Bot normal")


def played(seed: int, stop: int | None = None) -> Game:
    """The seeded game played by two normal bots, to its end or to ``stop`` commands."""
    game = Game(seed)
    bots = {Seat.EAST: make_bot("normal", seed), Seat.WEST: make_bot("normal", seed + 100)}
    while game.phase != "ended" and (stop is None or len(game.commands) < stop):
        if game.phase == "choosing":
            seat = next(s for s in Seat if game.hand_of(s) is None)
        else:
            assert game.turn is not None
            seat = game.turn
        game.apply(seat, bots[seat].act(game.view(seat)))
    return game


class Clock:
    """A clock that ticks one second per reading, from a fixed start."""

    def __init__(self, start: datetime = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)) -> None:
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


def record_of(game: Game, folder: Path, start: datetime | None = None) -> Path:
    """Write ``game``'s record in ``folder``; its path."""
    clock = Clock(start) if start else Clock()
    return write_game(game, "practice", PLAYERS, folder, clock=clock)


@pytest.fixture
def data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """``MINEFIELD_DATA_DIR`` pointed at a temporary folder."""
    folder = tmp_path / "data"
    monkeypatch.setenv("MINEFIELD_DATA_DIR", str(folder))
    yield folder
