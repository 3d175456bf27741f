"""The trainer's progress: games, discards and drills in a small SQLite file.

The file is ``progress.sqlite3`` in the user data folder (``MINEFIELD_DATA_DIR`` moves it, as
as for the records: :mod:`minefield.paths`), mode 0600 in a 0700 folder. It runs in WAL
mode and every write is one short transaction, so a process killed mid-write loses at most the
write in progress and never a committed one. The schema is versioned by ``PRAGMA user_version``
and upgraded by :data:`MIGRATIONS` (a file from a newer Minefield is refused, never changed).

Nothing here may stop a game: :func:`open_progress` never raises. A file that is corrupt,
locked, unreadable or read-only gives a :class:`NullProgress` (every write a no-op, empty
summaries) and a one-line problem the caller shows. Writes on an open store raise
:class:`ProgressError` (one line) when the disk or a lock refuses them.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> store, problem = open_progress(folder / "progress.sqlite3")
>>> problem is None
True
>>> _ = store.record_game(GameRecord(mode="practice", seat="east", result="lost", points=-8000),
...                       [DiscardRecord(number=5, tile="3p", danger=0.12, least_danger=0.01,
...                                      dealt_in=True)])
>>> summary = store.summary()
>>> summary.games, summary.deal_ins, summary.deal_in_rate
(1, 1, 1.0)
>>> store.close()
"""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from minefield.errors import MinefieldError
from minefield.paths import progress_path
from minefield.records.writer import ensure_folder

if TYPE_CHECKING:
    from minefield.defense.calibration import Opponent
    from minefield.rules.game import Game, Seat

FILE_MODE = 0o600
SCHEMA_VERSION = 1
#: How long a write waits for another process's lock before it gives up (seconds).
LOCK_TIMEOUT = 2.0

Result = Literal["won", "lost", "draw"]
RESULTS: tuple[Result, ...] = ("won", "lost", "draw")

