"""The game log's result line: the hand's value, and in a match what was paid (R23, R32)."""

from __future__ import annotations

from minefield.protocol.messages import MatchView, SettlementView
from minefield.rules.game import GameEnded, Seat
from minefield.rules.report import WaitReport
from minefield.tui.widgets.log import paid_to_winner, result_line

NAMES = {Seat.EAST: "Ann", Seat.WEST: "Bob"}


def won(points: int) -> GameEnded:
    """East won on West's 5p, a hand worth ``points``."""
    value = WaitReport(tile="5p", eligible=True, points=points, han=6, fu=30, limit="haneman",
                       yaku=[], dora=0, ura=0, aka=0, wait="ryanmen", groups=[],
                       han_without_ura=6, points_without_ura=points)
    return GameEnded(result="ron", winner=Seat.EAST, win_tile="5p", value=value,
                     discard_number=2, seed="0", hands={}, pools={}, waits={}, furiten={},
                     ura_indicator="1m")


def match_after(game: int, paid: int) -> MatchView:
    """A match whose game ``game`` just ended, East paid ``paid``."""
    return MatchView(game=game, hand=1, hands=4, players=NAMES, dealer_streak=1, honba=1,
                     scores={"Ann": 25000 + paid, "Bob": 25000 - paid},
                     last=SettlementView(game=game, hand=1, result="ron", winner=Seat.EAST,
                                         honba=1, renchan=True, lines=[],
                                         payments={Seat.EAST: paid, Seat.WEST: -paid}))


def test_r32_the_log_says_the_hand_and_the_payment_with_the_sticks() -> None:
    """The bug seen: "(18000)" in the log for a payment of 19000."""
    end = won(18000)
    paid = paid_to_winner(end, match_after(2, 19000))
    assert paid == 19000
    assert result_line(end, NAMES, paid) == (
        "[b]Ron![/] Ann wins on Bob's 5p (18000 + counter sticks = 19000, R32).")


def test_without_sticks_or_outside_a_match_the_value_is_the_payment() -> None:
    end = won(12000)
    assert result_line(end, NAMES) == "[b]Ron![/] Ann wins on Bob's 5p (12000)."
    assert result_line(end, NAMES, 12000) == result_line(end, NAMES)
    assert paid_to_winner(end, None) is None
    before = match_after(2, 19000).model_copy(update={"game": 3})  # game 3 not yet settled
    assert paid_to_winner(end, before) is None
