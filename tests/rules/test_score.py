"""Scoring rules R14, R18-R24, each test naming its rule."""

from __future__ import annotations

import pytest

from minefield.rules.hand import Hand
from minefield.rules.score import WinContext, WinValue, analyze, limit_and_points, score_win
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import EAST, WEST, kind_from_str

KIRIAGE_OFF = RuleSettings(kiriage=False)
BEGINNER = RuleSettings.preset("beginner")


def ron(hand: str, tile: str, seat: int = EAST, dora: str | None = None, ura: str | None = None,
        settings: RuleSettings | None = None, **flags: bool) -> WinValue:
    """Score a ron; fails the test if ``tile`` is not a wait."""
    ctx = WinContext(seat_wind=seat,
                     dora_indicator=kind_from_str(dora) if dora else None,
                     ura_indicator=kind_from_str(ura) if ura else None, **flags)
    value = score_win(Hand.parse(hand), kind_from_str(tile), ctx, settings or RuleSettings())
    assert value is not None, f"{tile} does not complete {hand}"
    return value


def yaku_names(value: WinValue) -> list[str]:
    return [name for name, _ in value.paid.yaku]


# --- R14: eligibility and kiriage -------------------------------------------------------------

def test_r14_four_han_thirty_fu_is_mangan_with_kiriage() -> None:
    # riichi, tanyao, pinfu and one dora (3m) = 4 han 30 fu
    value = ron("23m456m345p678s55s", "7m", dora="2m")
    assert (value.paid.han, value.paid.fu) == (4, 30)
    assert value.eligible and value.paid.limit == "mangan" and value.paid.points == 8000


def test_r14_four_han_thirty_fu_without_kiriage_is_7700_and_not_eligible() -> None:
    value = ron("23m456m345p678s55s", "7m", dora="2m", settings=KIRIAGE_OFF)
    assert value.paid.points == 7700 and value.paid.limit is None and not value.eligible


def test_r14_three_han_sixty_fu_is_mangan_with_kiriage() -> None:
    # West: riichi + sanankou, 111z (not West's wind) 222z 999m concealed, kanchan 5s.
    value = ron("111z222z999m46s77s", "5s", seat=WEST)
    assert yaku_names(value) == ["riichi", "sanankou"]
    assert (value.paid.han, value.paid.fu) == (3, 60)
    assert value.eligible and value.paid.points == 8000
    off = ron("111z222z999m46s77s", "5s", seat=WEST, settings=KIRIAGE_OFF)
    assert off.paid.points == 7700 and not off.eligible


def test_r14_four_han_seven_pairs_is_not_mangan() -> None:
    value = ron("22m44m66p88p33s77s5s", "5s")
    assert yaku_names(value) == ["riichi", "tanyao", "chiitoitsu"]
    assert (value.paid.han, value.paid.fu, value.paid.points) == (4, 25, 6400)
    assert not value.eligible


def test_r14_ura_does_not_count_toward_eligibility() -> None:
    # riichi + seat wind = 2 han 40 fu; two ura (2z) would make it 4 han 40 fu = mangan.
    value = ron("123m456p789s1112z", "2z", ura="1z")
    assert not value.eligible
    assert value.paid.ura == 2 and value.paid.points == 8000
    assert value.basis.han == 2


def test_r14_three_han_seventy_fu_and_four_han_forty_fu_are_mangan() -> None:
    assert limit_and_points(3, 70, 0, KIRIAGE_OFF) == ("mangan", 8000)
    assert limit_and_points(4, 40, 0, KIRIAGE_OFF) == ("mangan", 8000)
    assert limit_and_points(3, 50, 0, KIRIAGE_OFF) == (None, 6400)


def test_r14_minimum_none_makes_every_wait_eligible() -> None:
    value = ron("123m456p789s1112z", "2z", settings=BEGINNER)
    assert value.eligible and value.paid.points == 2600  # 2 han 40 fu


# --- R18: best reading -------------------------------------------------------------------------

def test_r18_best_reading_by_points() -> None:
    # 1111 2222 3333m 44z read as three 123m and iipeikou, or ryanpeikou; ryanpeikou pays more.
    value = ron("11112222333m44z", "3m")
    assert "ryanpeikou" in yaku_names(value)
    assert "iipeikou" not in yaku_names(value)


def test_r18_a_tile_read_as_several_shapes_scores_the_best() -> None:
    # 4566m won on 6m: tanki on 66m (40 fu, no pinfu) or ryanmen 456m (pinfu): pinfu pays more.
    value = ron("4566m234p678s345s", "6m")
    assert value.paid.wait == "ryanmen" and value.paid.fu == 30
    assert yaku_names(value) == ["riichi", "tanyao", "pinfu"]


# --- R19: yaku ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("seat", "expected"), [(EAST, True), (WEST, False)])
def test_r19_east_triplet_is_yakuhai_only_for_east(seat: int, expected: bool) -> None:
    value = ron("111z234m456p78s99s", "6s", seat=seat)
    assert ("seat_wind" in yaku_names(value)) is expected


