"""The posterior danger estimate: weighted samples of the opponent's hand and pool (R5-R17, R26).

The opponent's 34 tiles (R5) come from the copies this seat cannot see (its own 34 and the
dora indicator are seen); they keep 13 as their hand (R7) and discard from the other 21. The
estimate is a posterior over the opponent's hand and pool given only what the seat sees:

* **Prior.** The wait shapes of :mod:`minefield.defense.danger` (tanki, shanpon, ryanmen, kanchan,
  penchan; a tanki also as a seven-pairs hand), weighted as there: the number of ways the
  unseen copies hold the shape times the shape's fitted prior, the dora factor and the suit
  signal of the opponent's discards. Each shape is completed to a 13-tile hand by a pair and
  groups (or six pairs) drawn by the ways the unseen copies hold them, and the rest of the
  opponent's pool is drawn uniformly from the copies left (what the deal does, R2, R5).
  Thirteen-orphans hands are left out.
* **Choice.** The opponent keeps its hand on purpose: a hand with no eligible live wait (R14;
  live from *their* side: not among their 34, not the indicator) is kept with the small weight
  ``ineligible_weight``; otherwise the weight is ``(hit * eligible share) ** value_power``,
  ``hit`` being the chance that one of the eligible live copies comes. (The shape prior already
  carries the bots' taste for many-sided waits; a power above 0 measured worse, so the default
  is 0: eligible or not is what counts.)
* **The seat's own discards.** A tile the seat discarded that did not end the game passed:
  a sample whose hand would have won on it (a wait, eligible by R14 with that discard's
  ippatsu R16 / houtei R17, not furiten then) is impossible; a wait below the minimum made the
  opponent furiten for ever (R15b).
* **Held back.** When the opponent discards a kind nobody had discarded while a kind already
  discarded (safe for it, R15) could still be in its pool, it would not be playing safe first,
  which the bots always do: so those kinds were out of its pool (kept in its hand, or never
  dealt to it). Each hand is weighted by the exact chance that the unknown rest of the pool
  holds none of them (:func:`held_back`, to the power ``safe_first``): hands that keep such
  kinds gain weight.
* **The opponent's discards.** They come from the sampled pool (a sample whose pool lacks one
  is impossible). The opponent does not discard its own waits while not furiten (chance
  ``own_wait_discard``; doing so makes the sample furiten, R15a), and picks what looks safe
  from its own side: a softmax of ``-discard_sharpness * danger / mean danger`` over its pool's
  kinds, the danger being defense/danger.py's heuristic from *their* view at that moment. (With a
  single sampled pool per hand this signal is mostly noise at the sample sizes a second
  allows; ``benchmarks/bench_danger.py`` measured it not to help, so the default sharpness is
  0: only the hard facts of the discards count.)

(``judge_eligibility=False`` counts every wait as eligible, everywhere; measured no
different. ``eligibility_smoothing`` > 0 shrinks each shape's eligible share toward the
overall one, with that many pseudo-samples: random completions may judge eligibility more
harshly than an opponent choosing among its 34 does. It measured no gain: off by default.)

The estimate of a kind is the weighted share of samples whose hand is not furiten and wins on
it now, eligibly (R13); the loss is the weighted mean of what that ron pays (the basis value,
without ura dora, R18); ``opponent_furiten`` the weighted share of furiten samples. Genbutsu
and passed tiles come out exactly 0 (R15).

**Pools summed out (the default, ``collapsed``).** Sampling noise limited the sampled-pool
model (one random pool per hand: on training games 10000 samples ranked deal-ins better than
defense/danger.py, AUC 0.80 against 0.79, where 1500 did worse). With no discard sharpness and no
value power the pool enters a hand's weight only through the choice proxy and the held-back
kinds, and both can be averaged over every pool exactly (hypergeometric sums:
:func:`expected_choice`, :func:`held_back_log_factor`), so only hands are drawn and a hand's
weight is exact (:func:`collapsed_log_weight`; the counts-only discard likelihood of the
sampled-pool model, one over the kinds left in the pool, is dropped with the pool). Draws are
spent in two stages: ``1 - second_stage`` of them by prior weight, the rest by each shape's
mass so far, so shapes the discards have ruled out get no more. A hand costs about 0.1 ms
(mostly judging eligibility, R14); 6000 take about 0.6 s on an idle core. Measured by
``benchmarks/bench_danger.py`` (160 games): the noise is gone (20000 samples rank no better
than 6000), but the posterior still ranks no better than the heuristic (AUC 0.667 against
0.672) and underestimates its low bands; calibrated and blended with the fast estimate
it ties the heuristic (see benchmarks/README.md).

**Calibration.** :func:`posterior_dangers` returns, by default, the logistic blend of the
posterior's and the fast estimate's chances fitted on bot games (:func:`blend`; constants in
:mod:`minefield.defense.calibration`, written by ``benchmarks/bench_danger.py --write``, which
also measures it on held-out games); ``calibrated=False`` gives the model's chances as they
come (what the exact-enumeration test checks).

**Sampling.** Each refresh spreads ``samples`` hands over the shapes (at least one each, the
rest by prior weight; a shape's mass is its prior weight times the mean weight of its samples),
so no shape is left to chance. :class:`PosteriorTracker` follows one seat through a game: with
the pools summed out every :meth:`~PosteriorTracker.update` draws afresh; the sampled-pool model
(``collapsed=False``) multiplies the weights by the new discards' likelihoods and refreshes
when the effective sample size falls. :func:`posterior_dangers` is the stateless form. Both are
deterministic for a seed while the time budget is not what stops the sampling
(``budget_s=None`` removes it).

>>> from minefield.rules.prepared import game_with_hands
>>> from minefield.rules.game import Seat
>>> from minefield.defense.position import Position
>>> game = game_with_hands("23m456m345p678s55s", "123m456p789s3332z", east_pool="1m", dora="2m")
>>> _ = game.apply(Seat.EAST, {"type": "discard", "tile": "1m"})
>>> position = Position.from_view(game.view(Seat.WEST))
>>> estimate = posterior_dangers(position, samples=60, budget_s=None)
>>> estimate.danger[0]  # 1m: the opponent discarded it, genbutsu (R15a)
0.0
>>> all(0.0 <= d <= 1.0 for d in estimate.danger)
True
"""

