"""How readable your wait was: the estimate run from the opponent's seat, on
their pool, at each of their discards, from what they could see then only (R26); your waits
ranked among the tiles they could throw, the discards of yours after which a wait's rating
rose or fell, and the suji your discards made (R15a). Relations only: the estimate's numbers
change when it is refitted."""

from __future__ import annotations

import pytest

from minefield.bots.levels import make_bot
from minefield.defense.fast import fast_dangers
from minefield.defense.position import Position
from minefield.rules.game import Discard, Game, Seat
from minefield.rules.prepared import game_with_hands
from minefield.rules.tiles import kind_from_str
from minefield.trainer.defense_review import GameReview, review_of_game
from minefield.trainer.readable import (
    Readability,
    readability,
    readability_section,
    suji_covers,
)


def careless_with_views(seed: int) -> tuple[Game, list[Position]]:
    """The careless game of the regrets tests (East strong, West easy), and the position East
    saw before each of its discards (from East's own view)."""
    game = Game(seed)
    bots = {Seat.EAST: make_bot("strong", seed), Seat.WEST: make_bot("easy", seed + 100)}
    seen = []
    while game.phase != "ended":
        seat = (next(s for s in Seat if game.hand_of(s) is None) if game.phase == "choosing"
                else game.turn)
        assert seat is not None
        if game.phase == "discarding" and seat is Seat.EAST:
            seen.append(Position.from_view(game.view(Seat.EAST)))
        game.apply(seat, bots[seat].act(game.view(seat)))
    return game, seen


@pytest.fixture(scope="module")
def careless() -> tuple[GameReview, list[Position], Readability]:
    game, seen = careless_with_views(1)
    review = review_of_game(game, Seat.WEST)
    return review, seen, readability(review, "person")


def test_only_what_the_opponent_saw_feeds_the_reading(
        careless: tuple[GameReview, list[Position], Readability]) -> None:
    review, seen, found = careless
    assert [s.position for s in review.their_steps] == seen  # East's own views, in order
    assert [r.number for r in found.readings] == [s.number for s in review.their_steps]
    assert found.waits == review.waits and found.waits  # West was tenpai


def test_each_wait_is_ranked_among_the_tiles_they_could_throw(
        careless: tuple[GameReview, list[Position], Readability]) -> None:
    review, seen, found = careless
    for position, reading in zip(seen, found.readings, strict=True):
        danger = fast_dangers(position, "person").danger
        pool = position.pool_kinds
        assert [r.wait for r in reading.ratings] == list(review.waits)
        for rating in reading.ratings:
            kind = kind_from_str(rating.wait)
            others = [k for k in pool if k != kind]
            assert rating.chance == danger[kind] and rating.in_pool == (kind in pool)
            assert rating.rank == 1 + sum(1 for k in others if danger[k] > rating.chance)
            assert rating.of == len(others) + 1 and 1 <= rating.rank <= rating.of


def test_the_discards_that_gave_a_wait_away_or_hid_it(
        careless: tuple[GameReview, list[Position], Readability]) -> None:
    review, _, found = careless
    mine = {s.number: s.tile for s in review.steps}
    after = {r.number: r for r in found.readings}
    assert found.gave_away or found.hid
    for moved in found.gave_away + found.hid:
        assert mine[moved.number] == moved.tile  # one of West's discards
        later = after[moved.number + 1].of(moved.wait)  # East's next discard
        assert later is not None and later.chance == moved.after
    assert all(m.after > m.before for m in found.gave_away)
    assert all(m.after < m.before for m in found.hid)
    rises = [m.after - m.before for m in found.gave_away]
    assert rises == sorted(rises, reverse=True)
    for number, tile, wait in found.suji:
        assert mine[number] == tile and suji_covers(tile, wait)


def test_the_opponent_threw_your_wait() -> None:
    """West throws 4m, one of East's waits (1m 4m 7m), and East wins (R13, R16)."""
    game = game_with_hands("23m456m345p678s55s", "123m456p789s3332z", east_pool="1z",
                           west_pool="4m", dora="2m")
    game.apply(Seat.EAST, Discard(tile="1z"))
    game.apply(Seat.WEST, Discard(tile="4m"))
    found = readability(review_of_game(game, Seat.EAST), "person")
    (reading,) = found.readings
    assert reading.threw_wait and reading.tile == "4m"
    rating = reading.of("4m")
    assert rating is not None and rating.in_pool
    missed = reading.of("1m")
    assert missed is not None and not missed.in_pool
    text = [line.text for line in readability_section(found, "West").lines]
    assert text[0].startswith("Your waits 1m 4m 7m, as West's view rated them")
    assert any(t.startswith("They threw your wait 4m at discard 2 when it was rated ")
               for t in text)


def test_suji_and_nothing_to_read() -> None:
    assert suji_covers("3p", "6p") and suji_covers("9s", "6s")
    assert not suji_covers("3p", "6s") and not suji_covers("1z", "4z")
    none = Readability(waits=(), readings=(), gave_away=(), hid=(), suji=())
    (line,) = readability_section(none, "East").lines
    assert line.text == "You were not tenpai: there was no wait to read."
