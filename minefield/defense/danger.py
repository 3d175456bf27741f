"""How dangerous each tile is to discard, from what one seat can see (R13, R15, R26).

The opponent is in riichi from the start and their hand never changes, so their waits are one
fixed set. The model lists every wait *shape* the opponent could be holding (a tanki on a
single, a shanpon on a pair, a ryanmen, kanchan or penchan on two neighbours, thirteen orphans)
and gives each a weight: the number of ways the opponent's hand could hold its tiles, counted
from the copies this seat cannot see (the counting trap: a kind this seat holds three of still
has one copy that can be the opponent's tanki), times a prior for how often a bot or a player
builds a hand on that shape, times a factor for shapes that hold dora (they reach mangan more
easily, so they are chosen more often and win when hit, R14).

Every kind that has been discarded by either seat kills every shape that waits on it:

* the opponent's own discards are genbutsu (a wait among them made them furiten, R15a), and
* a tile this seat discarded that did not end the game either was no wait or left the
  opponent furiten (R13, R15b): they are permanently in riichi, so it is safe for ever.

A ryanmen killed on one side is killed on both (suji), and a shape that needs copies nobody can
hold any more (all four seen) has weight zero (no-chance; one-chance shapes weigh little). The
danger of a kind is the sum of the weights of the shapes that win on it, times a factor for its
suit: the opponent's discards are what their hand left over, so a suit they discard less than
its share is a suit their hand holds.

>>> from minefield.rules.tiles import parse_tiles, counts_of, kind_from_str
>>> unseen = [4] * 34
>>> safe = {kind_from_str("4m")}
>>> danger = tile_dangers(unseen, safe, dora=None)
>>> danger[kind_from_str("1m")] < danger[kind_from_str("2m")]   # 1m is suji of 4m
True
>>> danger[kind_from_str("4m")]
0.0
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from minefield.rules.tiles import DRAGONS, NUM_KINDS, TERMINALS_AND_HONORS, is_honor


@dataclass(frozen=True, slots=True)
class DangerPriors:
    """Relative weight of one way of holding each wait shape, and the other factors.

    The values were fitted on the decisions of ``strong`` in bot games, scored against the
    opponent's real waits (how often the least dangerous tile was a winning one), and checked
    in paired games (benchmarks/bench_defense.py measures the result).
    """

    ryanmen: float = 2.0
    kanchan: float = 0.45
    penchan: float = 0.27
    shanpon: float = 0.7
    tanki: float = 0.35
    honor_tanki: float = 0.8
    kokushi: float = 0.02
    dora_factor: float = 1.8
    dora_wait_factor: float = 1.0
    honor_factor: float = 0.75
    yakuhai_factor: float = 1.25
    suit_signal: float = 0.3


DEFAULT_PRIORS = DangerPriors()


@dataclass(frozen=True, slots=True)
class Shape:
    """One wait shape the opponent could hold: the kinds it wins on, what it holds, its weight."""

    name: str
    waits: tuple[int, ...]
    held: tuple[int, ...]
    weight: float


def wait_shapes(unseen: Sequence[int], safe: Collection[int], dora: int | None,
                priors: DangerPriors = DEFAULT_PRIORS, opponent_wind: int | None = None
                ) -> list[Shape]:
    """Every live wait shape with a positive weight, given the copies this seat cannot see.

    ``unseen[k]`` is how many copies of kind ``k`` could be in the opponent's hand; ``safe`` the
    kinds discarded so far by either seat (no live shape waits on them); ``opponent_wind`` the
    opponent's seat wind (a yakuhai for them, R19).
    """
    shapes: list[Shape] = []

    def push(name: str, waits: tuple[int, ...], held: tuple[int, ...], weight: float) -> None:
        if weight <= 0 or any(w in safe for w in waits):
            return
        if dora is not None and (dora in held or dora in waits):
            weight *= priors.dora_factor
            if dora in waits:
                weight *= priors.dora_wait_factor
        shapes.append(Shape(name, waits, held, weight))

    for kind in range(NUM_KINDS):
        copies = unseen[kind]
        honor = 1.0
        honor_kind = is_honor(kind)
        if honor_kind:
            yakuhai = kind in DRAGONS or kind == opponent_wind
            honor = priors.yakuhai_factor if yakuhai else priors.honor_factor
        if copies >= 1:
            prior = priors.honor_tanki if honor_kind else priors.tanki
            push("tanki", (kind,), (kind,), prior * copies * honor)
        if copies >= 2:
            push("shanpon", (kind,), (kind, kind),
                 priors.shanpon * copies * (copies - 1) / 2 * honor)
        if honor_kind:
            continue
        pos = kind % 9
        if pos <= 7:
            both = unseen[kind] * unseen[kind + 1]
            if pos == 0:
                push("penchan", (kind + 2,), (kind, kind + 1), priors.penchan * both)
            elif pos == 7:
                push("penchan", (kind - 1,), (kind, kind + 1), priors.penchan * both)
            else:
                push("ryanmen", (kind - 1, kind + 2), (kind, kind + 1), priors.ryanmen * both)
        if pos <= 6:
            push("kanchan", (kind + 1,), (kind, kind + 2),
                 priors.kanchan * unseen[kind] * unseen[kind + 2])
    _push_kokushi(unseen, safe, priors, shapes)
    return shapes


def _push_kokushi(unseen: Sequence[int], safe: Collection[int], priors: DangerPriors,
                  shapes: list[Shape]) -> None:
    """Thirteen orphans waiting on one kind: every other orphan must still be holdable."""
    if any(k in safe for k in TERMINALS_AND_HONORS):
        return  # a passed orphan is a wait of every kokushi shape but one; ignore the rest
    for wait in TERMINALS_AND_HONORS:
        if all(unseen[k] for k in TERMINALS_AND_HONORS if k != wait):
            shapes.append(Shape("kokushi", (wait,), (), priors.kokushi))


def tile_dangers(unseen: Sequence[int], safe: Collection[int], dora: int | None,
                 priors: DangerPriors = DEFAULT_PRIORS, opponent_wind: int | None = None,
                 opponent_discards: Sequence[int] = ()) -> list[float]:
    """The danger of each of the 34 kinds: the total weight of live shapes that win on it,
    scaled by how much the opponent avoids discarding its suit (:func:`suit_factors`)."""
    danger = [0.0] * NUM_KINDS
    for shape in wait_shapes(unseen, safe, dora, priors, opponent_wind):
        for wait in shape.waits:
            danger[wait] += shape.weight
    for kind in safe:
        danger[kind] = 0.0
    if opponent_discards and priors.suit_signal:
        factors = suit_factors(unseen, opponent_discards, priors.suit_signal)
        for kind in range(NUM_KINDS):
            if not is_honor(kind):
                danger[kind] *= factors[kind // 9]
    return danger


def suit_factors(unseen: Sequence[int], opponent_discards: Sequence[int], signal: float
                 ) -> list[float]:
    """A danger factor per number suit from the opponent's discards.

    The opponent's pool is what their hand left over, so a suit they discard less than its
    share of the unseen tiles is a suit their hand holds, and the other way round. Each tile
    of difference (at most three) multiplies the danger by ``exp(-signal)``.
    """
    total = len(opponent_discards)
    unseen_all = sum(unseen) + total
    factors = []
    for suit in range(3):
        discarded = sum(1 for k in opponent_discards if k // 9 == suit)
        expected = total * (sum(unseen[suit * 9:suit * 9 + 9]) + discarded) / unseen_all
        excess = max(-3.0, min(3.0, discarded - expected))
        factors.append(math.exp(-signal * excess))
    return factors


def wait_probabilities(unseen: Sequence[int], safe: Collection[int], dora: int | None,
                       priors: DangerPriors = DEFAULT_PRIORS, opponent_wind: int | None = None
                       ) -> list[float]:
    """Roughly, the chance that each kind is one of the opponent's waits.

    The opponent's waits are taken to be one shape drawn by weight, so a kind's chance is the
    share of the total weight on shapes that win on it.
    """
    shapes = wait_shapes(unseen, (), dora, priors, opponent_wind)
    total = sum(s.weight for s in shapes) or 1.0
    chance = [0.0] * NUM_KINDS
    for shape in shapes:
        if any(w in safe for w in shape.waits):
            continue
        for wait in shape.waits:
            chance[wait] += shape.weight / total
    return chance