from __future__ import annotations

import math
import random
import time
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import accumulate

from minefield.defense import calibration
from minefield.defense.danger import DEFAULT_PRIORS, DangerPriors, Shape, suit_factors, wait_shapes
from minefield.defense.fast import fast_dangers
from minefield.defense.position import Estimate, Position
from minefield.rules.game import Seat, ron_context
from minefield.rules.hand import HAND_SIZE, waits
from minefield.rules.score import WinContext, score_counts
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import (
    DRAGONS,
    EAST,
    NUM_KINDS,
    SUIT_KINDS,
    counts_of,
    dora_from_indicator,
)
from minefield.rules.wall import DEAL_SIZE

_LOG_ZERO = float("-inf")
_KINDS = tuple(range(NUM_KINDS))


@dataclass(frozen=True, slots=True)
class PosteriorModel:
    """The tunable numbers of the posterior (see the module docstring)."""

    discard_sharpness: float = 0.0
    own_wait_discard: float = 0.02
    ineligible_weight: float = 0.05
    value_power: float = 0.0
    suit_prior: float = 1.0
    eligibility_smoothing: float = 0.0
    safe_first: float = 1.0
    judge_eligibility: bool = True
    copy_chance: float = 0.15
    chiitoitsu_share: float = 0.08
    refresh_below: float = 0.3
    collapsed: bool = True
    second_stage: float = 0.5
    priors: DangerPriors = DEFAULT_PRIORS

    @property
    def sums_pools(self) -> bool:
        """Whether the pool is summed out in closed form (see :func:`collapsed_log_weight`):
        ``collapsed`` with no discard sharpness and no value power (those need a sampled pool)."""
        return self.collapsed and not self.discard_sharpness and not self.value_power


DEFAULT_MODEL = PosteriorModel()


@dataclass(frozen=True, slots=True)
class DiscardEvent:
    """One discard seen so far: its number (1-34), whether the opponent made it, its kind."""

    number: int
    by_opponent: bool
    kind: int


