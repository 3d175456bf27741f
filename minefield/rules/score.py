"""Yaku, fu, han and points for a ron (R13, R14, R18-R24).

Every reading of the 14 tiles is scored; R18 keeps the one with the most points, then han,
then fu. Eligibility (R14) is judged on the best reading *without* ura dora; what is paid
includes ura.

Scoring works on the per-suit parts of :mod:`minefield.rules._suit_tables` (the tables behind
:mod:`minefield.rules.hand`): a reading's yaku are a bit set made with integer operations, and
the yaku lists, limits and points are looked up in small tables filled on first use.

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
from functools import cache, partial
from typing import NamedTuple

from minefield.rules._memo import MemoTable, TableGroup, slots_constructor
from minefield.rules._suit_tables import (
    HAS_HONORS,
    HAS_MAN,
    HAS_ORPHANS,
    HAS_PIN,
    HAS_SIMPLES,
    HAS_SOU,
    NOT_GREEN,
    NUMBERED,
    SHARED_OUTSIDE,
    SHARED_RUNS,
    SHARED_TRIPLETS,
    TOTAL_FU,
    TOTAL_ITTSU,
    TOTAL_PEIKOU_SHIFT,
    TOTAL_TRIPLETS_SHIFT,
    Parts,
    Shapes,
    SuitPart,
    part_placements,
    split_hand,
    suit_shapes,
    waits_with_shapes,
    win_part,
)
from minefield.rules.hand import RYANMEN, SHANPON, TANKI, Hand, Reading, is_kokushi
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import (
    EAST,
    HAKU,
    NUM_KINDS,
    TERMINALS_AND_HONORS,
    WINDS,
    dora_from_indicator,
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
_YAKU_HAN = {"riichi": 1, "ippatsu": 1, "houtei": 1, "tanyao": 1, "pinfu": 1, "iipeikou": 1,
             "ryanpeikou": 3, "seat_wind": 1, "haku": 1, "hatsu": 1, "chun": 1,
             "sanshoku_doujun": 2, "ittsu": 2, "chanta": 2, "junchan": 3, "chiitoitsu": 2,
             "toitoi": 2, "sanankou": 2, "sanshoku_doukou": 2, "honroutou": 2, "shousangen": 2,
             "honitsu": 3, "chinitsu": 6}
# While a reading is scored its yaku are a bit set, bit i for YAKU_ORDER[i]; the list shown
# is built from it (in YAKU_ORDER order) by _YAKU_LISTS.
(_RIICHI, _IPPATSU, _HOUTEI, _TANYAO, _PINFU, _IIPEIKOU, _RYANPEIKOU, _SEAT_WIND, _HAKU, _HATSU,
 _CHUN, _SANSHOKU_DOUJUN, _ITTSU, _CHANTA, _JUNCHAN, _CHIITOITSU, _TOITOI, _SANANKOU,
 _SANSHOKU_DOUKOU, _HONROUTOU, _SHOUSANGEN, _HONITSU, _CHINITSU) = (
    1 << YAKU_ORDER.index(name) for name in _YAKU_HAN)
_DRAGON_SHIFT = YAKU_ORDER.index("haku")  # haku, hatsu, chun: SuitPart.dragons, shifted

# Indexed by tile flags (``hand.HAS_*``, OR-ed over the suits of a hand) masked with NUMBERED,
# or with NUMBERED | HAS_HONORS: true when the hand has one numbered suit (and no honors).
_ONE_SUIT = tuple(mask in (HAS_MAN, HAS_PIN, HAS_SOU) for mask in range(HAS_HONORS << 1))

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


_new_score = slots_constructor(Score)
_new_value = slots_constructor(WinValue)
_new_reading = slots_constructor(Reading)


class _Core(NamedTuple):
    """A reading's yaku and fu, before dora."""

    yaku: tuple[tuple[str, int], ...]
    yaku_han: int
    fu: int
    yakuman: int
    key: int = -1  # without yakuman: yaku_han * 256 + fu, for the rank tables of _best


def _yaku_list(mask: int) -> tuple[tuple[tuple[str, int], ...], int]:
    """The yaku of a bit set, in YAKU_ORDER order with their han, and the han in all."""
    yaku = tuple((name, _YAKU_HAN[name]) for index, name in enumerate(YAKU_ORDER)
                 if mask >> index & 1)
    return yaku, sum(han for _, han in yaku)