def test_r19_west_triplet_is_yakuhai_for_west() -> None:
    assert "seat_wind" in yaku_names(ron("333z234m456p78s99s", "6s", seat=WEST))


@pytest.mark.parametrize("seat", [EAST, WEST])
def test_r19_south_and_north_are_never_yakuhai(seat: int) -> None:
    for wind in ("2z", "4z"):
        hand = f"{wind[0] * 3}z234m456p78s99s"
        assert "seat_wind" not in yaku_names(ron(hand, "6s", seat=seat))


def test_r19_dragons_are_yakuhai_per_triplet() -> None:
    value = ron("555z666z234m78s99s", "6s")
    assert {"haku", "hatsu"} <= set(yaku_names(value))


@pytest.mark.parametrize(("hand", "tile", "expected"), [
    ("23m456m345p678s55s", "4m", {"riichi", "tanyao", "pinfu"}),
    ("123m123p123s789m5p", "5p", {"riichi", "sanshoku_doujun"}),
    ("123456789m11p23s", "4s", {"riichi", "pinfu", "ittsu"}),
    ("123m789m123s99p11z", "1z", {"riichi", "seat_wind", "chanta"}),
    # 7899p waits on 6p-9p: the 9p completes 78p as a two-sided wait, so pinfu counts
    ("112233m789p789s9p", "9p", {"riichi", "pinfu", "iipeikou", "junchan"}),
    ("111m999p111s22z33z", "3z", {"riichi", "toitoi", "sanankou", "honroutou"}),
    ("111m111p111s22z33z", "3z", {"riichi", "toitoi", "sanankou", "sanshoku_doukou",
                                  "honroutou"}),
    ("555z666z77z123m99m", "9m", {"riichi", "haku", "hatsu", "chanta", "shousangen",
                                  "honitsu"}),
    # read as 11p + 234p 234p 567p 567p, the 7p completes 56p: pinfu with ryanpeikou
    ("1122334455667p", "7p", {"riichi", "pinfu", "ryanpeikou", "chinitsu"}),
])
def test_r19_yaku_of_known_hands(hand: str, tile: str, expected: set[str]) -> None:
    assert set(yaku_names(ron(hand, tile))) == expected


def test_r19_ryanpeikou_replaces_iipeikou_and_chiitoitsu_is_another_reading() -> None:
    value = ron("2233445566778p", "8p")
    names = yaku_names(value)
    assert "ryanpeikou" in names and "iipeikou" not in names and "chiitoitsu" not in names


def test_r19_junchan_replaces_chanta_and_chinitsu_replaces_honitsu() -> None:
    junchan = yaku_names(ron("123m789m123p99s78s", "9s"))
    assert "junchan" in junchan and "chanta" not in junchan
    chinitsu = yaku_names(ron("2223456667788p", "8p"))
    assert "chinitsu" in chinitsu and "honitsu" not in chinitsu


# --- R20, R21: yakuman -------------------------------------------------------------------------

def test_r20_yakuman_drops_other_yaku_and_dora() -> None:
    value = ron("555z666z777z123m9m", "9m", dora="4m")
    assert yaku_names(value) == ["daisangen"]
    assert value.paid.points == 32000 and value.paid.dora == 0


def test_r20_different_yakuman_add_up() -> None:
    # all honors, three dragon triplets, four concealed triplets on a single wait
    value = ron("555z666z777z111z2z", "2z")
    assert set(yaku_names(value)) == {"daisangen", "tsuuiisou", "suuankou"}
    assert value.paid.yakuman == 3 and value.paid.points == 96000


def test_r20_suuankou_only_on_a_single_wait() -> None:
    shanpon = ron("111m999p111s22z33z", "3z")
    assert "suuankou" not in yaku_names(shanpon)
    tanki = ron("111m999p111s222z3z", "3z")
    assert yaku_names(tanki) == ["suuankou"]


@pytest.mark.parametrize(("hand", "tile"), [
    ("19m19p19s1234567z", "1m"),       # 13-sided kokushi
    ("1112345678999m", "5m"),          # 9-sided chuuren
    ("111m999p111s222z3z", "3z"),      # suuankou tanki
])
def test_r20_special_waits_are_single_unless_setting(hand: str, tile: str) -> None:
    assert ron(hand, tile).paid.points == 32000
    double = ron(hand, tile, settings=RuleSettings(double_yakuman_waits=True))
    assert double.paid.points == 64000


def test_r21_kazoe_is_one_yakuman_never_more() -> None:
    # riichi, ippatsu, tanyao, pinfu, ryanpeikou, chinitsu = 13 han, plus two dora: still 32000.
    value = ron("2233445566778p", "8p", dora="1p", ippatsu=True)
    assert value.paid.han >= 13
    assert value.paid.limit == "kazoe yakuman" and value.paid.points == 32000


# --- R22: fu -----------------------------------------------------------------------------------

def test_r22_pinfu_ron_is_thirty_fu() -> None:
    assert ron("23m456m345p678s55s", "4m").paid.fu == 30


