"""The defense trainer's drills: seeded positions, graded answers and spaced repetition.

Every drill is built from a seed (the same seed, kind, difficulty and pattern give the same
drill, always) by playing seeded bot games (:mod:`minefield.bots`), so its truth is known:

* ``safest``: you are about to discard; pick the safest tile of your pool. Graded by the
  estimated danger of your tile against the least available
  (:func:`minefield.defense.estimate.estimate`), then the truth is shown: the opponent's hand
  and which of your tiles would have dealt in.
* ``read_wait``: the same kind of position; mark the kinds you think the opponent waits on.
  Graded by precision and recall against the true waits (R12); the score is their F1.
* ``is_mangan``: a hand, its winning tile and the discard it comes on: is the ron allowed
  under R14 (mangan without ura, kiriage on)? Graded exactly by :mod:`minefield.rules.score`.
* ``safe_hand``: choose 13 of your 34 tiles (R7); your hand's expected value, chance to win
  and pool danger are shown beside the strong bot's best (:mod:`minefield.bots.hands`).

Difficulty (``beginner``, ``intermediate``, ``expert``) chooses the bot that builds the
opponent's hand (easy, normal, strong) and how subtle the pattern asked is (a genbutsu for a
beginner, a suji trap or a no-chance from your own tiles for an expert; a clear mangan or a
kiriage 4 han 30 fu). Patterns missed come back sooner (:class:`Scheduler`, Leitner boxes
replayed from the stored history, :mod:`minefield.trainer.progress`).

A :class:`Drill` shows only what the trainee may see (R26): the opponent's hand, waits and the
pattern are inside it but hidden (its repr says so) and come out only in the
:class:`DrillAnswer`.

>>> drill = make_drill("is_mangan", "1", "beginner")
>>> drill == make_drill("is_mangan", "1", "beginner")
True
>>> answer = answer_is_mangan(drill, True)
>>> answer.correct == answer.truth.allowed, answer.explanation[0].startswith(("Right", "Wrong"))
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from minefield.bots.hands import DEFAULT_MODEL, DealtTiles
from minefield.bots.hands import _Evaluator as HandEvaluator  # the strong bot's own measure
from minefield.defense.estimate import estimate, percent
from minefield.defense.position import DangerReport, Position
from minefield.defense.reasons import reasons_for
from minefield.errors import MinefieldError
from minefield.rules.game import POOL_SIZE, TOTAL_DISCARDS, Seat, ron_context
from minefield.rules.hand import HAND_SIZE, PENCHAN, RYANMEN, SEQ, Hand, waits
from minefield.rules.names import to_mpsz
from minefield.rules.report import WaitReport
from minefield.rules.score import WinContext, WinValue, score_win
from minefield.rules.seed import SeedError, derive_seed, parse_seed
from minefield.rules.tiles import (
    NUM_KINDS,
    Tile,
    TileError,
    counts_of,
    kind_from_str,
    kind_str,
    kinds_to_str,
    parse_tiles,
)
from minefield.trainer._drill_positions import (
    DIFFICULTIES,
    MANGAN_PATTERNS,
    OPPONENT_LEVEL,
    SAFEST_PATTERNS,
    SETTINGS,
    WAIT_PATTERNS,
    WANTED,
    Difficulty,
    HandDeal,
    ManganQuestion,
    NoPositionError,
    TablePosition,
    find_hand_deal,
    find_mangan_question,
    find_table_position,
    mangan_pattern,
)
from minefield.trainer.progress import DrillRecord
from minefield.trainer.words import KIND_NAMES, PATTERN_NAMES, kind_words, pattern_words

DrillKind = Literal["safest", "read_wait", "is_mangan", "safe_hand", "from_games"]
#: The kinds made from a seed (``from_games``, from the player's own games, is
#: :mod:`minefield.trainer.game_drills`'s).
KINDS: tuple[DrillKind, ...] = ("safest", "read_wait", "is_mangan", "safe_hand")
#: The patterns the scheduler can ask for, by kind (safe_hand's are yaku names, open-ended).
PATTERNS: dict[DrillKind, tuple[str, ...]] = {
    "safest": SAFEST_PATTERNS, "read_wait": WAIT_PATTERNS, "is_mangan": MANGAN_PATTERNS,
    "safe_hand": (), "from_games": (),
}
#: A safest answer within this much estimated danger of the least available is right.
SAFEST_TOLERANCE = 0.01


__all__ = [
    "ANSWER_WORDS", "DIFFICULTIES", "KINDS", "KIND_NAMES", "PATTERNS", "PATTERN_NAMES",
    "Difficulty", "Drill", "DrillAnswer", "DrillError",
    "DrillKind", "DrillTruth", "HandRating", "PatternBox", "Scheduler", "answer",
    "answer_is_mangan", "answer_read_wait", "answer_safe_hand", "answer_safest", "answer_text",
    "drill_from_id", "kind_words", "make_drill", "make_mangan_drill", "pattern_words",
    "rate_hand", "reader_lines", "wait_shape_words",
]


class DrillError(MinefieldError, ValueError):
    """A drill that cannot be made or an answer that is not valid; the message says why."""


# ---------------------------------------------------------------------------------------------
# Drills and answers


@dataclass(frozen=True)
class _Secret:
    """What the drill knows and the trainee does not (until the answer)."""

    pattern: str
    table: TablePosition | None = None
    mangan: ManganQuestion | None = None
    hand_deal: HandDeal | None = None

    def __repr__(self) -> str:
        return "<hidden>"


@dataclass(frozen=True)
class Drill:
    """One question, with only what the trainee may see (R26).

    * ``safest`` and ``read_wait``: ``position`` (your tiles, hand, both discard rows, the dora
      indicator; the opponent's hand is not in it);
    * ``is_mangan``: ``hand``, ``wait``, ``number`` (the discard the ron comes on) and
      ``context`` (seat wind, ippatsu, houtei, dora indicator; no ura);
    * ``safe_hand``: ``tiles`` (your 34), ``seat`` and ``dora_indicator``.

    ``prompt`` is the question in words; ``id`` rebuilds the drill (:func:`drill_from_id`).
    """

    kind: DrillKind
    difficulty: Difficulty
    seed: str
    target: str | None
    prompt: tuple[str, ...]
    seat: Seat
    dora_indicator: Tile
    position: Position | None = None
    hand: Hand | None = None
    wait: str | None = None
    number: int | None = None
    context: WinContext | None = None
    tiles: tuple[Tile, ...] | None = None
    custom: str | None = None
    _secret: _Secret = field(default=_Secret("plain"), repr=False)

    @property
    def id(self) -> str:
        """``kind:difficulty:target:seed`` (target ``*`` when none was asked), or for a
        question of your own (:func:`make_mangan_drill`)
        ``is_mangan:custom:hand:wait:seat:number:indicator``."""
        if self.custom is not None:
            return self.custom
        return f"{self.kind}:{self.difficulty}:{self.target or '*'}:{self.seed}"


@dataclass(frozen=True)
class HandRating:
    """A 13-tile hand as the strong bot rates it: expected value (points), chance to win a
    ron, and the chance its pool deals in (the bot's rough model, :mod:`minefield.bots.hands`)."""

    hand: str
    tenpai: bool
    waits: tuple[str, ...]
    value: float
    win_chance: float
    pool_danger: float


@dataclass(frozen=True)
class DrillTruth:
    """What the answer reveals. Fields that do not apply to a kind are None or empty.

    ``pattern`` is what the drill trained (for the scheduler). Table drills: the opponent's
    ``opponent_hand``, ``opponent_waits`` and the pool kinds that would deal in now
    (``deal_ins``); ``report`` is the danger estimate (safest). ``is_mangan``: ``allowed`` and
    the engine's ``value``. ``safe_hand``: ``yours`` and ``best``.
    """

    pattern: str
    opponent_hand: str | None = None
    opponent_waits: tuple[str, ...] = ()
    deal_ins: tuple[str, ...] = ()
    report: DangerReport | None = None
    allowed: bool | None = None
    value: WaitReport | None = None
    yours: HandRating | None = None
    best: HandRating | None = None


@dataclass(frozen=True)
class DrillAnswer:
    """The verdict on one answer, at once: right or not, a score from 0 to 1, the explanation
    in lines (rule numbers cited) and the truth."""

    drill_id: str
    kind: DrillKind
    difficulty: Difficulty
    correct: bool
    score: float
    explanation: tuple[str, ...]
    truth: DrillTruth

    @property
    def pattern(self) -> str:
        """The pattern the drill trained."""
        return self.truth.pattern

    def record(self) -> DrillRecord:
        """This answer as :meth:`minefield.trainer.progress.ProgressStore.record_drill` saves
        it."""
        return DrillRecord(kind=self.kind, difficulty=self.difficulty, position=self.drill_id,
                           correct=self.correct, score=self.score, pattern=self.pattern)


def _check(kind: str, difficulty: str, seed: int | str) -> tuple[DrillKind, Difficulty, str]:
    found_kind = next((k for k in KINDS if k == kind), None)
    if found_kind is None:
        raise DrillError(f"unknown drill kind {kind!r}: choose one of {', '.join(KINDS)}")
    found_level = next((d for d in DIFFICULTIES if d == difficulty), None)
    if found_level is None:
        raise DrillError(f"unknown difficulty {difficulty!r}: choose one of "
                         f"{', '.join(DIFFICULTIES)}")
    try:
        return found_kind, found_level, parse_seed(seed)
    except SeedError as error:
        raise DrillError(f"seed: {error}") from None


def _seat_name(seat: Seat) -> str:
    return str(seat).capitalize()


def make_drill(kind: str, seed: int | str, difficulty: str = "intermediate",
               pattern: str | None = None) -> Drill:
    """The drill of ``kind`` for ``seed`` (32 hex digits or a small number) at ``difficulty``,
    looking for ``pattern`` when one is named (else the difficulty's patterns).

    The same arguments give the same drill. Raises :class:`DrillError` for an unknown kind,
    difficulty or pattern, or a bad seed.
    """
    drill_kind, level, canonical = _check(kind, difficulty, seed)
    known = PATTERNS[drill_kind]
    if pattern is not None and known and pattern not in known:
        raise DrillError(f"unknown {drill_kind} pattern {pattern!r}: choose one of "
                         f"{', '.join(known)}")
    try:
        if drill_kind in ("safest", "read_wait"):
            return _table_drill(drill_kind, level, canonical, pattern)
        if drill_kind == "is_mangan":
            return _mangan_drill(level, canonical, pattern)
        return _hand_drill(level, canonical, pattern)
    except NoPositionError as error:
        raise DrillError(str(error)) from None


def drill_from_id(drill_id: str) -> Drill:
    """Rebuild a drill from its :attr:`Drill.id` (as the progress file stores it);
    :class:`DrillError` for a malformed one."""
    parts = drill_id.split(":")
    if len(parts) == 7 and parts[:2] == ["is_mangan", "custom"]:
        hand, wait, seat, number, indicator = parts[2:]
        if not number.isdigit():
            raise DrillError(f"{drill_id!r}: the discard number {number!r} is not a number")
        return make_mangan_drill(hand, wait, seat, int(number), indicator)
    if len(parts) != 4:
        raise DrillError(f"{drill_id!r} is not a drill id (kind:difficulty:pattern:seed)")
    kind, difficulty, target, seed = parts
    return make_drill(kind, seed, difficulty, None if target == "*" else target)


def _table_drill(kind: DrillKind, level: Difficulty, seed: str, target: str | None) -> Drill:
    wanted = (target,) if target else WANTED[kind][level]
    table, pattern = find_table_position(seed, kind, level, wanted)
    position = table.position
    opponent = _seat_name(position.opponent)
    if kind == "safest":
        prompt = (f"Discard {position.number}: you are {_seat_name(position.seat)}. "
                  "Which tile of your pool is the safest to discard?",)
    else:
        prompt = (f"Discard {position.number}: you are {_seat_name(position.seat)}. "
                  f"Mark every kind you think {opponent} waits on.",)
    return Drill(kind=kind, difficulty=level, seed=seed, target=target, prompt=prompt,
                 seat=position.seat, dora_indicator=position.dora_indicator, position=position,
                 _secret=_Secret(pattern, table=table))


def _mangan_drill(level: Difficulty, seed: str, target: str | None) -> Drill:
    wanted = (target,) if target else WANTED["is_mangan"][level]
    return _mangan_drill_of(find_mangan_question(seed, level, wanted), level, seed, target)


def _mangan_drill_of(question: ManganQuestion, level: Difficulty, seed: str,
                     target: str | None, custom: str | None = None) -> Drill:
    ctx = question.context
    dora = Tile(ctx.dora_indicator) if ctx.dora_indicator is not None else Tile(0)
    situation = []
    if ctx.ippatsu:
        situation.append("the opponent's first discard (ippatsu, R16)")
    if ctx.houtei:
        situation.append("the last discard of the game (houtei, R17)")
    when = f"discard {question.number}" + (f", {' and '.join(situation)}" if situation else "")
    prompt = (f"You are {_seat_name(question.seat)} with {question.hand}; dora indicator "
              f"{dora}.",
              f"The opponent discards {kind_str(question.wait)} on {when}. Is the ron allowed "
              "(R14: mangan without ura dora, kiriage on)?")
    return Drill(kind="is_mangan", difficulty=level, seed=seed, target=target, prompt=prompt,
                 seat=question.seat, dora_indicator=dora, hand=question.hand,
                 wait=kind_str(question.wait), number=question.number, context=ctx,
                 custom=custom, _secret=_Secret(question.pattern, mangan=question))


def make_mangan_drill(hand: str, wait: str, seat: Seat | str, number: int,
                      dora_indicator: str) -> Drill:
    """An ``is_mangan`` drill of your own: ``hand`` (13 tiles) winning on ``wait`` by ron on
    discard ``number`` (1-34) as ``seat``, with the dora indicator. Raises :class:`DrillError`
    when ``wait`` does not complete the hand or an argument is not valid."""
    try:
        parsed = Hand.parse(hand)
        win = kind_from_str(wait)
        indicator = Tile.parse(dora_indicator)
        winner = Seat(seat)
    except (TileError, ValueError) as error:
        raise DrillError(str(error)) from None
    if not 1 <= number <= TOTAL_DISCARDS:
        raise DrillError(f"discard number {number}: a game has discards 1 to {TOTAL_DISCARDS}")
    if (number % 2 == 1) != (winner is Seat.WEST):
        raise DrillError(f"discard {number} is {_seat_name(winner)}'s own: a ron comes on the "
                         "opponent's discard (East discards the odd numbers, R10)")
    ctx = ron_context(winner, number, indicator.kind)
    value = score_win(parsed, win, ctx, SETTINGS)
    if value is None:
        raise DrillError(f"{kind_str(win)} does not complete {parsed} (R12)")
    pattern = mangan_pattern(parsed, win, ctx, value)
    question = ManganQuestion(winner, parsed, win, number, ctx, value, pattern)
    custom = f"is_mangan:custom:{parsed}:{kind_str(win)}:{winner}:{number}:{indicator}"
    seed = derive_seed(parse_seed(0), custom)
    return _mangan_drill_of(question, "intermediate", seed, None, custom)


def _hand_drill(level: Difficulty, seed: str, target: str | None) -> Drill:
    found = find_hand_deal(seed, level, (target,) if target else None)
    deal = found.deal
    tiles = tuple(Tile(k) for k in range(NUM_KINDS) for _ in range(deal.counts[k]))
    assert deal.dora_indicator is not None
    dora = Tile(deal.dora_indicator)
    prompt = (f"You are {_seat_name(deal.seat)}; dora indicator {dora}. Choose the 13 of your "
              "34 tiles to keep as your hand (R7): the other 21 are the pool you must "
              "discard from.",)
    return Drill(kind="safe_hand", difficulty=level, seed=seed, target=target, prompt=prompt,
                 seat=deal.seat, dora_indicator=dora, tiles=tiles,
                 _secret=_Secret(found.pattern, hand_deal=found))


# ---------------------------------------------------------------------------------------------
# Answers


def _require(drill: Drill, kind: DrillKind) -> None:
    if drill.kind != kind:
        raise DrillError(f"this is a {drill.kind} drill, not a {kind} one")


def _kind_of(text: str) -> int:
    try:
        return kind_from_str(text.strip())
    except TileError as error:
        raise DrillError(f"{text!r} is not a tile: {error}") from None


def _table_truth(table: TablePosition, pattern: str, report: DangerReport | None = None
                 ) -> DrillTruth:
    return DrillTruth(pattern=pattern, opponent_hand=str(table.opponent_hand),
                      opponent_waits=tuple(kind_str(w) for w in table.opponent_waits),
                      deal_ins=tuple(kind_str(k) for k in table.deal_ins), report=report)


def reader_lines(position: Position) -> list[str]:
    """What a reader of the position has, in words: the dora, both discard rows in the order
    played, and how many copies of each kind this seat sees (its 34 tiles, both rows and the
    indicator, R26), as a grid of 4 at most per kind.

    >>> from minefield.rules.tiles import Tile, parse_tiles
    >>> position = Position(
    ...     seat=Seat.EAST, tiles=tuple(parse_tiles("1112345678999m11223344556677p1234567s")),
    ...     hand=Hand.parse("1112345678999m"), dora_indicator=Tile.parse("9s"),
    ...     discards={Seat.EAST: (Tile.parse("1p"),), Seat.WEST: (Tile.parse("2p"),)})
    >>> print(*reader_lines(position), sep=chr(10))
    Dora indicator 9s, so the dora is 1s
    West's discards in order: 2p
    Your discards in order: 1p
    Copies you see of each kind (your 34 tiles, both rows, the indicator):
        1 2 3 4 5 6 7 8 9
      m 3 1 1 1 1 1 1 1 3
      p 2 3 2 2 2 2 2 0 0
      s 1 1 1 1 1 1 1 0 1
      z 0 0 0 0 0 0 0   (z: 1-4 the winds E S W N, 5-7 the dragons Wh Gr Rd)
    """
    opponent = _seat_name(position.opponent)
    theirs = " ".join(str(t) for t in position.opponent_discards) or "none yet"
    mine = " ".join(str(t) for t in position.own_discards) or "none yet"
    seen = [4 - n for n in position.unseen]
    lines = [f"Dora indicator {position.dora_indicator}, so the dora is {kind_str(position.dora)}",
             f"{opponent}'s discards in order: {theirs}",
             f"Your discards in order: {mine}",
             "Copies you see of each kind (your 34 tiles, both rows, the indicator):",
             "    " + " ".join(str(n) for n in range(1, 10))]
    for suit, letter in enumerate("mpsz"):
        size = 7 if letter == "z" else 9
        lines.append(f"  {letter} " + " ".join(str(seen[suit * 9 + i]) for i in range(size)))
    lines[-1] += "   (z: 1-4 the winds E S W N, 5-7 the dragons Wh Gr Rd)"
    return lines


def wait_shape_words(value: WinValue) -> str:
    """How the opponent's hand waits on one tile, from the reading the ron would be paid by:
    ``ryanmen: 34p waits on 2p or 5p``, ``tanki: a single 7z waits for its pair``, ..."""
    win = kind_str(value.tile)
    reading = value.paid.reading
    if reading.form == "chiitoitsu":
        return f"seven pairs: six pairs and a single {win} that waits for its pair"
    if reading.form == "kokushi":
        return f"thirteen orphans: every terminal and honor, waiting on {win}"
    if reading.win_group < 0:
        return f"tanki: a single {win} waits for its pair"
    group = reading.groups[reading.win_group]
    if group < SEQ:
        pair = kind_str(reading.pair)
        return (f"shanpon: the pair {win[0] * 2}{win[1]} waits to become a triplet (the other "
                f"pair is {pair[0] * 2}{pair[1]}, so its kind wins too)")
    start = group - SEQ
    held = [k for k in (start, start + 1, start + 2) if k != value.tile]
    shape = f"{held[0] % 9 + 1}{held[1] % 9 + 1}{kind_str(held[0])[1]}"
    if reading.wait == RYANMEN:
        low, high = held[0] - 1, held[1] + 1
        return f"ryanmen: {shape} waits on {kind_str(low)} or {kind_str(high)}"
    if reading.wait == PENCHAN:
        return f"penchan: {shape} waits only on {win} (an edge)"
    return f"kanchan: {shape} waits on the {win} between them"


def _waits_line(table: TablePosition, opponent: str) -> str:
    parts = []
    for value in table.values:
        verdict = "mangan or more" if value.eligible else "below mangan, it would pass (R15b)"
        parts.append(f"{kind_str(value.tile)} ({value.paid.wait}, {value.basis.han} han "
                     f"{value.basis.fu} fu without ura: {verdict})")
    return f"{opponent} held {table.opponent_hand}, waiting on " + "; ".join(parts) + "."


def answer_safest(drill: Drill, tile: str) -> DrillAnswer:
    """Grade a ``safest`` answer: the tile's estimated danger against the least in the pool
    (right within :data:`SAFEST_TOLERANCE`; the score falls linearly to 0 at the most
    dangerous tile), then the truth: whether it (and each tile) would have dealt in. The
    estimate is the one for the bot level that built the opponent's hand at the drill's
    difficulty (:data:`OPPONENT_LEVEL`). :class:`DrillError` for a tile not in the pool."""
    _require(drill, "safest")
    table = drill._secret.table
    assert table is not None and drill.position is not None
    kind = _kind_of(tile)
    name = kind_str(kind)
    if kind not in drill.position.pool_kinds:
        raise DrillError(f"{name} is not in your pool: choose one of "
                         f"{kinds_to_str(drill.position.pool_kinds)}")
    report = estimate(drill.position, OPPONENT_LEVEL[drill.difficulty][0])
    chosen = report.of(name)
    safest = report.safest()
    worst = max(t.danger for t in report.tiles)
    excess = chosen.danger - safest.danger
    correct = excess <= SAFEST_TOLERANCE
    score = 1.0 if correct or worst <= safest.danger else max(
        0.0, 1 - excess / (worst - safest.danger))
    opponent = _seat_name(drill.position.opponent)
    dealt_in = kind in table.deal_ins
    lines = [
        f"{'Right' if correct else 'Not the safest'}: {name} is estimated at "
        f"{percent(chosen.danger)}; the least in your pool was {safest.tile} at "
        f"{percent(safest.danger)}.",
        *(f"{name}: {reason}" for reason in chosen.reasons),
    ]
    if safest.tile != name:
        lines.extend(f"{safest.tile}: {reason}" for reason in safest.reasons)
    lines.append(f"In truth {name} {'would have dealt in' if dealt_in else 'was safe'} "
                 f"(R13).")
    lines.append(_waits_line(table, opponent))
    safe_now = [kind_str(k) for k in drill.position.pool_kinds if k not in table.deal_ins]
    lines.append(f"Would deal in now: {', '.join(kind_str(k) for k in table.deal_ins)}; "
                 f"safe: {', '.join(safe_now)}.")
    return DrillAnswer(drill.id, drill.kind, drill.difficulty, correct, round(score, 4),
                       tuple(lines), _table_truth(table, drill._secret.pattern, report))


def answer_read_wait(drill: Drill, kinds: Iterable[str]) -> DrillAnswer:
    """Grade a ``read_wait`` answer: the kinds marked against the opponent's true waits (R12).
    Right only when they are exactly the waits; the score is F1 of precision and recall."""
    _require(drill, "read_wait")
    table = drill._secret.table
    assert table is not None and drill.position is not None
    marked = {_kind_of(text) for text in kinds}
    true = set(table.opponent_waits)
    hits = marked & true
    precision = len(hits) / len(marked) if marked else 0.0
    recall = len(hits) / len(true) if true else 0.0
    score = 2 * precision * recall / (precision + recall) if hits else 0.0
    correct = marked == true
    opponent = _seat_name(drill.position.opponent)
    lines = [f"{'Right' if correct else 'Not quite'}: {len(hits)} of your {len(marked)} marks "
             f"are waits (precision {precision:.0%}), {len(hits)} of {len(true)} waits found "
             f"(recall {recall:.0%})."]
    if marked - true:
        lines.append(f"Not waits: {kinds_to_str(sorted(marked - true))}.")
    if true - marked:
        lines.append(f"Missed: {kinds_to_str(sorted(true - marked))}.")
    lines.append(_waits_line(table, opponent))
    position = drill.position
    # The waits' own reasons, pool or not (a wait this seat no longer holds has reasons too).
    reasons = reasons_for(position, kinds=[value.tile for value in table.values])
    for value in table.values:
        tile = kind_str(value.tile)
        seen = 4 - position.unseen[value.tile]
        clue = reasons[value.tile][0] if reasons[value.tile] else ""
        lines.append(f"{tile}: {wait_shape_words(value)}. You saw {seen} of its 4 copies"
                     + (f"; {clue}" if clue else "") + ".")
    for wait in sorted(true & drill.position.genbutsu):
        lines.append(f"{kind_str(wait)} is among {opponent}'s own discards: {opponent} is "
                     "furiten on it (R15a).")
    return DrillAnswer(drill.id, drill.kind, drill.difficulty, correct, round(score, 4),
                       tuple(lines), _table_truth(table, drill._secret.pattern))


def answer_is_mangan(drill: Drill, allowed: bool) -> DrillAnswer:
    """Grade an ``is_mangan`` answer exactly: R14 by :func:`minefield.rules.score.score_win`."""
    _require(drill, "is_mangan")
    question = drill._secret.mangan
    assert question is not None
    value = question.value
    basis = value.basis
    correct = allowed == value.eligible
    yaku = ", ".join(f"{name} {han}" for name, han in basis.yaku)
    dora = f", dora {basis.dora}" if basis.dora else ""
    reading = "seven pairs" if basis.reading.form == "chiitoitsu" else basis.wait
    verdict = ("allowed" if value.eligible
               else "not allowed: it passes, and the hand is furiten for the rest of the game "
               "(R15b)")
    limit = f" ({basis.limit})" if basis.limit else ""
    lines = [f"{'Right' if correct else 'Wrong'}: the ron on {drill.wait} is {verdict}.",
             f"Without ura: {yaku}{dora} = {basis.han} han {basis.fu} fu{limit}, read as "
             f"{reading} (R19, R22, R24).",
             _mangan_reason(question)]
    return DrillAnswer(drill.id, drill.kind, drill.difficulty, correct,
                       1.0 if correct else 0.0, tuple(lines),
                       DrillTruth(pattern=question.pattern, allowed=value.eligible,
                                  value=WaitReport.from_value(value)))


def _mangan_reason(question: ManganQuestion) -> str:
    han = question.value.basis.han
    return {
        "ippatsu": "Ippatsu lifts it to mangan: without the first-discard han it would not "
                   "be allowed (R16, R14).",
        "houtei": "Houtei lifts it to mangan: the last discard of the game adds a han "
                  "(R17, R14).",
        "kiriage": "Kiriage: 4 han 30 fu and 3 han 60 fu count as mangan (R14).",
        "dora": "Dora make it: without them it would be below mangan; they count for the "
                "minimum, ura dora do not (R14, R24).",
        "chiitoitsu_25": "Seven pairs is 25 fu: 4 han 25 fu is not mangan, kiriage or not "
                         "(R14, R22).",
        "just_below": f"{han} han is not enough at this fu: mangan needs 5 han, 4 han 30+ fu "
                      "or 3 han 60+ fu with kiriage (R14).",
        "clear": "Well above the minimum: 5 han or more, or a limit hand (R14, R23).",
        "cheap": f"Only {han} han: far below mangan, whatever the ura dora (R14).",
    }[question.pattern]


def rate_hand(deal: DealtTiles, hand: Sequence[int]) -> HandRating:
    """Rate a 13-tile hand (34 counts) kept from ``deal`` as the strong bot does: expected
    value, the chance that an eligible wait comes (the bot's ``copy_chance`` model) and the
    chance its pool deals in."""
    evaluator = HandEvaluator(deal, DEFAULT_MODEL)
    hand = tuple(hand)
    hand_waits = waits(hand)
    values = {w: evaluator.score(hand, w) for w in hand_waits if evaluator.live[w]}
    value = evaluator.hand_value(hand, hand_waits, values)
    live = evaluator.total_live(hand_waits)
    eligible = sum(evaluator.live[w] for w, v in values.items() if v is not None and v.eligible)
    chance = (1 - (1 - DEFAULT_MODEL.copy_chance) ** live) * eligible / live if live else 0.0
    return HandRating(hand=deal.hand_tiles(hand), tenpai=bool(hand_waits),
                      waits=tuple(kind_str(w) for w in hand_waits), value=round(value, 1),
                      win_chance=round(chance, 4),
                      pool_danger=round(evaluator.pool_risk(hand, hand_waits), 4))


def answer_safe_hand(drill: Drill, hand: str) -> DrillAnswer:
    """Grade a ``safe_hand`` answer: your 13 tiles rated beside the strong bot's best (value,
    chance to win, pool danger). Right when your value is within 5% (at least 200 points) of
    the best; the score falls to 0 as the gap reaches the best's value (at least 2000)."""
    _require(drill, "safe_hand")
    found = drill._secret.hand_deal
    assert found is not None
    deal = found.deal
    try:
        tiles = parse_tiles(hand)
    except TileError as error:
        raise DrillError(f"hand: {error}") from None
    if len(tiles) != HAND_SIZE:
        raise DrillError(f"hand: {len(tiles)} tiles, a hand is {HAND_SIZE} (R7)")
    counts = counts_of(tiles)
    over = [k for k in range(NUM_KINDS) if counts[k] > deal.counts[k]]
    if over:
        raise DrillError(f"hand: you hold only {deal.counts[over[0]]} of {kind_str(over[0])}")
    yours = rate_hand(deal, counts)
    best = rate_hand(deal, found.best.hand)
    gap = best.value - yours.value
    correct = gap <= max(200.0, 0.05 * abs(best.value))
    score = 1.0 if gap <= 0 else max(0.0, 1 - gap / max(2000.0, abs(best.value)))
    lines = [
        f"{'Right' if correct else 'The bot found better'}: your hand is worth "
        f"{yours.value:.0f} points in expectation, the best {best.value:.0f}.",
        _rating_line("Yours", yours),
        _rating_line("Best", best),
        f"The pool is your defense: {POOL_SIZE} tiles, 17 of them discarded (R7, R10); a wait "
        "below mangan only makes you furiten when it comes (R14, R15b).",
    ]
    return DrillAnswer(drill.id, drill.kind, drill.difficulty, correct, round(score, 4),
                       tuple(lines), DrillTruth(pattern=found.pattern, yours=yours, best=best))


def _rating_line(label: str, rating: HandRating) -> str:
    waits_text = " ".join(rating.waits) if rating.waits else "none (not tenpai)"
    return (f"{label}: {rating.hand}, waits {waits_text}; chance to win {rating.win_chance:.0%}, "
            f"pool danger {rating.pool_danger:.0%}, value {rating.value:.0f}.")


def answer(drill: Drill, response: str | bool | Iterable[str]) -> DrillAnswer:
    """Grade any drill: a tile (safest), kinds (read_wait, a list or ``"2p 5p"``), yes/no
    (is_mangan) or 13 tiles (safe_hand)."""
    if drill.kind == "is_mangan":
        if not isinstance(response, bool):
            raise DrillError("is_mangan: answer True (allowed) or False")
        return answer_is_mangan(drill, response)
    if isinstance(response, bool):
        raise DrillError(f"{drill.kind}: answer with tiles, not yes or no")
    if drill.kind == "read_wait":
        marks = response.split() if isinstance(response, str) else list(response)
        return answer_read_wait(drill, marks)
    if not isinstance(response, str):
        raise DrillError(f"{drill.kind}: answer with one string of tiles")
    if drill.kind == "safest":
        return answer_safest(drill, response)
    return answer_safe_hand(drill, response)


#: What ``is_mangan`` takes for yes and no, typed.
YES = ("y", "yes")
NO = ("n", "no")


def answer_text(drill: Drill, text: str) -> DrillAnswer:
    """Grade an answer as a person types it (the drills screen): tiles with honors by any
    name (``E``, ``wh``, ``東``, ``1z``; :func:`minefield.rules.names.to_mpsz`), kinds for
    ``read_wait`` spaced or grouped (``2p 5p`` or ``369s E``), ``y`` or ``n`` for
    ``is_mangan``. Anything else raises :class:`DrillError` with a one-line reason; nothing
    else is raised, whatever the text."""
    typed = " ".join(text.split())
    if not typed:
        raise DrillError(f"Type an answer first: {ANSWER_WORDS[drill.kind]}.")
    if drill.kind == "is_mangan":
        word = typed.lower()
        if word not in YES + NO:
            raise DrillError("Answer y (the ron is allowed) or n.")
        return answer_is_mangan(drill, word in YES)
    mpsz = to_mpsz(typed)
    if drill.kind == "read_wait":
        try:
            marked = parse_tiles(mpsz)
        except TileError as error:
            raise DrillError(f"{error}") from None
        return answer_read_wait(drill, [kind_str(tile.kind) for tile in marked])
    if drill.kind == "safest":
        return answer_safest(drill, mpsz)
    return answer_safe_hand(drill, mpsz)


#: What each kind asks for, in the words of a one-line error.
ANSWER_WORDS: dict[DrillKind, str] = {
    "safest": "one tile of your pool, e.g. 9p or E",
    "read_wait": "the kinds you think they wait on, e.g. 2p 5p Wh",
    "is_mangan": "y (the ron is allowed) or n",
    "safe_hand": "your 13 tiles, e.g. 123m456p789s E E S S",
}


# ---------------------------------------------------------------------------------------------
# Spaced repetition


#: Box n (1-5) comes back after BOX_INTERVALS[n - 1] further drills.
BOX_INTERVALS = (1, 2, 4, 8, 16)


@dataclass(frozen=True)
class PatternBox:
    """A pattern's Leitner box: ``key`` is ``kind:pattern``; it is due at drill ``due``."""

    key: str
    box: int
    last_seen: int
    due: int

    @property
    def kind(self) -> DrillKind:
        """The drill kind of the pattern."""
        kind = self.key.split(":", 1)[0]
        return next(k for k in KINDS if k == kind)

    @property
    def pattern(self) -> str:
        """The pattern's name."""
        return self.key.split(":", 1)[1]


class Scheduler:
    """Leitner boxes over the answered drills, and the next drill to ask.

    Replaying the history (oldest first): a right answer moves the pattern one box up (at most
    5), a wrong one back to box 1. A pattern in box ``n`` is due again ``BOX_INTERVALS[n-1]``
    drills after it was last seen, so a missed pattern comes back at the next drill. The next
    drill is the due pattern in the lowest box (then the longest overdue, then by name); when
    none is due, a kind chosen by a generator seeded from ``seed`` and the history's length.
    Everything is deterministic given the history and the seed.
    """

    #: The kinds whose patterns it schedules.
    KNOWN = frozenset(KINDS)

    def __init__(self, history: Sequence[DrillRecord], seed: int | str,
                 kinds: Sequence[DrillKind] = KINDS) -> None:
        try:
            self.seed = parse_seed(seed)
        except SeedError as error:
            raise DrillError(f"seed: {error}") from None
        if not kinds:
            raise DrillError("kinds: name at least one drill kind")
        self.kinds = tuple(kinds)
        self.count = len(history)
        boxes: dict[str, PatternBox] = {}
        for index, record in enumerate(history):
            if record.kind not in self.KNOWN:
                continue  # a drill of the player's own games keeps its own boxes
            key = f"{record.kind}:{record.pattern}"
            old = boxes.get(key)
            box = min(len(BOX_INTERVALS), old.box + 1) if old and record.correct else (
                2 if record.correct else 1)
            boxes[key] = PatternBox(key, box, index, index + BOX_INTERVALS[box - 1])
        self.boxes = boxes

    def due(self) -> list[PatternBox]:
        """The patterns due now, the one to ask first first."""
        due = [b for b in self.boxes.values() if b.due <= self.count and b.kind in self.kinds]
        return sorted(due, key=lambda b: (b.box, b.due, b.key))

    def next_target(self) -> tuple[DrillKind, str | None]:
        """The kind and pattern of the next drill (pattern None: the difficulty's choice)."""
        due = self.due()
        if due:
            first = due[0]
            known = PATTERNS[first.kind]
            target = first.pattern if not known or first.pattern in known else None
            return first.kind, target
        rng = random.Random(derive_seed(self.seed, "schedule", self.count))
        return rng.choice(self.kinds), None

    def next_drill(self, difficulty: str = "intermediate") -> Drill:
        """The next drill: :meth:`next_target` at ``difficulty``, seeded from the scheduler's
        seed and the number of drills answered."""
        kind, target = self.next_target()
        return make_drill(kind, derive_seed(self.seed, "drill", self.count), difficulty,
                          target)
