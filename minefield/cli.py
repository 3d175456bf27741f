"""The ``minefield`` command: the game (default), practice, hot-seat, and tools.

Every subcommand reports bad input as one clear line on stderr and exit status 2, never a
traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from rich.console import Console

from minefield.analyzer import (
    AnalyzeError,
    AnalyzeRequest,
    analyze_json_line,
    analyze_request,
    render_table,
)
from minefield.rules.game import Seat
from minefield.rules.seed import SeedError, parse_seed
from minefield.rules.settings import PRESETS

SEATS = [s.value for s in Seat]
LEVELS = ["easy", "normal", "strong"]


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


def serve_jsonl(answer: Callable[[str], str]) -> int:
    """Answer each non-blank stdin line with one output line, in order (``--jsonl`` modes)."""
    for line in sys.stdin:
        if line.strip():
            print(answer(line), flush=True)
    return 0


def _run_analyze(args: argparse.Namespace) -> int:
    if args.jsonl:
        if args.hand:
            raise UsageError("--jsonl reads hands from stdin: give no HAND argument")
        return serve_jsonl(analyze_json_line)
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
    s.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``minefield`` command."""
    parser = argparse.ArgumentParser(prog="minefield", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_game_commands(sub)
    _add_analyze(sub)
    _add_bot_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``minefield`` console script."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "analyze":
            return _run_analyze(args)
        if args.command in ("bot-hand", "simulate"):
            from minefield.bots.commands import run as run_bots

            return run_bots(args)
        from minefield.tui.launch import run as run_game

        return run_game(args)
    except UsageError as error:
        print(f"minefield: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