#: ``MIGRATIONS[n]`` takes a file from schema ``n`` to ``n + 1`` (user_version 0 is a new file).
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        played_at TEXT NOT NULL,
        mode TEXT NOT NULL,
        seat TEXT NOT NULL,
        result TEXT NOT NULL CHECK (result IN ('won', 'lost', 'draw')),
        dealt_in INTEGER NOT NULL CHECK (dealt_in IN (0, 1)),
        points INTEGER NOT NULL,
        seed TEXT
    );
    CREATE TABLE discards (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        number INTEGER NOT NULL CHECK (number BETWEEN 1 AND 34),
        tile TEXT NOT NULL,
        danger REAL,
        least_danger REAL,
        dealt_in INTEGER NOT NULL CHECK (dealt_in IN (0, 1))
    );
    CREATE INDEX discards_by_game ON discards (game_id);
    CREATE TABLE drills (
        id INTEGER PRIMARY KEY,
        done_at TEXT NOT NULL,
        kind TEXT NOT NULL,
        difficulty TEXT NOT NULL,
        position TEXT NOT NULL,
        correct INTEGER NOT NULL CHECK (correct IN (0, 1)),
        score REAL NOT NULL,
        pattern TEXT NOT NULL
    );
    CREATE INDEX drills_by_kind ON drills (kind, id);
    """,
)
assert len(MIGRATIONS) == SCHEMA_VERSION


class ProgressError(MinefieldError):
    """The progress file cannot be used: one line naming the file and what is wrong."""


def utc_now() -> datetime:
    """The current time in UTC (a function so tests and callers can pass their own)."""
    return datetime.now(UTC)


def _time_text(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _parse_time(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def week_of(moment: datetime) -> str:
    """The ISO week of ``moment`` as ``2026-W48`` (the periods of the summaries)."""
    year, week, _ = moment.astimezone(UTC).isocalendar()
    return f"{year}-W{week:02d}"


# ---------------------------------------------------------------------------------------------
# What is recorded


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


# ---------------------------------------------------------------------------------------------
# Summaries


@dataclass(frozen=True)
class DefenseStats:
    """Games and discards over one stretch of time (all, a week, the last N games).

    Two kinds of figure: what happened (``deal_in_rate``, ``points_lost`` per game: the
    safety of the play) and how the discards agreed with the danger estimate
    (``danger_taken`` and ``least_danger`` are sums over the discards that have an estimate;
    ``excess_per_discard`` is their difference per such discard: 0 means the estimate's least
    dangerous tile every time, which is not the same as safe).
    """

    label: str
    games: int = 0
    won: int = 0
    deal_ins: int = 0
    draws: int = 0
    points: int = 0
    points_lost: int = 0
    discards: int = 0
    danger_taken: float = 0.0
    least_danger: float = 0.0

    @property
    def deal_in_rate(self) -> float | None:
        """Deal-ins per game, None without games."""
        return self.deal_ins / self.games if self.games else None

    @property
    def points_lost_per_game(self) -> float | None:
        """Points paid for deal-ins per game, None without games."""
        return self.points_lost / self.games if self.games else None

    @property
    def excess_per_discard(self) -> float | None:
        """Danger taken beyond the least possible, per estimated discard (None without any)."""
        return (self.danger_taken - self.least_danger) / self.discards if self.discards else None

    def to_json(self) -> dict[str, Any]:
        """The stats as ``minefield stats --json`` prints them."""
        return {
            "label": self.label, "games": self.games, "won": self.won,
            "deal_ins": self.deal_ins, "draws": self.draws, "points": self.points,
            "points_lost": self.points_lost,
            "points_lost_per_game": (None if self.points_lost_per_game is None
                                     else round(self.points_lost_per_game, 1)),
            "deal_in_rate": self.deal_in_rate, "discards": self.discards,
            "danger_taken": round(self.danger_taken, 6),
            "least_danger": round(self.least_danger, 6),
            "excess_per_discard": (None if self.excess_per_discard is None
                                   else round(self.excess_per_discard, 6)),
        }


@dataclass(frozen=True)
class DrillStats:
    """Drills of one kind over one stretch of time: attempts, right answers, mean score."""

    kind: str
    label: str
    attempts: int = 0
    correct: int = 0
    score_sum: float = 0.0

    @property
    def accuracy(self) -> float | None:
        """Right answers per attempt (None without attempts)."""
        return self.correct / self.attempts if self.attempts else None

    @property
    def mean_score(self) -> float | None:
        """The mean score (0 to 1; None without attempts)."""
        return self.score_sum / self.attempts if self.attempts else None

    def to_json(self) -> dict[str, Any]:
        """The stats as ``minefield stats --json`` prints them."""
        return {"kind": self.kind, "label": self.label, "attempts": self.attempts,
                "correct": self.correct, "accuracy": self.accuracy,
                "mean_score": None if self.mean_score is None else round(self.mean_score, 6)}


@dataclass(frozen=True)
class ProgressSummary:
    """What the stats screen and ``minefield stats`` show.

    ``overall`` covers every game, ``recent`` the last ``last_games`` games, ``weeks`` one
    entry per ISO week that has games (oldest first, at most ``weeks`` of them). ``drills``
    has one overall entry per kind, ``drill_weeks`` one per kind and week.
    """

    overall: DefenseStats
    recent: DefenseStats
    weeks: tuple[DefenseStats, ...]
    drills: tuple[DrillStats, ...]
    drill_weeks: tuple[DrillStats, ...]

    @property
    def empty(self) -> bool:
        """True when nothing at all is recorded."""
        return self.overall.games == 0 and not self.drills

    @property
    def games(self) -> int:
        """Games recorded."""
        return self.overall.games

    @property
    def deal_ins(self) -> int:
        """Games lost by a deal-in."""
        return self.overall.deal_ins

    @property
    def deal_in_rate(self) -> float | None:
        """Deal-ins per game over all games."""
        return self.overall.deal_in_rate

    def to_json(self) -> dict[str, Any]:
        """The summary as ``minefield stats --json`` prints it."""
        return {
            "overall": self.overall.to_json(),
            "recent": self.recent.to_json(),
            "weeks": [w.to_json() for w in self.weeks],
            "drills": [d.to_json() for d in self.drills],
            "drill_weeks": [d.to_json() for d in self.drill_weeks],
        }


EMPTY_SUMMARY = ProgressSummary(DefenseStats("all games"), DefenseStats("last 0 games"), (), (),
                                ())


def _defense_stats(label: str, games: Sequence[sqlite3.Row],
                   discards: dict[int, list[sqlite3.Row]]) -> DefenseStats:
    estimated = [d for g in games for d in discards.get(g["id"], [])
                 if d["danger"] is not None and d["least_danger"] is not None]
    return DefenseStats(
        label=label, games=len(games),
        won=sum(1 for g in games if g["result"] == "won"),
        deal_ins=sum(1 for g in games if g["dealt_in"]),
        draws=sum(1 for g in games if g["result"] == "draw"),
        points=sum(g["points"] for g in games),
        points_lost=-sum(g["points"] for g in games if g["points"] < 0),
        discards=len(estimated),
        danger_taken=sum(d["danger"] for d in estimated),
        least_danger=sum(d["least_danger"] for d in estimated),
    )


def _drill_stats(kind: str, label: str, rows: Iterable[sqlite3.Row]) -> DrillStats:
    rows = list(rows)
    return DrillStats(kind, label, len(rows), sum(1 for r in rows if r["correct"]),
                      sum(r["score"] for r in rows))


# ---------------------------------------------------------------------------------------------
# The stores


class Progress(Protocol):
    """What callers use: a real :class:`ProgressStore` or a :class:`NullProgress`."""

    path: Path
    problem: str | None

    def record_game(self, game: GameRecord, discards: Sequence[DiscardRecord] = ()) -> int:
        """Save a finished game and its discards in one transaction; the game's id."""
        ...

    def record_drill(self, drill: DrillRecord) -> int:
        """Save an answered drill; its id."""
        ...

    def drill_history(self, kind: str | None = None) -> list[DrillRecord]:
        """The answered drills (of one kind or all), oldest first."""
        ...

    def summary(self, last_games: int = 20, weeks: int = 8) -> ProgressSummary:
        """The totals shown by the stats screen and ``minefield stats``."""
        ...

    def close(self) -> None:
        """Close the file (a closed store must not be used again)."""
        ...


