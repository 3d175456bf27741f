"""Fuzzing the ``--jsonl`` modes of ``analyze`` and ``bot-hand`` (one loop: ``serve_jsonl``).

Whatever arrives on stdin (random bytes, random JSON, requests with random field values, huge
lines), every input line gets exactly one output line, each a JSON object, in order; a bad
line's error names its line number; nothing is a traceback or an internal error; memory stays
bounded by the 64 KiB line cap.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minefield.analyzer import analyze_line
from minefield.bots.bot_hand import bot_hand_line
from minefield.cli.jsonl import MAX_LINE_BYTES, read_lines, serve_jsonl
from minefield.rules.tiles import Tile, parse_tiles, tiles_to_str

ROOT = Path(__file__).resolve().parent.parent
ANSWERS: dict[str, Callable[[str], str]] = {"analyze": analyze_line, "bot-hand": bot_hand_line}
RESULT_KEYS = {"analyze": {"hand", "tenpai", "waits"},
               "bot-hand": {"hand", "tenpai", "waits", "candidates"}}
WALL = [Tile(kind) for kind in range(34) for _ in range(4)]  # R1: four copies of each kind
NOTATION_CHARS = set("0123456789mpszMPSZ \t")  # notation is ASCII digits and suit letters
FUZZ = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def expected_lines(data: bytes) -> int:
    """How many lines ``data`` holds (a last line without a newline counts)."""
    if not data:
        return 0
    return data.count(b"\n") + (0 if data.endswith(b"\n") else 1)


def serve(command: str, data: bytes) -> list[str]:
    """Run the ``--jsonl`` loop of ``command`` in-process on ``data``; its output lines."""
    out = io.StringIO()
    assert serve_jsonl(ANSWERS[command], io.BytesIO(data), out) == 0
    text = out.getvalue()
    assert text == "" or text.endswith("\n")
    return text.splitlines()


def check_output(command: str, data: bytes, lines: list[str]) -> list[dict[str, Any]]:
    """One JSON object per input line; errors name their line; no internal error."""
    assert len(lines) == expected_lines(data)
    results = []
    for number, line in enumerate(lines, start=1):
        result = json.loads(line)
        assert isinstance(result, dict)
        if "error" in result:
            assert set(result) == {"error"}
            assert result["error"].startswith(f"line {number}: ")
            assert "internal error" not in result["error"] and "Traceback" not in line
            assert len(result["error"]) <= 400
        else:
            assert set(result) == RESULT_KEYS[command]
        results.append(result)
    return results


commands = st.sampled_from(sorted(ANSWERS))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                max_size=4),
    max_leaves=12)
notation = st.text(alphabet="0123456789mpszMPSZ ²٣x\t", max_size=45)


@st.composite
def draws(draw: st.DrawFn, size: int) -> str:
    """``size`` tiles that exist together (R1), in mpsz notation."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    return tiles_to_str(rng.sample(WALL, size))


