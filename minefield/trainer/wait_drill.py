"""The "readable wait" positions of the drills from the player's own games
(:mod:`minefield.trainer.game_drills`): the moment of a saved game where the opponent's view
gave the player's wait the most reason to be held back (:mod:`minefield.trainer.wait_cost`),
asked as "which of your discards gave your wait away?".

The drill shows what the player knew then: their hand and its wait, both discard rows up to
the opponent's discard, the dora indicator, and how the opponent's view rated the wait
against the other tiles they could fear. The answer is one of the player's discards so far
(a tile; honors by any name). It is graded by the estimate: each discard is taken out of the
opponent's view in turn, and the one whose removal lowers the wait's excess rating most, in
expected points (the excess times what the ron would have paid), gave it away most. An answer
whose discard did at least :data:`RIGHT_SHARE` of that is right; the score runs from the
discard that did least (0) to the one that did most (1).
"""

from __future__ import annotations

from dataclasses import dataclass

from minefield.defense.estimate import estimate, percent
from minefield.rules.hand import Hand
from minefield.rules.tiles import Tile, is_honor, kind_from_str, kind_str
from minefield.trainer._drill_positions import Difficulty
from minefield.trainer.defense_review import GameReview
from minefield.trainer.drill_answers import DrillAnswer, DrillTruth
from minefield.trainer.drills import Drill, DrillError, seat_name
from minefield.trainer.readable import suji_covers
from minefield.trainer.wait_cost import DiscardEffect, WaitCost, WaitMoment

__all__ = ["PATTERN", "RIGHT_SHARE", "WaitQuestion", "answer_wait", "wait_question"]

#: The pattern the progress file records for these drills.
PATTERN = "game_wait"
#: An answer whose discard gave the wait away by at least this share of the most is right.
RIGHT_SHARE = 0.8


@dataclass(frozen=True)
class WaitQuestion:
    """A readable-wait drill's question: what the trainee sees (``drill``) and the moment it
    was made from (hidden until the answer)."""

    drill: Drill
    moment: WaitMoment

    def __repr__(self) -> str:
        return "WaitQuestion(<hidden>)"


def _row(tiles: tuple[Tile, ...]) -> str:
    return " ".join(kind_str(t.kind) for t in tiles) or "none yet"


def wait_question(review: GameReview, moment: WaitMoment, game: str, level: Difficulty,
                  drill_id: str) -> WaitQuestion:
    """The drill of a readable-wait ``moment`` of ``review`` (``game`` names the game in the
    prompt; ``drill_id`` is the position's id)."""
    seat, cost, view = review.seat, moment.cost, moment.view
    hand = Hand.parse(review.end.hands.get(seat) or "")
    them = seat_name(seat.other)
    waits = " ".join(review.waits)
    prompt = (f"{game}: you are {seat_name(seat)}, your hand {hand}, waiting on {waits}.",
              f"Dora indicator {view.dora_indicator}. Your discards in order: "
              f"{_row(view.discards.get(seat, ()))}.",
              f"{them}'s discards in order: {_row(view.discards.get(seat.other, ()))}.",
              f"Before their discard {cost.number}, {them}'s view (what they could see, R26) "
              f"rated your {cost.wait} {percent(cost.chance)} to deal in, the other tiles "
              f"they could fear {percent(cost.usual)} on average.",
              "Which one of your discards gave your wait away most (without it, they would "
              "have feared it least)?")
    drill = Drill(kind="from_games", difficulty=level, seed=drill_id, target=None,
                  prompt=prompt, seat=seat, dora_indicator=view.dora_indicator, hand=hand,
                  wait=cost.wait, number=cost.number, custom=drill_id)
    return WaitQuestion(drill, moment)


def _by_kind(moment: WaitMoment) -> dict[str, DiscardEffect]:
    """Each tile discarded, by the copy whose removal did most (the earlier on a tie)."""
    found: dict[str, DiscardEffect] = {}
    for effect in moment.effects:
        old = found.get(effect.tile)
        if old is None or effect.points > old.points:
            found[effect.tile] = effect
    return found


#: The suits' names, as the estimate's reasons say them.
SUITS = ("manzu", "pinzu", "souzu")


