"""Reading records tolerantly: every good line is kept, every bad one is reported by number.

A record is written line by line and fsynced, so a crash leaves at worst a half-written last
line: it is reported and ignored. A corrupt line in the middle (a disk error, a hand edit) is
reported and skipped; the lines around it are kept. Only a file that is not a record at all (no
valid header on line 1, not a regular file, not readable, too large) raises
:class:`RecordError`, whose message names the file and, for the header, line 1.

>>> from minefield.records.format import dump_line
>>> from minefield.records.header import Players, RecordHeader
>>> from minefield.rules.game import Game
>>> header = dump_line(RecordHeader.for_game(Game(seed=7), "hotseat",
...                                          Players(east="Ann", west="Bob")))
>>> record = parse_record(header + b'{"seq": 1, "seat": "east"}\\n{"seq": 1, "se', "demo")
>>> for problem in record.problems:
...     print(problem)
line 2: bad command line (field 'command': Field required; field 'at': Field required): skipped
line 3: half-written (no newline at its end): ignored
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import from_json

from minefield.errors import MinefieldError
from minefield.files import UnusableFileError, read_bounded
from minefield.records.format import MAX_LINE_BYTES, CommandLine
from minefield.records.header import RECORD_NAME, RECORD_VERSION, RecordHeader
from minefield.records.result import ResultLine
from minefield.rules.settings import describe_validation_error

#: The largest file read as a record (a whole game is under 10 KiB).
MAX_RECORD_BYTES = 1024 * 1024
_BOM = b"\xef\xbb\xbf"


class RecordError(MinefieldError):
    """A file that cannot be read as a record; the message names the file (and the line)."""


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong with one line of a record, which was skipped."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass(frozen=True, slots=True)
class ReadRecord:
    """What a record holds: its header, good command lines, result (if any) and problems.

    ``command_lines`` gives the line number of each command. ``complete_size`` is the number
    of bytes up to and including the last newline (what a resumed writer keeps).
    """

    name: str
    header: RecordHeader
    commands: tuple[CommandLine, ...]
    command_lines: tuple[int, ...]
    result: ResultLine | None
    result_line: int | None
    problems: tuple[Problem, ...]
    complete_size: int

    @property
    def ended(self) -> bool:
        """True when the record has its result line."""
        return self.result is not None

    def __repr__(self) -> str:
        return (f"ReadRecord({self.name!r}, commands={len(self.commands)}, "
                f"ended={self.ended}, problems={len(self.problems)}, <seed and tiles hidden>)")


def read_record(path: Path | str) -> ReadRecord:
    """Read the record at ``path``; :class:`RecordError` if it is not a readable record."""
    name = str(path)
    return parse_record(_read_file(Path(path), name), name)


def _read_file(path: Path, name: str) -> bytes:
    """The bytes of a regular file of at most ``MAX_RECORD_BYTES``, or :class:`RecordError`
    (:func:`minefield.files.read_bounded`: a FIFO or a device is never opened)."""
    try:
        return read_bounded(path, MAX_RECORD_BYTES)
    except UnusableFileError as error:
        problem = {"directory": "is a directory, not a record",
                   "special": "not a regular file (a FIFO, socket or device), not a record",
                   "too large": f"larger than {MAX_RECORD_BYTES // 1024} KiB: not a record"}
        raise RecordError(f"{name}: {problem[error.kind]}") from None
    except OSError as error:
        reason = error.strerror or str(error)
        raise RecordError(f"{name}: cannot read it: {reason.lower()}") from None


def parse_record(data: bytes, name: str) -> ReadRecord:
    """Parse a record's bytes (``name`` is used in messages only)."""
    lines = data.split(b"\n")
    tail = lines.pop()  # what follows the last newline: b"" for a complete file
    if not lines:
        raise RecordError(f"{name}: line 1: " + (
            "the header is half-written (no newline at its end)" if tail.strip()
            else "the file is empty: no header"))
    header = _parse_header(lines[0], name)
    reader = _Body()
    for number, raw in enumerate(lines[1:], start=2):
        reader.take(number, raw)
    if tail:
        reader.problems.append(Problem(len(lines) + 1,
                                       "half-written (no newline at its end): ignored"))
    return ReadRecord(
        name=name, header=header, commands=tuple(reader.commands),
        command_lines=tuple(reader.command_lines), result=reader.result,
        result_line=reader.result_line, problems=tuple(reader.problems),
        complete_size=len(data) - len(tail))