def field(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A field value: mostly a plausible one, sometimes any JSON value."""
    return st.one_of(valid, valid, json_values)


analyze_requests = st.fixed_dictionaries(
    {"hand": field(draws(13) | notation)},
    optional={"seat": field(st.sampled_from(["east", "west", "north", "EAST"])),
              "dora": field(st.sampled_from(["1m", "9p", "7z", "0m", "none", "8z", ""])),
              "ura": field(st.sampled_from(["5s", "4z", "0p", "none", "m"])),
              "discard": field(st.sampled_from(["first", "middle", "last", "second"])),
              "rules": field(st.sampled_from(["standard", "beginner", "expert"])),
              "extra": json_values})
bot_hand_requests = st.fixed_dictionaries(
    {"tiles": field(draws(34) | draws(33) | notation)},
    optional={"seat": field(st.sampled_from(["east", "west"])),
              "dora": field(st.sampled_from(["1m", "7z", "0s", "none", "x"])),
              "level": field(st.sampled_from(["easy", "normal", "strong", "hard"])),
              "colour": json_values})


def encode(value: Any, ascii_only: bool) -> bytes:
    """``value`` as one line of JSON (lone surrogates become bytes that are not UTF-8)."""
    return json.dumps(value, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")


@FUZZ
@given(commands, st.binary(max_size=300))
def test_random_bytes(command: str, data: bytes) -> None:
    check_output(command, data, serve(command, data))


@FUZZ
@given(commands, st.lists(st.tuples(json_values, st.booleans()), max_size=8), st.booleans())
def test_random_json_values(command: str, values: list[tuple[Any, bool]], newline: bool
                            ) -> None:
    data = b"\n".join(encode(value, ascii_only) for value, ascii_only in values)
    data += b"\n" if newline and values else b""
    check_output(command, data, serve(command, data))


@settings(FUZZ, max_examples=100)
@given(st.lists(st.tuples(analyze_requests, st.booleans()), min_size=1, max_size=6))
def test_analyze_requests_with_random_fields(requests: list[tuple[dict[str, Any], bool]]
                                             ) -> None:
    data = b"\n".join(encode(request, ascii_only) for request, ascii_only in requests) + b"\n"
    results = check_output("analyze", data, serve("analyze", data))
    for (request, _), result in zip(requests, results, strict=True):
        if "error" not in result:  # a result is for the hand asked about, in ASCII notation
            assert set(request["hand"]) <= NOTATION_CHARS
            assert result["hand"] == tiles_to_str(parse_tiles(request["hand"]))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(bot_hand_requests, min_size=1, max_size=3))
def test_bot_hand_requests_with_random_fields(requests: list[dict[str, Any]]) -> None:
    data = b"\n".join(encode(request, True) for request in requests) + b"\n"
    results = check_output("bot-hand", data, serve("bot-hand", data))
    for request, result in zip(requests, results, strict=True):
        if "error" not in result:
            assert set(request["tiles"]) <= NOTATION_CHARS
            assert len(parse_tiles(result["hand"])) == 13 and len(
                parse_tiles(request["tiles"])) == 34


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(commands, st.integers(MAX_LINE_BYTES - 20, 400_000),
       st.sampled_from([b"1", b"x", b" ", b"\xff", b"[", b'"', b"\\u00e9"]),
       st.sampled_from([b"", b'{"hand": "', b'{"tiles": "', b"["]))
def test_huge_lines(command: str, size: int, filler: bytes, start: bytes) -> None:
    """Lines around and far over the 64 KiB cap, between two good requests."""
    huge = (start + filler * size)[:size]
    good = encode({"hand": "123m456p789s1112z"} if command == "analyze" else
                  {"tiles": "123456789m12345678934p1234567899s1122z", "level": "easy"}, True)
    data = b"\n".join([good, huge, good])
    results = check_output(command, data, serve(command, data))
    assert results[0] == results[2] and "error" not in results[0]
    if size > MAX_LINE_BYTES:
        assert results[1] == {"error": f"line 2: longer than {MAX_LINE_BYTES} bytes"}


@pytest.mark.parametrize("command", sorted(ANSWERS))
def test_a_1_mb_line_costs_little_memory(command: str) -> None:
    """A 1 MB line is skipped in pieces: the loop never holds much more than the 64 KiB cap."""
    data = b'{"hand": "' + b"1" * 1_000_000 + b'm"}\n{"hand": "1m"}\n'
    stdin, stdout = io.BytesIO(data), io.StringIO()
    tracemalloc.start()
    try:
        serve_jsonl(ANSWERS[command], stdin, stdout)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000  # less than the line itself; a few hundred KB at most
    assert stdout.getvalue().splitlines()[0] == json.dumps(
        {"error": f"line 1: longer than {MAX_LINE_BYTES} bytes"})


class _RecordingStream(io.BytesIO):
    """A byte stream that remembers the largest piece it handed out."""

    largest = 0

    def readline(self, size: int | None = -1, /) -> bytes:
        line = super().readline(size)
        self.largest = max(self.largest, len(line))
        return line

    def read1(self, size: int | None = -1, /) -> bytes:
        piece = super().read1(size)
        self.largest = max(self.largest, len(piece))
        return piece


def test_the_reader_never_holds_more_than_the_cap() -> None:
    lines = [b"a" * 10, b"b" * 3 * MAX_LINE_BYTES, b"", b"c" * MAX_LINE_BYTES,
             b"d" * (MAX_LINE_BYTES + 1)]
    stream = _RecordingStream(b"\n".join(lines))
    assert list(read_lines(stream)) == [lines[0], None, b"", lines[3], None]
    assert stream.largest <= MAX_LINE_BYTES + 1


def _run(command: str, data: bytes) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    env |= {"PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C.UTF-8"}
    argv = [sys.executable, "-m", "minefield.cli", command, "--jsonl"]
    if command == "bot-hand":
        argv += ["--level", "easy"]
    return subprocess.run(argv, input=data, capture_output=True, cwd=ROOT, env=env,
                          check=False)


@pytest.mark.parametrize("command", sorted(ANSWERS))
def test_real_process_on_random_bytes(command: str) -> None:
    """The installed command on a fixed random mix: same promises, nothing on stderr."""
    rng = random.Random(20240611)
    parts = [rng.randbytes(rng.randrange(200)) for _ in range(40)]
    parts += [b"", b"\xff\xfe", b'{"hand": "\xc3("}', b"x" * 200_000, b'{"tiles": 5}', b"{}"]
    rng.shuffle(parts)
    data = b"\n".join(parts)
    result = _run(command, data)
    assert result.returncode == 0 and result.stderr == b""
    check_output(command, data, result.stdout.decode("ascii").splitlines())


class _PieceStream(io.BytesIO):
    """A byte stream whose ``read1`` hands out at most ``piece`` bytes at a time."""

    def __init__(self, data: bytes, piece: int) -> None:
        super().__init__(data)
        self.piece = piece

    def read1(self, size: int | None = -1, /) -> bytes:
        return super().read1(min(self.piece, size if size is not None and size >= 0
                                 else self.piece))


def _expected_lines(data: bytes, limit: int) -> list[bytes | None]:
    """What the reader must give: every line without its newline, the last one only when
    not empty, ``None`` for a line over ``limit`` bytes."""
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    return [line if len(line) <= limit else None for line in lines]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([b"", b"a", b"bc", b"\n", b"\n\n", b"defghijk", b"\n" + b"x" * 9,
                                 b"y" * 17]), max_size=30), st.integers(1, 12))
def test_lines_are_the_same_whatever_the_reads_bring(parts: list[bytes], piece: int) -> None:
    """The batch reader gives the lines of the input, over-long ones as ``None``, however
    the reads cut it (here with a cap of 8 bytes a line)."""
    data = b"".join(parts)
    assert list(read_lines(_PieceStream(data, piece), limit=8)) == _expected_lines(data, 8)


def test_each_batch_is_answered_before_the_next_read() -> None:
    """Answers are written per batch, not per line, but all of them are flushed
    before the loop reads again: a program sending one request and waiting gets its answer."""
    out = io.StringIO()
    requests = [b'{"hand": "123m456p789s1112z"}\n', b'{"hand": "23m456m345p678s55s"}\n' * 2,
                b"x\n"]

    class Interactive(io.BytesIO):
        sent = 0  # lines handed out so far

        def read1(self, size: int | None = -1, /) -> bytes:
            assert len(out.getvalue().splitlines()) == self.sent  # all answered already
            if not requests:
                return b""
            chunk = requests.pop(0)
            self.sent += chunk.count(b"\n")
            return chunk

    assert serve_jsonl(analyze_line, Interactive(), out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [answer.get("tenpai") for answer in answers[:3]] == [True, True, True]
    assert answers[3]["error"].startswith("line 4: ")


FREEZE_CHECK = """
import gc, io
from minefield.analyzer import analyze_line
from minefield.cli.jsonl import serve_jsonl
lines = [b'{"hand": "123m456p789s1112z"}', b'{"hand": "x"}', b"[1]", b"\\xff",
         b'{"hand": "123m456p789s1112z", "seat": 5}', b'{"hand": "1111m234p567p789s"}',
         b'{"hand": "123m456p789s1112z", "discard": "last", "seat": "west"}',
         b'{"hand": "23m406m345p678s55s", "rules": "nope"}', b"", b"{}"]
gc.collect()
try:
    code = serve_jsonl(analyze_line, io.BytesIO(b"\\n".join(lines * 20)), io.StringIO(),
                       freeze=True)
finally:
    gc.unfreeze()
gc.set_debug(gc.DEBUG_SAVEALL)
print(code, gc.collect(), sorted({type(o).__qualname__ for o in gc.garbage}))
"""


def test_freezing_the_tables_leaves_no_garbage_frozen() -> None:
    """The command freezes what outlives each batch (``gc.freeze``): requests good and bad
    must leave no cyclic garbage behind, which freezing would keep for good. Run in an
    interpreter of its own: in this one, pytest's own garbage (a doctest collector left by
    the tests before) was counted too."""
    done = subprocess.run([sys.executable, "-c", FREEZE_CHECK], capture_output=True,
                          text=True, check=True, timeout=120)
    assert done.stdout.split() == ["0", "0", "[]"], done.stdout
