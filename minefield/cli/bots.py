"""``minefield bot-hand`` and ``minefield simulate``: a bot's hand from 34 tiles, and
bot-against-bot statistics."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from minefield.bots.bot_hand import (
    BotHandError,
    BotHandRequest,
    BotHandResult,
    bot_hand,
    bot_hand_line,
)
from minefield.bots.hands import DealtTiles
from minefield.bots.simulate import (
    GameOutcome,
    MatchOutcome,
    iter_games,
    iter_matches,
    side_names,
    summarize,
    summarize_matches,
)
from minefield.cli.common import (
    LEVEL_NAMES,
    SEATS,
    Subparsers,
    UsageError,
    add_rule_arguments,
    check_no_rules_option,
    chosen_rules,
    seed_argument,
)
from minefield.cli.jsonl import serve_jsonl
from minefield.cli.records import check_record_folder
from minefield.rules.game import Seat
from minefield.rules.seed import parse_seed
from minefield.rules.settings import PRESETS, RuleSettings, rule_arguments
from minefield.rules.tiles import kind_from_str


def add_parsers(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add the ``bot-hand`` and ``simulate`` subcommands."""
    b = sub.add_parser("bot-hand", help="the hand a bot would build from 34 tiles",
                       description="Show the 13-tile hand a bot keeps from 34 tiles, with its "
                       "waits and what each pays (as minefield analyze reports them).")
    b.add_argument("tiles", nargs="?", help="34 tiles in mpsz notation")
    b.add_argument("--seat", choices=SEATS, default="east", help="the bot's seat wind")
    b.add_argument("--dora", default=None, metavar="IND", help="dora indicator")
    b.add_argument("--level", choices=LEVEL_NAMES, default="strong", help="bot level")
    b.add_argument("--rules", choices=list(PRESETS), default="standard",
                   help="rule preset (match: East is paid dealer values, R23)")
    out = b.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON object")
    out.add_argument("--jsonl", action="store_true", help="JSON requests on stdin, one per line")
    s = sub.add_parser("simulate", help="bot-vs-bot games or matches with statistics",
                       description="Play bot-vs-bot games (seats swapped every other game) and "
                       "print wins, deal-ins, draws and mean points per game with a 95% "
                       "confidence interval; with --match, whole matches and the matches won, "
                       "final points and games per match. Same seed, same results.")
    s.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    s.add_argument("--east", choices=LEVEL_NAMES, default="strong",
                   help="level of the bot that is East in the first game (default strong)")
    s.add_argument("--west", choices=LEVEL_NAMES, default="normal",
                   help="level of the second bot (default normal)")
    s.add_argument("--seed", type=seed_argument, default=parse_seed(0), metavar="SEED",
                   help="master seed: 32 hex digits or a small number (default 0); each game's "
                   "deal and bots are derived from it")
    s.add_argument("--records", type=Path, default=None, metavar="DIR",
                   help="write each game's record (JSONL) in this folder")
    s.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")
    s.add_argument("--match", action="store_true",
                   help="play whole matches (R30-R35): --games is then the number of matches; "
                   "every game's record carries the match (minefield replay --match shows it)")
    add_rule_arguments(s, "rule preset (default: match with --match, else standard)")


def rules_label(preset: str, settings: RuleSettings) -> str:
    """``club rules``, or with the ``--rule`` settings: ``match rules, ryanshi=on``."""
    return ", ".join([f"{preset} rules", *rule_arguments(settings, preset)])


