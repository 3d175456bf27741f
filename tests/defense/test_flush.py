"""The suit reading: an opponent who avoids a suit is likely building honitsu or
chinitsu (R19: 3 and 6 han; riichi and honitsu make 4 han, near the mangan minimum of R14), so
that suit's tiles are more dangerous, and a reason says so.

Each position is what East sees (R26) before its 15th discard (discard 29, R10): West has made
14 discards, which differ only in the suits of two tiles.
"""

from __future__ import annotations

import json

import pytest

from minefield.defense.calibration import OPPONENTS, Opponent
from minefield.defense.estimate import estimate, feedback
from minefield.defense.fast import SuitReading, fast_dangers
from minefield.defense.position import Position
from minefield.defense.reasons import reasons_for
from minefield.defense.request import danger_line
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import kind_from_str
from tests.defense.test_reasons import position

K = kind_from_str

EAST_DISCARDS = "9s 1s 9s 1s 2z 2z 2z 3z 4z 5z 6z 7z 8s 8s"
EAST_KEPT = "3p4p5p6p7p4s5s"
# West's 14 discards: manzu 4, souzu 5, honors 5 and no pinzu.
NO_PINZU = "1m 9m 2s 8s 3z 4z 5m 7s 6z 4m 3s 7z 5z 6s"
# The same with 4m and 6s thrown as 1p and 9p: manzu 3, pinzu 2, souzu 4.
EVEN = "1m 9m 2s 8s 3z 4z 5m 7s 6z 1p 3s 7z 5z 9p"
PINZU = ("3p", "4p", "5p", "6p", "7p")
# Not suji in either position (1p and 9p make 4p and 6p half suji in the even one, R15a).
NOT_SUJI = ("3p", "5p", "7p")


def west_threw(west: str, settings: RuleSettings | None = None) -> Position:
    """East to make discard 29 after West threw ``west``."""
    return position("".join(EAST_DISCARDS.split()) + EAST_KEPT, "9s", east=EAST_DISCARDS,
                    west=west, settings=settings)


AVOIDING = west_threw(NO_PINZU)
SPREAD = west_threw(EVEN)


def test_the_reading_counts_each_suit_against_an_even_spread() -> None:
    """9 number tiles among West's 14 discards: 3 a suit if spread evenly; no pinzu at all is
    3 under it and 4 under the least other suit, so pinzu is the avoided suit."""
    avoiding = SuitReading.of([t.kind for t in AVOIDING.opponent_discards])
    assert avoiding.counts == (4, 0, 5, 5) and avoiding.thrown == 14
    assert avoiding.expected() == 3 and avoiding.deficit(1) == 3 and avoiding.margin(1) == 4
    assert avoiding.avoided() == 1
    even = SuitReading.of([t.kind for t in SPREAD.opponent_discards])
    assert even.counts == (3, 2, 4, 5) and even.avoided() is None


@pytest.mark.parametrize("tile", NOT_SUJI)
def test_an_avoided_suit_is_more_dangerous(tile: str) -> None:
    """The same pinzu tile, not suji in either position: against the strong bot it is rated more
    dangerous when West threw no pinzu than when West's discards spread evenly."""
    avoiding, spread = fast_dangers(AVOIDING), fast_dangers(SPREAD)
    assert avoiding.danger[K(tile)] > spread.danger[K(tile)]
    assert avoiding.loss[K(tile)] > spread.loss[K(tile)]


@pytest.mark.parametrize("opponent", ["normal", "strong", "person"])
def test_the_levels_that_build_flushes_read_it(opponent: Opponent) -> None:
    """The bots that choose their hands for value (normal, strong) and a person (their blend)
    all rate the avoided suit's middle tile higher."""
    assert (fast_dangers(AVOIDING, opponent).danger[K("5p")]
            > fast_dangers(SPREAD, opponent).danger[K("5p")])


def test_the_souzu_is_not_made_more_dangerous() -> None:
    """West threw five souzu in both positions (one more in the avoiding one): the reading
    raises the avoided suit, not every suit."""
    avoiding, spread = fast_dangers(AVOIDING), fast_dangers(SPREAD)
    for tile in ("4s", "5s"):
        assert avoiding.danger[K(tile)] < spread.danger[K(tile)]


