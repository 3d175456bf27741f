"""What a seat's discards cost, and what the tiles did: the regrets of a reviewed game, and its
luck separated from its skill.

Each assessed discard (:func:`~minefield.trainer.defense_review.assess`) carries the estimate's
expected points lost for every pool tile: the chance that the tile deals in times what the
opponent's ron would pay on it (:mod:`minefield.defense.fast`). A **regret** is a discard
where a tile of smaller expected loss was in the pool; what it lost is the difference of the
two (the chance difference times what the opponent's hand pays). The game's **expected points
lost** is their sum: what the choices cost against the safest tile each turn, from what the
seat could see then. It is not luck: it counts the same whether the tile dealt in or not.

**Luck** is the rest: the points actually paid on a deal-in (R13, R23) against what the
discards taken risked in expectation. So the points lost in a game are the danger no choice
could avoid (the safest tile's expected loss each turn), plus the choices' cost, plus luck
(:class:`LuckAndSkill`; the three add up to the points lost).

>>> from minefield.rules.game import Discard, Seat
>>> from minefield.rules.prepared import game_with_hands
>>> from minefield.trainer.defense_review import assess, review_of_game
>>> game = game_with_hands("23m456m345p678s55s", "123m456p789s3332z", east_pool="1z2z9p",
...                        west_pool="9s8s")
>>> _ = game.apply(Seat.EAST, Discard(tile="2z"))  # West's tanki (ippatsu)
>>> steps = list(assess(review_of_game(game, Seat.EAST)))
>>> found = regrets(steps)
>>> [(r.tile, r.safer.tile, r.safer.danger) for r in found]
[('2z', '4z', 0.0)]
>>> summary = luck_and_skill(steps)
>>> summary.lost == summary.unavoidable + summary.choices + summary.luck
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from minefield.defense.estimate import percent
from minefield.defense.position import TileDanger
from minefield.trainer.defense_review import AssessedStep
from minefield.trainer.sections import Line, Section

#: Regrets named one by one (the rest count in the game's total).
TOP_REGRETS = 5
#: A deal-in on a tile this safe or safer (by the estimate) is called bad luck.
UNLUCKY_CHANCE = 0.05
#: A tile this dangerous or more that did not deal in is called good luck.
LUCKY_CHANCE = 0.15

__all__ = ["LUCKY_CHANCE", "TOP_REGRETS", "UNLUCKY_CHANCE", "LuckAndSkill", "Regret",
           "cheapest", "luck_and_skill", "luck_note", "luck_section", "points_paid", "regret_of",
           "regrets", "regrets_section"]


@dataclass(frozen=True)
class Regret:
    """A discard where a tile of smaller expected loss was in the pool.

    ``index`` is the step's place in the review (0-based), ``number`` the game's discard
    number; ``taken`` and ``safer`` are the estimate's entries for the tile discarded and the
    pool's cheapest; ``lost`` the expected points lost (``taken.loss - safer.loss``).
    """

    index: int
    number: int
    taken: TileDanger
    safer: TileDanger
    dealt_in: bool

    @property
    def tile(self) -> str:
        """The tile discarded (mpsz)."""
        return self.taken.tile

    @property
    def lost(self) -> int:
        """Expected points lost by this choice."""
        return self.taken.loss - self.safer.loss


def cheapest(step: AssessedStep) -> TileDanger:
    """The pool tile of least expected loss (then least chance, then tile order), leaving out
    the seat's own waits while they still count
    (:attr:`~minefield.trainer.defense_review.ReviewStep.guarded`): the tile taken
    when nothing else is left."""
    guarded = step.step.guarded
    tiles = [t for t in step.report.tiles if t.tile not in guarded] or [step.chosen]
    return min(tiles, key=lambda t: (t.loss, t.danger))


def regret_of(index: int, step: AssessedStep) -> Regret | None:
    """The regret of one discard, or None when no tile of the pool was cheaper."""
    taken = step.chosen
    safer = cheapest(step)
    if safer.loss >= taken.loss:
        return None
    return Regret(index=index, number=step.step.number, taken=taken, safer=safer,
                  dealt_in=step.step.dealt_in)


def regrets(steps: Sequence[AssessedStep]) -> list[Regret]:
    """Every regret of a review, the most expensive first (ties: the earlier discard)."""
    found = [r for i, s in enumerate(steps) if (r := regret_of(i, s)) is not None]
    return sorted(found, key=lambda r: (-r.lost, r.number))


def points_paid(steps: Sequence[AssessedStep], paid: int) -> int:
    """The points this seat lost by dealing in: ``paid`` (the ron's value) when one of its
    discards dealt in, else 0."""
    return paid if any(s.step.dealt_in for s in steps) else 0


@dataclass(frozen=True)
class LuckAndSkill:
    """A game's points lost, taken apart: ``unavoidable`` is the safest tile's expected loss
    summed over the discards (no choice could avoid it), ``choices`` the expected points lost
    to the regrets, ``luck`` what the tiles did beyond what the discards risked (positive: bad
    luck, negative: good luck). ``lost`` (the points paid on a deal-in, R23) is their sum."""

    discards: int
    risked: int
    unavoidable: int
    choices: int
    lost: int

    @property
    def luck(self) -> int:
        """Points lost beyond the expected loss of the discards taken (negative: spared)."""
        return self.lost - self.risked


def luck_and_skill(steps: Sequence[AssessedStep], paid: int = 0) -> LuckAndSkill:
    """The luck and skill of ``steps`` (all of a seat's assessed discards); ``paid`` is what
    the opponent's ron was worth, counted when one of these discards dealt in."""
    risked = sum(s.chosen.loss for s in steps)
    unavoidable = sum(cheapest(s).loss for s in steps)
    return LuckAndSkill(discards=len(steps), risked=risked, unavoidable=unavoidable,
                        choices=risked - unavoidable, lost=points_paid(steps, paid))


def luck_note(step: AssessedStep) -> str | None:
    """Luck or skill at one discard, in words, when there is something to say: a deal-in on
    a safe-looking tile is bad luck; a deal-in where a cheaper tile was there is the choice's;
    a dangerous tile that passed was good luck."""
    taken = step.chosen
    safer = cheapest(step)
    chance = percent(taken.danger)
    if step.step.dealt_in:
        if taken.danger <= UNLUCKY_CHANCE:
            return (f"Bad luck: a deal-in on a {chance} tile. The choice was sound; the tiles "
                    "were not.")
        if safer.loss < taken.loss:
            return (f"A deal-in on a {chance} tile where {safer.tile} "
                    f"({percent(safer.danger)}) was there: that was the choice, not luck.")
        return (f"A deal-in on a {chance} tile, but nothing in the pool was safer: danger no "
                "choice could avoid.")
    if taken.danger >= LUCKY_CHANCE and not step.step.opponent_furiten:
        return f"Good luck: a {chance} tile that did not deal in. It was not safe."
    return None


def _first_reason(entry: TileDanger) -> str | None:
    return f"{entry.tile}: {entry.reasons[0]}" if entry.reasons else None


def regrets_section(steps: Sequence[AssessedStep], top: int = TOP_REGRETS) -> Section:
    """"Your regrets" in words: the ``top`` most expensive with the reasons of the tile taken
    and of the safer one, then the game's expected points lost and what that number is not."""
    found = regrets(steps)
    title = "Your regrets"
    if not steps:
        return Section(title, (Line("No discards: nothing to regret."),))
    if not found:
        return Section(title, (Line(f"None: each of your {len(steps)} discards was the "
                                    "safest tile the estimate saw."),))
    plural = "s" if len(found) != 1 else ""
    lines = [Line(f"{len(found)} discard{plural} where a safer tile was there, by expected "
                  "points lost (the chance difference times what the opponent's ron pays):")]
    for place, regret in enumerate(found[:top], 1):
        taken, safer = regret.taken, regret.safer
        lines.append(Line(f"Discard {regret.number}, {taken.tile}: {percent(taken.danger)}, "
                          f"where {safer.tile} was {percent(safer.danger)}: {regret.lost} "
                          "expected points lost" + (" (it dealt in)" if regret.dealt_in
                                                    else ""), 1, f"{place}."))
        lines.extend(Line(reason, 2, "•") for reason in (_first_reason(taken),
                                                         _first_reason(safer)) if reason)
    if len(found) > top:
        rest = found[top:]
        lines.append(Line(f"and {len(rest)} more, {sum(r.lost for r in rest)} expected points "
                          "together", 1, "•"))
    total = sum(r.lost for r in found)
    lines.append(Line(f"Expected points lost: {total}. That is what your choices cost against "
                      "the safest tile each turn, from what you could see then. It is not "
                      "luck: it counts the same whether a tile dealt in or not."))
    return Section(title, tuple(lines))


def luck_section(steps: Sequence[AssessedStep], paid: int = 0) -> Section:
    """"Luck and skill" in words: the points lost taken apart (:class:`LuckAndSkill`) and the
    discards where luck spoke (:func:`luck_note`)."""
    title = "Luck and skill"
    if not steps:
        return Section(title, (Line("No discards: neither luck nor skill had a say."),))
    summary = luck_and_skill(steps, paid)
    dealt = next((s for s in steps if s.step.dealt_in), None)
    lost = (f"Points lost: {summary.lost}, the ron on discard {dealt.step.number}."
            if dealt is not None else "Points lost: none, no discard dealt in.")
    luck = summary.luck
    if luck > 0:
        tiles = (f"{luck} points of bad luck: you lost {summary.lost} where your discards "
                 f"risked {summary.risked} in expectation")
    elif luck < 0:
        tiles = (f"{-luck} points of good luck: your discards risked {summary.risked} in "
                 f"expectation and you lost {summary.lost}")
    else:
        tiles = "nothing beyond what your discards risked"
    lines = [Line(lost),
             Line(f"Danger no choice could avoid: {summary.unavoidable} expected points (the "
                  "safest tile each turn)", 1, "•"),
             Line(f"What your choices cost: {summary.choices} expected points (your regrets)",
                  1, "•"),
             Line(f"What the tiles did: {tiles}", 1, "•")]
    for step in steps:
        note = luck_note(step)
        if note is not None:
            note = note[0].lower() + note[1:]
            lines.append(Line(f"Discard {step.step.number}, {step.chosen.tile}: {note}", 1, "•"))
    return Section(title, tuple(lines))
