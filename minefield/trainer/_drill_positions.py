"""Where the drills come from: seeded bot games and deals, and the patterns found in them.

Private to :mod:`minefield.trainer.drills`. Everything follows from a drill seed through
:func:`~minefield.rules.seed.derive_seed`: the deal, both bots' seeds, the seat, which position
of the game is asked. The truth (the opponent's hand, waits and furiten) is known because the
game is played here, and it stays in objects whose ``repr`` hides it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from minefield.bots.base import Level
from minefield.bots.discards import DiscardSituation, one_per_kind, safest_discard
from minefield.bots.hands import DealtTiles, HandChoice, choose_best
from minefield.bots.levels import DISCARD_POLICIES, LevelBot
from minefield.bots.search import tenpai_hands
from minefield.defense.position import Position
from minefield.errors import MinefieldError
from minefield.rules.game import (
    TOTAL_DISCARDS,
    ChooseHand,
    Discard,
    Game,
    Seat,
    first_discard_of,
    ron_context,
)
from minefield.rules.hand import Hand
from minefield.rules.score import WinContext, WinValue, analyze, score_win
from minefield.rules.seed import derive_int, derive_seed
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import counts_of, is_honor

Difficulty = Literal["beginner", "intermediate", "expert"]
DIFFICULTIES: tuple[Difficulty, ...] = ("beginner", "intermediate", "expert")

#: Which bots build the opponent's hand and make its discards at each difficulty
#: (:mod:`minefield.bots.levels`); the trainee's seat is played by the same bots up to the
#: position asked. A beginner reads the normal bot's hand (the most live
#: mangan waits: plain shapes) behind the easy bot's random discards (many of them, telling
#: much); an intermediate the normal bot's hand and genbutsu-first discards; an expert the
#: strong bot's hand of best expected value behind discards that lay suji traps
#: (:func:`trap_discard`). (The easy bot's random hands rarely reach mangan, so there would
#: be nothing to defend against.)
OPPONENT_LEVEL: dict[Difficulty, tuple[Level, Level | Literal["trap"]]] = {
    "beginner": ("normal", "easy"), "intermediate": ("normal", "normal"),
    "expert": ("strong", "trap")}
#: Games (or deals) tried before a drill settles for a position without the wanted pattern.
MAX_ATTEMPTS = 30
#: The earliest discard a table drill asks about: before it there is little to read.
FIRST_NUMBER = 7

# The patterns each kind of drill knows, most telling first.
SAFEST_PATTERNS = ("suji_trap", "no_chance_own", "passed_suji", "genbutsu", "plain")
WAIT_PATTERNS = ("suji_trap", "chiitoitsu", "multi_wait", "kanchan", "penchan", "tanki",
                 "shanpon", "ryanmen")
MANGAN_PATTERNS = ("ippatsu", "houtei", "chiitoitsu_25", "kiriage", "dora", "just_below",
                   "clear", "cheap")

#: The patterns a difficulty asks for when the scheduler names none.
WANTED: dict[str, dict[Difficulty, tuple[str, ...]]] = {
    "safest": {"beginner": ("genbutsu", "passed_suji", "plain"),
               "intermediate": ("no_chance_own", "passed_suji", "suji_trap"),
               "expert": ("suji_trap", "no_chance_own")},
    "read_wait": {"beginner": ("ryanmen", "shanpon"),
                  "intermediate": ("kanchan", "penchan", "tanki", "shanpon", "multi_wait"),
                  "expert": ("suji_trap", "chiitoitsu", "multi_wait", "kanchan", "tanki")},
    "is_mangan": {"beginner": ("clear", "cheap", "dora"),
                  "intermediate": ("dora", "kiriage", "just_below"),
                  "expert": ("kiriage", "chiitoitsu_25", "ippatsu", "houtei", "just_below")},
}
#: safe_hand deals by the expected value of the bot's best hand: clear deals for beginners.
SAFE_HAND_VALUES: dict[Difficulty, tuple[float, float]] = {
    "beginner": (5000.0, float("inf")), "intermediate": (2500.0, 5000.0),
    "expert": (float("-inf"), 2500.0)}

SETTINGS = RuleSettings()  # drills play the standard rules (R14: mangan, kiriage on)


class NoPositionError(MinefieldError, RuntimeError):
    """No seeded game gave a usable position (should not happen; the message says which)."""


# ---------------------------------------------------------------------------------------------
# Reading helpers (from what the discarding seat sees)


def suji_partners(kind: int) -> tuple[int, ...]:
    """The kinds that must be safe for ``kind`` to be (full) suji: 4m needs 1m and 7m."""
    if is_honor(kind):
        return ()
    index = kind % 9
    return tuple(kind + step for step in (-3, 3) if 0 <= index + step <= 8)


def is_suji(kind: int, safe: frozenset[int]) -> bool:
    """True when every suji partner of ``kind`` is in ``safe`` (no two-sided wait on it)."""
    partners = suji_partners(kind)
    return bool(partners) and all(p in safe for p in partners)


def no_chance_from_own(kind: int, own: Sequence[int]) -> bool:
    """True when every sequence through ``kind`` needs a kind the seat holds all four of:
    the opponent cannot wait on it with a sequence shape (only tanki or shanpon)."""
    if is_honor(kind):
        return False
    index, base = kind % 9, kind - kind % 9
    starts = [s for s in (index - 2, index - 1, index) if 0 <= s <= 6]
    return all(any(own[base + m] == 4 for m in (s, s + 1, s + 2) if base + m != kind)
               for s in starts)


# ---------------------------------------------------------------------------------------------
# Table positions: safest and read_wait


@dataclass(frozen=True)
class TablePosition:
    """A position of a seeded bot game with its truth (and the commands that led to it, to
    replay the game). Its repr hides the truth."""

    position: Position
    game_seed: str
    opponent_hand: Hand
    opponent_waits: tuple[int, ...]
    opponent_furiten: bool
    values: tuple[WinValue, ...]
    deal_ins: tuple[int, ...]
    safest_patterns: tuple[str, ...]
    wait_pattern: str
    ura_indicator: int
    commands: tuple[tuple[Seat, ChooseHand | Discard], ...]

    def __repr__(self) -> str:
        return f"TablePosition(discard {self.position.number}, <truth hidden>)"


def _table_position(game: Game, you: Seat) -> TablePosition | None:
    """The position of ``you`` about to discard, when it is worth a drill (else None): the
    opponent is tenpai and not furiten, and the pool holds both a tile that deals in and one
    that does not."""
    position = Position.from_view(game.view(you))
    opponent = you.other
    hand = game.hand_of(opponent)
    waits = game.waits_of(opponent)
    if hand is None or not waits or game.furiten_of(opponent) is not None:
        return None
    ctx = ron_context(opponent, position.number, game.dora_indicator.kind)
    values = analyze(hand, ctx, game.settings)
    eligible = {v.tile for v in values if v.eligible}
    pool = position.pool_kinds
    deal_ins = tuple(k for k in pool if k in eligible)
    if not deal_ins or len(deal_ins) == len(pool):
        return None
    return TablePosition(
        position=position, game_seed=game.seed, opponent_hand=hand, opponent_waits=waits,
        opponent_furiten=False, values=values, deal_ins=deal_ins,
        safest_patterns=safest_patterns(position, frozenset(deal_ins)),
        wait_pattern=wait_pattern(position, values), ura_indicator=game.ura_indicator.kind,
        commands=tuple(game.commands))


def safest_patterns(position: Position, deal_ins: frozenset[int]) -> tuple[str, ...]:
    """The reading patterns of a safest-tile position, most telling first (at least one).

    * ``suji_trap``: a tile that is suji of the safe tiles (the opponent's discards and the
      seat's own passed ones) deals in: kanchan, tanki, shanpon or a trap laid on purpose;
    * ``no_chance_own``: a safe tile that only the seat's own four-of-a-kind proves safe
      against sequence waits;
    * ``passed_suji``: a safe tile that is suji of the seat's own passed discards (a two-sided
      wait on it would have won on the passed tile, or made the opponent furiten, R15);
    * ``genbutsu``: the pool holds a kind discarded already (safe for ever, R15);
    * ``plain``: none of these.
    """
    pool = position.pool_kinds
    known = position.genbutsu | position.passed
    safe = [k for k in pool if k not in deal_ins]
    own = counts_of(position.tiles)
    found: list[str] = []
    if any(is_suji(k, known) and k not in known for k in deal_ins):
        found.append("suji_trap")
    if any(k not in known and no_chance_from_own(k, own) for k in safe):
        found.append("no_chance_own")
    if any(k not in known and is_suji(k, position.passed) for k in safe):
        found.append("passed_suji")
    if any(k in known for k in pool):
        found.append("genbutsu")
    return tuple(found) or ("plain",)


def wait_pattern(position: Position, values: Sequence[WinValue]) -> str:
    """The pattern of the opponent's waits: a suji trap (a wait that is suji of their own
    discards), seven pairs, three or more waits, else the hardest shape among them."""
    if any(v.paid.reading.form == "chiitoitsu" for v in values):
        return "chiitoitsu"
    if any(is_suji(v.tile, position.genbutsu) for v in values):
        return "suji_trap"
    if len(values) >= 3:
        return "multi_wait"
    shapes = {v.paid.wait for v in values}
    for shape in ("kanchan", "penchan", "tanki", "shanpon"):
        if shape in shapes:
            return shape
    return "ryanmen"


def trap_discard(table: DiscardSituation, rng: random.Random) -> Discard:
    """The expert opponent's discards: while not furiten, a tile three steps from one of its
    own waits (never a wait itself), so that the wait looks like suji: a kanchan, penchan,
    tanki or shanpon wait hides behind it (a two-sided wait would be furiten, R15a). Else the
    least dangerous tile, as the strong bot."""
    if table.seat_view.own_furiten is None:
        lures = [t for t in one_per_kind(table.allowed())
                 if t.kind not in table.own_waits
                 and any(t.kind in suji_partners(w) for w in table.own_waits)]
        if lures:
            return Discard(tile=str(rng.choice(lures)))
    return safest_discard(table, rng)


def _table_positions(seed: str, kind: str, difficulty: Difficulty, attempt: int
                     ) -> Iterator[TablePosition]:
    """The drill-worthy positions of one seeded bot game, in discard order, for either seat
    (both seats play the difficulty's bots, so either may be the trainee's)."""
    game_seed = derive_seed(seed, "drill", kind, difficulty, attempt)
    hand_level, discard_level = OPPONENT_LEVEL[difficulty]
    policy = trap_discard if discard_level == "trap" else DISCARD_POLICIES[discard_level]
    bots = {seat: LevelBot(hand_level, derive_int(game_seed, str(seat)), discard_policy=policy)
            for seat in Seat}
    game = Game(game_seed, SETTINGS)
    for seat in Seat:
        game.apply(seat, bots[seat].act(game.view(seat)))
    while game.turn is not None:
        seat = game.turn
        if game.discard_count + 1 >= FIRST_NUMBER:
            found = _table_position(game, seat)
            if found is not None:
                yield found
        game.apply(seat, bots[seat].act(game.view(seat)))


def find_table_position(seed: str, kind: str, difficulty: Difficulty,
                        wanted: tuple[str, ...]) -> tuple[TablePosition, str]:
    """The position of a ``safest`` or ``read_wait`` drill and its pattern.

    Each attempt plays one seeded game and starts looking from a seeded discard number, so a
    drill is not always the first usable discard; the first position with a wanted pattern
    wins, else the first usable one.
    """
    fallback: tuple[TablePosition, str] | None = None
    for attempt in range(MAX_ATTEMPTS):
        start = random.Random(derive_seed(seed, "start", attempt)).randint(FIRST_NUMBER, 26)
        earlier: list[TablePosition] = []
        for table in _table_positions(seed, kind, difficulty, attempt):
            if table.position.number < start:
                earlier.append(table)  # looked at only if nothing comes after the start
                continue
            patterns = table.safest_patterns if kind == "safest" else (table.wait_pattern,)
            match = next((p for p in patterns if p in wanted), None)
            if match is not None:
                return table, match
            fallback = fallback or (table, patterns[0])
        for table in earlier:
            patterns = table.safest_patterns if kind == "safest" else (table.wait_pattern,)
            match = next((p for p in patterns if p in wanted), None)
            if match is not None:
                return table, match
            fallback = fallback or (table, patterns[0])
    if fallback is None:
        raise NoPositionError(f"no usable position in {MAX_ATTEMPTS} games of seed {seed}")
    return fallback


# ---------------------------------------------------------------------------------------------
# is_mangan


@dataclass(frozen=True)
class ManganQuestion:
    """A hand, its winning tile and the situation of the ron, with the engine's verdict."""

    seat: Seat
    hand: Hand
    wait: int
    number: int
    context: WinContext
    value: WinValue
    pattern: str

    def __repr__(self) -> str:
        return f"ManganQuestion({self.hand}, wait {self.wait}, <verdict hidden>)"


