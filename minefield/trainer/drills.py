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
kiriage 4 han 30 fu). Patterns missed come back sooner
(:class:`~minefield.trainer.drill_schedule.Scheduler`, Leitner boxes replayed from the stored
history, :mod:`minefield.trainer.progress`).

A :class:`Drill` shows only what the trainee may see (R26): the opponent's hand, waits and the
pattern are inside it but hidden (its repr says so) and come out only in the
:class:`~minefield.trainer.drill_answers.DrillAnswer`.

This module makes the drills (what the trainee is shown); grading an answer is
:mod:`minefield.trainer.drill_answers`, choosing the next drill
:mod:`minefield.trainer.drill_schedule`.

>>> from minefield.trainer.drill_answers import answer_is_mangan
>>> drill = make_drill("is_mangan", "1", "beginner")
>>> drill == make_drill("is_mangan", "1", "beginner")
True
>>> answer = answer_is_mangan(drill, True)
>>> answer.correct == answer.truth.allowed, answer.explanation[0].startswith(("Right", "Wrong"))
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from minefield.defense.position import Position
from minefield.errors import MinefieldError
from minefield.rules.game import TOTAL_DISCARDS, Seat, ron_context
from minefield.rules.hand import Hand
from minefield.rules.score import WinContext, score_win
from minefield.rules.seed import SeedError, derive_seed, parse_seed
from minefield.rules.tiles import (
    NUM_KINDS,
    Tile,
    TileError,
    kind_from_str,
    kind_str,
)
from minefield.trainer._drill_positions import (
    DIFFICULTIES,
    MANGAN_PATTERNS,
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

__all__ = [
    "DIFFICULTIES", "KINDS", "KIND_NAMES", "PATTERNS", "PATTERN_NAMES", "Difficulty", "Drill",
    "DrillError", "DrillKind", "drill_from_id", "kind_words", "make_drill", "make_mangan_drill",
    "pattern_words", "reader_lines", "seat_name",
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


def seat_name(seat: Seat) -> str:
    """A seat's name as a drill says it: ``East``, ``West``."""
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
    opponent = seat_name(position.opponent)
    if kind == "safest":
        prompt = (f"Discard {position.number}: you are {seat_name(position.seat)}. "
                  "Which tile of your pool is the safest to discard?",)
    else:
        prompt = (f"Discard {position.number}: you are {seat_name(position.seat)}. "
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
    prompt = (f"You are {seat_name(question.seat)} with {question.hand}; dora indicator "
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
        raise DrillError(f"discard {number} is {seat_name(winner)}'s own: a ron comes on the "
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
    prompt = (f"You are {seat_name(deal.seat)}; dora indicator {dora}. Choose the 13 of your "
              "34 tiles to keep as your hand (R7): the other 21 are the pool you must "
              "discard from.",)
    return Drill(kind="safe_hand", difficulty=level, seed=seed, target=target, prompt=prompt,
                 seat=deal.seat, dora_indicator=dora, tiles=tiles,
                 _secret=_Secret(found.pattern, hand_deal=found))


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
    opponent = seat_name(position.opponent)
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