_YAKU_LISTS: MemoTable[int, tuple[tuple[tuple[str, int], ...], int]] = MemoTable(_yaku_list)
"""Yaku bit set -> (yaku, han): few sets ever occur, so each list is built once."""


def _core_of(key: int) -> _Core:
    yaku, han = _YAKU_LISTS[key >> 8]
    return _Core(yaku, han, key & 255, 0, han << 8 | key & 255)


_CORES: MemoTable[int, _Core] = MemoTable(_core_of)
"""Yaku bit set * 256 + fu -> the core of a reading without yakuman, built once."""


class _Situation(NamedTuple):
    """What a ron's value depends on besides the tiles, in the form the scorer uses."""

    mask: int  # the yaku bits of riichi (R8), ippatsu (R16), houtei (R17)
    seat_wind: int
    dora: int  # the dora kind (R4), -1 for none
    ura: int
    aka: int  # red fives among the 14 tiles, when they are used (R1)
    kiriage: bool
    dealer: bool
    any_value: bool  # ``minimum = none``: every wait is eligible (R14)
    double_waits: bool  # R20's ``double_yakuman_waits``
    limits: MemoTable[int, tuple[str | None, int]]  # han * 256 + fu -> limit and points
    ranks: MemoTable[int, int]  # see _best


def _situation(ctx: WinContext, settings: RuleSettings, reds: int) -> _Situation:
    return _new_situation((
        _RIICHI | (_IPPATSU if ctx.ippatsu else 0) | (_HOUTEI if ctx.houtei else 0),
        ctx.seat_wind,
        -1 if ctx.dora_indicator is None else _DORA[ctx.dora_indicator],
        -1 if ctx.ura_indicator is None else _DORA[ctx.ura_indicator],
        reds if settings.red_fives else 0, settings.kiriage, ctx.dealer,
        settings.minimum == "none", settings.double_yakuman_waits,
        *_LIMITS[settings.kiriage, ctx.dealer]))


_new_situation = partial(tuple.__new__, _Situation)
Situation = _Situation
"""What scoring a hand needs besides its tiles (opaque: made by :func:`make_situation`)."""


def make_situation(ctx: WinContext, settings: RuleSettings = DEFAULT_SETTINGS, reds: int = 0
                   ) -> _Situation:
    """What :func:`analyze_rows` needs of a ron's context and rules and of the hand's red
    fives, made once for any number of hands (a tool answering many requests keeps it)."""
    return _situation(ctx, settings, reds)


def _limit_tables(kiriage: bool, dealer: bool
                  ) -> tuple[MemoTable[int, tuple[str | None, int]], MemoTable[int, int]]:
    """For hands without yakuman: han * 256 + fu -> limit and points; and the same key plus
    extra han * 2**16 -> R18's rank (points, yakuman, han, fu as one number, see _rank)."""
    def limit(key: int) -> tuple[str | None, int]:
        return _limit_and_points(key >> 8, key & 255, 0, kiriage, dealer)

    def rank(key: int) -> int:
        han = (key >> 8 & 255) + (key >> 16)
        fu = key & 255
        return limits[han << 8 | fu][1] << 17 | han << 8 | fu

    limits = MemoTable(limit)
    return limits, MemoTable(rank)


_LIMITS = {(kiriage, dealer): _limit_tables(kiriage, dealer)
           for kiriage in (False, True) for dealer in (False, True)}
_LIMIT_TABLES = TableGroup(*(table for tables in _LIMITS.values() for table in tables))
"""The tables of :data:`_LIMITS`, for ``cache_clear``."""


_DORA = tuple(dora_from_indicator(kind) for kind in range(NUM_KINDS))
"""The dora kind of each indicator kind (R4)."""


def limit_and_points(han: int, fu: int, yakuman: int, settings: RuleSettings,
                     dealer: bool = False) -> tuple[str | None, int]:
    """R21, R23: the limit name (None below mangan) and the points of one ron.

    >>> limit_and_points(4, 30, 0, RuleSettings())
    ('mangan', 8000)
    >>> limit_and_points(4, 30, 0, RuleSettings(kiriage=False))
    (None, 7700)
    """
    return _limit_and_points(han, fu, yakuman, settings.kiriage, dealer)


