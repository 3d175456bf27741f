"""The ``minefield`` command: the game (default), practice, hot-seat, and tools.

Every subcommand reports bad input as one clear line on stderr and exit status 2, never a
traceback. In ``--jsonl`` modes every input line gets exactly one output line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import BinaryIO, TextIO

from rich.console import Console

from minefield.analyzer import (
    AnalyzeError,
    AnalyzeRequest,
    RequestError,
    analyze_line,
    analyze_request,
    render_table,
)
from minefield.records import commands as record_commands
from minefield.rules.game import Seat
from minefield.rules.seed import SeedError, parse_seed
from minefield.rules.settings import PRESETS

SEATS = [s.value for s in Seat]
LEVELS = ["easy", "normal", "strong"]
MAX_LINE_BYTES = 65536  # a longer --jsonl line is skipped, never held in memory
MAX_ERROR_CHARS = 300  # an error message is cut there, whatever it quotes


SEED_HELP = ("deal seed: 32 hex digits, or a small number for a puzzle (default: 128 random "
             "bits, so the deal cannot be predicted)")


class UsageError(Exception):
    """Bad input on the command line; printed as one line, exit status 2."""


def seed_argument(text: str) -> str:
    """``--seed``: 32 hex digits or a small number, as the canonical 32 hex digits (R2)."""
    try:
        return parse_seed(text)
    except SeedError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _add_analyze(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "analyze",
        help="waits of a 13-tile hand and what each ron pays",
        description="Show the waits of a 13-tile hand and, for each, whether a "
        "ron is allowed (R14) and what it scores.",
    )
    p.add_argument("hand", nargs="?", help="13 tiles in mpsz notation, e.g. 23m456m345p678s55s")
    p.add_argument("--seat", choices=SEATS, default="east", help="the winner's seat wind")
    p.add_argument("--dora", default=None, metavar="IND", help="dora indicator, e.g. 3m")
    p.add_argument("--ura", default=None, metavar="IND", help="ura dora indicator")
    p.add_argument(
        "--discard",
        choices=["first", "middle", "last"],
        default="middle",
        help="first: ippatsu (R16); last: houtei (R17, East only)",
    )
    p.add_argument("--rules", choices=list(PRESETS), default="standard", help="rule preset")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON object")
    out.add_argument(
        "--jsonl",
        action="store_true",
        help="read one JSON request per line from stdin, write one result per line",
    )


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


def _run_analyze(args: argparse.Namespace) -> int:
    if args.jsonl:
        if args.hand:
            raise UsageError("--jsonl reads hands from stdin: give no HAND argument")
        return serve_jsonl(analyze_line)
    if not args.hand:
        raise UsageError("analyze needs a HAND (or --jsonl)")
    request = AnalyzeRequest(
        hand=args.hand,
        seat=Seat(args.seat),
        dora=args.dora,
        ura=args.ura,
        discard=args.discard,
        rules=args.rules,
    )
    try:
        result = analyze_request(request)
    except AnalyzeError as error:
        raise UsageError(str(error)) from None
    if args.json:
        print(result.model_dump_json())
    else:
        Console().print(render_table(result))
    return 0


def _add_game_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("practice", help="play against a bot")
    p.add_argument("--seed", type=seed_argument, default=None, metavar="SEED",
                   help=SEED_HELP)
    p.add_argument("--level", choices=LEVELS, default=None, help="bot level")
    p.add_argument("--seat", choices=SEATS, default=None, help="your seat")
    p.add_argument("--rules", choices=list(PRESETS), default=None, help="rule preset")
    h = sub.add_parser("hotseat", help="two players at one terminal")
    h.add_argument("--seed", type=seed_argument, default=None, metavar="SEED",
                   help=SEED_HELP)
    h.add_argument("--rules", choices=list(PRESETS), default=None, help="rule preset")


def _add_bot_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    b = sub.add_parser("bot-hand", help="the hand a bot would build from 34 tiles",
                       description="Show the 13-tile hand a bot keeps from 34 tiles, with its "
                       "waits and what each pays (as minefield analyze reports them).")
    b.add_argument("tiles", nargs="?", help="34 tiles in mpsz notation")
    b.add_argument("--seat", choices=SEATS, default="east", help="the bot's seat wind")
    b.add_argument("--dora", default=None, metavar="IND", help="dora indicator")
    b.add_argument("--level", choices=LEVELS, default="strong", help="bot level")
    out = b.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON object")
    out.add_argument("--jsonl", action="store_true", help="JSON requests on stdin, one per line")
    s = sub.add_parser("simulate", help="bot-vs-bot games with statistics",
                       description="Play bot-vs-bot games (seats swapped every other game) and "
                       "print wins, deal-ins, draws and mean points per game with a 95% "
                       "confidence interval. Same seed, same results.")
    s.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    s.add_argument("--east", choices=LEVELS, default="strong",
                   help="level of the bot that is East in the first game (default strong)")
    s.add_argument("--west", choices=LEVELS, default="normal",
                   help="level of the second bot (default normal)")
    s.add_argument("--seed", type=seed_argument, default=parse_seed(0), metavar="SEED",
                   help="master seed: 32 hex digits or a small number (default 0); each game's "
                   "deal and bots are derived from it")
    s.add_argument("--records", type=Path, default=None, metavar="DIR",
                   help="write each game's record (JSONL) in this folder")
    s.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``minefield`` command."""
    parser = argparse.ArgumentParser(prog="minefield", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_game_commands(sub)
    _add_analyze(sub)
    _add_bot_commands(sub)
    record_commands.add_parsers(sub)
    return parser


def _run(args: argparse.Namespace) -> int:
    if args.command == "analyze":
        return _run_analyze(args)
    if args.command in ("bot-hand", "simulate"):
        from minefield.bots.commands import run as run_bots

        return run_bots(args)
    if args.command in record_commands.COMMANDS:
        return record_commands.run(args)
    from minefield.tui.launch import run as run_game

    return run_game(args)


def _stdout_to_devnull() -> None:
    """Point file descriptor 1 at /dev/null, so the interpreter's last flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):  # no real stdout (e.g. captured in tests)
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``minefield`` console script."""
    args = build_parser().parse_args(argv)
    try:
        status = _run(args)
        if sys.stdout is not None:
            sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit flush
        return status
    except UsageError as error:
        print(f"minefield: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader has gone (``minefield ... | head -1``): stop quietly, as Unix tools do.
        # This is Python's own recipe (library docs, signal module, "Note on SIGPIPE"): send
        # what is left of stdout to /dev/null and exit with status 1, as Python itself does on
        # EPIPE (Python ignores SIGPIPE, so the 141 of a C tool killed by it never shows; Rich
        # does the same for its tables).
        _stdout_to_devnull()
        return 1


if __name__ == "__main__":
    sys.exit(main())
