"""The ``--jsonl`` loop shared by ``analyze`` and ``bot-hand``: one output line per input line.

Input is read as bytes in bounded pieces, each line decoded by itself, so a huge, blank or
undecodable line costs its own ``{"error": "line N: ..."}`` line and nothing else.
"""

from __future__ import annotations

import gc
import json
import sys
from collections.abc import Callable, Iterator
from typing import BinaryIO, TextIO

from minefield.cli.common import UsageError
from minefield.rules.request import RequestError

MAX_LINE_BYTES = 65536  # a longer --jsonl line is skipped, never held in memory
MAX_ERROR_CHARS = 300  # an error message is cut there, whatever it quotes


def read_batches(stream: BinaryIO, limit: int = MAX_LINE_BYTES) -> Iterator[list[bytes | None]]:
    """The lines of ``stream`` (without their newlines; ``None`` for a line over ``limit``
    bytes), in batches: each batch is the lines that one read completed, so that a batch is
    answered whole before the next read, which may wait for more input.

    Reads are bounded: each is at most ``limit`` bytes (``read1``, which returns what is
    there), the start of an unfinished line is kept only up to ``limit`` bytes, and the rest
    of an over-long line is read and dropped, so memory stays near ``limit`` whatever the
    input.
    """
    read = getattr(stream, "read1", stream.read)
    pending = b""  # the start of a line whose newline has not been read yet
    skipping = False  # inside a line already known to be over-long
    while True:
        chunk = read(limit)
        if not chunk:
            if skipping:
                yield [None]
            elif pending:
                yield [pending]  # the last line, with no newline after it
            return
        pieces = chunk.split(b"\n")
        rest = pieces.pop()  # after the chunk's last newline: a line not finished yet
        batch: list[bytes | None] = []
        for piece in pieces:
            if skipping:
                batch.append(None)
                skipping = False
                continue
            if pending:
                piece, pending = pending + piece, b""
            batch.append(piece if len(piece) <= limit else None)
        if not skipping:
            pending += rest
            if len(pending) > limit:
                pending, skipping = b"", True
        if batch:
            yield batch


def read_lines(stream: BinaryIO, limit: int = MAX_LINE_BYTES) -> Iterator[bytes | None]:
    """Each line of ``stream``, without its newline; ``None`` for a line over ``limit`` bytes
    (:func:`read_batches`, one line at a time)."""
    for batch in read_batches(stream, limit):
        yield from batch


def answer_jsonl_line(answer: Callable[[str], str], number: int, line: bytes | None) -> str:
    """The one output line for input line ``number`` (``None``: it was over-long).

    ``answer`` gets the decoded line and returns the result's JSON, or raises
    :class:`RequestError`; any problem becomes ``{"error": "line N: ..."}``.
    """
    if line is None:
        return _error_line(number, f"longer than {MAX_LINE_BYTES} bytes")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        return _error_line(number, f"not valid UTF-8 (byte 0x{line[error.start]:02x} at "
                                   f"position {error.start + 1})")
    if number == 1:
        text = text.removeprefix("\ufeff")  # a byte order mark some editors write
    if not text.strip():
        return _error_line(number, "empty line")
    try:
        return answer(text)
    except RequestError as error:
        return _error_line(number, str(error))
    except Exception as error:  # a bug must cost one line, not the rest of the stream
        return _error_line(number, f"internal error ({type(error).__name__}), please report "
                                   "this request")


def _error_line(number: int, message: str) -> str:
    if len(message) > MAX_ERROR_CHARS:
        message = message[:MAX_ERROR_CHARS] + "…"
    return json.dumps({"error": f"line {number}: {message}"})


def serve_jsonl(answer: Callable[[str], str], stdin: BinaryIO | None = None,
                stdout: TextIO | None = None, freeze: bool | None = None) -> int:
    """Answer every line of ``stdin`` with exactly one line on ``stdout``, in order.

    This is the loop of the ``--jsonl`` modes (default streams: the process's stdin, read as
    bytes, and stdout). Each line is decoded as UTF-8 by itself and answered by
    :func:`answer_jsonl_line`; a blank, over-long or undecodable line gets its own error line,
    so output line N always answers input line N. The answers to the lines one read brought
    (:func:`read_batches`) are written together and flushed before the next read, so a program
    that sends a request and waits gets its answer at once, and one that sends thousands does
    not pay a write per line. With ``freeze`` (default: when reading the process's own
    stdin, as the commands do), whatever outlives each batch is frozen (``gc.freeze``), as
    explained in the loop.
    """
    if freeze is None:
        freeze = stdin is None and sys.stdin is sys.__stdin__
    if stdin is None:
        stdin = getattr(sys.stdin, "buffer", None)
        if stdin is None:
            raise UsageError("--jsonl reads requests from stdin, and there is none")
    sink = sys.stdout if stdout is None else stdout
    if freeze:
        gc.freeze()  # what the imports made, for good too
    number = 0
    for batch in read_batches(stdin):
        answers = []
        for line in batch:
            number += 1
            answers.append(answer_jsonl_line(answer, number, line))
        answers.append("")
        sink.write("\n".join(answers))
        sink.flush()
        if freeze:
            # In a process of its own, what outlives a batch is what the tables learnt (suit
            # shapes, contexts...), kept for the process's life: frozen, the cyclic collector
            # no longer walks it at each full collection and at exit (a third of the time of
            # 10,000 analyze lines). Requests leave no cyclic garbage to freeze (tested).
            gc.freeze()
    return 0
