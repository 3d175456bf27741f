"""The live analysis of a hand being built or played (no Textual here).

For a 13-tile choice it lists each wait with its live copies (4 minus the copies this seat can
see: its own 34 tiles, the dora indicator and the opponent's discards), whether a ron on it is
allowed (R14; in a match also R34's ryanshi and R35's paarenchan, by the game's terms) and what
it would pay (a match's dealer is paid dealer values, R23), and the warnings a player needs
before confirming.

>>> from minefield.rules.game import Seat
>>> from minefield.rules.tiles import Tile, parse_tiles
>>> own = parse_tiles("123m456p789s1112z" + "3m" * 1 + "5p6p7p8p9p2s3s4s5s6s7s3z4z5z6z7z")
>>> result = analyze_choice(own, own[:13], Seat.EAST, Tile.parse("9m"))
>>> result.tenpai, [(w.tile, w.live, w.report.eligible) for w in result.waits]
(True, [('2z', 3, False)])
>>> result.can_win
False
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from minefield.rules.game import (
    NEVER_DISCARDED,
    FuritenCause,
    GameTerms,
    Seat,
    judge_wait,
    ron_context,
)
from minefield.rules.hand import HAND_SIZE, Hand, is_complete
from minefield.rules.report import WaitReport
from minefield.rules.score import WinContext, analyze, score_win
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import NUM_KINDS, Tile, counts_of, kind_str


@dataclass(frozen=True, slots=True)
class WaitLine:
    """One wait: its tile, how many copies may still come, and what a ron on it is worth."""

    tile: str
    live: int
    report: WaitReport


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    """What the analysis panel shows for the current choice."""

    chosen: int
    tenpai: bool
    waits: tuple[WaitLine, ...]
    warnings: tuple[str, ...]

    @property
    def complete(self) -> bool:
        """True when exactly 13 tiles are chosen."""
        return self.chosen == HAND_SIZE

    @property
    def can_win(self) -> bool:
        """True when some wait is eligible for ron (R14)."""
        return any(line.report.eligible for line in self.waits)

    def __repr__(self) -> str:
        return f"HandAnalysis(chosen={self.chosen}, <waits hidden>)"


def visible_counts(own_tiles: Iterable[Tile], dora_indicator: Tile,
                   opponent_discards: Iterable[Tile] = ()) -> list[int]:
    """Copies of each kind this seat can see (its own discards are among its own tiles)."""
    counts = counts_of(own_tiles)
    counts[dora_indicator.kind] += 1
    for tile in opponent_discards:
        counts[tile.kind] += 1
    return counts


def dead_waits(counts: Sequence[int]) -> list[int]:
    """Kinds the hand holds all four of that would otherwise complete it (R12)."""
    found = []
    for kind in range(NUM_KINDS):
        if counts[kind] == 4:
            work = list(counts)
            work[kind] += 1
            if is_complete(work):
                found.append(kind)
    return found


def analyze_choice(own_tiles: Sequence[Tile], chosen: Sequence[Tile], seat: Seat,
                   dora_indicator: Tile, opponent_discards: Sequence[Tile] = (),
                   settings: RuleSettings | None = None,
                   terms: GameTerms | None = None) -> HandAnalysis:
    """Analyze ``chosen`` (a sub-multiset of ``own_tiles``) as seat ``seat``'s hand, under a
    match's ``terms`` when it is a game of a match (R23, R34, R35)."""
    if len(chosen) != HAND_SIZE:
        return HandAnalysis(len(chosen), False, (), ())
    settings = settings or RuleSettings()
    terms = terms or GameTerms()
    hand = Hand(chosen)
    ctx = WinContext(seat_wind=seat.wind, dora_indicator=dora_indicator.kind,
                     dealer=terms.dealer_bonus and seat is Seat.EAST)
    seen = visible_counts(own_tiles, dora_indicator, opponent_discards)
    refused: dict[str, str] = {}  # waits that reach the minimum but that R34 refuses
    wait_lines: list[WaitLine] = []
    for value in analyze(hand, ctx, settings):
        wait = kind_str(value.tile)
        report, refusal = judge_wait(value, seat, terms)
        if report is None:
            report = WaitReport.from_value(value).model_copy(update={"eligible": False})
            if value.eligible:
                refused[wait] = refusal
        wait_lines.append(WaitLine(wait, max(0, 4 - seen[value.tile]), report))
    lines = tuple(wait_lines)
    warnings: list[str] = []
    if lines and terms.paarenchan and seat is Seat.EAST:
        warnings.append("Paarenchan (R35): your next ron, on any wait, is paid as a yakuman.")
    dead = dead_waits(hand.counts)
    for kind in dead:
        warnings.append(f"Dead wait: the hand holds all four {kind_str(kind)}, so {kind_str(kind)}"
                        " can never win (R12).")
    if not lines:
        warnings.insert(0, "Not tenpai: this hand can never win (R12).")
        return HandAnalysis(HAND_SIZE, False, (), tuple(warnings))
    can_win = any(line.report.eligible for line in lines)
    for line in lines:
        if line.tile in refused:
            warnings.append(f"{line.tile} cannot win: {refused[line.tile]}; the opponent can "
                            "discard it to freeze your hand (furiten, R15b).")
        elif can_win and not line.report.eligible:
            basis = f"{line.report.han_without_ura} han {line.report.fu} fu"
            warnings.append(
                f"{line.tile} is worth only {basis}, below mangan: the opponent can discard it "
                "to freeze your hand (furiten, R14, R15b).")
        if line.live == 0:
            warnings.append(f"No live copy of {line.tile} is left: you can see all four.")
    if not can_win and refused:
        warnings.insert(0, "No wait can win (below mangan, R14, or two han of yaku short under "
                           "ryanshi, R34): each of its waits the opponent discards leaves you "
                           "furiten (R15b).")
    elif not can_win:
        warnings.insert(0, "No wait reaches mangan: this hand cannot win, and each of its waits "
                           "the opponent discards leaves you furiten (R14, R15b).")
    warnings.extend(_pool_warning(own_tiles, chosen, lines))
    return HandAnalysis(HAND_SIZE, True, lines, tuple(warnings))


