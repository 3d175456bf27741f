"""The final standings (R30): one moment, the end; the games played and the hand the match
ended in, each player's points and change over the match, and why it ended early."""

from __future__ import annotations

from minefield.protocol.messages import MatchView, SettlementView, StandingView
from minefield.rules.game import Seat
from minefield.tui.screens.standings import standings_lines, standings_title


def ended_early() -> MatchView:
    """Three games of hand 1 of 4 (the dealer won twice), then Ann is below zero."""
    return MatchView(
        game=3, hand=1, hands=4, players={Seat.EAST: "Bob", Seat.WEST: "Ann"},
        dealer_streak=2, honba=2, scores={"Ann": -1000, "Bob": 51000}, over=True,
        last=SettlementView(game=3, hand=1, result="ron", winner=Seat.EAST, honba=2,
                            renchan=True, match_over=True, lines=[],
                            payments={Seat.EAST: 14000, Seat.WEST: -14000}),
        standings=[StandingView(place=1, player="Bob", points=51000),
                   StandingView(place=2, player="Ann", points=-1000)])


def test_r30_the_title_says_the_games_played_and_the_hand_it_ended_in() -> None:
    """The bug seen: "3 games, 4 hands" after one hand of four was played."""
    assert standings_title(ended_early()) == (
        "Final standings after 3 games, in hand 1 of 4 (R30)")


def test_r30_each_change_over_the_match_beside_the_points_and_why_it_ended() -> None:
    lines = standings_lines(ended_early(), washizu=False)
    assert lines[0] == "[b]1st[/]  Bob  [b]51000[/]  (+26000 over the match)"
    assert lines[1] == "[b]2nd[/]  Ann  [b]-1000[/]  (-26000 over the match)"
    assert lines[2] == "The match ended early: Ann went below zero (R30)."
    assert lines[-1] == "[b]Bob wins the match.[/]"
