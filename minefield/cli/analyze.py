"""``minefield analyze``: the waits of a 13-tile hand and what each ron pays, as a table or JSON."""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table
from rich.text import Text

from minefield.analyzer import (
    AnalyzeError,
    AnalyzeRequest,
    AnalyzeResult,
    analyze_line,
    analyze_request,
)
from minefield.cli.common import (
    SEATS,
    Subparsers,
    UsageError,
    add_rule_arguments,
    check_no_rules_option,
    chosen_rules,
    saved_honor_names,
)
from minefield.cli.jsonl import serve_jsonl
from minefield.rules.game import Seat
from minefield.rules.names import HonorNames, hand_to_mpsz, name_text


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add the ``analyze`` subcommand."""
    p = sub.add_parser(
        "analyze",
        help="waits of a 13-tile hand and what each ron pays",
        description="Show the waits of a 13-tile hand and, for each, whether a "
        "ron is allowed (R14) and what it scores.",
    )
    p.add_argument("hand", nargs="?", help="13 tiles in mpsz notation, e.g. 23m456m345p678s55s; "
                   "honors also by name (E S W N Wh Gr Rd or 東 南 西 北 白 發 中)")
    p.add_argument("--seat", choices=SEATS, default="east", help="the winner's seat wind")
    p.add_argument("--dora", default=None, metavar="IND", help="dora indicator, e.g. 3m or Wh")
    p.add_argument("--ura", default=None, metavar="IND", help="ura dora indicator")
    p.add_argument(
        "--discard",
        choices=["first", "middle", "last"],
        default="middle",
        help="first: ippatsu (R16); last: houtei (R17, East only)",
    )
    add_rule_arguments(p, "rule preset (default standard; match and club: East is paid dealer "
                       "values, R23)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON object")
    out.add_argument(
        "--jsonl",
        action="store_true",
        help="read one JSON request per line from stdin, write one result per line",
    )


def run(args: argparse.Namespace) -> int:
    """Run ``analyze``; the exit status."""
    rules = args.rules or "standard"
    chosen_rules(rules, args.rule)  # a bad --rule is one line before anything is read
    if args.jsonl:
        if args.hand:
            raise UsageError("--jsonl reads hands from stdin: give no HAND argument")
        check_no_rules_option(args)
        return serve_jsonl(analyze_line)
    if not args.hand:
        raise UsageError("analyze needs a HAND (or --jsonl)")
    request = AnalyzeRequest(
        hand=hand_to_mpsz(args.hand),
        seat=Seat(args.seat),
        dora=_indicator(args.dora),
        ura=_indicator(args.ura),
        discard=args.discard,
        rules=rules,
    )
    try:
        result = analyze_request(request, args.rule)
    except AnalyzeError as error:
        raise UsageError(str(error)) from None
    if args.json:
        print(result.model_dump_json())
    else:
        Console().print(render_table(result, saved_honor_names()))
    return 0


def _indicator(text: str | None) -> str | None:
    """An indicator as typed (``3m``, ``Wh``, ``東``, ``none``) in mpsz."""
    return text if text is None or text.strip().lower() == "none" else hand_to_mpsz(text)


def render_table(result: AnalyzeResult, names: HonorNames = "numbers") -> Table | Text:
    """A readable Rich table of the waits, or a notice when the hand is not tenpai; honors
    called by ``names`` (the "Honor names" setting)."""
    hand = name_text(result.hand, names)
    if not result.tenpai:
        return Text(f"{hand}: not tenpai (no live wait), so it can never win (R12).",
                    style="bold yellow")
    table = Table(title=f"{hand}: waits", title_justify="left")
    table.add_column("wait", no_wrap=True)
    table.add_column("ron?", no_wrap=True)
    table.add_column("points", justify="right", no_wrap=True)
    table.add_column("han/fu", justify="right", no_wrap=True)
    table.add_column("limit", no_wrap=True)
    table.add_column("dora/ura", no_wrap=True)
    table.add_column("yaku and reading", ratio=1)
    for wait in result.waits:
        verdict = Text("yes", style="green") if wait.eligible else Text("no", style="red")
        yaku = ", ".join(f"{y.name.replace('_', ' ')} {y.han}" for y in wait.yaku)
        dora = f"{wait.dora}{f'+{wait.aka}r' if wait.aka else ''}/{wait.ura}"
        reading = Text(f"{wait.wait}: {name_text(' '.join(wait.groups), names)}", style="dim")
        table.add_row(name_text(wait.tile, names), verdict, str(wait.points),
                      f"{wait.han}/{wait.fu}", wait.limit or "-", dora,
                      Text.assemble(yaku, "\n", reading))
    # Two short lines, so that a narrow terminal breaks neither in the middle.
    table.caption = ("ron? is R14's verdict (mangan without ura);\n"
                     "points, han and limit include ura dora")
    table.caption_justify = "left"
    return table
