"""Yaku, fu, han and points for a ron (R13, R14, R18-R24).

Every reading of the 14 tiles is scored; R18 keeps the one with the most points, then han,
then fu. Eligibility (R14) is judged on the best reading *without* ura dora; what is paid
includes ura.

>>> from minefield.rules.hand import Hand
>>> from minefield.rules.tiles import kind_from_str
>>> ctx = WinContext(dora_indicator=kind_from_str("2m"))
>>> value = score_win(Hand.parse("23m456m345p678s55s"), kind_from_str("4m"), ctx)
>>> value.eligible, value.paid.han, value.paid.fu, value.paid.points
(True, 4, 30, 8000)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from minefield.rules.hand import (
    RYANMEN,
    SEQ,
    SHANPON,
    Hand,
    Reading,
    readings,
    waits,
)
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import (
    CHUN,
    DRAGONS,
    EAST,
    HAKU,
    HATSU,
    TERMINALS_AND_HONORS,
    WINDS,
    dora_from_indicator,
    is_terminal_or_honor,
)

DEFAULT_SETTINGS = RuleSettings()

# The order yaku are listed in, and their closed han (R19). Yakuman are 13 each (R20).
YAKU_ORDER = (
    "riichi", "ippatsu", "houtei", "tanyao", "pinfu", "iipeikou", "ryanpeikou", "seat_wind",
    "haku", "hatsu", "chun", "sanshoku_doujun", "ittsu", "chanta", "junchan", "chiitoitsu",
    "toitoi", "sanankou", "sanshoku_doukou", "honroutou", "shousangen", "honitsu", "chinitsu",
    "kokushi", "suuankou", "daisangen", "shousuushii", "daisuushii", "tsuuiisou", "ryuuiisou",
    "chinroutou", "chuuren",
)
YAKUMAN = frozenset(YAKU_ORDER[YAKU_ORDER.index("kokushi"):])
_DRAGON_NAMES = {HAKU: "haku", HATSU: "hatsu", CHUN: "chun"}
_GREEN = frozenset((19, 20, 21, 23, 25, HATSU))  # 2s 3s 4s 6s 8s and green dragon
_TERMINALS = frozenset((0, 8, 9, 17, 18, 26))

LIMIT_POINTS = {"mangan": 8000, "haneman": 12000, "baiman": 16000, "sanbaiman": 24000}
YAKUMAN_POINTS = 32000
_YAKUMAN_NAMES = {1: "yakuman", 2: "double yakuman", 3: "triple yakuman",
                  4: "quadruple yakuman", 5: "quintuple yakuman", 6: "sextuple yakuman"}


@dataclass(frozen=True, slots=True)
class WinContext:
    """Everything besides the tiles that a ron's value depends on.

    ``seat_wind`` is the winner's seat wind kind (East 27 or West 29). ``dealer`` means the
    winner is paid dealer values (R23, matches with ``dealer_bonus`` only).
    """

    seat_wind: int = EAST
    ippatsu: bool = False
    houtei: bool = False
    dora_indicator: int | None = None
    ura_indicator: int | None = None
    dealer: bool = False


@dataclass(frozen=True, slots=True)
class Score:
    """One scored reading: the breakdown a player sees on the result screen."""

    yaku: tuple[tuple[str, int], ...]
    han: int
    fu: int
    dora: int
    aka: int
    ura: int
    yakuman: int
    limit: str | None
    points: int
    reading: Reading

    @property
    def wait(self) -> str:
        """The wait shape of this reading (ryanmen, kanchan, penchan, shanpon, tanki)."""
        return self.reading.wait


@dataclass(frozen=True, slots=True)
class WinValue:
    """What a ron on one tile is worth: R14's verdict, and the reading as it would be paid."""

    tile: int
    eligible: bool
    paid: Score
    basis: Score


@dataclass(frozen=True, slots=True)
class _Core:
    """A reading's yaku and fu, before dora."""

    yaku: tuple[tuple[str, int], ...]
    yaku_han: int
    fu: int
    yakuman: int
    reading: Reading