class NullProgress:
    """A store that keeps nothing: what callers get when the file cannot be used.

    ``problem`` is the one-line reason to show (None for a store disabled on purpose).
    """

    def __init__(self, path: Path, problem: str | None = None) -> None:
        self.path = path
        self.problem = problem

    def __repr__(self) -> str:
        return f"NullProgress({str(self.path)!r})"

    def record_game(self, game: GameRecord, discards: Sequence[DiscardRecord] = ()) -> int:
        """Keep nothing; 0."""
        return 0

    def record_drill(self, drill: DrillRecord) -> int:
        """Keep nothing; 0."""
        return 0

    def drill_history(self, kind: str | None = None) -> list[DrillRecord]:
        """No history."""
        return []

    def summary(self, last_games: int = 20, weeks: int = 8) -> ProgressSummary:
        """An empty summary."""
        return EMPTY_SUMMARY

    def close(self) -> None:
        """Nothing to close."""


def _reason(error: BaseException) -> str:
    text = str(error).strip().rstrip(".") or type(error).__name__
    if isinstance(error, OSError) and error.strerror:
        text = error.strerror
    return text.splitlines()[0].lower()


def _described(path: Path, error: BaseException) -> ProgressError:
    """The one-line :class:`ProgressError` of a failure on ``path``."""
    reason = _reason(error)
    damaged = ("not a database" in reason or "malformed" in reason or "corrupt" in reason)
    if damaged and not isinstance(error, sqlite3.OperationalError):
        return ProgressError(f"{path}: the progress file is damaged ({reason}); move it away "
                             "to start a new one")
    if "locked" in reason or "busy" in reason:
        return ProgressError(f"{path}: the progress file is in use by another program "
                             f"({reason}); try again when it is closed")
    if "readonly" in reason or "read-only" in reason:
        return ProgressError(f"{path}: the progress file is read-only: progress is not saved")
    return ProgressError(f"{path}: cannot use the progress file: {reason}")


