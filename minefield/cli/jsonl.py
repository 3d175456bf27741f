"""The ``--jsonl`` loop shared by ``analyze`` and ``bot-hand``: one output line per input line.

Input is read as bytes in bounded pieces, each line decoded by itself, so a huge, blank or
undecodable line costs its own ``{"error": "line N: ..."}`` line and nothing else.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from typing import BinaryIO, TextIO

from minefield.analyzer import RequestError
from minefield.cli.common import UsageError

MAX_LINE_BYTES = 65536  # a longer --jsonl line is skipped, never held in memory
MAX_ERROR_CHARS = 300  # an error message is cut there, whatever it quotes


def read_lines(stream: BinaryIO, limit: int = MAX_LINE_BYTES) -> Iterator[bytes | None]:
    """Each line of ``stream``, without its newline; ``None`` for a line over ``limit`` bytes.

    Reads are bounded: an over-long line is read to its end in pieces of at most ``limit``
    bytes and none of it is kept, so memory stays near ``limit`` whatever the input.
    """
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if line.endswith(b"\n"):
            yield line[:-1]
        elif len(line) <= limit:
            yield line  # the last line, with no newline after it
        else:
            while line and not line.endswith(b"\n"):
                line = stream.readline(limit)
            yield None


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
                stdout: TextIO | None = None) -> int:
    """Answer every line of ``stdin`` with exactly one line on ``stdout``, in order.

    This is the loop of the ``--jsonl`` modes (default streams: the process's stdin, read as
    bytes, and stdout). Each line is decoded as UTF-8 by itself and answered by
    :func:`answer_jsonl_line`; a blank, over-long or undecodable line gets its own error line,
    so output line N always answers input line N. Each output line is flushed as written.
    """
    if stdin is None:
        stdin = getattr(sys.stdin, "buffer", None)
        if stdin is None:
            raise UsageError("--jsonl reads requests from stdin, and there is none")
    sink = sys.stdout if stdout is None else stdout
    for number, line in enumerate(read_lines(stdin), start=1):
        sink.write(answer_jsonl_line(answer, number, line) + "\n")
        sink.flush()
    return 0
