"""``minefield danger``: how dangerous each pool tile is to discard now, with reasons."""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table
from rich.text import Text

from minefield.cli.common import SEATS, Subparsers, UsageError, check_no_rules_option
from minefield.cli.jsonl import serve_jsonl
from minefield.defense.calibration import DEFAULT_OPPONENT, OPPONENTS
from minefield.defense.estimate import percent
from minefield.defense.request import (
    DangerRequest,
    DangerRequestError,
    DangerResult,
    danger_line,
    danger_request,
)
from minefield.rules.game import Seat
from minefield.rules.settings import PRESETS

EPILOG = """\
The position is what the discarding seat sees (R26): its 34 tiles, its 13-tile hand, the dora
indicator and both discard rows in the order played, e.g.

  minefield danger --tiles 1112345678999m11223344556677p1234567s --hand 1112345678999m \\
      --dora 9s --east 1p --west 2p

danger is the chance that the tile deals in now (it is a wait, the ron reaches the minimum
with this discard's ippatsu or houtei, R14-R17, and the opponent is not furiten); loss is the
expected points lost. With --jsonl each stdin line is one request:
{"seat": "east", "tiles": "...", "hand": "...", "dora": "3m",
 "discards": {"east": ["5p", "1z"], "west": ["2s"]}, "method": "fast",
 "opponent": "strong", "rules": "standard"}
("method" may be left out; "opponent" is easy, normal, strong or person, by default
--opponent's) and each output line is {"discard": N, "opponent_furiten": p, "tiles":
[{"tile", "danger", "loss", "reasons"}, ...]} or {"error": "line N: ..."}."""


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add the ``danger`` subcommand."""
    p = sub.add_parser(
        "danger",
        help="the danger of each pool tile, with reasons in words",
        description="Estimate, for the seat about to discard, the chance that each tile\n"
        "left in its pool deals in now, the expected points lost, and why.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--seat", choices=SEATS, default=None,
                   help="the seat about to discard (default: the one whose turn it is)")
    p.add_argument("--tiles", metavar="TILES", help="the seat's 34 tiles in mpsz notation")
    p.add_argument("--hand", metavar="HAND", help="its 13-tile hand, e.g. 23m456m345p678s55s")
    p.add_argument("--dora", metavar="IND", help="the dora indicator, e.g. 3m")
    p.add_argument("--east", default="", metavar="T,T,...",
                   help="East's discards in the order played, comma separated: 5p,1z")
    p.add_argument("--west", default="", metavar="T,T,...", help="West's discards, likewise")
    p.add_argument("--opponent", choices=OPPONENTS, default=DEFAULT_OPPONENT,
                   help="whom the seat plays against: a bot of that level or a person "
                   "(default: strong; with --jsonl, for lines without \"opponent\"); the "
                   "chances are fitted for each")
    p.add_argument("--method", choices=["fast"], default="fast",
                   help="the estimate: fast, the only one (kept for old scripts)")
    p.add_argument("--rules", choices=list(PRESETS), default="standard",
                   help="rule preset (match: an East opponent is paid dealer values, R23)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON object")
    out.add_argument(
        "--jsonl",
        action="store_true",
        help="read one JSON request per line from stdin, write one result per line",
    )


def _row(text: str) -> list[str]:
    return [item.strip() for item in text.split(",") if item.strip()]


def request_of(args: argparse.Namespace) -> DangerRequest:
    """The request that the command-line arguments describe."""
    missing = [f"--{name}" for name in ("tiles", "hand", "dora") if not getattr(args, name)]
    if missing:
        raise UsageError(f"danger needs {', '.join(missing)} (or --jsonl)")
    discards = {Seat.EAST: _row(args.east), Seat.WEST: _row(args.west)}
    seat = Seat(args.seat) if args.seat else (
        Seat.EAST if len(discards[Seat.EAST]) == len(discards[Seat.WEST]) else Seat.WEST)
    return DangerRequest(seat=seat, tiles=args.tiles, hand=args.hand, dora=args.dora,
                         discards=discards, opponent=args.opponent, rules=args.rules)


def run(args: argparse.Namespace) -> int:
    """Run ``danger``; the exit status."""
    if args.jsonl:
        if args.tiles or args.hand or args.dora or args.east or args.west or args.seat:
            raise UsageError("--jsonl reads positions from stdin: give no position options")
        check_no_rules_option(args)
        opponent = args.opponent
        return serve_jsonl(lambda line: danger_line(line, opponent))
    request = request_of(args)
    try:
        result = danger_request(request)
    except DangerRequestError as error:
        raise UsageError(str(error)) from None
    if args.json:
        print(result.model_dump_json())
    else:
        Console().print(render_table(result, request.seat))
    return 0


def render_table(result: DangerResult, seat: Seat) -> Table:
    """A Rich table of the pool tiles, safest first."""
    opponent = str(seat.other).capitalize()
    table = Table(title=f"Discard {result.discard} ({seat}): danger of each pool tile",
                  title_justify="left")
    table.add_column("tile", no_wrap=True)
    table.add_column("danger", justify="right", no_wrap=True)
    table.add_column("loss", justify="right", no_wrap=True)
    table.add_column("reasons", ratio=1)
    for entry in sorted(result.tiles, key=lambda t: (t.danger, t.loss)):
        style = "green" if entry.danger == 0 else ("red" if entry.danger >= 0.1 else "")
        table.add_row(entry.tile, Text(percent(entry.danger), style=style), str(entry.loss),
                      "\n".join(entry.reasons))
    table.caption = (f"danger: chance to deal in now (R13-R17); loss: expected points; "
                     f"{opponent} already furiten: {percent(result.opponent_furiten)}")
    return table