def _pool_warning(own_tiles: Sequence[Tile], chosen: Sequence[Tile],
                  lines: Sequence[WaitLine]) -> list[str]:
    """The warning that the pool (``own_tiles`` but ``chosen``) holds more tiles of the waits
    than the pool tiles never discarded (R10, R15a); none when it does not."""
    pool = counts_of(own_tiles)
    for tile in chosen:
        pool[tile.kind] -= 1
    in_pool = sum(pool[Tile.parse(line.tile).kind] for line in lines)
    if in_pool <= NEVER_DISCARDED:
        return []
    return [f"Your pool holds {in_pool} tiles of your own waits but only {NEVER_DISCARDED} pool "
            f"tiles are never discarded: you will have to discard {in_pool - NEVER_DISCARDED} "
            "of them and become furiten (R10, R15a)."]


def furiten_detail(cause: FuritenCause, hand: str | None, seat: Seat, dora_indicator: Tile,
                   settings: RuleSettings, terms: GameTerms | None = None) -> str:
    """The cause of a seat's furiten in words, a passed wait's value with each of its yaku
    named (``... worth only 3 han 30 fu without ura (riichi 1, ippatsu 1, pinfu 1), below
    mangan``): on the opponent's first discard ippatsu counts (R16), so the han differ from the
    waits' values later in the game, and the names say why. ``hand`` is the seat's own."""
    if cause.kind != "passed_wait" or not hand or "without ura," not in cause.detail:
        return cause.detail
    tile = Tile.parse(cause.tile)
    ctx = ron_context(seat, cause.discard_number, dora_indicator.kind,
                      dealer=terms is not None and terms.dealer_bonus and seat is Seat.EAST)
    value = score_win(Hand.parse(hand), tile.kind, ctx, settings, win_red=tile.red)
    if value is None:
        return cause.detail
    report = WaitReport.from_value(value)
    named = [f"{yaku.name.replace('_', ' ')} {yaku.han}" for yaku in report.yaku]
    named += [f"dora {report.dora}"] if report.dora else []
    named += [f"aka {report.aka}"] if report.aka else []
    return cause.detail.replace("without ura,", f"without ura ({', '.join(named)}),", 1)
