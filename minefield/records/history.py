"""The saved games of a folder, newest first (``minefield history``).

Listing reads each record (it does not replay it): date, mode, players, result and points.
A file that cannot be read is listed with its problem; nothing here raises for a bad file.
:func:`group_history` puts the games of one match together as one :class:`MatchEntry`
(players, games played, the scores after the last game, finished or not).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.table import Table
from rich.text import Text

from minefield.records.format import format_time
from minefield.records.header import MatchHeader, Players
from minefield.records.reader import RecordError, read_record
from minefield.records.result import RecordResult
from minefield.records.writer import RECORD_SUFFIX
from minefield.rules.names import HonorNames, name_text

#: The longest player name shown in the table (the JSON has it whole).
_NAME_WIDTH = 24


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One saved game as listed: None fields for a file that could not be read."""

    path: Path
    started: datetime | None
    mode: str | None
    players: Players | None
    commands: int
    result: RecordResult | None
    problems: tuple[str, ...]
    match: MatchHeader | None = None

    def to_json(self) -> dict[str, Any]:
        """The entry as ``history --json`` prints it (a game of a match adds ``"match"``:
        its public id and game number)."""
        data: dict[str, Any] = {
            "file": str(self.path),
            "started": format_time(self.started) if self.started else None,
            "mode": self.mode,
            "players": self.players.model_dump() if self.players else None,
            "commands": self.commands,
            "result": self.result.model_dump(mode="json") if self.result else None,
            "problems": list(self.problems),
        }
        if self.match is not None:
            data["match"] = {"id": self.match.id, "game": self.match.game}
        return data

    def scores_after(self) -> dict[str, int] | None:
        """For a finished game of a match: the scores after it (the header's scores plus the
        payments); None otherwise."""
        if self.match is None or self.result is None or self.result.payments is None:
            return None
        seats = {seat: self.match.players.of(seat) for seat in self.result.payments}
        scores = dict(self.match.scores)
        for seat, amount in self.result.payments.items():
            scores[seats[seat]] = scores.get(seats[seat], 0) + amount
        return scores


@dataclass(frozen=True, slots=True)
class MatchEntry:
    """The games of one match, listed as one entry (from the headers, not replayed).

    ``scores`` are after the last finished game (the start points before any); ``over`` is
    the last result's ``match_over``. ``games`` are the match's records, oldest first.
    """

    id: str
    players: tuple[str, str]
    games: tuple[HistoryEntry, ...]
    scores: dict[str, int]
    over: bool

    @property
    def started(self) -> datetime | None:
        """When the first game was started."""
        return self.games[0].started

    @property
    def mode(self) -> str | None:
        """How the match was played (the first game's mode)."""
        return self.games[0].mode

    @property
    def problems(self) -> tuple[str, ...]:
        """The problems of its records, each with the file's name."""
        return tuple(f"{g.path.name}: {p}" for g in self.games for p in g.problems)

    def to_json(self) -> dict[str, Any]:
        """The entry as ``history --json`` prints it: ``"match"`` (the public id), the
        players, games played, scores, ``over`` and each game's entry under ``"games"``."""
        return {
            "match": self.id,
            "started": format_time(self.started) if self.started else None,
            "mode": self.mode,
            "players": list(self.players),
            "games_played": len(self.games),
            "scores": dict(self.scores),
            "over": self.over,
            "games": [game.to_json() for game in self.games],
            "problems": list(self.problems),
        }


def group_history(entries: list[HistoryEntry]) -> list[HistoryEntry | MatchEntry]:
    """``entries`` with the games of each match put together as one :class:`MatchEntry`,
    placed where its newest game was; single games and unreadable files unchanged."""
    groups: dict[str, list[HistoryEntry]] = {}
    for entry in entries:
        if entry.match is not None:
            groups.setdefault(entry.match.id, []).append(entry)
    grouped: list[HistoryEntry | MatchEntry] = []
    for entry in entries:
        if entry.match is None:
            grouped.append(entry)
        elif groups.get(entry.match.id):
            grouped.append(_match_entry(groups.pop(entry.match.id)))
    return grouped


