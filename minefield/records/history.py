"""The saved games of a folder, newest first (``minefield history``).

Listing reads each record (it does not replay it): date, mode, players, result and points.
A file that cannot be read is listed with its problem; nothing here raises for a bad file.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.table import Table
from rich.text import Text

from minefield.records.format import Players, RecordResult, format_time
from minefield.records.reader import RecordError, read_record
from minefield.records.writer import RECORD_SUFFIX

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

    def to_json(self) -> dict[str, Any]:
        """The entry as ``history --json`` prints it."""
        return {
            "file": str(self.path),
            "started": format_time(self.started) if self.started else None,
            "mode": self.mode,
            "players": self.players.model_dump() if self.players else None,
            "commands": self.commands,
            "result": self.result.model_dump(mode="json") if self.result else None,
            "problems": list(self.problems),
        }


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
                        problems=tuple(str(p) for p in record.problems))


def _modified(path: Path) -> datetime:
    try:
        return datetime.fromtimestamp(path.lstat().st_mtime, UTC)
    except OSError:
        return datetime.min.replace(tzinfo=UTC)


def _name(text: str) -> Text:
    """A player name as plain text: no markup, no control characters, not too long."""
    shown = "".join(c if c.isprintable() else "?" for c in text)
    if len(shown) > _NAME_WIDTH:
        shown = shown[:_NAME_WIDTH - 1] + "…"
    return Text(shown)


def describe_result(entry: HistoryEntry) -> Text:
    """``east won by ron on 5p (discard 23)``, ``draw``, ``unfinished (12 commands)``..."""
    result = entry.result
    if entry.started is None:
        return Text(entry.problems[0] if entry.problems else "unreadable", style="red")
    if result is None:
        text = Text(f"unfinished ({entry.commands} commands)", style="yellow")
    elif result.kind == "draw":
        text = Text("draw")
    else:
        text = Text(f"{result.winner} won by ron on {result.tile} (discard {result.discard})")
    if entry.problems:
        count = len(entry.problems)
        text.append(f"; {count} problem{'s' * (count != 1)}: {entry.problems[0]}", style="red")
    return text


def _points(result: RecordResult | None) -> str:
    if result is None or result.kind == "draw":
        return ""
    limit = f" {result.limit}" if result.limit else ""
    return f"{result.points}{limit}"


def history_table(entries: list[HistoryEntry], folder: Path) -> Table:
    """The entries as a Rich table."""
    table = Table(title=f"Saved games in {folder}", title_justify="left")
    table.add_column("date", no_wrap=True)
    for name in ("mode", "east", "west", "result"):
        table.add_column(name)
    table.add_column("points", justify="right", no_wrap=True)
    table.add_column("file", overflow="fold")
    for entry in entries:
        date = entry.started.astimezone().strftime("%Y-%m-%d %H:%M") if entry.started else ""
        players = entry.players
        table.add_row(date, entry.mode or "", _name(players.east) if players else "",
                      _name(players.west) if players else "", describe_result(entry),
                      _points(entry.result), Text(entry.path.name))
    return table


__all__ = ["HistoryEntry", "describe_result", "history_table", "list_history"]