def _check_file(path: Path) -> bool:
    """True when ``path`` exists (a regular file); :class:`ProgressError` for anything else."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return False
    except OSError as error:
        raise _described(path, error) from None
    if stat.S_ISDIR(info.st_mode):
        raise ProgressError(f"{path}: is a folder, not a progress file")
    if not stat.S_ISREG(info.st_mode):
        raise ProgressError(f"{path}: is not a regular file")
    return True


class ProgressStore:
    """An open progress file (see the module docstring). Use :func:`open_progress`.

    One store may be shared by the threads of an app (a worker recording a game while a
    screen reads the summary): its calls take turns.
    """

    def __init__(self, path: Path, *, read_only: bool = False, timeout: float = LOCK_TIMEOUT,
                 now: Callable[[], datetime] = utc_now) -> None:
        """Open (and, unless ``read_only``, create and upgrade) the file at ``path``.

        Raises :class:`ProgressError` (one line) when it cannot be used. A missing file opened
        ``read_only`` raises too: there is nothing to read (:func:`open_progress` says so).
        """
        self.path = path
        self.problem: str | None = None
        self.read_only = read_only
        self._now = now
        self._lock = threading.Lock()  # one connection, shared by the app's threads
        self._empty = False
        exists = _check_file(path)
        if read_only and not exists:
            raise ProgressError(f"{path}: no progress recorded yet")
        try:
            if not read_only:
                ensure_folder(path.parent)
                if not exists:  # create it 0600 before SQLite does (with the umask's mode)
                    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, FILE_MODE))
                elif not os.access(path, os.W_OK):
                    raise ProgressError(f"{path}: the progress file is read-only: progress is "
                                        "not saved")
            uri = path.resolve().as_uri() + ("?mode=ro" if read_only else "?mode=rw")
            self._db = sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None,
                                       check_same_thread=False)
        except ProgressError:
            raise
        except (OSError, sqlite3.Error) as error:
            raise _described(path, error) from None
        try:
            self._db.row_factory = sqlite3.Row
            self._prepare()
        except (sqlite3.Error, ProgressError) as error:
            self._db.close()
            if isinstance(error, ProgressError):
                raise
            raise _described(path, error) from None

    def __repr__(self) -> str:
        return f"ProgressStore({str(self.path)!r})"

    def _prepare(self) -> None:
        db = self._db
        check = str(db.execute("PRAGMA quick_check(1)").fetchone()[0])
        if check != "ok":
            first = (check.replace("*** in database main ***", "").strip().splitlines()
                     or ["quick_check failed"])[0]
            raise ProgressError(f"{self.path}: the progress file is damaged ({first.lower()}); "
                                "move it away to start a new one")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise ProgressError(
                f"{self.path}: written by a newer Minefield (schema {version}, this one knows "
                f"{SCHEMA_VERSION}); it is left unchanged")
        db.execute("PRAGMA foreign_keys = ON")
        if self.read_only:
            # Schema 0 is a file created but never set up (a process stopped at once): empty.
            self._empty = version == 0
            if 0 < version < SCHEMA_VERSION:
                raise ProgressError(f"{self.path}: an older progress file (schema {version}): "
                                    "open it once for writing to upgrade it")
            return
        if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        for number in range(version, SCHEMA_VERSION):
            self._migrate(number)

    def _migrate(self, number: int) -> None:
        """Take the file from schema ``number`` to ``number + 1`` in one transaction."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            if db.execute("PRAGMA user_version").fetchone()[0] != number:
                db.execute("ROLLBACK")  # another process upgraded it meanwhile
                return
            for statement in MIGRATIONS[number].split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {number + 1}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    # -- writes ---------------------------------------------------------------------------------

    def _write(self, action: Callable[[sqlite3.Connection], int]) -> int:
        if self.read_only:
            raise ProgressError(f"{self.path}: opened read-only: progress is not saved")
        db = self._db
        with self._lock:
            try:
                db.execute("BEGIN IMMEDIATE")
                try:
                    result = action(db)
                    db.execute("COMMIT")
                except BaseException:
                    if db.in_transaction:
                        db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as error:
                raise _described(self.path, error) from None
        return result

    def record_game(self, game: GameRecord, discards: Sequence[DiscardRecord] = ()) -> int:
        """Save a finished game and its discards in one transaction; the game's id.

        Raises :class:`ProgressError` when the file refuses the write (nothing is saved then).
        """
        when = _time_text(game.played_at or self._now())

        def write(db: sqlite3.Connection) -> int:
            cursor = db.execute(
                "INSERT INTO games (played_at, mode, seat, result, dealt_in, points, seed) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (when, game.mode, game.seat, game.result, int(game.dealt_in), game.points,
                 game.seed))
            game_id = cursor.lastrowid
            assert game_id is not None
            db.executemany(
                "INSERT INTO discards (game_id, number, tile, danger, least_danger, dealt_in) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, d.number, d.tile, d.danger, d.least_danger, int(d.dealt_in))
                 for d in discards])
            return game_id

        return self._write(write)

    def record_drill(self, drill: DrillRecord) -> int:
        """Save an answered drill; its id. Raises :class:`ProgressError` when refused."""
        when = _time_text(drill.done_at or self._now())

        def write(db: sqlite3.Connection) -> int:
            cursor = db.execute(
                "INSERT INTO drills (done_at, kind, difficulty, position, correct, score, "
                "pattern) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (when, drill.kind, drill.difficulty, drill.position, int(drill.correct),
                 float(drill.score), drill.pattern))
            assert cursor.lastrowid is not None
            return cursor.lastrowid

        return self._write(write)

    # -- reads ----------------------------------------------------------------------------------

    def _rows(self, query: str, parameters: Sequence[Any] = ()) -> list[sqlite3.Row]:
        try:
            with self._lock:
                return self._db.execute(query, parameters).fetchall()
        except sqlite3.Error as error:
            raise _described(self.path, error) from None

    def drill_history(self, kind: str | None = None) -> list[DrillRecord]:
        """The answered drills (of one kind, or all), oldest first."""
        if self._empty:
            return []
        query = "SELECT * FROM drills"
        parameters: tuple[str, ...] = ()
        if kind is not None:
            query += " WHERE kind = ?"
            parameters = (kind,)
        rows = self._rows(query + " ORDER BY id", parameters)
        return [DrillRecord(kind=r["kind"], difficulty=r["difficulty"], position=r["position"],
                            correct=bool(r["correct"]), score=r["score"], pattern=r["pattern"],
                            done_at=_parse_time(r["done_at"]), id=r["id"]) for r in rows]

    def summary(self, last_games: int = 20, weeks: int = 8) -> ProgressSummary:
        """Games, deal-in rate, danger taken against the least possible (overall, over the
        last ``last_games`` games and per week for the last ``weeks`` weeks with games), and
        drill accuracy by kind (overall and per week). Raises :class:`ProgressError` when the
        file cannot be read."""
        if self._empty:
            return EMPTY_SUMMARY
        games = self._rows("SELECT * FROM games ORDER BY played_at, id")
        discards: dict[int, list[sqlite3.Row]] = {}
        for row in self._rows("SELECT * FROM discards ORDER BY game_id, number"):
            discards.setdefault(row["game_id"], []).append(row)
        overall = _defense_stats("all games", games, discards)
        recent_games = games[-last_games:] if last_games > 0 else []
        count = len(recent_games)
        label = "last game" if count == 1 else f"last {count} games"
        recent = _defense_stats(label, recent_games, discards)
        by_week: dict[str, list[sqlite3.Row]] = {}
        for game in games:
            by_week.setdefault(week_of(_parse_time(game["played_at"])), []).append(game)
        week_labels = sorted(by_week)[-weeks:] if weeks > 0 else []
        week_stats = tuple(_defense_stats(w, by_week[w], discards) for w in week_labels)

        drills = self._rows("SELECT * FROM drills ORDER BY id")
        by_kind: dict[str, list[sqlite3.Row]] = {}
        for row in drills:
            by_kind.setdefault(row["kind"], []).append(row)
        drill_stats = tuple(_drill_stats(kind, "all", rows)
                            for kind, rows in sorted(by_kind.items()))
        drill_weeks: list[DrillStats] = []
        for kind, rows in sorted(by_kind.items()):
            kind_weeks: dict[str, list[sqlite3.Row]] = {}
            for row in rows:
                kind_weeks.setdefault(week_of(_parse_time(row["done_at"])), []).append(row)
            labels = sorted(kind_weeks)[-weeks:] if weeks > 0 else []
            drill_weeks.extend(_drill_stats(kind, w, kind_weeks[w]) for w in labels)
        return ProgressSummary(overall, recent, week_stats, drill_stats, tuple(drill_weeks))

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._db.close()