def _match_entry(games: list[HistoryEntry]) -> MatchEntry:
    games = sorted(games, key=lambda g: (g.match.game if g.match else 0, g.path.name))
    last = games[-1]
    assert last.match is not None
    after = last.scores_after()
    over = bool(last.result is not None and last.result.match_over)
    return MatchEntry(id=last.match.id, players=last.match.match_players, games=tuple(games),
                      scores=after if after is not None else dict(last.match.scores),
                      over=over)


def list_history(folder: Path) -> list[HistoryEntry]:
    """Every ``*.jsonl`` record in ``folder``, newest first. A missing folder has none;
    a folder that cannot be listed raises :class:`RecordError`."""
    try:
        paths = [p for p in folder.iterdir() if p.name.endswith(RECORD_SUFFIX)]
    except FileNotFoundError:
        return []
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        raise RecordError(f"{folder}: cannot list it: {reason}") from None
    entries = [_entry(path) for path in paths]
    entries.sort(key=lambda e: (e.started or _modified(e.path), e.path.name), reverse=True)
    return entries


def _entry(path: Path) -> HistoryEntry:
    try:
        record = read_record(path)
    except RecordError as error:
        return HistoryEntry(path=path, started=None, mode=None, players=None, commands=0,
                            result=None, problems=(str(error).removeprefix(f"{path}: "),))
    header = record.header
    return HistoryEntry(path=path, started=header.started, mode=header.mode,
                        players=header.players, commands=len(record.commands),
                        result=record.result.result if record.result else None,
                        problems=tuple(str(p) for p in record.problems), match=header.match)


def _modified(path: Path) -> datetime:
    try:
        return datetime.fromtimestamp(path.lstat().st_mtime, UTC)
    except OSError:
        return datetime.min.replace(tzinfo=UTC)


def _mode(mode: str | None) -> str:
    """A record's mode in words (``hot-seat`` for ``hotseat``; ``--json`` keeps the record's)."""
    return {"hotseat": "hot-seat"}.get(mode or "", mode or "")


def _name(text: str) -> Text:
    """A player name as plain text: no markup, no control characters, not too long."""
    shown = "".join(c if c.isprintable() else "?" for c in text)
    if len(shown) > _NAME_WIDTH:
        shown = shown[:_NAME_WIDTH - 1] + "…"
    return Text(shown)


def describe_result(entry: HistoryEntry, honors: HonorNames = "numbers",
                    discard: bool = True) -> Text:
    """``east ron 5p, discard 23``, ``draw``, ``unfinished, 12 moves``... (short: one line at 80
    columns; a winning honor called by ``honors``: ``ron Wh``; without ``discard``, a ron's
    discard number is left out: ``east ron 5p``)."""
    result = entry.result
    if entry.started is None:
        return Text(entry.problems[0] if entry.problems else "unreadable", style="red")
    if result is None:
        text = Text(f"unfinished, {entry.commands} moves" if discard else "unfinished",
                    style="yellow")
    elif result.kind == "draw":
        text = Text("draw")
    else:
        tile = name_text(result.tile or "", honors)
        text = Text(f"{result.winner} ron {tile}"
                    + (f", discard {result.discard}" if discard else ""))
    if entry.problems:
        count = len(entry.problems)
        text.append(f"; {count} problem{'s' * (count != 1)}: {entry.problems[0]}", style="red")
    return text


def _points(result: RecordResult | None) -> str:
    if result is None or result.kind == "draw":
        return ""
    return str(result.points)


def describe_match(entry: MatchEntry) -> Text:
    """``match: 5 games`` or ``match unfinished: 2 games`` (the scores are in the points
    column), with the first problem if any."""
    count = len(entry.games)
    games = f"{count} game{'s' * (count != 1)}"
    if entry.over:
        text = Text(f"match: {games}")
    else:
        text = Text(f"match unfinished: {games}", style="yellow")
    if entry.problems:
        problems = len(entry.problems)
        text.append(f"; {problems} problem{'s' * (problems != 1)}: {entry.problems[0]}",
                    style="red")
    return text


def entry_id(entry: HistoryEntry | MatchEntry) -> str:
    """The short id ``replay`` and ``review`` take: a record's random part (``1f2e3d4c`` of
    ``...-practice-1f2e3d4c.jsonl``; the file's name when it has none), a match's first eight
    characters."""
    if isinstance(entry, MatchEntry):
        return entry.id[:8]
    stem = entry.path.name.removesuffix(RECORD_SUFFIX)
    tail = stem.rsplit("-", 1)[-1]
    return tail if len(tail) == 8 and all(c in "0123456789abcdef" for c in tail) else stem