def render_bot_hand(result: BotHandResult, deal: DealtTiles, level: str) -> Table | Text:
    """A readable table of the chosen hand's waits with their live copies."""
    if not result.tenpai:
        return Text(f"{level} keeps {result.hand}: no tenpai hand exists in these 34 tiles, "
                    "so it keeps the tiles most dangerous to discard.", style="bold yellow")
    table = Table(title=f"{level} keeps {result.hand} ({result.candidates} tenpai hands found)",
                  title_justify="left")
    for name, justify in (("wait", "left"), ("live", "right"), ("ron?", "left"),
                          ("points", "right"), ("han/fu", "right"), ("yaku", "left")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for wait in result.waits:
        live = max(0, deal.unseen(kind_from_str(wait.tile)))
        verdict = Text("yes", style="green") if wait.eligible else Text("no", style="red")
        yaku = ", ".join(f"{y.name} {y.han}" for y in wait.yaku)
        table.add_row(wait.tile, str(live), verdict, str(wait.points),
                      f"{wait.han}/{wait.fu}", yaku)
    table.caption = ("live: copies not among the 34 tiles or the dora indicator; ron? is R14's "
                     "verdict (mangan without ura)")
    return table


def _run_bot_hand(args: argparse.Namespace) -> int:
    if args.jsonl:
        if args.tiles:
            raise UsageError("--jsonl reads requests from stdin: give no TILES argument")
        check_no_rules_option(args)
        return serve_jsonl(bot_hand_line)
    if not args.tiles:
        raise UsageError("bot-hand needs TILES, 34 tiles in mpsz notation (or --jsonl)")
    request = BotHandRequest(tiles=args.tiles, seat=Seat(args.seat), dora=args.dora,
                             level=args.level, rules=args.rules)
    try:
        result, deal = bot_hand(request)
    except BotHandError as error:
        raise UsageError(str(error)) from None
    if args.json:
        print(result.model_dump_json())
    else:
        Console().print(render_bot_hand(result, deal, args.level))
    return 0


def _run_simulate(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {args.jobs}")
    if args.records is not None:
        check_record_folder(args.records)
    if args.match:
        return _run_simulate_matches(args)
    settings = chosen_rules(args.rules or "standard", args.rule)
    label_a, label_b = f"A {args.east}", f"B {args.west}"
    records: list[GameOutcome] = []
    started = time.perf_counter()
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeRemainingColumn(), console=Console(stderr=True), transient=True)
    with progress:
        task = progress.add_task(f"{args.east} vs {args.west}", total=args.games)
        for record in iter_games(args.games, args.east, args.west, args.seed, args.jobs,
                                 settings=settings, record_folder=args.records):
            records.append(record)
            progress.advance(task)
    elapsed = time.perf_counter() - started
    summary = summarize(records, label_a, label_b)
    table = Table(title=f"{args.games} games, seed {args.seed} (A sits East in even games, "
                        "West in odd ones)", title_justify="left")
    for name in ("player", "wins", "deal-ins", "draws", "furiten", "points/game [95% CI]"):
        table.add_column(name, justify="left" if name == "player" else "right")
    for side in (summary.a, summary.b):
        p = side.points
        table.add_row(side.label, str(side.wins), str(side.deal_ins), str(side.draws),
                      str(side.furiten), f"{p.value:+.0f} [{p.low:+.0f}, {p.high:+.0f}]")
    console = Console()
    console.print(table)
    share = summary.a_share
    decided = summary.a.wins + summary.b.wins
    console.print(f"A's share of the {decided} decided games: {share.value:.1%} "
                  f"[{share.low:.1%}, {share.high:.1%}]")
    console.print(f"{args.games / elapsed:.2f} games per second")
    return 0


def _run_simulate_matches(args: argparse.Namespace) -> int:
    """``simulate --match``: whole matches between the two bots, and their summary."""
    settings = chosen_rules(args.rules or "match", args.rule)
    label_a, label_b = side_names(args.east, args.west)
    outcomes: list[MatchOutcome] = []
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeRemainingColumn(), console=Console(stderr=True), transient=True)
    with progress:
        task = progress.add_task(f"{args.east} vs {args.west} (matches)", total=args.games)
        for outcome in iter_matches(args.games, args.east, args.west, args.seed, args.jobs,
                                    settings=settings, record_folder=args.records):
            outcomes.append(outcome)
            progress.advance(task)
    summary = summarize_matches(outcomes)
    matches = "match" if summary.matches == 1 else "matches"
    hands = "hand" if settings.hands == 1 else "hands"
    table = Table(title=f"{summary.matches} {matches} of {settings.hands} {hands} from "
                        f"{settings.start_points} ({rules_label(args.rules or 'match', settings)})",
                  title_justify="left")
    for name in ("player", "matches won", "final points [95% CI]"):
        table.add_column(name, justify="left" if name == "player" else "right")
    for label, wins, points in ((label_a, summary.a_wins, summary.a_points),
                                (label_b, summary.b_wins, summary.b_points)):
        table.add_row(label, str(wins), f"{points.value:.0f} [{points.low:.0f}, "
                                        f"{points.high:.0f}]")
    console = Console()
    console.print(table)
    console.print(f"seed {args.seed}; each match draws its first dealer")
    share = summary.a_share
    decided = summary.a_wins + summary.b_wins
    console.print(f"A won {share.value:.1%} [{share.low:.1%}, {share.high:.1%}] of the "
                  f"{decided} decided matches; {summary.tied} tied")
    games = summary.games
    console.print(f"{games.value:.2f} [{games.low:.2f}, {games.high:.2f}] games per match; "
                  f"{summary.draws} of {summary.total_games} games were draws")
    if args.records is not None:
        console.print(f"records in {args.records} (minefield replay --match {args.records})")
    return 0


def run(args: argparse.Namespace) -> int:
    """Run ``bot-hand`` or ``simulate``; the exit status."""
    if args.command == "bot-hand":
        return _run_bot_hand(args)
    return _run_simulate(args)