def mangan_pattern(hand: Hand, wait: int, ctx: WinContext, value: WinValue,
                   settings: RuleSettings = SETTINGS) -> str:
    """What decides R14 for this ron: the one thing that lifts it to mangan (ippatsu, houtei,
    kiriage, dora), a seven-pairs 4 han 25 fu or another 3-4 han hand just below, or a clear
    verdict either way."""

    def eligible(context: WinContext, rules: RuleSettings = settings) -> bool:
        other = score_win(hand, wait, context, rules)
        return other is not None and other.eligible

    basis = value.basis
    if value.eligible:
        if ctx.ippatsu and not eligible(replace(ctx, ippatsu=False)):
            return "ippatsu"
        if ctx.houtei and not eligible(replace(ctx, houtei=False)):
            return "houtei"
        if settings.kiriage and not eligible(ctx, settings.model_copy(update={"kiriage": False})):
            return "kiriage"
        if ctx.dora_indicator is not None and not eligible(replace(ctx, dora_indicator=None)):
            return "dora"
        return "clear"
    if basis.reading.form == "chiitoitsu" and basis.han == 4:
        return "chiitoitsu_25"
    if basis.han >= 3:
        return "just_below"
    return "cheap"


def find_mangan_question(seed: str, difficulty: Difficulty, wanted: tuple[str, ...]
                         ) -> ManganQuestion:
    """A seeded tenpai hand from a seeded deal, one of its waits and the discard it comes on,
    whose pattern is wanted (else the first one tried)."""
    fallback: ManganQuestion | None = None
    for attempt in range(MAX_ATTEMPTS):
        game_seed = derive_seed(seed, "drill", "is_mangan", difficulty, attempt)
        rng = random.Random(game_seed)
        seat = rng.choice((Seat.EAST, Seat.WEST))
        game = Game(game_seed, SETTINGS)
        deal = DealtTiles.from_view(game.view(seat))
        found = tenpai_hands(deal.counts)
        hands = sorted(found)
        rng.shuffle(hands)
        for counts in hands[:300]:
            hand = Hand.parse(deal.hand_tiles(counts))
            for wait in sorted(found[counts]):
                number = _ron_number(rng, seat)
                ctx = ron_context(seat, number, game.dora_indicator.kind)
                value = score_win(hand, wait, ctx, SETTINGS)
                if value is None:
                    continue
                pattern = mangan_pattern(hand, wait, ctx, value)
                question = ManganQuestion(seat, hand, wait, number, ctx, value, pattern)
                if pattern in wanted:
                    return question
                if fallback is None:
                    fallback = question
    if fallback is None:
        raise NoPositionError(f"no tenpai hand in {MAX_ATTEMPTS} deals of seed {seed}")
    return fallback


