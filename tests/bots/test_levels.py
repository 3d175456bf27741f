"""The levels as seats: hands, discards, determinism (R7, R10, R13, R15, R26)."""

from __future__ import annotations

import pytest

from minefield.bots import LEVELS, make_bot
from minefield.bots.discards import DiscardSituation
from minefield.rules.game import ChooseHand, Discard, Game, IllegalCommand, Seat
from minefield.rules.hand import Hand, waits
from minefield.rules.prepared import choose_hands, game_from_tiles
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import Tile, counts_of, kind_from_str, parse_tiles
from tests.bots.conftest import ScriptedBot, is_sub_multiset, play

# East waits on 5s and 8s (riichi, tanyao, pinfu, sanshoku: mangan, R14); West holds both.
EAST_HAND = "234m234p234s67s55p"
EAST_POOL = "1z2z3z4z9m9m9p9p1m1m1p1p7z7z7z6z6z6z5z5z8m"
WEST_HAND = "567m678p111s999s3m"
WEST_POOL = "5s8s1z2z3z4z5m5m6m7m8m2m3p4p5p6p7p3s4s6s9s"


def _trap() -> Game:
    return game_from_tiles(EAST_HAND + EAST_POOL, WEST_HAND + WEST_POOL, dora="9p", ura="8p")


def _checked_game(seed: int, east: str, west: str) -> list[tuple[DiscardSituation, Discard]]:
    """Play a seeded game and return East's discard decisions with what it saw."""
    game = Game(seed)
    bots = {Seat.EAST: make_bot(east, seed), Seat.WEST: make_bot(west, seed + 1)}
    for seat in Seat:
        game.apply(seat, bots[seat].act(game.view(seat)))
    decisions = []
    while game.turn is not None:
        seat = game.turn
        view = game.view(seat)
        command = bots[seat].act(view)
        assert isinstance(command, Discard)
        if seat is Seat.EAST:
            decisions.append((DiscardSituation.from_view(view), command))
        game.apply(seat, command)
    return decisions


@pytest.mark.parametrize("level", LEVELS)
def test_hand_is_13_of_the_34_tiles_and_tenpai(level: str) -> None:
    """R7, R12: every level keeps 13 of its own tiles, tenpai when it can be."""
    for seed in range(3):
        view = Game(seed).view(Seat.WEST)
        command = make_bot(level, seed).act(view)
        assert isinstance(command, ChooseHand)
        hand = Hand.parse(command.tiles)
        assert is_sub_multiset(hand.counts, counts_of(parse_tiles(view.own_tiles)))
        assert waits(hand.counts)


@pytest.mark.parametrize("level", LEVELS)
def test_never_discards_an_own_wait_while_another_tile_is_left(level: str) -> None:
    """R15a: discarding an own wait is furiten; every level avoids it while it can."""
    for seed in range(3):
        for table, command in _checked_game(seed, level, "normal"):
            if table.seat_view.own_furiten is not None:
                continue
            kind = Tile.parse(command.tile).kind
            if any(t.kind not in table.own_waits for t in table.pool):
                assert kind not in table.own_waits


def test_normal_discards_genbutsu_first() -> None:
    """normal: a tile already discarded by either seat whenever it holds one (R15)."""
    checked = 0
    for seed in range(5):
        for table, command in _checked_game(seed, "normal", "easy"):
            allowed = [t for t in table.pool if t.kind not in table.own_waits]
            if any(t.kind in table.safe for t in allowed):
                assert Tile.parse(command.tile).kind in table.safe
                checked += 1
    assert checked >= 10


def test_strong_takes_a_zero_danger_tile_whenever_it_has_one() -> None:
    """strong: with a genbutsu in hand, its discard is one of the tiles of least danger (0)."""
    for seed in range(3):
        for table, command in _checked_game(seed, "strong", "normal"):
            allowed = [t for t in table.pool if t.kind not in table.own_waits]
            if any(t.kind in table.safe for t in allowed):
                assert table.dangers()[Tile.parse(command.tile).kind] == 0


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_does_not_deal_into_a_wait_while_it_holds_genbutsu(level: str) -> None:
    """East waits on 5s and 8s (eligible, R14) and discards 1z, 2z, 3z, 4z, which West also
    holds: West keeps 5s and 8s and passes the genbutsu instead (R13)."""
    game = choose_hands(_trap(), EAST_HAND, WEST_HAND)
    assert set(game.waits_of(Seat.EAST)) == {kind_from_str("5s"), kind_from_str("8s")}
    east = ScriptedBot(EAST_HAND, ["1z", "2z", "3z", "4z", "9m", "9m", "9p"])
    west = make_bot(level, seed=1)
    for _ in range(4):
        game.apply(Seat.EAST, east.act(game.view(Seat.EAST)))
        command = west.act(game.view(Seat.WEST))
        assert isinstance(command, Discard)
        assert Tile.parse(command.tile).kind in {kind_from_str(t) for t in ("1z", "2z", "3z", "4z")}
        game.apply(Seat.WEST, command)
    assert game.phase == "discarding"


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_game(level: str) -> None:
    """A bot depends only on its seed and its views: two runs give the same game."""
    runs = []
    for _ in range(2):
        game = play(Game(11), make_bot(level, 5), make_bot("normal", 6))
        runs.append(game.state_key())
    assert runs[0] == runs[1]


def test_asking_twice_gives_the_same_answer() -> None:
    """A decision does not depend on how often the bot was asked before."""
    game = Game(12)
    bot = make_bot("easy", 3)
    first = bot.act(game.view(Seat.EAST))
    assert bot.act(game.view(Seat.EAST)) == first
    for seat in Seat:
        game.apply(seat, make_bot("easy", 3).act(game.view(seat)))
    view = game.view(Seat.EAST)
    assert bot.act(view) == bot.act(view)


def test_levels_and_errors() -> None:
    """make_bot knows the three levels; an unknown one, or an ended game, is an error."""
    assert [make_bot(level).level for level in LEVELS] == list(LEVELS)
    with pytest.raises(ValueError, match="unknown bot level 'expert'"):
        make_bot("expert")
    game = play(Game(13), make_bot("easy", 1), make_bot("easy", 2))
    with pytest.raises(IllegalCommand):
        make_bot("strong").act(game.view(Seat.EAST))


@pytest.mark.parametrize("settings", [RuleSettings(red_fives=True),
                                      RuleSettings.preset("beginner")])
def test_plays_whole_games_under_other_rules(settings: RuleSettings) -> None:
    """Red fives (R1) and no minimum (R14): every level plays legal games to the end."""
    for seed, (east, west) in enumerate((("strong", "normal"), ("easy", "strong"))):
        game = play(Game(seed + 40, settings), make_bot(east, seed), make_bot(west, seed))
        assert game.phase == "ended"
