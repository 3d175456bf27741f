"""``minefield bot-hand`` and ``minefield simulate`` (arguments parsed in :mod:`minefield.cli`).

Bad input is one clear line on stderr and exit status 2 (:class:`minefield.cli.UsageError`);
a bad ``--jsonl`` line gives ``{"error": "line N: ..."}`` on its line and the other lines go on.
"""

from __future__ import annotations

import argparse
import random
import time

from pydantic import BaseModel, ConfigDict, ValidationError
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from minefield.analyzer import RED_FIVES_UNUSED, RequestError, describe_request_error
from minefield.bots.base import Level
from minefield.bots.hands import Deal34
from minefield.bots.levels import HAND_POLICIES
from minefield.bots.simulate import GameRecord, iter_games, summarize
from minefield.records.commands import check_record_folder
from minefield.rules.game import Seat
from minefield.rules.hand import Hand
from minefield.rules.report import WaitReport
from minefield.rules.score import analyze
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import Tile, TileError, kind_from_str, parse_tiles


class BotHandRequest(BaseModel):
    """One ``bot-hand`` request (a ``--jsonl`` line or the command's arguments)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tiles: str
    seat: Seat = Seat.EAST
    dora: str | None = None
    level: Level = "strong"


class BotHandResult(BaseModel):
    """The hand a bot keeps: its waits exactly as ``minefield analyze`` reports them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    hand: str
    tenpai: bool
    waits: list[WaitReport]
    candidates: int


class BotHandError(RequestError):
    """A request that cannot be answered; the message says what is wrong."""


def bot_hand(request: BotHandRequest, settings: RuleSettings | None = None
             ) -> tuple[BotHandResult, Deal34]:
    """The hand the bot of ``request.level`` keeps from the 34 tiles."""
    settings = settings or RuleSettings()
    try:
        tiles = parse_tiles(request.tiles)
    except TileError as error:
        raise BotHandError(f"tiles: {error}") from None
    if any(t.red for t in tiles) and not settings.red_fives:
        raise BotHandError(f"tiles: {RED_FIVES_UNUSED}")
    indicator = None
    if request.dora is not None and request.dora.lower() != "none":
        try:
            tile = Tile.parse(request.dora)
        except TileError as error:
            raise BotHandError(f"dora indicator: {error}") from None
        if tile.red and not settings.red_fives:
            raise BotHandError(f"dora indicator: {RED_FIVES_UNUSED}")
        indicator = tile.kind
    try:
        deal = Deal34.from_tiles(tiles, indicator, request.seat, settings)
    except TileError as error:
        raise BotHandError(f"tiles: {error}") from None
    choice = HAND_POLICIES[request.level](deal, random.Random(0))
    hand = Hand.parse(deal.hand_tiles(choice.hand))
    reports = [WaitReport.from_value(v) for v in analyze(hand, deal.context, settings)]
    result = BotHandResult(hand=str(hand), tenpai=bool(reports), waits=reports,
                           candidates=choice.candidates)
    return result, deal


def bot_hand_line(line: str) -> str:
    """One ``--jsonl`` request in, its result's JSON out; :class:`BotHandError` for a bad one."""
    try:
        request = BotHandRequest.model_validate_json(line)
    except ValidationError as error:
        raise BotHandError(describe_request_error(error)) from None
    return bot_hand(request)[0].model_dump_json()


def render_bot_hand(result: BotHandResult, deal: Deal34, level: str) -> Table | Text:
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
    from minefield.cli import UsageError, serve_jsonl

    if args.jsonl:
        if args.tiles:
            raise UsageError("--jsonl reads requests from stdin: give no TILES argument")
        return serve_jsonl(bot_hand_line)
    if not args.tiles:
        raise UsageError("bot-hand needs TILES, 34 tiles in mpsz notation (or --jsonl)")
    request = BotHandRequest(tiles=args.tiles, seat=Seat(args.seat), dora=args.dora,
                             level=args.level)
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
    from minefield.cli import UsageError

    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {args.jobs}")
    if args.records is not None:
        check_record_folder(args.records)
    label_a, label_b = f"A {args.east}", f"B {args.west}"
    records: list[GameRecord] = []
    started = time.perf_counter()
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeRemainingColumn(), console=Console(stderr=True), transient=True)
    with progress:
        task = progress.add_task(f"{args.east} vs {args.west}", total=args.games)
        for record in iter_games(args.games, args.east, args.west, args.seed, args.jobs,
                                 record_folder=args.records):
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


def run(args: argparse.Namespace) -> int:
    """Run ``bot-hand`` or ``simulate``; returns the exit status."""
    if args.command == "bot-hand":
        return _run_bot_hand(args)
    return _run_simulate(args)
