"""The live analysis panel's model: waits, live copies and warnings (R12, R14, R15)."""

from __future__ import annotations

from minefield.rules.game import Seat
from minefield.rules.tiles import Tile, parse_tiles
from minefield.tui.analysis import analyze_choice, dead_waits, visible_counts


def _own(hand: str, pool: str) -> tuple[list[Tile], list[Tile]]:
    chosen = parse_tiles(hand)
    return chosen + parse_tiles(pool), chosen


def test_fewer_than_13_tiles_is_not_analyzed_yet() -> None:
    own, chosen = _own("123m456p789s11z", "2m")
    result = analyze_choice(own, chosen, Seat.EAST, Tile.parse("1m"))
    assert result.chosen == 11 and not result.complete and result.waits == ()


def test_live_copies_count_own_tiles_the_indicator_and_opponent_discards() -> None:
    """Live copies of a wait = 4 minus the copies this seat can see."""
    own, chosen = _own("23m456m345p678s55s", "1m4m")  # waits 1m 4m 7m
    result = analyze_choice(own, chosen, Seat.EAST, Tile.parse("7m"),
                            opponent_discards=parse_tiles("7m1m"))
    live = {line.tile: line.live for line in result.waits}
    assert live == {"1m": 2, "4m": 2, "7m": 2}


def test_a_wait_below_mangan_is_flagged_as_a_way_to_freeze_the_hand() -> None:
    """R14, R15b: with dora 5s, a ron on 5s reaches mangan, a ron on 8s does not."""
    own, chosen = _own("234m456m345p678s5s", "")
    result = analyze_choice(own, chosen, Seat.EAST, Tile.parse("4s"))
    eligible = {line.tile: line.report.eligible for line in result.waits}
    assert result.can_win and eligible == {"5s": True, "8s": False}
    assert any("8s is worth only 3 han 40 fu" in w and "freeze" in w for w in result.warnings)


def test_no_eligible_wait_is_one_clear_warning() -> None:
    own, chosen = _own("123m456p789s1112z", "")
    result = analyze_choice(own, chosen, Seat.EAST, Tile.parse("9m"))
    assert result.tenpai and not result.can_win
    assert result.warnings[0].startswith("No wait reaches mangan")


def test_noten_and_dead_waits_are_warned() -> None:
    """R12: a kind the hand holds all four of is a dead wait."""
    own, chosen = _own("1111m234p567s789s", "")
    result = analyze_choice(own, chosen, Seat.EAST, Tile.parse("5z"))
    assert not result.tenpai and result.waits == ()
    assert result.warnings == ("Not tenpai: this hand can never win (R12).",
                               "Dead wait: the hand holds all four 1m, so 1m can never win (R12).")
    counts = visible_counts(chosen, Tile.parse("5z"))
    counts[31] -= 1  # the indicator is not in the hand
    assert dead_waits(counts) == [0]


def test_too_many_copies_of_the_waits_in_the_pool_are_warned() -> None:
    """R10, R15a: only four pool tiles are never discarded."""
    own, chosen = _own("23m456m345p678s55s", "1m1m1m4m4m7m")
    result = analyze_choice(own, chosen, Seat.EAST, Tile.parse("9p"))
    pool_warning = [w for w in result.warnings if "Your pool holds" in w]
    assert pool_warning and "6 tiles of your own waits" in pool_warning[0]
    assert "discard 2 of them" in pool_warning[0]
