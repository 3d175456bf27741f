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
    DRAGONS,
    FIVES,
    NUM_KINDS,
    TERMINALS_AND_HONORS,
    WINDS,
    Tile,
    TileError,
    check_copies,
    dora_from_indicator,
    parse_tiles,
    tiles_to_str,
)
from minefield.rules.wall import DEAL_SIZE

UNSEEN = 136 - DEAL_SIZE - 1  # the opponent's 34, the unused wall and the ura indicator

_TH = frozenset(TERMINALS_AND_HONORS)
_GREEN = frozenset((19, 20, 21, 23, 25, 32))
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
        self.yakuhai_mask = _DRAGON_MASK | 1 << deal.seat.wind
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

    def points_bound(self, hand: Counts, waits: set[int]) -> float:  # noqa: C901
        """The most a win of ``hand`` on one of ``waits`` can pay: :func:`yakuman_bound`, else
        :class:`HanBound` with riichi, dora and the chance of ura (ura in expectation).

        The same numbers as those functions give, from per-suit features looked up by each
        suit's counts (:func:`_suit_features`) instead of walking the 34 kinds and the
        patterns for every hand: this is the search's inner loop (thousands of hands a deal).
        """
        features = _SUIT_FEATURES
        key = hand[0:9]
        man = features[0].get(key) or _suit_features(key, 0)
        key = hand[9:18]
        pin = features[1].get(key) or _suit_features(key, 1)
        key = hand[18:27]
        sou = features[2].get(key) or _suit_features(key, 2)
        key = hand[27:34]
        honors = features[3].get(key) or _suit_features(key, 3)
        one = man[0] | pin[0] | sou[0] | honors[0]
        two = man[1] | pin[1] | sou[1] | honors[1]
        three = man[2] | pin[2] | sou[2] | honors[2]
        dragons = ((one & _DRAGON_MASK).bit_count() + (two & _DRAGON_MASK).bit_count()
                   + (three & _DRAGON_MASK).bit_count()) if one & _DRAGON_MASK else 0
        triplets = three.bit_count()
        # yakuman_bound
        yakuman = 0
        if not one & ~_TH_MASK and one.bit_count() >= 12:
            yakuman += 1  # kokushi
        if triplets >= 4:
            yakuman += 1  # suuankou
        if dragons >= 8:
            yakuman += 1  # daisangen
        if one & _WIND_MASK and ((one & _WIND_MASK).bit_count() + (two & _WIND_MASK).bit_count()
                                 + (three & _WIND_MASK).bit_count()) >= 10:
            yakuman += 2  # shousuushii or daisuushii
        if not one & ~_HONOR_MASK:
            yakuman += 1  # tsuuiisou
        if not one & ~_GREEN_MASK:
            yakuman += 1  # ryuuiisou
        if not one & ~_TERMINAL_MASK:
            yakuman += 1  # chinroutou
        if ((man[11] and not one & ~_SUIT_MASKS[0]) or (pin[11] and not one & ~_SUIT_MASKS[1])
                or (sou[11] and not one & ~_SUIT_MASKS[2])):
            yakuman += 1  # chuuren
        if yakuman:
            factor = 2 if self.deal.settings.double_yakuman_waits else 1
            return 32000.0 * yakuman * factor * self.dealer
        # HanBound
        wait_mask = 0
        for wait in waits:
            wait_mask |= 1 << wait
        pairs = two & ~three
        han = 0
        if not one & _TH_MASK and wait_mask & _SIMPLE_MASK:
            han += 1  # tanyao
        if not three & _HONOR_MASK:
            han += 1  # pinfu
        doubles = man[4] + pin[4] + sou[4]
        if doubles >= 2 or man[5] or pin[5] or sou[5]:
            han += 3  # ryanpeikou
        elif doubles:
            han += 1  # iipeikou
        if _two_short_of_one(man[7], man[8], pin[7], pin[8], sou[7], sou[8]):
            han += 2  # sanshoku doujun
        if man[6] or pin[6] or sou[6]:
            han += 2  # ittsu
        yakuhai = self.yakuhai_mask
        han += (three & yakuhai).bit_count() + (pairs & wait_mask & yakuhai).bit_count()
        if not one & _MIDDLE_MASK:
            han += 3  # chanta or junchan
        if triplets + (1 if pairs & wait_mask else 0) >= 4:
            han += 2  # toitoi
        if triplets >= 3:
            han += 2  # sanankou
        if _two_short_of_one(man[9], man[10], pin[9], pin[10], sou[9], sou[10]):
            han += 2  # sanshoku doukou
        if not one & ~_TH_MASK:
            han += 2  # honroutou
        if dragons >= 7:
            han += 2  # shousangen
        if pairs.bit_count() >= 6:
            han += 2  # chiitoitsu
        suits = ((1 if one & _SUIT_MASKS[0] else 0) + (1 if one & _SUIT_MASKS[1] else 0)
                 + (1 if one & _SUIT_MASKS[2] else 0))
        if suits <= 1:
            han += 3 if one & _HONOR_MASK else 6  # honitsu or chinitsu
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
# Quick optimistic bounds (used only to skip hands; every hand kept is scored by the engine)