@cache
def _limit_and_points(han: int, fu: int, yakuman: int, kiriage: bool,
                      dealer: bool) -> tuple[str | None, int]:
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
        if base >= 2000 or (kiriage and (han, fu) in ((4, 30), (3, 60))):
            limit = "mangan"
        else:
            return None, -(-base * factor // 100) * 100
    return limit, LIMIT_POINTS[limit] * factor // 4


def _is_chuuren(counts: Sequence[int]) -> bool:
    """Chuuren poutou: 1112345678999 plus any tile of the same suit (R20)."""
    for base in (0, 9, 18):
        suit = counts[base:base + 9]
        if sum(suit) == 14:  # three 1s, three 9s and each of 2-8 (the 14th tile is any)
            return suit[0] >= 3 and suit[8] >= 3 and all(suit[1:8])
    return False


def _chuuren_won(counts13: Sequence[int], win: int) -> bool:
    """:func:`_is_chuuren` of the 13 counts and the winning tile (of a hand of one numbered
    suit, so of the winning tile's), without building the 14 counts."""
    base = win - win % 9
    if (counts13[base] + (win == base) < 3
            or counts13[base + 8] + (win == base + 8) < 3):
        return False
    return all(counts13[kind] or kind == win for kind in range(base + 1, base + 8))


def _chuuren_nine_sided(counts13: Sequence[int]) -> bool:
    return any(tuple(counts13[base:base + 9]) == (3, 1, 1, 1, 1, 1, 1, 1, 3) for base in (0, 9, 18))


def _kokushi_core(counts13: Sequence[int], situation: _Situation) -> _Core:
    thirteen_sided = all(counts13[k] == 1 for k in TERMINALS_AND_HONORS)
    mult = 2 if thirteen_sided and situation.double_waits else 1
    return _Core((("kokushi", 13 * mult),), 13 * mult, 30, mult)


def _tile_yaku(tiles: int) -> int:
    """The yaku that only depend on which tiles a hand holds (R19): tanyao, honroutou,
    honitsu or chinitsu, as bits, for tile flags ``tiles`` (``hand.HAS_*``)."""
    mask = 0
    if not tiles & HAS_ORPHANS:
        mask |= _TANYAO
    if not tiles & HAS_SIMPLES:
        mask |= _HONROUTOU
    if _ONE_SUIT[tiles & NUMBERED]:
        mask |= _HONITSU if tiles & HAS_HONORS else _CHINITSU
    return mask


_TILE_YAKU = tuple(_tile_yaku(tiles) for tiles in range(HAS_HONORS << 1))
"""Indexed by tile flags: :func:`_tile_yaku`."""
_TILE_YAKUMAN = tuple(not tiles & NUMBERED or not tiles & NOT_GREEN
                      or not tiles & (HAS_SIMPLES | HAS_HONORS)
                      for tiles in range(HAS_HONORS << 1))
"""Indexed by tile flags: all honors, all green or all terminals, yakuman by the tiles alone
(R20); chuuren also depends on the counts."""


def _totals_yaku(high: int) -> int:
    """Toitoi, iipeikou or ryanpeikou and ittsu (R19), as bits, from ``SuitPart.totals``
    shifted right by TOTAL_TRIPLETS_SHIFT."""
    triplets = high & 7
    peikou = high >> (TOTAL_PEIKOU_SHIFT - TOTAL_TRIPLETS_SHIFT) & 3
    mask = _TOITOI if triplets == 4 else 0
    if peikou:
        mask |= _RYANPEIKOU if peikou >= 2 else _IIPEIKOU
    if high << TOTAL_TRIPLETS_SHIFT & TOTAL_ITTSU:
        mask |= _ITTSU
    return mask


_TOTALS_YAKU = tuple(_totals_yaku(high) for high in range(TOTAL_ITTSU >> TOTAL_TRIPLETS_SHIFT << 1))


def _chiitoitsu_core(tiles: int, situation: _Situation) -> _Core:
    """Seven pairs (R19, R22), given the hand's tile flags."""
    if not tiles & NUMBERED:
        return _Core((("tsuuiisou", 13),), 13, 25, 1)
    yaku, han = _YAKU_LISTS[situation.mask | _CHIITOITSU | _TILE_YAKU[tiles]]
    return _Core(yaku, han, 25, 0, han << 8 | 25)


def _regular_yakuman(parts: Parts, pair: int, concealed: int, tiles: int,
                     counts: Sequence[int], counts13: Sequence[int],
                     situation: _Situation) -> _Core | None:
    """The yakuman of a regular reading (R20), or None when it has none."""
    honor = parts[0]
    double_waits = situation.double_waits
    yakuman: list[tuple[str, int]] = []
    if not tiles & NUMBERED:
        yakuman.append(("tsuuiisou", 13))
    if concealed == 4:
        yakuman.append(("suuankou", 26 if double_waits else 13))
    if honor.dragon_triplets == 3:
        yakuman.append(("daisangen", 13))
    if honor.wind_triplets == 4:
        yakuman.append(("daisuushii", 13))
    elif honor.wind_triplets == 3 and pair in WINDS:
        yakuman.append(("shousuushii", 13))
    if not tiles & NOT_GREEN:
        yakuman.append(("ryuuiisou", 13))
    if not tiles & (HAS_SIMPLES | HAS_HONORS):
        yakuman.append(("chinroutou", 13))
    if _ONE_SUIT[tiles & (NUMBERED | HAS_HONORS)] and _is_chuuren(counts):
        nine_sided = _chuuren_nine_sided(counts13)
        yakuman.append(("chuuren", 26 if nine_sided and double_waits else 13))
    if not yakuman:
        return None
    yakuman.sort(key=lambda item: YAKU_ORDER.index(item[0]))
    han = sum(han for _, han in yakuman)
    return _Core(tuple(yakuman), han, 0, han // 13)


def _regular_core(honor: SuitPart, pair: int, totals: int, shared: int, win: int, wait: str,
                  tiles: int, situation: _Situation) -> _Core:
    """Yaku and fu of a regular reading without yakuman (R19, R22), from its honors' part
    and the ``totals`` and ``shared`` of its four parts (see :class:`SuitPart`)."""
    seat_wind = situation.seat_wind
    triplet_count = totals >> TOTAL_TRIPLETS_SHIFT & 7
    win_triplet = wait is SHANPON  # the ron completed a triplet
    dragon_pair = pair >= HAKU  # the dragons are the last kinds
    pinfu = not triplet_count and wait is RYANMEN and not dragon_pair and pair != seat_wind
    mask = situation.mask | _TILE_YAKU[tiles]
    if pinfu:
        mask |= _PINFU
    mask |= _TOTALS_YAKU[totals >> TOTAL_TRIPLETS_SHIFT]
    if honor.totals:  # honor triplets: yakuhai, shousangen
        mask |= honor.dragons << _DRAGON_SHIFT
        if honor.winds >> (seat_wind - EAST) & 1:
            mask |= _SEAT_WIND
        if honor.dragon_triplets == 2 and dragon_pair:
            mask |= _SHOUSANGEN
    if shared & (SHARED_RUNS | SHARED_TRIPLETS):  # a sanshoku, seldom
        if shared & SHARED_RUNS:
            mask |= _SANSHOKU_DOUJUN
        if shared & SHARED_TRIPLETS:
            mask |= _SANSHOKU_DOUKOU
    if shared & SHARED_OUTSIDE and triplet_count < 4 and tiles & HAS_SIMPLES:
        mask |= _CHANTA if tiles & HAS_HONORS else _JUNCHAN
    if triplet_count - win_triplet == 3:
        mask |= _SANANKOU

    if pinfu:
        fu = 30
    else:
        # 20 base + 10 closed ron, then the triplets as if concealed (R22)...
        fu = 30 + (totals & TOTAL_FU)
        if win_triplet:  # ...but the ron's is open
            fu -= 4 if win >= EAST or win % 9 in (0, 8) else 2
        if dragon_pair:
            fu += 2
        if pair == seat_wind:
            fu += 2
        if wait is not RYANMEN and wait is not SHANPON:  # the shapes are hand's constants
            fu += 2
        fu = _TENS[fu]
    return _CORES[mask << 8 | fu]


_WIN_PARTS = tuple(win_part(kind) for kind in range(NUM_KINDS))
"""Indexed by the winning kind: :func:`~minefield.rules._suit_tables.win_part`."""

_TENS = tuple(-(-fu // 10) * 10 for fu in range(256))
"""Fu rounded up to a multiple of 10 (R22)."""

_Candidate = tuple[_Core, str, Parts | None, int, int, str]
"""A scored reading: its core, then its form, its decomposition (a regular reading's groups
are joined only for the reading that is kept), pair, winning group (for a regular reading,
its index in the winning suit's part) and wait."""


def _completed(counts13: Sequence[int], win: int) -> tuple[int, ...]:
    """The 14 counts: the 13 and the winning tile."""
    counts = list(counts13)
    counts[win] += 1
    return tuple(counts)


def _scored_readings(counts13: Sequence[int], win: int, shapes: Shapes,
                     situation: _Situation) -> list[_Candidate]:
    """Every reading of the 14 tiles with its yaku and fu: those of
    :func:`~minefield.rules.hand.readings`, in its order, but only the one kept is built as a
    :class:`Reading` (``tests/rules/test_hand.py`` checks that both find the same)."""
    found: list[_Candidate] = []
    man, pin, sou, honors = shapes
    tiles = man.flags | pin.flags | sou.flags | honors.flags
    if man.part and pin.part and sou.part and honors.part:  # split_hand's usual case, inline
        decompositions = ([(honors.part, man.part, pin.part, sou.part)]
                          if man.state + pin.state + sou.state + honors.state == 1 else [])
    else:
        decompositions = split_hand(shapes)
    # Seven pairs: six pairs and the winning tile's single (hand.is_chiitoitsu of the 14 tiles,
    # asked of the 13 so that the usual hand builds no 14 counts); thirteen orphans: no simples.
    chiitoitsu = (counts13[win] == 1 and counts13.count(2) == 6
                  and counts13.count(0) == NUM_KINDS - 7)
    kokushi = not tiles & HAS_SIMPLES and is_kokushi(_completed(counts13, win))
    if not (decompositions or chiitoitsu or kokushi):
        return found
    # Yakuman that the tiles alone give (R20): all honors, all green, all terminals, chuuren.
    may_be_yakuman = _TILE_YAKUMAN[tiles] or (_ONE_SUIT[tiles & (NUMBERED | HAS_HONORS)]
                                               and _chuuren_won(counts13, win))
    winning = _WIN_PARTS[win]  # where the winning tile's suit is in a decomposition
    for parts in decompositions:
        honor, m, p, s = parts
        pair = max(honor.pair, m.pair, p.pair, s.pair)
        totals = honor.totals + m.totals + p.totals + s.totals
        shared = honor.shared & m.shared & p.shared & s.shared
        triplets = totals >> TOTAL_TRIPLETS_SHIFT & 7
        # ...or the honors' triplets (daisangen, suushii), or four concealed triplets.
        yakuman_groups = may_be_yakuman or honor.big_honors or triplets == 4
        placements = parts[winning].win_cache.get(win)
        if placements is None:
            placements = part_placements(parts[winning], win)
        for index, wait in placements:
            core = None
            if yakuman_groups and (may_be_yakuman or honor.big_honors or wait is not SHANPON):
                core = _regular_yakuman(parts, pair, triplets - (wait == SHANPON), tiles,
                                        _completed(counts13, win), counts13, situation)
            found.append((core or _regular_core(honor, pair, totals, shared, win, wait, tiles,
                                                situation),
                          "regular", parts, pair, index, wait))
    if chiitoitsu:
        found.append((_chiitoitsu_core(tiles, situation), "chiitoitsu", None, win, -1, TANKI))
    if kokushi:
        found.append((_kokushi_core(counts13, situation), "kokushi", None, win, -1, TANKI))
    return found


def _reading(candidate: _Candidate, win: int) -> Reading:
    """The :class:`Reading` of a scored candidate."""
    _, form, parts, pair, win_group, wait = candidate
    if parts is None:
        return _new_reading(form, (), pair, win_group, wait)
    honor, man, pin, sou = parts
    if win_group >= 0 and win < EAST:  # reading_index, inline
        win_group += len(honor.groups)  # parts are read honors, man, pin, sou
        if win >= 9:
            win_group += len(man.groups)
            if win >= 18:
                win_group += len(pin.groups)
    return _new_reading(form, honor.groups + man.groups + pin.groups + sou.groups, pair,
                        win_group, wait)


def _scores(core: _Core, reading: Reading, dora: int, aka: int, ura: int,
            situation: _Situation) -> tuple[Score, Score]:
    """One reading's score without ura (R14's basis) and with it (as paid, R18, R24)."""
    yaku, yaku_han, fu, yakuman, _ = core
    if yakuman:  # R20: other yaku and dora are dropped
        limit, points = _limit_and_points(yaku_han, fu, yakuman, situation.kiriage,
                                          situation.dealer)
        score = _new_score(yaku, yaku_han, fu, 0, 0, 0, yakuman, limit, points, reading)
        return score, score
    han = yaku_han + dora + aka
    limit, points = situation.limits[han << 8 | fu]
    basis = _new_score(yaku, han, fu, dora, aka, 0, 1 if han >= 13 else 0, limit, points,
                       reading)
    if not ura:
        return basis, basis
    han += ura
    limit, points = situation.limits[han << 8 | fu]
    return basis, _new_score(yaku, han, fu, dora, aka, ura, 1 if han >= 13 else 0, limit,
                             points, reading)


def _rank(core: _Core, extra_han: int, situation: _Situation) -> int:
    """R18's order of readings as one number: points, then a real yakuman over a counted
    (kazoe) one, then han, then fu. Bit 16 is the yakuman flag; han < 256 and fu < 256."""
    _, yaku_han, fu, yakuman, _ = core
    if yakuman:
        points = _limit_and_points(yaku_han, fu, yakuman, situation.kiriage, situation.dealer)[1]
        return points << 17 | 1 << 16 | yaku_han << 8 | fu
    han = yaku_han + extra_han
    return situation.limits[han << 8 | fu][1] << 17 | han << 8 | fu


def _best(found: list[_Candidate], extra_han: int, situation: _Situation) -> int:
    """The index of R18's best reading with ``extra_han`` of dora (the first on ties)."""
    ranks = situation.ranks  # yaku_han * 256 + fu + extra_han * 2**16 -> rank
    extra = extra_han << 16
    best_index, best_rank = 0, -1
    for index, candidate in enumerate(found):
        core = candidate[0]
        rank = ranks[core.key + extra] if core.key >= 0 else _rank(core, extra_han, situation)
        if rank > best_rank:
            best_index, best_rank = index, rank
    return best_index


def _choose(counts13: Sequence[int], win: int, shapes: Shapes, situation: _Situation
            ) -> tuple[_Candidate, _Candidate, int, int] | None:
    """R18's choice among the readings of a ron on ``win``: the best without ura (R14's
    basis) and with it (as paid), and the dora and ura the 14 tiles hold; None when ``win``
    does not complete the hand."""
    found = _scored_readings(counts13, win, shapes, situation)
    if not found:
        return None
    dora_kind, ura_kind = situation.dora, situation.ura
    dora = 0 if dora_kind < 0 else counts13[dora_kind] + (dora_kind == win)
    ura = 0 if ura_kind < 0 else counts13[ura_kind] + (ura_kind == win)
    if len(found) == 1:
        return found[0], found[0], dora, ura
    # R18: the best reading, the first found on ties; without ura for R14, with ura as paid.
    extra = dora + situation.aka
    basis = _best(found, extra, situation)
    return found[basis], found[_best(found, extra + ura, situation) if ura else basis], dora, ura


def _score_wait(counts13: Sequence[int], win: int, shapes: Shapes, situation: _Situation
                ) -> WinValue | None:
    """:func:`score_counts` given the suit shapes of the 14 tiles and the situation
    (:func:`analyze` gets both from its tables, once for all the waits of a hand)."""
    chosen = _choose(counts13, win, shapes, situation)
    if chosen is None:
        return None
    basis_candidate, paid_candidate, dora, ura = chosen
    aka = situation.aka
    basis, paid = _scores(basis_candidate[0], _reading(basis_candidate, win), dora, aka, ura,
                          situation)
    if paid_candidate is not basis_candidate:
        paid = _scores(paid_candidate[0], _reading(paid_candidate, win), dora, aka, ura,
                       situation)[1]
    return _new_value(win, basis.limit is not None or situation.any_value, paid, basis)


class WaitRow(NamedTuple):
    """A scored wait as plain values: what a :class:`WinValue` says, without building it
    (``minefield analyze --jsonl`` writes these; a test keeps them equal to the values)."""

    tile: int
    eligible: bool
    han: int  # paid, as in WinValue.paid
    fu: int
    points: int
    limit: str | None
    yaku: tuple[tuple[str, int], ...]
    dora: int
    aka: int
    ura: int
    wait: str
    form: str  # the paid reading's (see Reading)
    parts: Parts | None  # a regular reading's groups, suit by suit (honors, man, pin, sou)
    pair: int
    han_without_ura: int  # as in WinValue.basis
    points_without_ura: int


_new_row = partial(tuple.__new__, WaitRow)


def _row(counts13: Sequence[int], win: int, shapes: Shapes, situation: _Situation
         ) -> WaitRow | None:
    """:func:`_score_wait` as a :class:`WaitRow`."""
    chosen = _choose(counts13, win, shapes, situation)
    if chosen is None:
        return None
    basis_candidate, paid_candidate, dora, ura = chosen
    aka = situation.aka
    yaku, han, fu, yakuman, _ = basis_candidate[0]
    if yakuman:  # R20: other yaku and dora are dropped
        basis_limit, basis_points = _limit_and_points(han, fu, yakuman, situation.kiriage,
                                                      situation.dealer)
        basis_han = han
    else:
        basis_han = han + dora + aka
        basis_limit, basis_points = situation.limits[basis_han << 8 | fu]
    if paid_candidate is not basis_candidate:
        yaku, han, fu, yakuman, _ = paid_candidate[0]
    if yakuman:
        limit, points = _limit_and_points(han, fu, yakuman, situation.kiriage,
                                          situation.dealer)
        dora = aka = ura = 0
    else:
        han += dora + aka + ura
        limit, points = situation.limits[han << 8 | fu]
    _, form, parts, pair, _, wait = paid_candidate
    return _new_row((win, basis_limit is not None or situation.any_value, han, fu, points,
                     limit, yaku, dora, aka, ura, wait, form, parts, pair, basis_han,
                     basis_points))


def score_counts(counts13: Sequence[int], win: int, ctx: WinContext,
                 settings: RuleSettings = DEFAULT_SETTINGS, reds: int = 0) -> WinValue | None:
    """Score a ron on ``win`` for a hand given as 34 counts; None when it does not complete.

    ``reds`` is the number of red fives among the 14 tiles (the winning tile included).
    """
    if counts13[win] >= 4:
        return None  # R12: a dead wait
    shapes = suit_shapes(_completed(counts13, win))
    return _score_wait(counts13, win, shapes, _situation(ctx, settings, reds))


def score_win(hand: Hand, win: int, ctx: WinContext, settings: RuleSettings = DEFAULT_SETTINGS,
              win_red: bool = False) -> WinValue | None:
    """Score a ron on kind ``win`` for ``hand`` (None when ``win`` is not a wait)."""
    return score_counts(hand.counts, win, ctx, settings, hand.reds + (1 if win_red else 0))


def analyze(hand: Hand, ctx: WinContext, settings: RuleSettings = DEFAULT_SETTINGS
            ) -> tuple[WinValue, ...]:
    """Every wait of a 13-tile hand with what a ron on it is worth (a plain, not red, tile)."""
    return analyze_counts(hand.counts, hand.reds, ctx, settings)


def analyze_counts(counts13: tuple[int, ...], reds: int, ctx: WinContext,
                   settings: RuleSettings = DEFAULT_SETTINGS) -> tuple[WinValue, ...]:
    """:func:`analyze` of a hand given as its 34 counts (13 tiles, at most 4 of a kind; not
    checked) and its number of red fives."""
    situation = _situation(ctx, settings, reds)
    values = []
    for kind, shapes in waits_with_shapes(counts13, suit_shapes(counts13)):
        value = _score_wait(counts13, kind, shapes, situation)
        if value is not None:
            values.append(value)
    return tuple(values)


def analyze_rows(counts13: tuple[int, ...], situation: _Situation) -> list[WaitRow]:
    """:func:`analyze_counts` as :class:`WaitRow` values, for a tool that writes them out
    (they cost less to make than :class:`WinValue` and its scores and readings); the context,
    rules and red fives are given as their :func:`make_situation`."""
    rows = []
    for kind, shapes in waits_with_shapes(counts13, suit_shapes(counts13)):
        row = _row(counts13, kind, shapes, situation)
        if row is not None:
            rows.append(row)
    return rows