def progress_of_game(game: Game, seat: Seat, mode: str, opponent: Opponent = "strong"
                     ) -> tuple[GameRecord, list[DiscardRecord]]:
    """What :meth:`ProgressStore.record_game` saves for ``seat`` of a finished ``game``: the
    result and points, and each of the seat's discards with the estimated danger it took and
    the least the pool offered then (:func:`minefield.defense.estimate.estimate` against
    ``opponent``, as the practice game's overlay computed it).

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


def open_progress(path: Path | None = None, *, read_only: bool = False,
                  timeout: float = LOCK_TIMEOUT) -> tuple[Progress, str | None]:
    """The progress store at ``path`` (default :func:`progress_path`) and the problem to show.

    Never raises: when the file cannot be used, the store is a :class:`NullProgress` and the
    second value is a one-line reason naming the file. ``read_only`` (``minefield stats``)
    neither creates nor upgrades the file; a missing file then gives an empty
    :class:`NullProgress` and no problem.
    """
    path = path if path is not None else progress_path()
    if read_only:
        try:
            if not _check_file(path):
                return NullProgress(path), None
        except ProgressError as error:
            return NullProgress(path, str(error)), str(error)
    try:
        return ProgressStore(path, read_only=read_only, timeout=timeout), None
    except ProgressError as error:
        return NullProgress(path, str(error)), str(error)


__all__ = [
    "EMPTY_SUMMARY", "FILE_MODE", "MIGRATIONS", "SCHEMA_VERSION",
    "DefenseStats", "DiscardRecord", "DrillRecord", "DrillStats", "GameRecord", "NullProgress",
    "Progress", "ProgressError", "ProgressStore", "ProgressSummary", "open_progress",
    "progress_of_game", "utc_now", "week_of",
]