def _mask(kinds: Iterable[int]) -> int:
    out = 0
    for kind in kinds:
        out |= 1 << kind
    return out


_TH_MASK = _mask(TERMINALS_AND_HONORS)
_HONOR_MASK = _mask(range(27, NUM_KINDS))
_SIMPLE_MASK = _mask(range(NUM_KINDS)) & ~_TH_MASK
_SUIT_MASKS = tuple(_mask(range(s * 9, s * 9 + 9)) for s in range(3))
_MIDDLE_MASK = _mask(s * 9 + i for s in range(3) for i in (3, 4, 5))
_GREEN_MASK = _mask(_GREEN)
_DRAGON_MASK = _mask(DRAGONS)
_WIND_MASK = _mask(WINDS)
_TERMINAL_MASK = _TH_MASK & ~_HONOR_MASK
_RUNS = tuple(_mask((k, k + 1, k + 2)) for k in range(27) if k % 9 <= 6)
_SANSHOKU = tuple(_mask(p + s * 9 + i for s in range(3) for i in range(3)) for p in range(7))
_ITTSU = _SUIT_MASKS
_DOUKOU = tuple(_mask(p + s * 9 for s in range(3)) for p in range(9))


#: Per suit (man, pin, sou, honors): the features of :func:`_suit_features` by the suit's counts.
_SUIT_FEATURES: tuple[dict[Counts, tuple[int, ...]], ...] = ({}, {}, {}, {})
#: Kept features per suit before the table starts again (a long-running process meets more
#: and more shapes; a deal's search meets a few hundred).
_SUIT_FEATURES_KEPT = 20_000


def _suit_features(counts: Counts, suit: int) -> tuple[int, ...]:
    """What the bounds need of one suit's counts (nine, or seven for the honors, ``suit`` 3),
    kept in :data:`_SUIT_FEATURES`: the kinds held at least once, twice, three and four times
    (bit masks at the suit's place among the 34 kinds); then, for a numbered suit,

    4. the runs held twice but for one tile (iipeikou, ``_runs_han``),
    5. whether one of them is held four times but for one tile (ryanpeikou),
    6. whether the suit holds all nine kinds but one (ittsu),
    7. 8. the runs from each of its kinds 1-7 held whole, and held but for one tile (as bits:
       sanshoku doujun needs the three suits' together short of one tile at most),
    9. 10. the kinds held three times, and held exactly twice (sanshoku doukou, the same),
    11. whether the suit alone is nine gates but for one tile, with a terminal triplet (chuuren).
    """
    shift = 9 * suit
    one = two = three = four = 0
    for index, count in enumerate(counts):
        if count:
            bit = 1 << index
            one |= bit
            if count >= 2:
                two |= bit
                if count >= 3:
                    three |= bit
                    if count == 4:
                        four |= bit
    doubles = 0
    quads = whole_runs = short_runs = 0
    ittsu = chuuren = False
    if suit < 3:
        for low in range(7):
            run = counts[low:low + 3]
            if sum(2 - min(count, 2) for count in run) <= 1:
                doubles += 1
                if sum(4 - count for count in run) <= 1:
                    quads = 1
            absent = sum(1 for count in run if not count)
            if absent == 0:
                whole_runs |= 1 << low
            elif absent == 1:
                short_runs |= 1 << low
        ittsu = sum(1 for count in counts if not count) <= 1
        chuuren = bool(three & 0b100000001) and sum(
            max(0, (3 if index in (0, 8) else 1) - count)
            for index, count in enumerate(counts)) <= 1
    features = (one << shift, two << shift, three << shift, four << shift, doubles, quads,
                int(ittsu), whole_runs, short_runs, three, two & ~three, int(chuuren))
    table = _SUIT_FEATURES[suit]
    if len(table) >= _SUIT_FEATURES_KEPT:
        table.clear()
    table[counts] = features
    return features


def _two_short_of_one(full_a: int, short_a: int, full_b: int, short_b: int, full_c: int,
                      short_c: int) -> bool:
    """Whether at some bit the three suits are all ``full`` but for at most one ``short``."""
    return bool(full_a & full_b & full_c | short_a & full_b & full_c | full_a & short_b & full_c
                | full_a & full_b & short_c)


@dataclass(frozen=True, slots=True)
class _Shape:
    """Bit masks of the kinds a hand holds at least one, two, three and four of."""

    one: int
    two: int
    three: int
    four: int

    @classmethod
    def of(cls, hand: Sequence[int]) -> _Shape:
        one = two = three = four = 0
        for kind, count in enumerate(hand):
            if count:
                bit = 1 << kind
                one |= bit
                if count >= 2:
                    two |= bit
                    if count >= 3:
                        three |= bit
                        if count == 4:
                            four |= bit
        return cls(one, two, three, four)

    def held(self, pattern: int) -> int:
        """Tiles held of the kinds in ``pattern``, counting at most three of each."""
        return ((self.one & pattern).bit_count() + (self.two & pattern).bit_count()
                + (self.three & pattern).bit_count())

    def missing(self, pattern: int, each: int) -> int:
        """Tiles short of holding ``each`` copies of every kind in ``pattern``."""
        short = (pattern & ~self.one).bit_count()
        if each >= 2:
            short += (pattern & ~self.two).bit_count()
        if each >= 3:
            short += (pattern & ~self.three).bit_count()
        if each >= 4:
            short += (pattern & ~self.four).bit_count()
        return short