def test_a_reason_names_the_flush() -> None:
    """R19 (honitsu 3 han, chinitsu 6) and R14 (mangan, kiriage on by default)."""
    reason = ("West has thrown no pinzu in 14 discards (an even spread of their 9 number tiles "
              "would give 3): a pinzu flush is likely (honitsu is 3 han and chinitsu 6, R19; "
              "riichi and honitsu make 4 han, mangan with kiriage, R14); pinzu tiles are more "
              "dangerous")
    found = reasons_for(AVOIDING)
    for tile in PINZU:
        assert found[K(tile)][0] == reason  # first: the overlay's first line, feedback's words
    for tile in ("4s", "5s"):
        assert not any("flush" in r for r in found[K(tile)])
    report = estimate(AVOIDING)
    assert report.of("5p").reasons[0] == reason
    assert feedback(report, "5p").startswith(f"5p: {round(report.of('5p').danger * 100)}% "
                                             f"({reason})")


def test_the_reason_follows_the_rules_in_play() -> None:
    """R14 without kiriage: 4 han needs 40 fu; with no minimum only the yaku are named."""
    strict = reasons_for(west_threw(NO_PINZU, RuleSettings(kiriage=False)))[K("5p")][0]
    assert "riichi and honitsu make 4 han, mangan from 40 fu, R14" in strict
    beginner = reasons_for(west_threw(NO_PINZU, RuleSettings.preset("beginner")))[K("5p")][0]
    assert "(honitsu is 3 han and chinitsu 6, R19); pinzu tiles" in beginner


def test_no_flush_reason_when_the_spread_is_even() -> None:
    for reasons in reasons_for(SPREAD).values():
        assert not any("flush" in r for r in reasons)
    for opponent in OPPONENTS:
        assert not any("flush" in r for t in estimate(SPREAD, opponent).tiles
                       for r in t.reasons)


def test_no_flush_reason_early() -> None:
    """Five discards, none of them pinzu, are too few to read a suit from."""
    early = position("".join(EAST_DISCARDS.split()[:5]) + "3p4p5p6p7p4s5s1s9s8s8s2z3z4z5z6z",
                     "9s", east=" ".join(EAST_DISCARDS.split()[:5]),
                     west="1m 9m 2s 8s 3z")
    assert SuitReading.of([t.kind for t in early.opponent_discards]).avoided() is None
    assert not any("flush" in r for rs in reasons_for(early).values() for r in rs)


def test_danger_jsonl_names_the_flush_in_the_same_shape() -> None:
    """``danger --jsonl``: the same keys and shape, the flush reason first for the pinzu."""
    request = {"seat": "east", "tiles": "123456789m1112z" + "".join(EAST_DISCARDS.split())
               + EAST_KEPT, "hand": "123456789m1112z", "dora": "9s",
               "discards": {"east": EAST_DISCARDS.split(), "west": NO_PINZU.split()}}
    result = json.loads(danger_line(json.dumps(request)))
    assert set(result) == {"discard", "opponent_furiten", "tiles"} and result["discard"] == 29
    tiles = {t["tile"]: t for t in result["tiles"]}
    assert all(set(t) == {"tile", "danger", "loss", "reasons"} for t in tiles.values())
    assert tiles["5p"]["reasons"][0].startswith("West has thrown no pinzu in 14 discards")
    assert not any("flush" in r for r in tiles["5s"]["reasons"])
    even = {**request, "discards": {"east": EAST_DISCARDS.split(), "west": EVEN.split()}}
    assert "flush" not in danger_line(json.dumps(even))


def test_the_flush_is_named_only_when_the_estimate_rates_the_suit_higher() -> None:
    """The reason states what the chances say: given chances that rate the pinzu below the
    other suits, the same discards name no flush."""
    danger = [0.0] * 34
    for tile in PINZU:
        danger[K(tile)] = 0.05
    for tile in ("4s", "5s"):
        danger[K(tile)] = 0.10
    assert not any("flush" in r for rs in reasons_for(AVOIDING, danger=danger).values()
                   for r in rs)
    for tile in PINZU:
        danger[K(tile)] = 0.20
    assert reasons_for(AVOIDING, danger=danger)[K("5p")][0].startswith("West has thrown no")