def test_r22_chiitoitsu_is_twenty_five_fu() -> None:
    assert ron("22m44m66p88p33s77s5s", "5s").paid.fu == 25


def test_r22_triplet_completed_by_ron_counts_as_open() -> None:
    # 111z concealed honor 8 + 555m completed by ron, open simple 2: 30 + 10 = 40.
    # Counted concealed (4) it would be 42, rounded to 50.
    value = ron("111z234p678s55m88s", "5m", seat=WEST)
    assert value.paid.wait == "shanpon" and value.paid.fu == 40


def test_r22_dragon_and_own_wind_pairs_add_two_fu() -> None:
    # 23m kanchan-free ryanmen with a yakuhai pair: not pinfu, 30 + 2 = 32 -> 40
    assert ron("23m456m345p678s55z", "4m").paid.fu == 40
    assert ron("23m456m345p678s11z", "4m", seat=EAST).paid.fu == 40
    # East's pair for West is no yakuhai: pinfu, 30
    value = ron("23m456m345p678s11z", "4m", seat=WEST)
    assert value.paid.fu == 30 and "pinfu" in yaku_names(value)


def test_r22_kanchan_penchan_tanki_add_two_fu() -> None:
    assert ron("13m456m345p678s55s", "2m").paid.fu == 40   # kanchan 32 -> 40
    assert ron("12m456m345p678s55s", "3m").paid.fu == 40   # penchan
    assert ron("123m456m345p678s5s", "5s").paid.fu == 40   # tanki


# --- R23: points -------------------------------------------------------------------------------

@pytest.mark.parametrize(("han", "fu", "limit", "points"), [
    (5, 30, "mangan", 8000), (6, 30, "haneman", 12000), (7, 30, "haneman", 12000),
    (8, 30, "baiman", 16000), (10, 30, "baiman", 16000), (11, 30, "sanbaiman", 24000),
    (12, 30, "sanbaiman", 24000), (13, 30, "kazoe yakuman", 32000),
    (1, 30, None, 1000), (2, 40, None, 2600), (3, 30, None, 3900), (2, 25, None, 1600),
])
def test_r23_non_dealer_ron_points(han: int, fu: int, limit: str | None, points: int) -> None:
    assert limit_and_points(han, fu, 0, RuleSettings()) == (limit, points)


def test_r23_dealer_bonus_pays_one_and_a_half() -> None:
    assert limit_and_points(5, 30, 0, RuleSettings(), dealer=True) == ("mangan", 12000)
    assert limit_and_points(2, 40, 0, RuleSettings(), dealer=True) == (None, 3900)
    assert limit_and_points(13, 0, 1, RuleSettings(), dealer=True) == ("yakuman", 48000)


# --- R24: dora ---------------------------------------------------------------------------------

def test_r24_triplet_of_dora_is_three_and_winning_tile_counts() -> None:
    value = ron("555m234p678s99s11z", "1z", seat=WEST, dora="4m")
    assert value.paid.dora == 3
    assert ron("23m456m345p678s55s", "4m", dora="3m").paid.dora == 2  # 4m in hand + the ron


def test_r24_dora_is_not_a_yaku_but_riichi_always_is() -> None:
    value = ron("23m456m345p678s55s", "1m", dora="9m")
    assert yaku_names(value)[0] == "riichi" and value.paid.dora == 1


def test_r24_red_fives_count_as_dora_when_on() -> None:
    red = RuleSettings(red_fives=True)
    value = ron("234m406m345p67s55s", "8s", settings=red)
    assert value.paid.aka == 1


# --- analysis ----------------------------------------------------------------------------------

def test_analyze_lists_every_wait_with_its_value() -> None:
    ctx = WinContext(dora_indicator=kind_from_str("2m"))
    values = analyze(Hand.parse("23m456m345p678s55s"), ctx)
    assert [(v.tile, v.eligible) for v in values] == [
        (kind_from_str("1m"), False), (kind_from_str("4m"), True), (kind_from_str("7m"), True)]


def test_the_quick_chuuren_test_is_the_full_one() -> None:
    """The scorer asks whether a one-suit hand may be chuuren (R20) of the 13
    counts and the winning tile without building the 14; on every 13-tile shape of one suit
    whose 1s and 9s are near chuuren's (and some that are not) and every winning tile of it,
    in each suit, the answer is the full test's."""
    from itertools import product

    from minefield.rules.score import _chuuren_won, _completed, _is_chuuren

    checked = 0
    for middle in product(range(5), repeat=7):
        for ends in ((2, 2), (2, 3), (3, 2), (3, 3), (4, 2), (2, 4), (3, 4), (4, 3), (4, 4),
                     (1, 3), (3, 1), (0, 4)):
            suit = (ends[0], *middle, ends[1])
            if sum(suit) != 13:
                continue
            for base in (0, 9, 18):
                counts = (0,) * base + suit + (0,) * (34 - base - 9)
                for win in range(base, base + 9):
                    if counts[win] < 4:
                        checked += 1
                        assert _chuuren_won(counts, win) == _is_chuuren(
                            _completed(counts, win)), (suit, win)
    assert checked > 10000
