"""Choosing 13 of 34 tiles: what a hand is worth, and the search for the best one (R7, R14).

The expected value of a hand, in points, from what the seat knows when it builds it:

* A wait's *live* copies are those the seat cannot see: not among its own 34 tiles and not
  the dora indicator. Each live copy is taken to reach the opponent's pool and be discarded by
  them with the same chance ``q`` (17 discards out of the 101 unseen tiles make ``q`` about
  0.17; a careful opponent lowers it), so at least one copy comes with chance
  ``1 - (1 - q) ** live``.
* The first copy that comes decides: an eligible wait (R14: mangan without ura) wins, a wait
  below the minimum passes and freezes the hand for ever (R15b). So a cheap wait is worse than
  no wait at all: it takes its share of the first-come chance and gives nothing.
* What a win pays is the engine's value of the best reading, with ura dora *in expectation*:
  the ura indicator is one of the 101 unseen tiles, so each kind in the winning hand is ura
  with the chance that its indicator is the hidden one; ura never changes eligibility (R14).
* A hand whose own 21-tile pool holds more than four copies of its waits must discard one
  before its 17 discards are done (four tiles are never discarded, R10), which is furiten
  (R15a): the hand only has ``21 - copies`` discards' worth of time to win.
* The pool is the hand's defence: every kind of the pool that is discarded must get past the
  opponent's waits once (later copies are then safe, R15). The expected loss is the chance that
  one of them is a wait (from :mod:`minefield.defense.danger`, before any discard is seen, and
  discounted because later discards are chosen with more information) times what an
  opponent's win costs. The four tiles kept at the end are the pool's own waits first, then the
  most dangerous kinds.

The search enumerates every tenpai hand (:mod:`minefield.bots.search`) and scores them
best-first by an optimistic bound (the live copies and a quick upper bound of han), so the
engine only scores hands that could still beat the best one found; the result is the same as
scoring every hand.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from minefield.bots.bounds import DRAGON_MASK, win_bound
from minefield.bots.search import Counts, tenpai_hands
from minefield.defense.danger import wait_probabilities
from minefield.rules.game import (
    DISCARDS_PER_SEAT,
    NEVER_DISCARDED,
    POOL_SIZE,
    PlayerView,
    Seat,
)
from minefield.rules.hand import HAND_SIZE, waits
from minefield.rules.score import WinContext, WinValue, limit_and_points, score_counts
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import (
    FIVES,
    NUM_KINDS,
    Tile,
    TileError,
    check_copies,
    dora_from_indicator,
    parse_tiles,
    tiles_to_str,
)
from minefield.rules.wall import DEAL_SIZE

UNSEEN = 136 - DEAL_SIZE - 1  # the opponent's 34, the unused wall and the ura indicator

_INDICATOR_OF = {dora_from_indicator(k): k for k in range(NUM_KINDS)}


@dataclass(frozen=True, slots=True)
class ValueModel:
    """The tunable numbers of the expected value (see the module docstring)."""

    copy_chance: float = 0.15
    opponent_win: float = 9000.0
    pool_risk_discount: float = 0.5


DEFAULT_MODEL = ValueModel()
#: The first ``strong`` hand search, kept as numbers so that paired benchmarks can play it
#: whatever the defaults become. Heavier pool weights (0.75, 1.0, 2.0) and a lighter one (0.25)
#: were measured against it: each heavier weight cost about twice as many wins as it saved
#: deal-ins, so the defaults are still these.
PREVIOUS_MODEL = ValueModel(copy_chance=0.15, opponent_win=9000.0, pool_risk_discount=0.5)


@dataclass(frozen=True)
class DealtTiles:
    """What a seat knows when it builds its hand: its 34 tiles, the dora indicator, its seat.

    ``dealer``: the seat's rons are paid dealer values (East in a match with ``dealer_bonus``,
    R23).
    """

    counts: Counts
    dora_indicator: int | None
    seat: Seat
    settings: RuleSettings
    red_suits: frozenset[int] = frozenset()
    dealer: bool = False

    @classmethod
    def from_tiles(cls, tiles: Iterable[Tile], dora_indicator: int | None, seat: Seat,
                   settings: RuleSettings | None = None, dealer: bool | None = None
                   ) -> DealtTiles:
        """Build from 34 tiles; :class:`TileError` when they are not 34 or hold five of a kind.

        ``dealer`` defaults to what ``settings`` say: East is the dealer under
        ``dealer_bonus`` (R23).
        """
        tiles = list(tiles)
        extra = [Tile(dora_indicator)] if dora_indicator is not None else []
        check_copies(tiles + extra)
        if len(tiles) != DEAL_SIZE:
            raise TileError(f"need {DEAL_SIZE} tiles, got {len(tiles)}")
        counts = [0] * NUM_KINDS
        for tile in tiles:
            counts[tile.kind] += 1
        settings = settings or RuleSettings()
        reds = frozenset(t.kind // 9 for t in tiles if t.red) if settings.red_fives else frozenset()
        if dealer is None:
            dealer = settings.dealer_bonus and seat is Seat.EAST
        return cls(tuple(counts), dora_indicator, seat, settings, reds, dealer)

    @classmethod
    def from_view(cls, view: PlayerView) -> DealtTiles:
        """What ``view`` shows of the deal (the game's terms say whether East is paid dealer
        values, R23)."""
        indicator = Tile.parse(view.dora_indicator).kind
        return cls.from_tiles(parse_tiles(view.own_tiles), indicator, view.seat, view.settings,
                              dealer=view.terms.dealer_bonus and view.seat is Seat.EAST)

    @property
    def context(self) -> WinContext:
        """The win context of a ron on an ordinary discard (no ippatsu, no houtei, no ura)."""
        return WinContext(seat_wind=self.seat.wind, dora_indicator=self.dora_indicator,
                          dealer=self.dealer)

    @property
    def dora(self) -> int | None:
        """The dora kind (R4)."""
        return None if self.dora_indicator is None else dora_from_indicator(self.dora_indicator)

    def unseen(self, kind: int) -> int:
        """Copies of ``kind`` this seat cannot see."""
        return 4 - self.counts[kind] - (1 if kind == self.dora_indicator else 0)

    def reds_in(self, hand: Sequence[int]) -> int:
        """Red fives the hand holds: a kept five of a suit whose red five the seat owns."""
        return sum(1 for suit in self.red_suits if hand[FIVES[suit]])

    def hand_tiles(self, hand: Sequence[int]) -> str:
        """The hand as mpsz, keeping the red five whenever a five of its suit is kept."""
        tiles = [Tile(k, red=(n == 0 and k in FIVES and k // 9 in self.red_suits))
                 for k in range(NUM_KINDS) for n in range(hand[k])]
        return tiles_to_str(tiles)


@dataclass(frozen=True)
class HandChoice:
    """A chosen hand: its counts, whether it is tenpai, how many tenpai hands were found, and
    its expected value (points; 0 for levels that do not compute it)."""

    hand: Counts
    tenpai: bool
    candidates: int
    value: float = 0.0
    waits: tuple[int, ...] = field(default=())


# ---------------------------------------------------------------------------------------------
# Evaluation


class _Evaluator:
    """Per-deal tables for valuing hands."""

    def __init__(self, deal: DealtTiles, model: ValueModel) -> None:
        self.deal = deal
        self.model = model
        self.ctx = deal.context
        self.live = [max(0, deal.unseen(k)) for k in range(NUM_KINDS)]
        # Chance that kind t is ura dora: its indicator is the hidden ura indicator.
        self.ura_chance = [self.live[_INDICATOR_OF[t]] / UNSEEN for t in range(NUM_KINDS)]
        self.miss = [(1 - model.copy_chance) ** n for n in range(4 * NUM_KINDS + 1)]
        self.wait_chance = wait_probabilities(self.live, (), deal.dora)
        self.kinds_by_danger = sorted(range(NUM_KINDS), key=lambda k: -self.wait_chance[k])
        self.all_pool_risk = sum(self.wait_chance[k] for k in range(NUM_KINDS)
                                 if deal.counts[k])
        self.dealer = 1.5 if self.ctx.dealer else 1.0
        self.yakuhai_mask = DRAGON_MASK | 1 << deal.seat.wind
        self.dora = deal.dora
        self.ura_tables = _chance_tables(self.ura_chance)

    def total_live(self, waits: Iterable[int]) -> int:
        return sum(self.live[w] for w in waits)

    def score(self, hand: Counts, wait: int) -> WinValue | None:
        return score_counts(hand, wait, self.ctx, self.deal.settings, self.deal.reds_in(hand))

    def expected_points(self, value: WinValue, hand: Counts) -> float:
        """What a ron pays, with ura dora in expectation."""
        basis = value.basis
        if basis.yakuman:
            return float(basis.points)
        settings = self.deal.settings
        dealer = self.ctx.dealer
        base = _points(basis.han, basis.fu, settings, dealer)
        total = 0.0
        hit = 0.0
        for kind in range(NUM_KINDS):
            copies = hand[kind] + (1 if kind == value.tile else 0)
            if copies:
                chance = self.ura_chance[kind]
                hit += chance
                total += chance * _points(basis.han + copies, basis.fu, settings, dealer)
        return total + (1 - hit) * base

    def pool_risk(self, hand: Counts, waits: Iterable[int]) -> float:
        """Rough chance of dealing in with this pool (see the module docstring)."""
        counts = self.deal.counts
        chance = self.wait_chance
        risk = self.all_pool_risk
        for kind in range(NUM_KINDS):
            if hand[kind] and hand[kind] == counts[kind]:
                risk -= chance[kind]  # no copy of it in the pool
        slots = NEVER_DISCARDED
        kept: set[int] = set()
        for wait in waits:
            in_pool = counts[wait] - hand[wait]
            if in_pool:
                kept.add(wait)
                slots -= in_pool
                if slots >= 0:
                    risk -= chance[wait]
        for kind in self.kinds_by_danger:
            if slots <= 0:
                break
            in_pool = counts[kind] - hand[kind]
            if in_pool and kind not in kept and in_pool <= slots:
                slots -= in_pool
                risk -= chance[kind]
        return self.model.pool_risk_discount * min(1.0, max(0.0, risk))

    def hand_value(self, hand: Counts, waits: Iterable[int],
                   values: dict[int, WinValue | None]) -> float:
        """Expected points of keeping ``hand`` (attack minus the pool's expected loss)."""
        counts = self.deal.counts
        live_total = 0
        win_total = 0.0
        in_pool = 0
        for wait in waits:
            in_pool += counts[wait] - hand[wait]
            live = self.live[wait]
            if not live:
                continue
            live_total += live
            value = values.get(wait)
            if value is not None and value.eligible:
                win_total += live * self.expected_points(value, hand)
        risk = self.pool_risk(hand, waits)
        attack = 0.0
        if live_total:
            window = (min(1.0, (POOL_SIZE - in_pool) / DISCARDS_PER_SEAT)
                      if in_pool > NEVER_DISCARDED else 1.0)
            hit = 1 - (1 - self.model.copy_chance) ** (live_total * window)
            attack = hit * win_total / live_total
        return attack * (1 - risk) - risk * self.model.opponent_win

    def attack_bound(self, hand: Counts, waits: set[int]) -> float:
        """An upper bound of the attack part of :meth:`hand_value` (before the pool)."""
        live_total = self.total_live(waits)
        if not live_total:
            return 0.0
        return (1 - self.miss[live_total]) * self.points_bound(hand, waits)

    def points_bound(self, hand: Counts, waits: set[int]) -> float:
        """The most a win of ``hand`` on one of ``waits`` can pay: the bounds of
        :mod:`minefield.bots.bounds` (a yakuman, else the yaku's han) with riichi, dora, red
        fives and the chance of ura (ura in expectation)."""
        yakuman, han, one, three = win_bound(hand, waits, self.yakuhai_mask)
        if yakuman:
            factor = 2 if self.deal.settings.double_yakuman_waits else 1
            return 32000.0 * yakuman * factor * self.dealer
        # riichi, dora, red fives, ura
        han += 1
        dora = self.dora
        if dora is not None:
            han += hand[dora] + (1 if dora in waits else 0)
        if self.deal.red_suits:
            han += self.deal.reds_in(hand)
        if han <= 2 and self.deal.settings.minimum == "mangan":
            return 0.0  # 2 han is at most 70 fu: below mangan whatever the reading (R14)
        most = 4 if three else 3
        tables = self.ura_tables
        ura = (tables[0][one & 511] + tables[1][one >> 9 & 511] + tables[2][one >> 18 & 511]
               + tables[3][one >> 27])
        ura = min(1.0, ura + max(self.ura_chance[w] for w in waits))
        return ((1 - ura) * _limit_points(han) + ura * _limit_points(han + most)) * self.dealer


def _chance_tables(chance: Sequence[float]) -> tuple[list[float], ...]:
    """For each suit (and the honors), the summed chance of every subset of its kinds."""
    tables = []
    for base, size in ((0, 9), (9, 9), (18, 9), (27, 7)):
        table = [0.0] * (1 << size)
        for bits in range(1, 1 << size):
            low = (bits & -bits).bit_length() - 1
            table[bits] = table[bits & (bits - 1)] + chance[base + low]
        tables.append(table)
    return tuple(tables)


@lru_cache(maxsize=4096)
def _points(han: int, fu: int, settings: RuleSettings, dealer: bool) -> int:
    return limit_and_points(han, fu, 0, settings, dealer)[1]


def _limit_points(han: int) -> float:
    """The most a non-yakuman hand of ``han`` han can pay (any fu)."""
    if han >= 13:
        return 32000.0
    if han >= 11:
        return 24000.0
    if han >= 8:
        return 16000.0
    if han >= 6:
        return 12000.0
    return 8000.0


# ---------------------------------------------------------------------------------------------
# The searches behind the levels


def choose_best(deal: DealtTiles, model: ValueModel = DEFAULT_MODEL) -> HandChoice:
    """The tenpai hand of highest expected value (``strong``); the least harmful 13 when no
    tenpai hand exists."""
    found = tenpai_hands(deal.counts)
    if not found:
        return least_harm(deal)
    evaluator = _Evaluator(deal, model)
    live = evaluator.live.__getitem__
    ranked = sorted(((sum(map(live, w)), h) for h, w in found.items()), reverse=True)
    best_value = float("-inf")
    best_hand: Counts | None = None
    miss, points_bound = evaluator.miss, evaluator.points_bound
    for live_total, hand in ranked:
        waits = found[hand]
        # evaluator.attack_bound(hand, waits), its live copies known
        bound = (1 - miss[live_total]) * points_bound(hand, waits) if live_total else 0.0
        if best_hand is not None and bound <= best_value:
            continue
        risk = evaluator.pool_risk(hand, waits)
        if best_hand is not None and bound * (1 - risk) - risk * model.opponent_win <= best_value:
            continue
        values = {w: evaluator.score(hand, w) for w in waits if evaluator.live[w]}
        value = evaluator.hand_value(hand, waits, values)
        if value > best_value:
            best_value, best_hand = value, hand
    assert best_hand is not None
    return HandChoice(best_hand, True, len(found), best_value, tuple(sorted(found[best_hand])))


def expected_value(deal: DealtTiles, hand: Counts, model: ValueModel = DEFAULT_MODEL) -> float:
    """The expected points of keeping ``hand`` (13 of the deal's tiles), by the measure
    :func:`choose_best` maximizes: what its waits win, less what its pool is expected to lose.
    A hand that is not tenpai only has the pool's side."""
    evaluator = _Evaluator(deal, model)
    hand_waits = waits(hand)
    values = {w: evaluator.score(hand, w) for w in hand_waits if evaluator.live[w]}
    return evaluator.hand_value(hand, hand_waits, values)


def choose_most_live(deal: DealtTiles) -> HandChoice:
    """The tenpai hand with the most live copies of eligible waits (``normal``); ties go to the
    larger sum of live copies times points."""
    found = tenpai_hands(deal.counts)
    if not found:
        return least_harm(deal)
    evaluator = _Evaluator(deal, DEFAULT_MODEL)
    ranked = sorted(((evaluator.total_live(w), h) for h, w in found.items()), reverse=True)
    best_key: tuple[int, float] = (-1, 0.0)
    best_hand = ranked[0][1]
    for live_total, hand in ranked:
        if live_total < best_key[0]:
            break
        eligible = 0
        points = 0.0
        for wait in found[hand]:
            live = evaluator.live[wait]
            value = evaluator.score(hand, wait) if live else None
            if value is not None and value.eligible:
                eligible += live
                points += live * value.basis.points
        if (eligible, points) > best_key:
            best_key, best_hand = (eligible, points), hand
    return HandChoice(best_hand, True, len(found), float(best_key[0]),
                      tuple(sorted(found[best_hand])))


def choose_random(deal: DealtTiles, rng: random.Random) -> HandChoice:
    """A tenpai hand drawn uniformly from all of them (``easy``)."""
    found = tenpai_hands(deal.counts)
    if not found:
        return least_harm(deal)
    hand = rng.choice(sorted(found))
    return HandChoice(hand, True, len(found), 0.0, tuple(sorted(found[hand])))


def least_harm(deal: DealtTiles) -> HandChoice:
    """No tenpai hand: keep the 13 tiles most dangerous to discard, so the pool is safest."""
    live = [max(0, deal.unseen(k)) for k in range(NUM_KINDS)]
    chance = wait_probabilities(live, (), deal.dora)
    order = sorted((k for k in range(NUM_KINDS) for _ in range(deal.counts[k])),
                   key=lambda k: (-chance[k], k))
    hand = [0] * NUM_KINDS
    for kind in order[:HAND_SIZE]:
        hand[kind] += 1
    return HandChoice(tuple(hand), False, 0)