def limit_and_points(han: int, fu: int, yakuman: int, settings: RuleSettings,
                     dealer: bool = False) -> tuple[str | None, int]:
    """R21, R23: the limit name (None below mangan) and the points of one ron.

    >>> limit_and_points(4, 30, 0, RuleSettings())
    ('mangan', 8000)
    >>> limit_and_points(4, 30, 0, RuleSettings(kiriage=False))
    (None, 7700)
    """
    factor = 6 if dealer else 4
    if yakuman:
        name = _YAKUMAN_NAMES.get(yakuman, f"{yakuman}x yakuman")
        return name, YAKUMAN_POINTS * yakuman * factor // 4
    if han >= 13:
        return "kazoe yakuman", YAKUMAN_POINTS * factor // 4
    if han >= 11:
        limit = "sanbaiman"
    elif han >= 8:
        limit = "baiman"
    elif han >= 6:
        limit = "haneman"
    elif han >= 5:
        limit = "mangan"
    else:
        base = fu * 2 ** (han + 2)
        if base >= 2000 or (settings.kiriage and (han, fu) in ((4, 30), (3, 60))):
            limit = "mangan"
        else:
            return None, -(-base * factor // 100) * 100
    return limit, LIMIT_POINTS[limit] * factor // 4


def _tile_flags(counts: Sequence[int]) -> tuple[bool, bool, bool, int, bool, bool, bool]:
    """Flags that depend only on which tiles are in the hand."""
    suits = 0
    honors = False
    simples_only = True
    orphans_only = True
    green_only = True
    for kind, count in enumerate(counts):
        if not count:
            continue
        if kind >= 27:
            honors = True
        else:
            suits |= 1 << (kind // 9)
        if is_terminal_or_honor(kind):
            simples_only = False
        else:
            orphans_only = False
        if kind not in _GREEN:
            green_only = False
    suit_count = bin(suits).count("1")
    return simples_only, orphans_only, honors, suit_count, green_only, suits == 0, suit_count == 1


def _is_chuuren(counts: Sequence[int]) -> bool:
    """Chuuren poutou: 1112345678999 plus any tile of the same suit (R20)."""
    for base in (0, 9, 18):
        suit = counts[base:base + 9]
        if sum(suit) == 14:
            return all(c >= n for c, n in zip(suit, (3, 1, 1, 1, 1, 1, 1, 1, 3), strict=True))
    return False


def _core(reading: Reading, counts: Sequence[int], counts13: Sequence[int], win: int,
          ctx: WinContext, settings: RuleSettings) -> _Core:
    """Yaku and fu of one reading (R19, R20, R22)."""
    simples_only, orphans_only, honors, suit_count, green_only, honors_only, one_suit = (
        _tile_flags(counts))
    base: list[tuple[str, int]] = [("riichi", 1)]
    if ctx.ippatsu:
        base.append(("ippatsu", 1))
    if ctx.houtei:
        base.append(("houtei", 1))
    double_waits = settings.double_yakuman_waits

    if reading.form == "kokushi":
        thirteen_sided = all(counts13[k] == 1 for k in TERMINALS_AND_HONORS)
        mult = 2 if thirteen_sided and double_waits else 1
        return _Core((("kokushi", 13 * mult),), 13 * mult, 30, mult, reading)

    yakuman: list[tuple[str, int]] = []
    if honors_only:
        yakuman.append(("tsuuiisou", 13))

    if reading.form == "chiitoitsu":
        if yakuman:
            return _Core(tuple(yakuman), 13, 25, 1, reading)
        yaku = base
        if simples_only:
            yaku.append(("tanyao", 1))
        yaku.append(("chiitoitsu", 2))
        if orphans_only:
            yaku.append(("honroutou", 2))
        if one_suit and not honors:
            yaku.append(("chinitsu", 6))
        elif suit_count == 1:
            yaku.append(("honitsu", 3))
        return _Core(tuple(yaku), sum(h for _, h in yaku), 25, 0, reading)

    groups = reading.groups
    pair = reading.pair
    seqs = sorted(g - SEQ for g in groups if g >= SEQ)
    triplets = [g for g in groups if g < SEQ]
    win_triplet = reading.win_group >= 0 and groups[reading.win_group] < SEQ
    concealed = len(triplets) - (1 if win_triplet else 0)
    dragon_triplets = sum(1 for t in triplets if t in DRAGONS)
    wind_triplets = sum(1 for t in triplets if t in WINDS)

    # Yakuman (R20).
    if concealed == 4:
        yakuman.append(("suuankou", 26 if double_waits else 13))
    if dragon_triplets == 3:
        yakuman.append(("daisangen", 13))
    if wind_triplets == 4:
        yakuman.append(("daisuushii", 13))
    elif wind_triplets == 3 and pair in WINDS:
        yakuman.append(("shousuushii", 13))
    if green_only:
        yakuman.append(("ryuuiisou", 13))
    if orphans_only and not honors:
        yakuman.append(("chinroutou", 13))
    if one_suit and not honors and _is_chuuren(counts):
        nine_sided = _chuuren_nine_sided(counts13)
        yakuman.append(("chuuren", 26 if nine_sided and double_waits else 13))
    if yakuman:
        yakuman.sort(key=lambda item: YAKU_ORDER.index(item[0]))
        han = sum(h for _, h in yakuman)
        return _Core(tuple(yakuman), han, 0, han // 13, reading)

    yaku = base
    yakuhai_pair = pair in DRAGONS or pair == ctx.seat_wind
    pinfu = not triplets and reading.wait == RYANMEN and not yakuhai_pair
    if simples_only:
        yaku.append(("tanyao", 1))
    if pinfu:
        yaku.append(("pinfu", 1))
    duplicate_seqs = 0
    for i in range(len(seqs) - 1):
        if seqs[i] == seqs[i + 1]:
            duplicate_seqs += 1
    # Pairs of identical sequences: 0 none, 1 iipeikou, 2 ryanpeikou (aabb or aaaa).
    peikou = 2 if len(seqs) == 4 and seqs[0] == seqs[1] and seqs[2] == seqs[3] else min(
        duplicate_seqs, 1)
    if peikou == 2:
        yaku.append(("ryanpeikou", 3))
    elif peikou == 1:
        yaku.append(("iipeikou", 1))
    if ctx.seat_wind in triplets:
        yaku.append(("seat_wind", 1))
    for dragon in DRAGONS:
        if dragon in triplets:
            yaku.append((_DRAGON_NAMES[dragon], 1))
    seq_set = set(seqs)
    if any(s in seq_set and s + 9 in seq_set and s + 18 in seq_set for s in range(7)):
        yaku.append(("sanshoku_doujun", 2))
    if any(b in seq_set and b + 3 in seq_set and b + 6 in seq_set for b in (0, 9, 18)):
        yaku.append(("ittsu", 2))
    if seqs and not orphans_only:
        outside = (is_terminal_or_honor(pair)
                   and all(t in TERMINALS_AND_HONORS for t in triplets)
                   and all(s % 9 in (0, 6) for s in seqs))
        if outside:
            yaku.append(("chanta", 2) if honors else ("junchan", 3))
    if len(triplets) == 4:
        yaku.append(("toitoi", 2))
    if concealed == 3:
        yaku.append(("sanankou", 2))
    triplet_set = set(triplets)
    if any(t in triplet_set and t + 9 in triplet_set and t + 18 in triplet_set
           for t in range(9)):
        yaku.append(("sanshoku_doukou", 2))
    if orphans_only:
        yaku.append(("honroutou", 2))
    if dragon_triplets == 2 and pair in DRAGONS:
        yaku.append(("shousangen", 2))
    if one_suit and not honors:
        yaku.append(("chinitsu", 6))
    elif suit_count == 1:
        yaku.append(("honitsu", 3))

    if pinfu:
        fu = 30
    else:
        fu = 30  # 20 base + 10 closed ron (R22)
        for index, triplet in enumerate(groups):
            if triplet >= SEQ:
                continue
            value = 4 if triplet in _TERMINALS or triplet >= 27 else 2
            if index != reading.win_group:
                value *= 2  # concealed; the one the ron completed counts as open
            fu += value
        if pair in DRAGONS:
            fu += 2
        if pair == ctx.seat_wind:
            fu += 2
        if reading.wait not in (RYANMEN, SHANPON):
            fu += 2
        fu = -(-fu // 10) * 10
    return _Core(tuple(yaku), sum(h for _, h in yaku), fu, 0, reading)


def _chuuren_nine_sided(counts13: Sequence[int]) -> bool:
    return any(tuple(counts13[base:base + 9]) == (3, 1, 1, 1, 1, 1, 1, 1, 3) for base in (0, 9, 18))


def _finish(core: _Core, dora: int, aka: int, ura: int, settings: RuleSettings,
            dealer: bool) -> Score:
    if core.yakuman:
        limit, points = limit_and_points(core.yaku_han, core.fu, core.yakuman, settings, dealer)
        return Score(core.yaku, core.yaku_han, core.fu, 0, 0, 0, core.yakuman, limit, points,
                     core.reading)
    han = core.yaku_han + dora + aka + ura
    limit, points = limit_and_points(han, core.fu, 0, settings, dealer)
    return Score(core.yaku, han, core.fu, dora, aka, ura, 1 if han >= 13 else 0, limit, points,
                 core.reading)


def _better(a: Score, b: Score | None) -> bool:
    return b is None or (a.points, a.han, a.fu) > (b.points, b.han, b.fu)


def score_counts(counts13: Sequence[int], win: int, ctx: WinContext,
                 settings: RuleSettings = DEFAULT_SETTINGS, reds: int = 0) -> WinValue | None:
    """Score a ron on ``win`` for a hand given as 34 counts; None when it does not complete.

    ``reds`` is the number of red fives among the 14 tiles (the winning tile included).
    """
    counts = list(counts13)
    if counts[win] >= 4:
        return None  # R12: a dead wait
    counts[win] += 1
    found = readings(counts, win)
    if not found:
        return None
    dora = counts[dora_from_indicator(ctx.dora_indicator)] if ctx.dora_indicator is not None else 0
    ura = counts[dora_from_indicator(ctx.ura_indicator)] if ctx.ura_indicator is not None else 0
    aka = reds if settings.red_fives else 0
    best_paid: Score | None = None
    best_basis: Score | None = None
    for reading in found:
        core = _core(reading, counts, counts13, win, ctx, settings)
        basis = _finish(core, dora, aka, 0, settings, ctx.dealer)
        paid = _finish(core, dora, aka, ura, settings, ctx.dealer) if ura else basis
        if _better(basis, best_basis):
            best_basis = basis
        if _better(paid, best_paid):
            best_paid = paid
    assert best_paid is not None and best_basis is not None
    eligible = settings.minimum == "none" or best_basis.limit is not None
    return WinValue(win, eligible, best_paid, best_basis)


def score_win(hand: Hand, win: int, ctx: WinContext, settings: RuleSettings = DEFAULT_SETTINGS,
              win_red: bool = False) -> WinValue | None:
    """Score a ron on kind ``win`` for ``hand`` (None when ``win`` is not a wait)."""
    return score_counts(hand.counts, win, ctx, settings, hand.reds + (1 if win_red else 0))


@lru_cache(maxsize=16384)
def _analyze_cached(counts13: tuple[int, ...], reds: int, ctx: WinContext,
                    settings: RuleSettings) -> tuple[WinValue, ...]:
    values = []
    for kind in waits(counts13):
        value = score_counts(counts13, kind, ctx, settings, reds)
        if value is not None:
            values.append(value)
    return tuple(values)


def analyze(hand: Hand, ctx: WinContext, settings: RuleSettings = DEFAULT_SETTINGS
            ) -> tuple[WinValue, ...]:
    """Every wait of a 13-tile hand with what a ron on it is worth (a plain, not red, tile)."""
    return _analyze_cached(hand.counts, hand.reds, ctx, settings)