def abandoned(entry: HistoryEntry | MatchEntry) -> bool:
    """True for a readable game left before its first discard (nothing but the hands chosen):
    ``history`` hides it unless ``--all``."""
    return (isinstance(entry, HistoryEntry) and entry.started is not None
            and entry.result is None and entry.commands <= 2 and not entry.problems)


def numbered(entries: list[HistoryEntry | MatchEntry]
             ) -> list[tuple[int, HistoryEntry | MatchEntry]]:
    """Each entry with its number, as ``history`` shows it and ``replay N`` takes it: the
    games shown by default are 1 (the newest), 2, 3... without gaps; the games left before
    their first discard (shown only with ``--all``) come after them, so that no number
    changes with ``--all``. In the order of ``entries``."""
    shown = [entry for entry in entries if not abandoned(entry)]
    number = {id(entry): index for index, entry in enumerate(
        shown + [entry for entry in entries if abandoned(entry)], start=1)}
    return [(number[id(entry)], entry) for entry in entries]


#: The widest the columns other than the result can be, with a space between columns.
_OTHER_COLUMNS = 2 + 8 + 11 + 8 + 12 + 12 + 6 + 7
#: Below this width ``history`` leaves out a ron's discard number, so that the names (a bot's
#: level) and the points stay whole.
WIDE_HISTORY = 100


def history_table(entries: list[HistoryEntry] | list[HistoryEntry | MatchEntry],
                  folder: Path, honors: HonorNames = "numbers", show_all: bool = False,
                  width: int | None = None) -> Table:
    """The entries as a Rich table, one line each (long cells end in ``…``): the number and
    short id to give to ``replay``/``review``, date, mode, players, result and points; a match
    is one line (its players, games and scores). Games left before their first discard are
    left out unless ``show_all`` (then listed last, under the numbers that follow); honors are
    called by ``honors``. In a terminal ``width`` cells wide (None: no limit) the result gets
    what the other columns leave, and narrower than :data:`WIDE_HISTORY` (80 columns) a ron
    leaves out its discard number: names such as ``Bot (strong)`` and the points stay whole."""
    wide = width is None or width >= WIDE_HISTORY
    table = Table(title=f"Saved games in {folder}", title_justify="left", box=None,
                  pad_edge=False, collapse_padding=True, header_style="bold")
    table.add_column("#", justify="right", no_wrap=True, min_width=2)
    table.add_column("id", no_wrap=True, min_width=8)
    table.add_column("date", no_wrap=True, min_width=11)
    table.add_column("mode", no_wrap=True, min_width=8, max_width=8, overflow="ellipsis")
    for name in ("east", "west"):
        table.add_column(name, no_wrap=True, min_width=4, max_width=12, overflow="ellipsis")
    # the result gets what the other columns leave (their widest, and a space between each)
    table.add_column("result", no_wrap=True, overflow="ellipsis",
                     max_width=None if width is None else max(10, width - _OTHER_COLUMNS))
    table.add_column("points", justify="right", no_wrap=True, min_width=6)
    rows = sorted(numbered(list(entries)), key=lambda pair: pair[0])
    for number, entry in rows:
        if abandoned(entry) and not show_all:
            continue
        date = entry.started.astimezone().strftime("%m-%d %H:%M") if entry.started else ""
        if isinstance(entry, MatchEntry):
            first, second = entry.players
            points = " / ".join(str(entry.scores.get(name, 0)) for name in entry.players)
            table.add_row(str(number), entry_id(entry), date, _mode(entry.mode), _name(first),
                          _name(second), describe_match(entry), points)
            continue
        players = entry.players
        table.add_row(str(number), entry_id(entry), date, _mode(entry.mode),
                      _name(players.east) if players else "",
                      _name(players.west) if players else "",
                      describe_result(entry, honors, discard=wide),
                      _points(entry.result))
    return table


__all__ = ["HistoryEntry", "MatchEntry", "abandoned", "describe_match", "describe_result",
           "entry_id", "group_history", "history_table", "list_history", "numbered"]