def _parse_header(raw: bytes, name: str) -> RecordHeader:
    where = f"{name}: line 1"
    try:
        data = _json_object(raw.removeprefix(_BOM))
    except ValueError as error:
        raise RecordError(f"{where}: not a Minefield record header: {error}") from None
    if data.get("record") != RECORD_NAME:
        raise RecordError(f'{where}: not a Minefield record header (no "record": "minefield")')
    if data.get("version") != RECORD_VERSION:
        raise RecordError(f"{where}: record version {str(data.get('version'))[:20]} is not one "
                          f"this Minefield reads (version {RECORD_VERSION})")
    try:
        return RecordHeader.model_validate(data)
    except ValidationError as error:
        message = describe_validation_error(error, "header field")
        raise RecordError(f"{where}: bad header: {message}") from None


def _json_object(raw: bytes) -> dict[str, Any]:
    """One line as a JSON object; ValueError saying what is wrong."""
    if len(raw) > MAX_LINE_BYTES:
        raise ValueError(f"longer than {MAX_LINE_BYTES // 1024} KiB")
    raw = raw.removesuffix(b"\r")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    if not text.strip():
        raise ValueError("blank")
    try:
        data = from_json(text)
    except ValueError as error:
        raise ValueError(f"not JSON ({error})") from None
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    return data


class _Body:
    """The lines after the header, taken one by one."""

    def __init__(self) -> None:
        self.commands: list[CommandLine] = []
        self.command_lines: list[int] = []
        self.result: ResultLine | None = None
        self.result_line: int | None = None
        self.problems: list[Problem] = []

    def take(self, number: int, raw: bytes) -> None:
        """Keep line ``number`` if it is good, else note the problem."""
        try:
            data = _json_object(raw)
        except ValueError as error:
            self.problems.append(Problem(number, f"{error}: skipped"))
            return
        if self.result is not None:
            self.problems.append(Problem(number, f"after the result line {self.result_line}: "
                                         "ignored"))
            return
        if "seq" in data:
            command = self._validate(number, CommandLine, data, "command line")
            if isinstance(command, CommandLine):
                self._command(number, command)
        elif "result" in data:
            result = self._validate(number, ResultLine, data, "result line")
            if isinstance(result, ResultLine):
                self.result, self.result_line = result, number
        elif "record" in data:
            self.problems.append(Problem(number, "a second header: skipped"))
        else:
            self.problems.append(Problem(number, "neither a command nor a result: skipped"))

    def _validate(self, number: int, model: type[BaseModel], data: dict[str, Any], what: str
                  ) -> BaseModel | None:
        try:
            return model.model_validate(data)
        except ValidationError as error:
            message = describe_validation_error(error, "field")
            self.problems.append(Problem(number, f"bad {what} ({message}): skipped"))
            return None

    def _command(self, number: int, command: CommandLine) -> None:
        last = self.commands[-1].seq if self.commands else 0
        if command.seq <= last:
            self.problems.append(Problem(number, f"seq {command.seq} does not follow seq {last}:"
                                         " skipped"))
            return
        if command.seq != last + 1:
            missing = (f"command {last + 1} is" if command.seq == last + 2
                       else f"commands {last + 1}-{command.seq - 1} are")
            self.problems.append(Problem(number, f"seq jumps from {last} to {command.seq}: "
                                         f"{missing} missing"))
        self.commands.append(command)
        self.command_lines.append(number)


__all__ = ["MAX_RECORD_BYTES", "Problem", "ReadRecord", "RecordError", "parse_record",
           "read_record"]
