"""Bot-against-bot games and their statistics."""

from __future__ import annotations

import pytest

from minefield.bots.simulate import (
    GameOutcome,
    mean_interval,
    play_one,
    share_interval,
    simulate,
    summarize,
)
from minefield.rules.game import Seat


def test_same_seed_same_results_whatever_the_workers() -> None:
    """Each game depends only on the master seed and its number (R2)."""
    one = simulate(4, "easy", "normal", seed=9, jobs=1)
    two = simulate(4, "easy", "normal", seed=9, jobs=2)
    assert one == two
    assert simulate(4, "easy", "normal", seed=10, jobs=1) != one


def test_seats_swap_every_other_game() -> None:
    """Player A sits East in even games and West in odd ones."""
    records = [play_one(i, 1, "easy", "easy") for i in range(2)]
    assert [r.a_seat for r in records] == [Seat.EAST, Seat.WEST]


def test_points_and_summary() -> None:
    """The winner gains what the loser pays; a draw is 0 (R11, R13)."""
    records = [
        GameOutcome(0, "1", Seat.EAST, "a", 8000, 20, False, False),
        GameOutcome(1, "2", Seat.WEST, "b", 12000, 11, False, True),
        GameOutcome(2, "3", Seat.EAST, None, 0, 34, True, False),
    ]
    assert [r.a_points for r in records] == [8000, -12000, 0]
    summary = summarize(records, "A", "B")
    assert (summary.a.wins, summary.a.deal_ins, summary.a.draws, summary.a.furiten) == (1, 1, 1, 1)
    assert summary.b.points.value == pytest.approx(4000 / 3)
    assert summary.a_share.value == 0.5


def test_intervals() -> None:
    """Normal interval for a mean, Wilson interval for a share."""
    interval = mean_interval([1.0, 3.0])
    assert interval.value == 2.0 and interval.low < 2.0 < interval.high
    share = share_interval(60, 100)
    assert share.value == 0.6 and 0.5 < share.low < 0.6 < share.high < 0.7
    assert share_interval(0, 0).high == 1.0
