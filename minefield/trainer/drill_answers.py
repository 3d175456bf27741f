"""Grading a drill's answer (:mod:`minefield.trainer.drills`): right or not, a score from 0
to 1, the explanation in lines (rule numbers cited) and the truth the drill hid until then
(R26): the opponent's hand and waits, the engine's value, the strong bot's best hand.

``safest`` is graded by the danger estimate (:func:`minefield.defense.estimate.estimate`),
``read_wait`` by precision and recall against the true waits (R12), ``is_mangan`` exactly by
:mod:`minefield.rules.score` (R14), ``safe_hand`` by the strong bot's own measure
(:mod:`minefield.bots.hands`). :func:`answer_text` reads an answer as a person types it.

>>> from minefield.trainer.drills import make_drill
>>> verdict = answer_text(make_drill("is_mangan", "1", "beginner"), "y")
>>> verdict.correct == verdict.truth.allowed
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from minefield.bots.hands import DEFAULT_MODEL, DealtTiles
from minefield.bots.hands import _Evaluator as HandEvaluator  # the strong bot's own measure
from minefield.defense.estimate import estimate, percent
from minefield.defense.position import DangerReport
from minefield.defense.reasons import reasons_for
from minefield.rules.game import POOL_SIZE
from minefield.rules.hand import HAND_SIZE, PENCHAN, RYANMEN, SEQ, waits
from minefield.rules.names import to_mpsz
from minefield.rules.report import WaitReport
from minefield.rules.score import WinValue
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
    OPPONENT_LEVEL,
    Difficulty,
    ManganQuestion,
    TablePosition,
)
from minefield.trainer.drills import Drill, DrillError, DrillKind, seat_name
from minefield.trainer.progress_records import DrillRecord

#: A safest answer within this much estimated danger of the least available is right.
SAFEST_TOLERANCE = 0.01

__all__ = [
    "ANSWER_WORDS", "NO", "SAFEST_TOLERANCE", "YES", "DrillAnswer", "DrillTruth", "HandRating",
    "answer", "answer_is_mangan", "answer_read_wait", "answer_safe_hand", "answer_safest",
    "answer_text", "rate_hand", "wait_shape_words",
]


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
    opponent = seat_name(drill.position.opponent)
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
    opponent = seat_name(drill.position.opponent)
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


def hand_from_deal(deal: DealtTiles, tiles: Sequence[Tile]) -> list[int]:
    """The counts of ``tiles`` as a hand built from ``deal``: :class:`DrillError` (one line)
    unless they are 13 tiles (R7) that the deal holds."""
    if len(tiles) != HAND_SIZE:
        raise DrillError(f"hand: {len(tiles)} tiles, a hand is {HAND_SIZE} (R7)")
    counts = counts_of(tiles)
    over = [k for k in range(NUM_KINDS) if counts[k] > deal.counts[k]]
    if over:
        raise DrillError(f"hand: you hold only {deal.counts[over[0]]} of {kind_str(over[0])}")
    return counts


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
    counts = hand_from_deal(deal, tiles)
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
