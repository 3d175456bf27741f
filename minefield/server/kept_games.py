"""Games kept, by id: the daemon's index of its finished network games, in SQLite.

Every finished network game's record stays in the daemon's records folder under its game id
(``games/finished/ID.jsonl``, or ``games/ID.jsonl`` for a match still going on). This index
(one table, ``kept_games``, in the club's SQLite file, WAL) says for each game what the
``games`` command lists and what a profile (:mod:`~minefield.server.profiles`) counts: when it
ended, its rules, its players, its result and the points paid, whether it was rated, and the
kind of table it was played at, which decides who may look it up (:data:`~minefield.records.
format.PUBLIC_KINDS`: every player; otherwise only its two players).

Everything in the index comes from the records (:func:`kept_from_record`), so it can be
rebuilt from them at any time (:meth:`KeptGames.rebuild`, ``minefield ssh-server
rebuild-stats``); the daemon, the one writer, adds a game as it ends (:meth:`KeptGames.keep`)
and, when it starts, every finished record not yet in the index (:meth:`KeptGames.scan`).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

from minefield.bots.base import bot_level
from minefield.files import UnusableFileError, read_bounded
from minefield.records.format import format_time
from minefield.records.header import PUBLIC_KINDS, RecordHeader, TableKind
from minefield.records.reader import MAX_RECORD_BYTES, ReadRecord, RecordError, read_record
from minefield.records.writer import RECORD_SUFFIX
from minefield.rules.game import Seat
from minefield.rules.settings import chosen_rules, without_clocks
from minefield.server.durable import FINISHED_FOLDER
from minefield.server.identity import display_name

#: How a game ended, for the winner's seat or a draw.
Outcome = Literal["east", "west", "draw"]
_SCHEMA = """
CREATE TABLE IF NOT EXISTS kept_games (
    game TEXT PRIMARY KEY,
    ended TEXT NOT NULL,       -- ISO 8601 UTC: the time of the game's last move
    rules TEXT NOT NULL,
    east TEXT NOT NULL,        -- the players as the record names them (identity keys, bots)
    west TEXT NOT NULL,
    east_folded TEXT NOT NULL,
    west_folded TEXT NOT NULL,
    result TEXT NOT NULL,      -- east, west or draw
    points INTEGER NOT NULL,   -- what the winner was paid (0 for a draw)
    rated INTEGER NOT NULL,
    kind TEXT NOT NULL,        -- the kind of table (visibility)
    tournament TEXT,
    bot INTEGER NOT NULL,      -- a seat held by the server's bot
    east_furiten INTEGER NOT NULL,  -- furiten at the end (R15)
    west_furiten INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS kept_by_end ON kept_games (ended, game);
CREATE INDEX IF NOT EXISTS kept_by_east ON kept_games (east_folded, ended);
CREATE INDEX IF NOT EXISTS kept_by_west ON kept_games (west_folded, ended);
"""
_COLUMNS = ("game", "ended", "rules", "east", "west", "result", "points", "rated", "kind",
            "tournament", "bot", "east_furiten", "west_furiten")
_T = TypeVar("_T")
#: The most games one ``games`` answer lists.
MAX_LIMIT = 10_000


@dataclass(frozen=True, slots=True)
class KeptGame:
    """One finished network game as the index keeps it (see the module)."""

    game: str
    ended: str
    rules: str
    east: str
    west: str
    result: Outcome
    points: int
    rated: bool
    kind: TableKind
    tournament: str | None
    bot: bool
    east_furiten: bool
    west_furiten: bool

    def player(self, seat: Seat) -> str:
        """The record name of the player in ``seat``."""
        return self.east if seat is Seat.EAST else self.west

    def seat_of(self, keys: Collection[str]) -> Seat | None:
        """The seat of a player whose folded record names are ``keys``, or None."""
        for seat in Seat:
            if self.player(seat).casefold() in keys:
                return seat
        return None

    @property
    def public(self) -> bool:
        """True when every player of the server may look the game up."""
        return self.kind in PUBLIC_KINDS

    def visible_to(self, keys: Collection[str]) -> bool:
        """True when the player whose folded record names are ``keys`` may look it up."""
        return self.public or self.seat_of(keys) is not None

    def to_json(self) -> dict[str, Any]:
        """The ``games --json`` entry: the players by the names they had then."""
        return {"game": self.game, "ended": self.ended, "rules": self.rules,
                "east": display_name(self.east), "west": display_name(self.west),
                "result": self.result, "points": self.points, "rated": self.rated,
                "tournament": self.tournament}

    def _row(self) -> tuple[Any, ...]:
        return (self.game, self.ended, self.rules, self.east, self.west, self.east.casefold(),
                self.west.casefold(), self.result, self.points, int(self.rated), self.kind,
                self.tournament, int(self.bot), int(self.east_furiten),
                int(self.west_furiten))


def rules_name(header: RecordHeader) -> str:
    """The rules of a game as ``host`` would ask for them: the preset chosen (the header's
    ``preset``; a record older than it: the nearest preset, a match's for a game of a match)
    and the settings changed over it, clocks left out.

    >>> from minefield.records.header import Players
    >>> from minefield.rules.game import Game
    >>> from minefield.rules.settings import RuleSettings
    >>> game = Game(seed=1, settings=RuleSettings.chosen("beginner", ["red_fives=on"]))
    >>> rules_name(RecordHeader.for_game(game, "network", Players(east="a", west="b")))
    'beginner red_fives=on'
    """
    return str(chosen_rules(without_clocks(header.rules), header.preset,
                            match=header.match is not None))


def kept_from_record(game: str, record: ReadRecord) -> KeptGame | None:
    """The index's entry for the record of ``game``; None when it is not a finished network
    game (a local game's record, a game abandoned without a result, no move made). A record
    written before tables had a kind is a private table's, or a bot game's (a bot's name in
    a seat)."""
    header = record.header
    if header.mode != "network" or record.result is None or not record.commands:
        return None
    result = record.result.result
    winner = result.winner
    points = result.points
    if winner is not None and result.payments is not None:
        points = result.payments[winner]  # a match's game: sticks included (R32)
    table = header.table
    players = header.players
    bot = any(bot_level(players.of(seat)) is not None for seat in Seat)
    kind: TableKind = table.kind if table is not None else "bot" if bot else "private"
    return KeptGame(
        game=game, ended=format_time(record.commands[-1].at), rules=rules_name(header),
        east=players.east, west=players.west,
        result=winner.value if winner is not None else "draw",
        points=points if winner is not None else 0,
        rated=table.rated if table is not None else not bot, kind=kind,
        tournament=table.tournament if table is not None else None, bot=bot,
        east_furiten=result.furiten.east is not None,
        west_furiten=result.furiten.west is not None)


class KeptGames:
    """The index of kept games in the SQLite file at ``path``, over the records in
    ``games_dir`` (the daemon's ``games/``). Each thread gets a connection of its own (the
    daemon keeps games in its record threads, the front door reads in its own)."""

    def __init__(self, path: Path | str, games_dir: Path) -> None:
        self.path = path
        self.games_dir = games_dir
        self._local = threading.local()
        self.db.executescript(_SCHEMA)

    @property
    def db(self) -> sqlite3.Connection:
        """This thread's connection."""
        found: sqlite3.Connection | None = getattr(self._local, "db", None)
        if found is None:
            found = sqlite3.connect(str(self.path), isolation_level=None,
                                    check_same_thread=False)
            found.execute("PRAGMA journal_mode=WAL")
            found.execute("PRAGMA synchronous=NORMAL")
            found.execute("PRAGMA busy_timeout=5000")
            self._local.db = found
        return found

    def close(self) -> None:
        """Close this thread's connection."""
        found: sqlite3.Connection | None = getattr(self._local, "db", None)
        if found is not None:
            found.close()
            self._local.db = None

    # -- the records -------------------------------------------------------------------------

    def record_path(self, game: str) -> Path | None:
        """The record of ``game`` (among the finished ones, or a match's still going on), or
        None when there is none."""
        name = f"{game}{RECORD_SUFFIX}"
        if "/" in game or game.startswith("."):
            return None
        for path in (self.games_dir / FINISHED_FOLDER / name, self.games_dir / name,
                     self.games_dir / FINISHED_FOLDER / name):  # moved meanwhile
            if path.is_file():
                return path
        return None

    def read_text(self, game: str) -> str:
        """The text of ``game``'s record (JSON lines); :class:`RecordError` when it cannot
        be read."""
        try:
            data = self._read_found(game, lambda path: read_bounded(path, MAX_RECORD_BYTES))
            text = None if data is None else data.decode("utf-8")
        except (OSError, UnicodeDecodeError, UnusableFileError):
            raise RecordError(f"{game}: its record cannot be read") from None
        if text is None:
            raise RecordError(f"{game}: no record")
        return text

    def _read(self, game: str) -> KeptGame | None:
        try:
            record = self._read_found(game, read_record)
        except RecordError:  # there, and not a readable record: no kept game
            return None
        return None if record is None else kept_from_record(game, record)

    def _read_found(self, game: str, read: Callable[[Path], _T]) -> _T | None:
        """``read`` of ``game``'s record, None when there is none. The room moves a finished
        series' records to finished/ in a thread of its own, as the game is kept or its record
        asked for: a record found in one folder may be gone from it when read, and is looked
        for again (it is in the other folder then). What ``read`` raises for a record that is
        there is raised."""
        for _ in range(3):
            path = self.record_path(game)
            if path is None:
                return None
            try:
                return read(path)
            except (OSError, RecordError):
                if path.exists():
                    raise
        return None

    def keep(self, game: str) -> KeptGame | None:
        """Add (or bring up to date) ``game`` from its record, as it has just ended; its
        entry, or None when its record is not a finished network game."""
        kept = self._read(game)
        if kept is not None:
            self.put([kept])
        return kept

    def put(self, games: Collection[KeptGame]) -> None:
        """Store ``games`` (an entry of the same id is replaced), in one transaction."""
        marks = ", ".join("?" * (len(_COLUMNS) + 2))
        with self.db as db:
            db.execute("BEGIN IMMEDIATE")
            db.executemany(f"INSERT OR REPLACE INTO kept_games VALUES ({marks})",
                           [kept._row() for kept in games])

    def _record_ids(self) -> list[str]:
        ids: set[str] = set()
        for folder in (self.games_dir, self.games_dir / FINISHED_FOLDER):
            try:
                ids.update(path.name.removesuffix(RECORD_SUFFIX)
                           for path in folder.glob(f"*{RECORD_SUFFIX}"))
            except OSError:
                continue
        return sorted(ids)

    def scan(self, batch: int = 500) -> int:
        """Add every finished game whose record is not in the index yet (the daemon, as it
        starts: games that ended while it was down or before the index existed); how many
        were added."""
        known = {game for (game,) in self.db.execute("SELECT game FROM kept_games")}
        added: list[KeptGame] = []
        count = 0
        for game in self._record_ids():
            if game in known:
                continue
            kept = self._read(game)
            if kept is not None:
                added.append(kept)
            if len(added) >= batch:
                self.put(added)
                count += len(added)
                added = []
        self.put(added)
        return count + len(added)

    def rebuild(self) -> int:
        """Forget the index and make it again from the records; how many games it holds."""
        with self.db as db:
            db.execute("BEGIN IMMEDIATE")
            db.execute("DELETE FROM kept_games")
        return self.scan()

    # -- questions ---------------------------------------------------------------------------

    def _rows(self, sql: str, args: tuple[Any, ...]) -> Iterator[KeptGame]:
        columns = ", ".join(_COLUMNS)
        for row in self.db.execute(f"SELECT {columns} FROM kept_games {sql}", args):
            yield KeptGame(game=row[0], ended=row[1], rules=row[2], east=row[3], west=row[4],
                           result=row[5], points=row[6], rated=bool(row[7]), kind=row[8],
                           tournament=row[9], bot=bool(row[10]), east_furiten=bool(row[11]),
                           west_furiten=bool(row[12]))

    def find(self, game: str) -> KeptGame | None:
        """The entry of ``game``, or None."""
        return next(self._rows("WHERE game = ?", (game,)), None)

    def count(self) -> int:
        """How many games the index holds."""
        return int(self.db.execute("SELECT count(*) FROM kept_games").fetchone()[0])

    def listed(self, viewer: Collection[str] | None, player: Collection[str] | None = None,
               limit: int = 50) -> list[KeptGame]:
        """The finished games ``viewer`` may see (their folded record names; None: every
        game, as an admin sees them), newest first, at most ``limit``; with ``player`` (a
        player's folded record names), only that player's games."""
        where: list[str] = []
        args: list[Any] = []
        if player is not None:
            names = sorted(player)
            marks = ", ".join("?" * len(names))
            where.append(f"(east_folded IN ({marks}) OR west_folded IN ({marks}))")
            args += names + names
        if viewer is not None:
            names = sorted(viewer)
            marks = ", ".join("?" * len(names))
            kinds = sorted(PUBLIC_KINDS)
            where.append(f"(kind IN ({', '.join('?' * len(kinds))}) OR east_folded IN "
                         f"({marks}) OR west_folded IN ({marks}))")
            args += kinds + names + names
        sql = f"WHERE {' AND '.join(where)} " if where else ""
        return list(self._rows(f"{sql}ORDER BY ended DESC, game DESC LIMIT ?",
                               (*args, max(0, min(limit, MAX_LIMIT)))))

    def of_player(self, player: Collection[str]) -> list[KeptGame]:
        """Every game of the player whose folded record names are ``player``, oldest first
        (what a profile counts)."""
        names = sorted(player)
        if not names:
            return []
        marks = ", ".join("?" * len(names))
        return list(self._rows(f"WHERE east_folded IN ({marks}) OR west_folded IN ({marks}) "
                               "ORDER BY ended, game", (*names, *names)))


__all__ = ["MAX_LIMIT", "KeptGame", "KeptGames", "Outcome", "kept_from_record", "rules_name"]