@dataclass(frozen=True)
class Problem:
    """What the posterior conditions on, as counts (built from a :class:`Position`).

    ``available[k]`` is how many copies of kind ``k`` could be among the opponent's tiles: the
    four copies less the seat's own and the dora indicator (R3, R5, R26). ``deal_size`` is the
    opponent's number of tiles (34, R5; smaller only in tests that enumerate exactly).
    """

    available: tuple[int, ...]
    dora_indicator: int
    opponent: Seat
    events: tuple[DiscardEvent, ...]
    number: int
    settings: RuleSettings = field(default_factory=RuleSettings)
    deal_size: int = DEAL_SIZE

    @classmethod
    def from_position(cls, position: Position) -> Problem:
        """The problem of one position (only what the seat sees, R26)."""
        available = [4 - n for n in counts_of(position.tiles)]
        available[position.dora_indicator.kind] -= 1
        mine = position.discards.get(position.seat, ())
        theirs = position.discards.get(position.opponent, ())
        first_is_mine = position.seat is Seat.EAST
        events = []
        for index in range(len(mine) + len(theirs)):
            row, turn = ((mine, True) if (index % 2 == 0) == first_is_mine else (theirs, False))
            kind = row[index // 2].kind
            events.append(DiscardEvent(index + 1, not turn, kind))
        return cls(tuple(max(0, n) for n in available), position.dora_indicator.kind,
                   position.opponent, tuple(events), position.number, position.settings)

    @cached_property
    def opponent_discards(self) -> tuple[int, ...]:
        """Copies of each kind the opponent has discarded."""
        counts = [0] * NUM_KINDS
        for event in self.events:
            if event.by_opponent:
                counts[event.kind] += 1
        return tuple(counts)

    @cached_property
    def unseen(self) -> tuple[int, ...]:
        """Copies of each kind that can still be in the opponent's hand or undiscarded pool."""
        return tuple(a - d for a, d in zip(self.available, self.opponent_discards, strict=True))

    @property
    def pool_size(self) -> int:
        """The opponent's pool (R7): its tiles less the hand."""
        return self.deal_size - HAND_SIZE


# ---------------------------------------------------------------------------------------------
# The model: prior, choice, likelihoods


@lru_cache(maxsize=1 << 18)
def _win(hand: tuple[int, ...], wait: int, seat_wind: int, ippatsu: bool, houtei: bool,
         indicator: int, settings: RuleSettings) -> tuple[bool, int]:
    """Whether a ron on ``wait`` is eligible (R14) and what it pays without ura (East's at
    dealer values under ``dealer_bonus``, R23)."""
    ctx = WinContext(seat_wind=seat_wind, ippatsu=ippatsu, houtei=houtei,
                     dora_indicator=indicator,
                     dealer=settings.dealer_bonus and seat_wind == EAST)
    value = score_counts(hand, wait, ctx, settings)
    if value is None:
        return False, 0
    return value.eligible, value.basis.points


def win_at(problem: Problem, hand: tuple[int, ...], wait: int, number: int) -> tuple[bool, int]:
    """Eligibility (R14) and basis points of the opponent's ron on ``wait`` at discard
    ``number`` (ippatsu R16 and houtei R17 as that discard gives them)."""
    ctx = ron_context(problem.opponent, number)
    return _win(hand, wait, problem.opponent.wind, ctx.ippatsu, ctx.houtei,
                problem.dora_indicator, problem.settings)


def choice_log_value(problem: Problem, model: PosteriorModel, hand: tuple[int, ...],
                     tiles: Sequence[int], hand_waits: Sequence[int]) -> float:
    """Log of the choice proxy: how much the opponent wants to keep ``hand`` out of its 34
    ``tiles``, seen from its side (live copies are those it cannot see: not in its 34, not the
    indicator).

    A hand with an eligible live wait (R14) is worth the chance that one of those copies comes
    (each with ``copy_chance``), times the share of the live copies that are eligible (an
    ineligible wait that comes first passes and freezes the hand, R15b), to the power
    ``value_power``; a hand without one is worth ``ineligible_weight``.
    """
    live_total = 0
    eligible_live = 0
    for wait in hand_waits:
        live = 4 - tiles[wait] - (1 if wait == problem.dora_indicator else 0)
        if live <= 0:
            continue
        live_total += live
        if not model.judge_eligibility or _win(
                hand, wait, problem.opponent.wind, False, False, problem.dora_indicator,
                problem.settings)[0]:
            eligible_live += live
    if not eligible_live:
        return math.log(model.ineligible_weight)
    hit = 1 - (1 - model.copy_chance) ** eligible_live
    return model.value_power * math.log(hit * eligible_live / live_total)


def view_dangers(kinds: Sequence[int], unseen: Sequence[int], safe: frozenset[int], dora: int,
                 yakuhai: frozenset[int], priors: DangerPriors,
                 suit: Sequence[float]) -> list[float]:
    """:func:`minefield.defense.danger.tile_dangers` of ``kinds`` only (kokushi left out), for the
    opponent's own view: ``unseen`` are the copies *they* cannot see, ``safe`` the kinds
    discarded so far, ``yakuhai`` the honors that are value honors for *their* opponent."""
    out = []
    for kind in kinds:
        if kind in safe:
            out.append(0.0)
            continue
        c = unseen[kind]
        danger = 0.0
        if kind >= SUIT_KINDS:
            honor = priors.yakuhai_factor if kind in yakuhai else priors.honor_factor
            single = priors.honor_tanki * c + priors.shanpon * c * (c - 1) / 2
            danger = single * honor * (priors.dora_factor if kind == dora else 1.0)
            out.append(danger)
            continue
        single = priors.tanki * c + priors.shanpon * c * (c - 1) / 2
        danger = single * (priors.dora_factor if kind == dora else 1.0)
        pos = kind % 9

        def shape(weight: float, held: tuple[int, int], other: int | None,
                  wait: int = kind) -> float:
            if weight <= 0 or (other is not None and other in safe):
                return 0.0
            if dora in held or dora == wait or (other is not None and other == dora):
                weight *= priors.dora_factor
            return weight

        if pos <= 5:  # ryanmen on (k+1, k+2) waits on k and k+3
            both = unseen[kind + 1] * unseen[kind + 2]
            danger += shape(priors.ryanmen * both, (kind + 1, kind + 2), kind + 3)
        if pos >= 3:  # ryanmen on (k-2, k-1) waits on k-3 and k
            both = unseen[kind - 2] * unseen[kind - 1]
            danger += shape(priors.ryanmen * both, (kind - 2, kind - 1), kind - 3)
        if pos == 2:  # penchan 12 waits on 3
            danger += shape(priors.penchan * unseen[kind - 2] * unseen[kind - 1],
                            (kind - 2, kind - 1), None)
        if pos == 6:  # penchan 89 waits on 7
            danger += shape(priors.penchan * unseen[kind + 1] * unseen[kind + 2],
                            (kind + 1, kind + 2), None)
        if 1 <= pos <= 7:  # kanchan
            danger += shape(priors.kanchan * unseen[kind - 1] * unseen[kind + 1],
                            (kind - 1, kind + 1), None)
        out.append(danger * suit[kind // 9])
    return out


@dataclass(frozen=True, slots=True)
class _EventView:
    """The opponent's view before one of its discards, shared by every sample."""

    safe: frozenset[int]
    ours_before: tuple[int, ...]
    ours_kinds: tuple[int, ...]
    yakuhai: frozenset[int]
    unseen_before: tuple[int, ...]


def held_back(problem: Problem) -> frozenset[int]:
    """Kinds the opponent cannot have had in its pool when it made a discard that looked
    dangerous from its side.

    A player who discards a kind nobody has discarded yet, while a kind already discarded by
    either seat (safe for it, R15) sat in its pool, is not playing safe first; the bots never
    do (``normal`` takes genbutsu when it has one, ``strong`` the least danger). So at each such
    discard every kind discarded before it was out of the opponent's pool (in its hand, or
    never dealt to it), unless the opponent discards it later (then it was not playing safe
    first) or it is one of its own waits (those it keeps, R15a).
    """
    safe: set[int] = set()
    later = [0] * NUM_KINDS
    for event in problem.events:
        if event.by_opponent:
            later[event.kind] += 1
    out: set[int] = set()
    for event in problem.events:
        if event.by_opponent:
            later[event.kind] -= 1
            if event.kind not in safe:
                out |= {k for k in safe if not later[k]}
        safe.add(event.kind)
    return frozenset(out)


def held_back_log_factor(problem: Problem, model: PosteriorModel, hand: Sequence[int],
                         hand_waits: Sequence[int], kinds: frozenset[int]) -> float:
    """Log of the chance, to the power ``model.safe_first``, that the unknown rest of the
    opponent's pool (drawn uniformly from the unseen copies the hand leaves) holds no copy of
    the :func:`held_back` ``kinds`` (own waits excepted)."""
    if not model.safe_first or not kinds:
        return 0.0
    unseen = problem.unseen
    left = sum(unseen) - sum(hand)
    barred = sum(unseen[k] - hand[k] for k in kinds if k not in hand_waits)
    size = problem.pool_size - sum(problem.opponent_discards)
    if barred <= 0 or size <= 0:
        return 0.0
    if left - barred < size:
        return _LOG_ZERO
    log = 0.0
    for i in range(size):
        log += math.log((left - barred - i) / (left - i))
    return model.safe_first * log


def _event_views(problem: Problem) -> list[_EventView | None]:
    views: list[_EventView | None] = []
    safe: set[int] = set()
    ours = [0] * NUM_KINDS
    kinds: list[int] = []
    our_wind = problem.opponent.other.wind
    yakuhai = frozenset((*DRAGONS, our_wind))
    unseen = list(problem.available)
    for event in problem.events:
        if event.by_opponent:
            views.append(_EventView(frozenset(safe), tuple(ours), tuple(kinds), yakuhai,
                                    tuple(unseen)))
            unseen[event.kind] -= 1
        else:
            views.append(None)
            ours[event.kind] += 1
            kinds.append(event.kind)
        safe.add(event.kind)
    return views


@dataclass(slots=True)
class _State:
    """One sample: its wait shape, the hand, its waits, the opponent's 34, the pool left (the
    discards still to replay included) and its weight so far."""

    shape: int
    hand: tuple[int, ...]
    waits: tuple[int, ...]
    tiles: list[int]
    pool: list[int]
    log_value: float
    drawn_at: int = 0
    furiten: bool = False
    done: int = 0
    log_like: float = 0.0
    alive: bool = True


def _step(problem: Problem, model: PosteriorModel, views: Sequence[_EventView | None],
          state: _State) -> None:
    """Apply the next discard event to one sample."""
    event = problem.events[state.done]
    view = views[state.done]
    state.done += 1
    if not state.alive:
        return
    kind = event.kind
    if view is None:  # the seat's own discard passed (R13, R15b)
        if not state.furiten and kind in state.waits:
            if (win_at(problem, state.hand, kind, event.number)[0]
                    or not model.judge_eligibility):
                state.alive = False
                return
            state.furiten = True
        return
    pool = state.pool
    if pool[kind] <= 0:
        state.alive = False
        return
    if state.done > state.drawn_at:
        # A discard seen after the sample was drawn: the pool's unknown part was drawn from
        # ``u`` unseen copies, and now one of its ``r`` copies is known.
        state.log_like += math.log(pool[kind] / view.unseen_before[kind])
    own = () if state.furiten else state.waits
    if not model.discard_sharpness:  # counts only: the same as the general case below
        n_kinds = NUM_KINDS - pool.count(0)
        n_own = sum(1 for w in own if pool[w])
        if n_own == n_kinds:
            like = 1.0 / n_kinds
        elif kind in own:
            like = model.own_wait_discard / n_own
        else:
            like = (1 - model.own_wait_discard if n_own else 1.0) / (n_kinds - n_own)
        _after(state, kind, like)
        return
    kinds = [k for k in range(NUM_KINDS) if pool[k]]
    allowed = [k for k in kinds if k not in own] or kinds
    if kind not in allowed:
        like = model.own_wait_discard / (len(kinds) - len(allowed))
    else:
        unseen = [max(0, 4 - state.tiles[k] - view.ours_before[k]) for k in range(NUM_KINDS)]
        unseen[problem.dora_indicator] = max(0, unseen[problem.dora_indicator] - 1)
        priors = model.priors
        suit = (suit_factors(unseen, view.ours_kinds, priors.suit_signal)
                if view.ours_kinds and priors.suit_signal else [1.0, 1.0, 1.0])
        danger = view_dangers(allowed, unseen, view.safe, dora_from_indicator(
            problem.dora_indicator), view.yakuhai, priors, suit)
        mean = sum(danger) / len(danger)
        scale = model.discard_sharpness / mean if mean > 0 else 0.0
        least = min(danger)
        terms = [math.exp(-scale * (d - least)) for d in danger]
        mine = terms[allowed.index(kind)]
        like = (1 - model.own_wait_discard if len(allowed) < len(kinds) else 1.0)
        like *= mine / sum(terms)
    _after(state, kind, like)


def _after(state: _State, kind: int, like: float) -> None:
    """Record an opponent discard of ``kind`` with likelihood ``like`` in one sample."""
    state.log_like += math.log(like) if like > 0 else _LOG_ZERO
    if like <= 0:
        state.alive = False
    state.pool[kind] -= 1
    if not state.furiten and kind in state.waits:
        state.furiten = True  # R15a


def sample_log_weight(problem: Problem, model: PosteriorModel, hand: tuple[int, ...],
                      pool: Sequence[int]) -> tuple[float, bool] | None:
    """The log weight of one opponent hand and full pool (the discards included) given every
    discard seen, and whether the opponent is furiten now; None when impossible.

    The weight is the choice proxy (:func:`choice_log_value`) times the likelihood of every
    discard (the opponent's as choices, the seat's own as passed tiles). Exposed so that tests
    can enumerate small problems exactly with the same model. When the model sums the pool
    out (:attr:`PosteriorModel.sums_pools`) this is :func:`collapsed_log_weight`, the same
    for every pool that holds the opponent's discards.
    """
    if model.sums_pools:
        if any(p < d for p, d in zip(pool, problem.opponent_discards, strict=True)):
            return None
        return collapsed_log_weight(problem, model, hand, waits(hand))
    tiles = [h + p for h, p in zip(hand, pool, strict=True)]
    hand_waits = waits(hand)
    state = _State(-1, hand, hand_waits, tiles, list(pool), 0.0, drawn_at=len(problem.events))
    views = _event_views(problem)
    while state.done < len(problem.events):
        _step(problem, model, views, state)
    if not state.alive:
        return None
    value = choice_log_value(problem, model, hand, tiles, hand_waits)
    value += held_back_log_factor(problem, model, hand, hand_waits, held_back(problem))
    if value == _LOG_ZERO:
        return None
    return value + state.log_like, state.furiten


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def expected_choice(problem: Problem, model: PosteriorModel, hand: tuple[int, ...],
                    hand_waits: Sequence[int]) -> float:
    """The choice proxy of ``hand`` (``value_power`` 0) averaged in closed form over the
    unknown rest of the pool (drawn uniformly from the unseen copies the hand leaves).

    The proxy is 1 when some eligible wait (R14) has a copy the opponent cannot see, else
    ``ineligible_weight``. From its side a wait ``w`` is dead only when its 34 and the
    indicator hold all four copies: impossible when this seat holds one, certain when the
    hand and indicator already do, otherwise exactly when the unknown rest of the pool took
    every copy left. So the chance that all eligible waits are dead is hypergeometric:
    ``C(L - m, s - m) / C(L, s)`` for ``m`` such copies among ``L``, the rest being ``s``.
    """
    unseen = problem.unseen
    available = problem.available
    indicator = problem.dora_indicator
    needed = 0
    possible = False
    for wait in hand_waits:
        if 4 - hand[wait] - (1 if wait == indicator else 0) <= 0:
            continue  # dead from its side whatever the pool holds
        if model.judge_eligibility and not _win(hand, wait, problem.opponent.wind, False,
                                                False, indicator, problem.settings)[0]:
            continue
        possible = True
        if available[wait] + (1 if wait == indicator else 0) < 4:
            return 1.0  # this seat holds a copy: live for the opponent whatever happens
        needed += unseen[wait] - hand[wait]
    if not possible:
        return model.ineligible_weight
    left = sum(unseen) - sum(hand)
    size = problem.pool_size - sum(problem.opponent_discards)
    if needed > size:
        return 1.0
    dead = math.exp(_log_comb(left - needed, size - needed) - _log_comb(left, size))
    return 1.0 - (1.0 - model.ineligible_weight) * dead


def collapsed_log_weight(problem: Problem, model: PosteriorModel, hand: tuple[int, ...],
                         hand_waits: Sequence[int], barred: frozenset[int] | None = None
                         ) -> tuple[float, bool] | None:
    """The log weight of ``hand`` with its pool summed out, and whether the opponent is
    furiten now; None when impossible.

    The pool enters the weight only through the choice proxy and the held-back kinds, both
    summed exactly (:func:`expected_choice`, :func:`held_back_log_factor`). The discards act
    as hard facts: a passed tile (the seat's) that the hand wins on eligibly is impossible,
    an ineligible one makes it furiten (R13, R15b); an opponent discard of its own wait while
    not furiten costs ``own_wait_discard`` and makes it furiten (R15a). The pool must hold the
    opponent's discards and the hand, which every completion drawn from the unseen copies
    does. (The counts-only discard likelihood of the sampled-pool model, one over the kinds
    left in the pool, is left out: it depends on the pool, and summed out it only adds noise.)
    ``barred`` is :func:`held_back` of the problem (computed when None).
    """
    furiten = False
    log = 0.0
    for event in problem.events:
        if furiten or event.kind not in hand_waits:
            continue
        if event.by_opponent:
            log += math.log(model.own_wait_discard) if model.own_wait_discard > 0 else _LOG_ZERO
            furiten = True
        elif (win_at(problem, hand, event.kind, event.number)[0]
              or not model.judge_eligibility):
            return None
        else:
            furiten = True
    if log == _LOG_ZERO:
        return None
    choice = expected_choice(problem, model, hand, hand_waits)
    if choice <= 0:
        return None
    log += math.log(choice)
    if barred is None:
        barred = held_back(problem)
    log += held_back_log_factor(problem, model, hand, hand_waits, barred)
    if log == _LOG_ZERO:
        return None
    return log, furiten


# ---------------------------------------------------------------------------------------------
# The prior: wait shapes, completed to hands


@dataclass(frozen=True, slots=True)
class PriorShape:
    """A wait shape of the prior: the tiles it holds, its weight (defense/danger.py's), and what
    completes it to 13 tiles: ``groups`` groups, and a pair when ``pair``, or six pairs when
    ``pairs`` (a seven-pairs tanki)."""

    held: tuple[int, ...]
    weight: float
    groups: int
    pair: bool
    pairs: bool = False


def prior_shapes(problem: Problem, model: PosteriorModel) -> list[PriorShape]:
    """The prior's shapes: every wait shape of :func:`minefield.defense.danger.wait_shapes` over
    the unseen copies (none killed: the discards act through the likelihood), a single as a
    tanki on four groups or, with ``chiitoitsu_share`` of its weight, on six pairs."""
    out = []
    unseen = problem.unseen
    theirs = [e.kind for e in problem.events if e.by_opponent]
    suit = (suit_factors(unseen, theirs, model.priors.suit_signal * model.suit_prior)
            if theirs and model.suit_prior else [1.0, 1.0, 1.0])
    for shape in wait_shapes(unseen, (), dora_from_indicator(problem.dora_indicator),
                             model.priors, problem.opponent.wind):
        if shape.name == "kokushi":
            continue
        if shape.held[0] < SUIT_KINDS:
            shape = Shape(shape.name, shape.waits, shape.held,
                          shape.weight * suit[shape.held[0] // 9])
        if len(shape.held) == 1:
            out.append(PriorShape(shape.held, shape.weight * (1 - model.chiitoitsu_share), 4,
                                  False))
            out.append(PriorShape(shape.held, shape.weight * model.chiitoitsu_share, 0,
                                  False, True))
        else:
            out.append(PriorShape(shape.held, shape.weight, 3, True))
    return [s for s in out if s.weight > 0]


class Completions:
    """Draws the rest of a hand around a shape's held tiles: a pair drawn by the number of
    ways the unseen copies hold it, groups likewise, a draw that needs more copies than are
    unseen is drawn again."""

    def __init__(self, unseen: Sequence[int]) -> None:
        self.unseen = tuple(unseen)
        self.pair_weight = [math.comb(max(0, u), 2) for u in self.unseen]
        self.pair_kinds = [k for k in range(NUM_KINDS) if self.pair_weight[k]]
        self.pair_cum = list(accumulate(self.pair_weight[k] for k in self.pair_kinds))
        groups: list[tuple[tuple[int, ...], float]] = []
        for kind in range(NUM_KINDS):
            if self.unseen[kind] >= 3:
                groups.append(((kind,) * 3, float(math.comb(self.unseen[kind], 3))))
            if kind < SUIT_KINDS and kind % 9 <= 6:
                ways = self.unseen[kind] * self.unseen[kind + 1] * self.unseen[kind + 2]
                if ways:
                    groups.append(((kind, kind + 1, kind + 2), float(ways)))
        self.groups = groups
        self.group_cum = list(accumulate(g[1] for g in groups))

    def _pair(self, rng: random.Random) -> int:
        return self.pair_kinds[bisect_right(self.pair_cum, rng.random() * self.pair_cum[-1])]

    def draw(self, shape: PriorShape, rng: random.Random, tries: int = 50
             ) -> tuple[int, ...] | None:
        """One hand around ``shape`` (None when ``tries`` draws all needed too many copies)."""
        if not self.group_cum or not self.pair_cum:
            return None
        for _ in range(tries):
            counts = [0] * NUM_KINDS
            for kind in shape.held:
                counts[kind] += 1
            ok = True
            if shape.pairs:
                for _ in range(6):
                    kind = self._pair(rng)
                    if counts[kind]:
                        ok = False
                        break
                    counts[kind] = 2
            if ok and shape.pair:
                kind = self._pair(rng)
                counts[kind] += 2
                ok = counts[kind] <= self.unseen[kind]
            for _ in range(shape.groups if ok else 0):
                tiles = self.groups[bisect_right(self.group_cum,
                                                 rng.random() * self.group_cum[-1])][0]
                for kind in tiles:
                    counts[kind] += 1
                if any(counts[kind] > self.unseen[kind] for kind in tiles):
                    ok = False
                    break
            if ok and all(counts[k] <= self.unseen[k] for k in shape.held):
                return tuple(counts)
        return None


# ---------------------------------------------------------------------------------------------
# The tracker


class PosteriorTracker:
    """Weighted samples of the opponent's hand for one seat, kept through a whole game.

    Each refresh spreads ``samples`` hands over the prior's shapes (at least one each, the rest
    by weight) and draws each shape's hands and pools; a shape's weight is its prior weight
    times the mean weight of its samples. Later positions reweight the samples with the new
    discards (the prior stays the one of the refresh) and refresh when the effective sample size
    falls below ``model.refresh_below`` of the samples alive. ``budget_s`` caps the time of one
    :meth:`update` (None: no cap, fully deterministic for the seed).
    """

    def __init__(self, seat: Seat, *, samples: int = 6000, seed: int = 0,
                 budget_s: float | None = 1.0, model: PosteriorModel = DEFAULT_MODEL) -> None:
        self.seat = seat
        self.samples = samples
        self.budget_s = budget_s
        self.model = model
        self._seed = seed
        self._rng = random.Random(f"posterior:{seed}:{seat}")
        self._states: list[_State] = []
        self._shapes: list[PriorShape] = []
        self._per_sample: list[float] = []
        self._drawn: list[int] = []
        self._held_back: frozenset[int] = frozenset()
        self._problem: Problem | None = None
        self._views: list[_EventView | None] = []
        self.refreshes = 0

    def _refresh(self, problem: Problem, started: float) -> None:
        """Draw a new set of samples for ``problem``."""
        self.refreshes += 1
        shapes = prior_shapes(problem, self.model)
        total = sum(s.weight for s in shapes) or 1.0
        counts = [max(1, round(self.samples * s.weight / total)) for s in shapes]
        completions = Completions(problem.unseen)
        barred = held_back(problem)
        self._held_back = barred
        discarded = problem.opponent_discards
        size = problem.pool_size - sum(discarded)
        states: list[_State] = []
        drawn = [0] * len(shapes)
        order = sorted(range(len(shapes)), key=lambda i: -shapes[i].weight)
        rounds = max(counts)
        for round_index in range(rounds):  # breadth first, so a cut budget spares every shape
            for index in order:
                if round_index >= counts[index]:
                    continue
                hand = completions.draw(shapes[index], self._rng)
                drawn[index] += 1
                if hand is None:
                    continue
                left = [u - h for u, h in zip(problem.unseen, hand, strict=True)]
                pool = list(discarded)
                for kind in self._rng.sample(_KINDS, size, counts=left):
                    pool[kind] += 1
                tiles = [h + p for h, p in zip(hand, pool, strict=True)]
                hand_waits = waits(hand)
                value = choice_log_value(problem, self.model, hand, tiles, hand_waits)
                value += held_back_log_factor(problem, self.model, hand, hand_waits, barred)
                state = _State(index, hand, hand_waits, tiles, pool, value,
                               drawn_at=len(problem.events))
                if value == _LOG_ZERO:
                    state.alive = False
                while state.done < len(problem.events) and state.alive:
                    _step(problem, self.model, self._views, state)
                state.done = len(problem.events)
                states.append(state)
            if (self.budget_s is not None and round_index >= 1
                    and time.perf_counter() - started > self.budget_s):
                break
        self._states = states
        self._shapes = shapes
        self._per_sample = [s.weight / max(1, n) for s, n in zip(shapes, drawn, strict=True)]
        self._drawn = drawn

    def _refresh_collapsed(self, problem: Problem, started: float) -> None:
        """Draw hands only (the pool summed out, :func:`collapsed_log_weight`), in two stages:
        a first share of the samples spread by prior weight, the rest by each shape's mass so
        far (prior times mean weight), so shapes the discards rule out get no more draws.
        A shape's mass stays its prior weight times the mean weight of all its draws."""
        self.refreshes += 1
        shapes = prior_shapes(problem, self.model)
        completions = Completions(problem.unseen)
        states: list[_State] = []
        drawn = [0] * len(shapes)
        sums = [0.0] * len(shapes)
        known: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[float, bool] | None]] = {}
        barred = held_back(problem)

        def run(counts: list[int]) -> bool:
            order = sorted(range(len(shapes)), key=lambda i: -shapes[i].weight)
            for round_index in range(max(counts, default=0)):
                for index in order:
                    if round_index >= counts[index]:
                        continue
                    hand = completions.draw(shapes[index], self._rng)
                    drawn[index] += 1
                    if hand is None:
                        continue
                    found = known.get(hand)
                    if found is None:
                        hand_waits = waits(hand)
                        found = (hand_waits, collapsed_log_weight(
                            problem, self.model, hand, hand_waits, barred))
                        known[hand] = found
                    hand_waits, weighed = found
                    if weighed is None:
                        continue
                    sums[index] += math.exp(weighed[0])
                    states.append(_State(index, hand, hand_waits, [], [], weighed[0],
                                         drawn_at=len(problem.events), furiten=weighed[1],
                                         done=len(problem.events)))
                if (self.budget_s is not None and round_index >= 1
                        and time.perf_counter() - started > self.budget_s):
                    return False
            return True

        total = sum(s.weight for s in shapes) or 1.0
        first = max(1, round(self.samples * (1 - self.model.second_stage)))
        if run([max(1, round(first * s.weight / total)) for s in shapes]):
            rest = self.samples - sum(drawn)
            mass = [s.weight * sums[i] / max(1, drawn[i]) for i, s in enumerate(shapes)]
            mass_total = sum(mass)
            if rest > 0 and mass_total > 0:
                run([round(rest * m / mass_total) for m in mass])
        self._states = states
        self._shapes = shapes
        self._per_sample = [s.weight / max(1, n) for s, n in zip(shapes, drawn, strict=True)]
        self._drawn = drawn

    def _weights(self) -> list[float]:
        logs = [s.log_value + s.log_like + math.log(self._per_sample[s.shape])
                if s.alive and self._per_sample[s.shape] > 0 else _LOG_ZERO
                for s in self._states]
        top = max(logs, default=_LOG_ZERO)
        if top == _LOG_ZERO:
            return [0.0] * len(logs)
        return [math.exp(x - top) if x != _LOG_ZERO else 0.0 for x in logs]

    @property
    def effective_samples(self) -> float:
        """Kish's effective sample size of the current weights."""
        weights = self._weights()
        total = sum(weights)
        squares = sum(w * w for w in weights)
        return total * total / squares if squares else 0.0

    def update(self, position: Position) -> Estimate:
        """Condition on ``position`` (a later position of the same game and seat, or any
        position: a new game starts afresh) and return the estimate."""
        if position.seat is not self.seat:
            raise ValueError(f"this tracker follows {self.seat}, not {position.seat}")
        return self.update_problem(Problem.from_position(position))

    def update_problem(self, problem: Problem) -> Estimate:
        """:meth:`update` for a :class:`Problem` (tests build small ones directly)."""
        started = time.perf_counter()
        if self.model.sums_pools:  # hands only: a fresh draw is cheap and exact for the seed
            self._problem = problem
            self._refresh_collapsed(problem, started)
            return self.estimate()
        old = self._problem
        fresh = (old is None or old.available != problem.available
                 or old.dora_indicator != problem.dora_indicator
                 or problem.events[:len(old.events)] != old.events)
        self._problem = problem
        self._views = _event_views(problem)
        if not fresh:
            for state in self._states:
                while state.done < len(problem.events):
                    _step(problem, self.model, self._views, state)
            alive = sum(1 for s in self._states if s.alive)
            fresh = (self.effective_samples < self.model.refresh_below * max(1, alive)
                     or (self.model.safe_first > 0 and held_back(problem) != self._held_back))
        if fresh:
            self._refresh(problem, started)
        return self.estimate()

    def estimate(self) -> Estimate:
        """The estimate of the last position given to :meth:`update`."""
        problem = self._problem
        if problem is None:
            raise ValueError("no position yet: call update first")
        weights = self._weights()
        total = sum(weights)
        danger = [0.0] * NUM_KINDS
        loss = [0.0] * NUM_KINDS
        furiten = 0.0
        if total <= 0:
            return Estimate(tuple(danger), tuple(loss), 0.0)
        by_shape: dict[int, list[tuple[_State, float]]] = {}
        for state, weight in zip(self._states, weights, strict=True):
            if weight:
                by_shape.setdefault(state.shape, []).append((state, weight))
        wins: dict[int, list[tuple[int, float, int]]] = {}
        eligible_mass: dict[int, float] = {}
        for shape, members in by_shape.items():
            found: list[tuple[int, float, int]] = []
            mass = 0.0
            for state, weight in members:
                if state.furiten:
                    furiten += weight
                    continue
                hit = False
                for wait in state.waits:
                    eligible, points = win_at(problem, state.hand, wait, problem.number)
                    eligible = eligible or not self.model.judge_eligibility
                    if eligible:
                        found.append((wait, weight, points))
                        hit = True
                if hit:
                    mass += weight
            wins[shape] = found
            eligible_mass[shape] = mass
        smoothing = self.model.eligibility_smoothing
        overall = sum(eligible_mass.values()) / total
        for shape, found in wins.items():
            scale = 1.0
            if smoothing and found:
                shape_total = sum(w for _, w in by_shape[shape])
                share = eligible_mass[shape] / shape_total
                drawn = self._drawn[shape] if shape < len(self._drawn) else 1
                smoothed = (overall if math.isinf(smoothing)
                            else (drawn * share + smoothing * overall) / (drawn + smoothing))
                scale = smoothed / share
            for wait, weight, points in found:
                danger[wait] += weight * scale
                loss[wait] += weight * scale * points
        return Estimate(tuple(min(1.0, d / total) for d in danger),
                        tuple(x / total for x in loss), min(1.0, furiten / total))


def posterior_dangers(position: Position, *, samples: int = 6000, seed: int = 0,
                      budget_s: float | None = 1.0, model: PosteriorModel = DEFAULT_MODEL,
                      calibrated: bool = True) -> Estimate:
    """The posterior estimate of one position, from fresh samples (see the module docstring).

    With ``calibrated`` (and fitted constants in :mod:`minefield.defense.calibration`) the
    chances are the fitted blend of the posterior and the fast estimate (:func:`blend`);
    otherwise the model's chances as they come. Deterministic for ``seed`` unless ``budget_s``
    (seconds) stops the sampling first.
    """
    tracker = PosteriorTracker(position.seat, samples=samples, seed=seed, budget_s=budget_s,
                               model=model)
    raw = tracker.update(position)
    coefficients = calibration.POSTERIOR_BLEND
    if not calibrated or coefficients is None:
        return raw
    return blend(position, raw, fast_dangers(position), coefficients)


_CLIP = 1e-3


def _logit(chance: float) -> float:
    chance = min(1 - _CLIP, max(_CLIP, chance))
    return math.log(chance / (1 - chance))


def blend_row(posterior: float, fast: float) -> tuple[float, float, float]:
    """The blend's inputs for one kind: 1, logit of the posterior's chance and of the fast
    estimate's (each clipped to [0.001, 0.999]); the order of ``POSTERIOR_BLEND``."""
    return 1.0, _logit(posterior), _logit(fast)


def blend(position: Position, raw: Estimate, fast: Estimate,
          coefficients: Sequence[float]) -> Estimate:
    """The logistic blend of the posterior's and the fast estimate's chances (fitted on bot
    games by ``benchmarks/bench_danger.py --write``). Exact zeros stay zeros: kinds either seat
    has discarded (R15) and kinds no wait can use (the fast estimate's 0); so does a kind the
    posterior proves safe. The loss keeps the posterior's mean ron value (the fast estimate's
    where the posterior has none); the furiten chance is the posterior's."""
    safe = position.genbutsu | position.passed
    danger = [0.0] * NUM_KINDS
    loss = [0.0] * NUM_KINDS
    for kind in range(NUM_KINDS):
        if kind in safe or fast.danger[kind] <= 0:
            continue
        z = sum(c * x for c, x in zip(coefficients, blend_row(raw.danger[kind],
                                                                fast.danger[kind]), strict=True))
        chance = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))
        danger[kind] = chance
        if raw.danger[kind] > 0:
            loss[kind] = chance * raw.loss[kind] / raw.danger[kind]
        else:
            loss[kind] = chance * fast.loss[kind] / fast.danger[kind]
    return Estimate(tuple(danger), tuple(loss), raw.opponent_furiten)


def posterior_of(problem: Problem, *, samples: int = 6000, seed: int = 0,
                 budget_s: float | None = 1.0, model: PosteriorModel = DEFAULT_MODEL) -> Estimate:
    """:func:`posterior_dangers` of a :class:`Problem`."""
    tracker = PosteriorTracker(problem.opponent.other, samples=samples, seed=seed,
                               budget_s=budget_s, model=model)
    return tracker.update_problem(problem)