def _why(effect: DiscardEffect, wait: str) -> str:
    """What kind of clue a discard was, in words."""
    tile, target = kind_from_str(effect.tile), kind_from_str(wait)
    if is_honor(target):
        return (f"each tile you throw rules out waits on it (R15a); with {effect.tile} seen, "
                f"fewer waits were left elsewhere and one on {wait} stood out more.")
    if is_honor(tile) or tile // 9 != target // 9:
        return (f"each tile you throw away from {SUITS[target // 9]}, like {effect.tile}, rules "
                f"out waits there (R15a) and makes {SUITS[target // 9]} look kept: what is "
                "left of your possible waits points more at it (their view also counts your "
                "discards by suit, a flush reading).")
    return (f"{effect.tile} is in {wait}'s suit: it tells them which shapes around {wait} you "
            "could still hold.")


def _effect_line(effect: DiscardEffect, wait: str, cost: WaitCost) -> str:
    """What seeing one discard did to the wait's rating, in words."""
    change = "less" if effect.points >= 0 else "more"
    return (f"your {effect.tile} (discard {effect.number}); without it they would have rated "
            f"{wait} {percent(effect.chance)} against a usual {percent(effect.usual)} (it was "
            f"{percent(cost.chance)} against {percent(cost.usual)}), {abs(effect.points)} "
            f"expected points {change} on a ron worth {cost.points}")


def answer_wait(question: WaitQuestion, tiles: list[Tile], review: GameReview,
                drill_id: str) -> DrillAnswer:
    """Grade one typed tile (already parsed) against the moment's discards:
    :class:`DrillError`, one line, unless it is one tile among the player's discards then."""
    moment, drill = question.moment, question.drill
    effects = _by_kind(moment)
    shown = " ".join(kind_str(k) for k in sorted({kind_from_str(t) for t in effects}))
    if len(tiles) != 1:
        raise DrillError(f"Answer one of your discards so far: one of {shown}.")
    name = kind_str(tiles[0].kind)
    chosen = effects.get(name)
    if chosen is None:
        raise DrillError(f"{name} is not one of your discards so far: choose one of {shown}.")
    cost, best = moment.cost, moment.best
    worst = min(e.points for e in effects.values())
    correct = chosen.points >= RIGHT_SHARE * best.points
    score = 1.0 if best.points <= worst else (chosen.points - worst) / (best.points - worst)
    if chosen.tile == best.tile:
        lines = [f"Right, it gave {cost.wait} away most: {_effect_line(chosen, cost.wait, cost)}."]
    else:
        verdict = "Nearly the most" if correct else "Not the one"
        lines = [f"{verdict}: {_effect_line(chosen, cost.wait, cost)}.",
                 f"The one that gave it away most: {_effect_line(best, cost.wait, cost)}."]
    lines.append(f"Why {best.tile}: {_why(best, cost.wait)}")
    ranked = sorted(effects.values(), key=lambda e: (-e.points, e.index))
    lines.append("What each discard gave away, in expected points (below 0: it hid the wait): "
                 + " · ".join(f"{e.tile} {e.points}" for e in ranked) + ".")
    them = seat_name(review.seat.other)
    lines.extend(f"{them}'s view of {cost.wait}: {reason}" for reason in moment.reasons[:3])
    hid = sorted({e.tile for e in moment.effects if suji_covers(e.tile, cost.wait)})
    if hid:
        lines.append(f"Your {' and '.join(hid)} made {cost.wait} look suji: that hid it (a "
                     "ryanmen on it would have been furiten, R15a).")
    lines.append(f"Before their discard {cost.number} your wait was readable: "
                 f"{percent(cost.chance)} against the usual {percent(cost.usual)}, times the "
                 f"{cost.points} your ron on {cost.wait} would have paid (R14): {cost.cost} "
                 "expected points.")
    if moment.readings > 1:
        lines.append(f"Their view rated a wait of yours above the usual at {moment.readings} "
                     "of their discards.")
    lines.append(_outcome(review))
    truth = DrillTruth(pattern=PATTERN, report=estimate(moment.view, moment.reader))
    return DrillAnswer(drill_id, "from_games", drill.difficulty, correct,
                       round(max(0.0, min(1.0, score)), 4), tuple(lines), truth)


def _outcome(review: GameReview) -> str:
    """How the game ended, from the seat's side."""
    end, seat = review.end, review.seat
    if end.result == "ron" and end.winner is seat:
        return f"You won on discard {end.discard_number}."
    if end.result == "ron":
        return f"You dealt in on discard {end.discard_number}."
    furiten = end.furiten.get(seat)
    if furiten is not None:
        return (f"Your wait never came while it could win: you were furiten from discard "
                f"{furiten.discard_number} ({furiten.detail}).")
    return "Your wait never came: the game was drawn (R11)."
