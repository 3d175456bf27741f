"""What the progress file records (:mod:`minefield.trainer.progress`): a finished game from
the player's side, each of its discards with the danger taken, and an answered drill; and the
times as the file writes them (UTC, to the second: ``2026-01-02T03:04:05Z``).

>>> GameRecord(mode="practice", seat="west", result="lost", points=-8000).dealt_in
True
>>> parse_time(time_text(parse_time("2026-01-02T03:04:05Z")))
datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from minefield.defense.calibration import Opponent
    from minefield.rules.game import Game, Seat

Result = Literal["won", "lost", "draw"]
RESULTS: tuple[Result, ...] = ("won", "lost", "draw")


def time_text(moment: datetime) -> str:
    """``moment`` as the progress file writes it: ``2026-01-02T03:04:05Z``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_time(text: str) -> datetime:
    """A time the progress file wrote (:func:`time_text`), in UTC."""
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


@dataclass(frozen=True)
class GameRecord:
    """One finished game from the player's side: ``points`` won (+) or paid (-).

    ``result`` is ``won``, ``lost`` or ``draw``; with two seats every loss is a deal-in (the
    only way to lose is a ron on one's own discard, R13), so ``dealt_in`` follows from it.
    """

    mode: str
    seat: str
    result: Result
    points: int = 0
    seed: str | None = None
    played_at: datetime | None = None

    def __post_init__(self) -> None:
        if self.result not in RESULTS:
            raise ValueError(f"result: {self.result!r}, expected one of {', '.join(RESULTS)}")
        if self.seat not in ("east", "west"):
            raise ValueError(f"seat: {self.seat!r}, expected east or west")

    @property
    def dealt_in(self) -> bool:
        """True when the player's discard won the opponent the game."""
        return self.result == "lost"


@dataclass(frozen=True)
class DiscardRecord:
    """One of the player's discards: its number (1-34), the tile, the estimated danger taken,
    the least estimated danger the pool offered (None when no estimate was made) and whether
    it dealt in."""

    number: int
    tile: str
    danger: float | None = None
    least_danger: float | None = None
    dealt_in: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.number <= 34:
            raise ValueError(f"discard number {self.number}: a game has discards 1 to 34")


@dataclass(frozen=True)
class DrillRecord:
    """One answered drill: its kind, difficulty, position id (it rebuilds the drill), whether
    the answer was right, its score (0 to 1) and the pattern it trained."""

    kind: str
    difficulty: str
    position: str
    correct: bool
    score: float
    pattern: str
    done_at: datetime | None = None
    id: int = field(default=0, compare=False)


def progress_of_game(game: Game, seat: Seat, mode: str, opponent: Opponent = "strong"
                     ) -> tuple[GameRecord, list[DiscardRecord]]:
    """What :meth:`~minefield.trainer.progress.ProgressStore.record_game` saves for ``seat``
    of a finished ``game``: the result and points, and each of the seat's discards with the
    estimated danger it took and the least the pool offered then
    (:func:`minefield.defense.estimate.estimate` against ``opponent``, as the practice game's
    overlay computed it).

    The game is replayed from its deal and commands, so each estimate sees exactly what the
    seat saw at that discard (R26). Raises ValueError for a game that has not ended.
    """
    # The engine and the estimators load only here: ``minefield stats`` and the CLI's start
    # need none of them.
    from minefield.defense.estimate import estimate
    from minefield.defense.position import Position
    from minefield.rules.game import Discard, Game
    from minefield.rules.tiles import Tile, kind_str

    end = game.result
    if end is None:
        raise ValueError("the game has not ended: there is nothing to record yet")
    replay = Game(game.seed, game.settings, deal=game.deal)
    discards: list[DiscardRecord] = []
    for actor, command in game.commands:
        if actor is seat and isinstance(command, Discard):
            report = estimate(Position.from_view(replay.view(seat)), opponent)
            tile = Tile.parse(command.tile)
            chosen = report.of(kind_str(tile.kind))
            number = replay.discard_count + 1
            discards.append(DiscardRecord(
                number=number, tile=command.tile, danger=chosen.danger,
                least_danger=report.safest().danger,
                dealt_in=end.winner is seat.other and end.discard_number == number))
        replay.apply(actor, command)
    points = end.value.points if end.value is not None else 0
    result: Result = ("draw" if end.winner is None
                      else "won" if end.winner is seat else "lost")
    record = GameRecord(mode=mode, seat=str(seat), result=result,
                        points=points if result == "won" else -points if result == "lost"
                        else 0, seed=game.seed)
    return record, discards


__all__ = [
    "RESULTS", "DiscardRecord", "DrillRecord", "GameRecord", "Result", "parse_time",
    "progress_of_game", "time_text",
]
