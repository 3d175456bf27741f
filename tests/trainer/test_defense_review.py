"""The review of a finished game: one step per discard of the seat, the position seen then, the
truth of what would have dealt in (R13-R17), and the estimates for the opponent."""

from __future__ import annotations

import pytest

from minefield.defense.estimate import estimate
from minefield.defense.position import Position
from minefield.rules.game import Discard, Game, Seat
from minefield.rules.prepared import game_with_hands
from minefield.trainer.defense_review import (
    ReviewError,
    assess,
    opponent_of,
    review_game,
    review_of_game,
    totals,
)
from tests.records.conftest import RON_SEED, played

# East waits on 1m 4m 7m; West on 2z alone, a tanki worth mangan on any discard (riichi, West's
# own wind 3z as yakuhai and as three dora: the indicator is 2z, R4, R14).
EAST_HAND, WEST_HAND = "23m456m345p678s55s", "123m456p789s3332z"


def prepared() -> Game:
    return game_with_hands(EAST_HAND, WEST_HAND, east_pool="1z2z9p", west_pool="9s8s")


def won_on_discard_one() -> Game:
    """Seed 0 with the normal bots' hands: East's first discard, 3s, is West's ron (12000):
    a real game (it replays from its seed), ended before West's first discard."""
    game = played(RON_SEED, stop=2)
    game.apply(Seat.EAST, Discard(tile="3s"))
    assert game.result is not None and game.result.winner is Seat.WEST
    assert game.result.discard_number == 1
    return game


def test_a_seat_that_made_no_discard_has_no_steps() -> None:
    game = won_on_discard_one()
    west, east = review_of_game(game, Seat.WEST), review_of_game(game, Seat.EAST)
    assert west.steps == () and list(assess(west)) == [] and totals([]) == (0.0, 0.0)
    assert [(s.number, s.dealt_in) for s in east.steps] == [(1, True)]


def test_each_discard_is_a_step_with_the_position_seen_before_it() -> None:
    game = prepared()
    seen = []
    for seat, tile in ((Seat.EAST, "9p"), (Seat.WEST, "9s"), (Seat.EAST, "1z"),
                       (Seat.WEST, "8s"), (Seat.EAST, "2z")):
        if seat is Seat.EAST:
            seen.append(Position.from_view(game.view(seat)))
        game.apply(seat, Discard(tile=tile))
    assert game.result is not None and game.result.winner is Seat.WEST
    review = review_of_game(game, Seat.EAST)
    assert [s.number for s in review.steps] == [1, 3, 5]
    assert [s.tile for s in review.steps] == ["9p", "1z", "2z"]
    assert [s.position for s in review.steps] == seen
    assert [s.dealt_in for s in review.steps] == [False, False, True]
    assert all(s.deal_ins == ("2z",) for s in review.steps)  # the tanki, eligible throughout
    assert review.opponent_hand == game.result.hands[Seat.WEST]
    assert review.opponent_waits == ("2z",)
    west = review_of_game(game, Seat.WEST)
    assert [s.number for s in west.steps] == [2, 4]
    assert all(s.deal_ins == () for s in west.steps)  # West's pool holds no 1m 4m 7m


def test_nothing_deals_in_once_the_opponent_is_furiten() -> None:
    game = game_with_hands(EAST_HAND, WEST_HAND, east_pool="1z2z9p", west_pool="1m9s8s")
    for seat, tile in ((Seat.EAST, "1z"), (Seat.WEST, "1m"), (Seat.EAST, "9p"),
                       (Seat.WEST, "9s"), (Seat.EAST, "2z")):
        game.apply(seat, Discard(tile=tile))
    # 1m is East's wait at 3 han 30 fu even with ippatsu: it passes, East is furiten (R15b)
    end = game.result
    assert end is not None and end.winner is Seat.WEST
    furiten = end.furiten[Seat.EAST]
    assert furiten is not None and furiten.discard_number == 2
    review = review_of_game(game, Seat.WEST)
    first, second = review.steps
    assert (first.number, first.deal_ins, first.opponent_furiten) == (2, (), False)
    assert (second.number, second.deal_ins, second.opponent_furiten) == (4, (), True)
    assert not first.dealt_in and not second.dealt_in


def test_a_game_not_ended_cannot_be_reviewed() -> None:
    with pytest.raises(ReviewError, match="not ended"):
        review_of_game(prepared(), Seat.EAST)
    game = prepared()
    game.apply(Seat.EAST, Discard(tile="2z"))
    end = game.result
    assert end is not None
    with pytest.raises(ReviewError):
        review_game(end.model_copy(update={"hands": {Seat.EAST: None, Seat.WEST: None}}),
                    {Seat.EAST: ["2z"], Seat.WEST: []}, "2z", game.settings, Seat.EAST)


def test_the_estimates_and_their_totals() -> None:
    game = prepared()
    game.apply(Seat.EAST, Discard(tile="9p"))
    game.apply(Seat.WEST, Discard(tile="9s"))
    game.apply(Seat.EAST, Discard(tile="2z"))
    review = review_of_game(game, Seat.EAST)
    assessed = list(assess(review))
    reports = [estimate(step.position) for step in review.steps]
    assert [a.report for a in assessed] == reports
    taken, least = totals(assessed)
    assert taken == sum(r.of(s.tile).danger for r, s in zip(reports, review.steps, strict=True))
    assert least == sum(r.safest().danger for r in reports) and least <= taken


def test_the_estimates_are_for_the_opponent_asked() -> None:
    """The review's estimate is the one for whom the seat played against."""
    game = prepared()
    game.apply(Seat.EAST, Discard(tile="9p"))
    game.apply(Seat.WEST, Discard(tile="9s"))
    game.apply(Seat.EAST, Discard(tile="2z"))
    review = review_of_game(game, Seat.EAST)
    assessed = list(assess(review, "normal"))
    assert [a.report for a in assessed] == [estimate(s.position, "normal") for s in review.steps]
    assert {a.report.opponent for a in assessed} == {"normal"}


def test_the_opponent_of_a_record_name() -> None:
    assert [opponent_of(f"Bot ({level})") for level in ("easy", "normal", "strong")] == [
        "easy", "normal", "strong"]
    assert opponent_of("Bot (expert)") == opponent_of("bob") == "person"