def _ron_number(rng: random.Random, winner: Seat) -> int:
    """The discard a ron comes on: sometimes the ippatsu one (R16) or, for East, the last
    (R17), else an ordinary one."""
    draw = rng.random()
    if draw < 0.2:
        return first_discard_of(winner.other)
    if draw < 0.3 and winner is Seat.EAST:
        return TOTAL_DISCARDS
    return rng.choice(ordinary_ron_numbers(winner))


def ordinary_ron_numbers(winner: Seat) -> range:
    """The opponent's discards that are neither its first (ippatsu) nor the last (houtei):
    East wins on West's even-numbered discards, West on East's odd ones (R10)."""
    first = first_discard_of(winner.other)
    return range(first + 2, TOTAL_DISCARDS, 2)


# ---------------------------------------------------------------------------------------------
# safe_hand


@dataclass(frozen=True)
class HandDeal:
    """A seat's 34 tiles and the bot's best hand from them (the hidden answer)."""

    deal: DealtTiles
    best: HandChoice
    pattern: str

    def __repr__(self) -> str:
        return "HandDeal(<answer hidden>)"


def hand_pattern(deal: DealtTiles, hand: Sequence[int]) -> str:
    """The main yaku of a hand's best eligible wait (``dora`` when only riichi and dora make it;
    ``no_mangan_wait`` when no wait reaches mangan; ``noten`` without a wait)."""
    every = analyze(Hand.parse(deal.hand_tiles(hand)), deal.context, deal.settings)
    if not every:
        return "noten"
    values = [v for v in every if v.eligible]
    if not values:
        return "no_mangan_wait"
    best = max(values, key=lambda v: v.basis.points)
    yaku = [(han, name) for name, han in best.basis.yaku if name not in ("riichi",)]
    if not yaku:
        return "dora"
    return max(yaku)[1].replace(" ", "_")


def find_hand_deal(seed: str, difficulty: Difficulty, wanted: tuple[str, ...] | None
                   ) -> HandDeal:
    """A seeded deal whose best hand's value fits the difficulty (and whose pattern is wanted,
    when one is named), else the first tenpai deal tried."""
    low, high = SAFE_HAND_VALUES[difficulty]
    fallback: HandDeal | None = None
    for attempt in range(MAX_ATTEMPTS):
        game_seed = derive_seed(seed, "drill", "safe_hand", difficulty, attempt)
        seat = Seat.EAST if derive_int(game_seed, "seat") % 2 == 0 else Seat.WEST
        deal = DealtTiles.from_view(Game(game_seed, SETTINGS).view(seat))
        best = choose_best(deal)
        if not best.tenpai:
            continue
        found = HandDeal(deal, best, hand_pattern(deal, best.hand))
        if fallback is None:
            fallback = found
        if low <= best.value < high and (wanted is None or found.pattern in wanted):
            return found
    if fallback is None:
        raise NoPositionError(f"no tenpai deal in {MAX_ATTEMPTS} deals of seed {seed}")
    return fallback