class HanBound:
    """An upper bound of the yaku han (not riichi, dora or ura) of a hand kept from ``deal``
    plus any one of its waits, from tile counts alone.

    Each test is a necessary condition of its yaku (R19), the winning tile being allowed to
    fill one gap. Patterns the 34 tiles cannot fill are dropped once per deal, since a hand
    holds no more than its deal.
    """

    def __init__(self, deal_counts: Sequence[int], seat_wind: int) -> None:
        deal = _Shape.of(deal_counts)
        self.seat_wind = seat_wind
        self.runs = [run for run in _RUNS if deal.missing(run, 2) <= 1]
        self.sanshoku = [p for p in _SANSHOKU if deal.missing(p, 1) <= 1]
        self.ittsu = [p for p in _ITTSU if deal.missing(p, 1) <= 1]
        self.doukou = [p for p in _DOUKOU if deal.missing(p, 3) <= 1]

    def __call__(self, hand: Sequence[int], waits: Iterable[int],
                 shape: _Shape | None = None) -> int:
        shape = shape or _Shape.of(hand)
        wait_mask = _mask(waits)
        one, two, three = shape.one, shape.two, shape.three
        han = 0
        if not one & _TH_MASK and wait_mask & _SIMPLE_MASK:
            han += 1  # tanyao
        if not three & _HONOR_MASK:
            han += 1  # pinfu
        han += self._runs_han(shape)
        for kind in (*DRAGONS, self.seat_wind):
            if hand[kind] >= 3 or (hand[kind] == 2 and wait_mask >> kind & 1):
                han += 1  # yakuhai
        if not one & _MIDDLE_MASK:
            han += 3  # chanta or junchan
        triplets = three.bit_count()
        if triplets + (1 if two & ~three & wait_mask else 0) >= 4:
            han += 2  # toitoi
        if triplets >= 3:
            han += 2  # sanankou
        if any(shape.missing(p, 3) <= 1 for p in self.doukou):
            han += 2  # sanshoku doukou
        if not one & ~_TH_MASK:
            han += 2  # honroutou
        if one & _DRAGON_MASK and shape.held(_DRAGON_MASK) >= 7:
            han += 2  # shousangen
        if (two & ~three).bit_count() >= 6:
            han += 2  # chiitoitsu
        suits = sum(1 for mask in _SUIT_MASKS if one & mask)
        if suits <= 1:
            han += 3 if one & _HONOR_MASK else 6  # honitsu or chinitsu
        return han

    def _runs_han(self, shape: _Shape) -> int:
        """The bound of the yaku made of runs: peikou, sanshoku doujun and ittsu."""
        one, two = shape.one, shape.two
        han = 0
        doubles = [run for run in self.runs
                   if (run & ~one).bit_count() + (run & ~two).bit_count() <= 1]
        if len(doubles) >= 2 or any(shape.missing(run, 4) <= 1 for run in doubles):
            han += 3  # ryanpeikou
        elif doubles:
            han += 1  # iipeikou
        if any((p & ~one).bit_count() <= 1 for p in self.sanshoku):
            han += 2  # sanshoku doujun
        if any((p & ~one).bit_count() <= 1 for p in self.ittsu):
            han += 2  # ittsu
        return han


def yakuman_bound(hand: Counts, shape: _Shape | None = None) -> int:
    """How many yakuman ``hand`` plus one winning tile could possibly hold (R20)."""
    shape = shape or _Shape.of(hand)
    one, two, three = shape.one, shape.two, shape.three
    found = 0
    if not one & ~_TH_MASK and one.bit_count() >= 12:
        found += 1  # kokushi
    if three.bit_count() >= 4:
        found += 1  # suuankou (won by ron only as a tanki: the four triplets are held)
    if one & _DRAGON_MASK and shape.held(_DRAGON_MASK) >= 8:
        found += 1  # daisangen
    if one & _WIND_MASK and shape.held(_WIND_MASK) >= 10:
        found += 2  # shousuushii or daisuushii
    if not one & ~_HONOR_MASK:
        found += 1  # tsuuiisou
    if not one & ~_GREEN_MASK:
        found += 1  # ryuuiisou
    if not one & ~_TERMINAL_MASK:
        found += 1  # chinroutou
    for suit, mask in enumerate(_SUIT_MASKS):
        if not one & ~mask and (two & three & mask & _TERMINAL_MASK).bit_count() >= 1:
            base = suit * 9
            short = sum(max(0, (3 if i in (0, 8) else 1) - hand[base + i]) for i in range(9))
            if short <= 1:
                found += 1  # chuuren
    return found


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
