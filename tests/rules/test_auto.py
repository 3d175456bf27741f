"""R25: the move the engine makes when a clock runs out."""

from __future__ import annotations

from minefield.rules.auto import auto_command, auto_discard, auto_hand
from minefield.rules.game import ChooseHand, Discard, Game, Seat
from minefield.rules.prepared import game_with_hands
from minefield.rules.tiles import parse_tiles

EAST_HAND = "23m456m345p678s55s"
WEST_HAND = "123m456p789s3332z"


def test_r25_phase_one_keeps_the_choice_and_fills_with_the_lowest() -> None:
    game = Game(8)
    own = sorted(game.tiles_of(Seat.EAST))
    chosen = str(own[-1]) + str(own[-2])
    command = auto_hand(game.view(Seat.EAST), chosen=chosen)
    kept = parse_tiles(command.tiles)
    assert len(kept) == 13
    assert own[-1] in kept and own[-2] in kept
    assert sorted(kept)[:11] == own[:11]
    game.apply(Seat.EAST, command)  # and the engine accepts it


def test_r25_phase_two_prefers_a_genbutsu() -> None:
    game = game_with_hands(EAST_HAND, WEST_HAND, east_pool="1p2p9p", west_pool="9p")
    assert auto_discard(game.view(Seat.EAST)) == Discard(tile="1p")  # no genbutsu: lowest
    game.apply(Seat.EAST, Discard(tile="1p"))
    game.apply(Seat.WEST, Discard(tile="9p"))
    # 9p is now genbutsu (West discarded it): chosen over the lower, unseen 2p
    assert auto_discard(game.view(Seat.EAST)) == Discard(tile="9p")


def test_r25_phase_two_avoids_own_waits() -> None:
    game = game_with_hands(EAST_HAND, WEST_HAND, east_pool="1m")
    command = auto_discard(game.view(Seat.EAST))
    assert command.tile != "1m"  # 1m is one of East's own waits (R15a)


def test_r25_auto_command_follows_the_phase() -> None:
    game = Game(4)
    assert isinstance(auto_command(game.view(Seat.WEST)), ChooseHand)
    for seat in Seat:
        game.apply(seat, auto_command(game.view(seat)))
    assert game.turn is not None
    assert isinstance(auto_command(game.view(game.turn)), Discard)
    while game.phase == "discarding":  # a whole game played by the clock never aborts
        assert game.turn is not None
        game.apply(game.turn, auto_command(game.view(game.turn)))
    assert game.result is not None
