"""The match's scoreboard: one moment per line, before a game or after it (R30-R33)."""

from __future__ import annotations

from typing import Literal

from minefield.protocol.messages import MatchView, SettlementView
from minefield.rules.game import Seat
from minefield.tui.widgets.scoreboard import scoreboard_text

PLAYERS = {Seat.EAST: "Ann", Seat.WEST: "Bob"}


def settled(result: Literal["ron", "draw"], winner: Seat | None, honba: int, renchan: bool,
            scores: dict[str, int], *, over: bool = False) -> MatchView:
    """Game 2 (hand 1 of 4) just ended with ``honba`` sticks on the table."""
    paid = scores["Ann"] - 25000
    return MatchView(game=2, hand=1, hands=4, players=PLAYERS, dealer_streak=1, honba=honba,
                     scores=scores, over=over,
                     last=SettlementView(game=2, hand=1, result=result, winner=winner,
                                         honba=honba, renchan=renchan, lines=[],
                                         payments={Seat.EAST: paid, Seat.WEST: -paid}))


def test_during_a_game_the_sticks_and_points_are_those_of_that_game() -> None:
    view = MatchView(game=2, hand=1, hands=4, players=PLAYERS, dealer_streak=1, honba=1,
                     scores={"Ann": 43000, "Bob": 7000})
    assert scoreboard_text(view, washizu=False) == (
        "[b]Game 2[/] · hand 1 of 4 · Ann [reverse]dealer[/] [b]43000[/] · Bob [b]7000[/] · "
        "1 counter stick")


def test_r31_after_a_dealer_win_the_next_game_has_one_stick_more() -> None:
    """The bug seen: after game 2 the points after the payment beside the stick of before."""
    text = scoreboard_text(settled("ron", Seat.EAST, 1, True, {"Ann": 44000, "Bob": 6000}),
                           washizu=False)
    assert text == ("[b]After game 2[/] · Ann [b]44000[/] · Bob [b]6000[/] · next, game 3 "
                    "(hand 1 of 4): Ann dealer, 2 counter sticks")
    assert "1 counter stick" not in text


def test_r31_a_non_dealer_win_passes_the_deal_and_clears_the_sticks() -> None:
    text = scoreboard_text(settled("ron", Seat.WEST, 2, False, {"Ann": 10000, "Bob": 40000}),
                           washizu=False)
    assert text.endswith("next, game 3 (hand 2 of 4): Bob dealer, no counter sticks")


def test_r31_a_noten_dealer_hands_the_sticks_on() -> None:
    text = scoreboard_text(settled("draw", None, 2, False, {"Ann": 24000, "Bob": 26000}),
                           washizu=True)
    assert "Ann [b]24000 (2400 cc)[/]" in text
    assert text.endswith("next, game 3 (hand 2 of 4): Bob dealer, 2 counter sticks")


def test_r30_after_the_last_game_the_match_is_over() -> None:
    text = scoreboard_text(settled("ron", Seat.EAST, 0, True, {"Ann": 51000, "Bob": -1000},
                                   over=True), washizu=False)
    assert text == "[b]After game 2[/] · Ann [b]51000[/] · Bob [b]-1000[/] · [b]match over[/]"
