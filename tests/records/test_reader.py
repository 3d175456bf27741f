"""The tolerant reader: good lines kept, bad ones reported by number, bad files refused."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from minefield.records.format import MAX_LINE_BYTES
from minefield.records.reader import MAX_RECORD_BYTES, RecordError, parse_record, read_record
from tests.records.conftest import DRAW_SEED, RON_SEED, played, record_of


def _lines(tmp_path: Path, seed: int = DRAW_SEED) -> list[bytes]:
    """The lines of a whole record (with their newlines)."""
    return record_of(played(seed), tmp_path).read_bytes().splitlines(keepends=True)


def _write(tmp_path: Path, lines: list[bytes], name: str = "edited.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(b"".join(lines))
    return path


def test_half_written_last_line_is_reported_and_ignored(tmp_path: Path) -> None:
    """A crash while writing leaves part of a line without its newline."""
    lines = _lines(tmp_path)
    cut = [*lines[:10], lines[10][:25]]
    record = read_record(_write(tmp_path, cut))
    assert [c.seq for c in record.commands] == list(range(1, 10))
    assert [(p.line, p.message) for p in record.problems] == [
        (11, "half-written (no newline at its end): ignored")]
    assert record.result is None
    assert record.complete_size == len(b"".join(lines[:10]))


def test_whole_json_without_a_newline_is_still_half_written(tmp_path: Path) -> None:
    """The writer always ends a line with its newline: a line without one is not trusted."""
    lines = _lines(tmp_path)
    record = read_record(_write(tmp_path, [*lines[:-1], lines[-1].rstrip(b"\n")]))
    assert record.result is None and len(record.commands) == len(lines) - 2
    assert [p.line for p in record.problems] == [len(lines)]


def test_corrupt_middle_line_is_skipped_and_the_others_kept(tmp_path: Path) -> None:
    lines = _lines(tmp_path)
    lines[5] = b'{"seq": 5, "seat": "west", "comm\xff\n'
    lines[12] = b'{"seq": 12, "seat": "east", "command": {"type": "discard", "tile": "8x"}, ' \
                b'"at": "2025-03-01T12:00:13.000Z"}\n'
    record = read_record(_write(tmp_path, lines))
    seqs = [c.seq for c in record.commands]
    assert seqs == [s for s in range(1, 37) if s not in (5, 12)]
    assert record.result is not None and record.result_line == 38
    assert [p.line for p in record.problems] == [6, 7, 13, 14]
    messages = [p.message for p in record.problems]
    assert messages[0] == "not UTF-8 text: skipped"
    assert messages[1] == "seq jumps from 4 to 6: command 5 is missing"
    assert messages[2].startswith("bad command line (field 'command.discard.tile'")
    assert str(record.problems[3]) == "line 14: seq jumps from 11 to 13: command 12 is missing"


@pytest.mark.parametrize(("line", "message"), [
    (b"\n", "blank: skipped"),
    (b"not json\n", "not JSON"),
    (b"[1, 2]\n", "not a JSON object: skipped"),
    (b'{"hello": 1}\n', "neither a command nor a result: skipped"),
    (b'{"record": "minefield"}\n', "a second header: skipped"),
    (b"[" * 5000 + b"\n", "not JSON"),
    (b'{"seq": 1, "x": "' + b"a" * MAX_LINE_BYTES + b'"}\n', "longer than 64 KiB: skipped"),
])
def test_bad_lines(tmp_path: Path, line: bytes, message: str) -> None:
    lines = _lines(tmp_path)
    record = read_record(_write(tmp_path, [*lines[:3], line, *lines[3:]]))
    assert len(record.commands) == len(lines) - 2 and record.result is not None
    assert len(record.problems) == 1
    assert record.problems[0].line == 4 and message in record.problems[0].message


def test_repeated_command_and_lines_after_the_result(tmp_path: Path) -> None:
    lines = _lines(tmp_path, RON_SEED)
    edited = [*lines[:4], lines[2], *lines[4:], lines[3]]
    record = read_record(_write(tmp_path, edited))
    assert [c.seq for c in record.commands] == list(range(1, len(lines) - 1))
    assert [str(p) for p in record.problems] == [
        "line 5: seq 2 does not follow seq 3: skipped",
        f"line {len(edited)}: after the result line {len(edited) - 1}: ignored"]


def test_bom_and_crlf_are_accepted(tmp_path: Path) -> None:
    lines = [line.replace(b"\n", b"\r\n") for line in _lines(tmp_path)]
    record = read_record(_write(tmp_path, [b"\xef\xbb\xbf" + lines[0], *lines[1:]]))
    assert record.problems == () and record.result is not None


@pytest.mark.parametrize(("content", "message"), [
    (b"", "line 1: the file is empty: no header"),
    (b'{"record": "minefield", "vers', "line 1: the header is half-written"),
    (b"\xff\xfe\n", "line 1: not a Minefield record header: not UTF-8 text"),
    (b"hello\n", "line 1: not a Minefield record header: not JSON"),
    (b'{"record": "chess"}\n', 'line 1: not a Minefield record header (no "record"'),
    (b'{"record": "minefield", "version": 2}\n', "line 1: record version 2 is not one"),
    (b'{"record": "minefield", "version": 1, "seed": "x"}\n', "line 1: bad header: "),
])
def test_bad_header_is_a_clear_error(tmp_path: Path, content: bytes, message: str) -> None:
    path = _write(tmp_path, [content], "bad.jsonl")
    with pytest.raises(RecordError) as caught:
        read_record(path)
    assert str(caught.value).startswith(f"{path}: {message}")
    assert "\n" not in str(caught.value)


def test_a_bad_header_is_an_error_even_when_the_rest_is_good(tmp_path: Path) -> None:
    lines = _lines(tmp_path)
    header = json.loads(lines[0])
    header["rules"]["minimum"] = "baiman"
    with pytest.raises(RecordError, match=r"line 1: bad header: header field 'rules.minimum'"):
        read_record(_write(tmp_path, [json.dumps(header).encode() + b"\n", *lines[1:]]))


def test_files_that_are_not_records(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="is a directory"):
        read_record(tmp_path)
    with pytest.raises(RecordError, match="cannot read it: no such file"):
        read_record(tmp_path / "missing.jsonl")
    big = tmp_path / "big.jsonl"
    big.write_bytes(b"x" * (MAX_RECORD_BYTES + 1))
    with pytest.raises(RecordError, match="larger than 1024 KiB"):
        read_record(big)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_unopened(tmp_path: Path) -> None:
    """Opening a FIFO would block until a writer comes: it is refused before."""
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(RecordError, match="not a regular file"):
        read_record(fifo)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads anything")
def test_an_unreadable_file(tmp_path: Path) -> None:
    path = _write(tmp_path, _lines(tmp_path))
    path.chmod(0)
    with pytest.raises(RecordError, match="cannot read it: permission denied"):
        read_record(path)


def test_header_only_is_a_record(tmp_path: Path) -> None:
    """A record of a game not yet begun: no commands, no result, nothing wrong."""
    record = parse_record(_lines(tmp_path)[0], "header only")
    assert (record.commands, record.result, record.problems) == ((), None, ())
    assert not record.ended
