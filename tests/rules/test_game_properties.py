"""Property tests of the game (hypothesis): conservation, privacy, termination, replay,
and illegal commands changing nothing (R5, R8, R10, R11, R13, R26)."""

from __future__ import annotations

import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minefield.rules.game import ChooseHand, Discard, Game, IllegalCommand, Seat
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import NUM_KINDS, Tile, parse_tiles, tiles_to_str
from minefield.rules.wall import Deal

RULES = [RuleSettings(), RuleSettings.preset("beginner"), RuleSettings(red_fives=True)]


def random_tenpai(rng: random.Random, used: list[int]) -> list[Tile]:
    """Four random groups and a pair, minus one random tile: a tenpai 13-tile hand."""
    while True:
        trial = list(used)
        tiles: list[int] = []
        ok = True
        for _ in range(4):
            if rng.random() < 0.5:
                kind = rng.randrange(NUM_KINDS)
                group = [kind] * 3
            else:
                start = rng.choice([s for s in range(27) if s % 9 <= 6])
                group = [start, start + 1, start + 2]
            for k in group:
                trial[k] += 1
            tiles.extend(group)
        pair = rng.randrange(NUM_KINDS)
        trial[pair] += 2
        tiles.extend([pair, pair])
        if any(c > 4 for c in trial):
            ok = False
        if ok:
            tiles.remove(rng.choice(tiles))
            for k in tiles:
                used[k] += 1
            return [Tile(k) for k in tiles]


def tenpai_deal(seed: int) -> tuple[Deal, dict[Seat, list[Tile]]]:
    """A deal where both players can keep a tenpai hand (returned too), so rons happen."""
    rng = random.Random(seed)
    used = [0] * NUM_KINDS
    hands = [random_tenpai(rng, used), random_tenpai(rng, used)]
    rest = [Tile(k) for k in range(NUM_KINDS) for _ in range(4 - used[k])]
    rng.shuffle(rest)
    east = hands[0] + rest[:21]
    west = hands[1] + rest[21:42]
    return (Deal.from_tiles(east, west, rest[42], rest[43]),
            {Seat.EAST: hands[0], Seat.WEST: hands[1]})


def play(game: Game, rng: random.Random, hands: dict[Seat, list[Tile]] | None = None) -> None:
    """Play a game to its end with random legal commands (keeping ``hands`` when given),
    checking invariants on the way."""
    for seat in (Seat.WEST, Seat.EAST) if rng.random() < 0.5 else (Seat.EAST, Seat.WEST):
        keep = hands[seat] if hands else rng.sample(game.tiles_of(seat), 13)
        game.apply(seat, ChooseHand(tiles=tiles_to_str(keep)))
        check_privacy(game)
    while game.phase == "discarding":
        turn = game.turn
        assert turn is not None
        check_illegal_changes_nothing(game, rng)
        pool = parse_tiles(game.view(turn).own_pool)
        seen = {viewer: len(game.events_for(viewer)) for viewer in Seat}
        applied = game.apply(turn, Discard(tile=str(rng.choice(pool))))
        for viewer in Seat:  # apply() hands each seat exactly its own redacted events
            assert applied[viewer] == game.events_for(viewer)[seen[viewer]:]
        check_conservation(game)
        check_privacy(game)
        assert game.discard_count <= 34


def check_conservation(game: Game) -> None:
    for seat in Seat:
        view = game.view(seat)
        held = parse_tiles((view.own_hand or "") + view.own_pool) + [
            Tile.parse(t) for t in view.discards[seat]]
        assert sorted(held) == sorted(game.tiles_of(seat))
        assert len(held) == 34


def check_privacy(game: Game) -> None:
    if game.phase == "ended":
        return
    for seat in Seat:
        other_hand = game.hand_of(seat.other)
        dumped = game.view(seat).model_dump_json()
        if other_hand is not None:
            assert str(other_hand) not in dumped
        other_tiles = tiles_to_str(game.tiles_of(seat.other))
        assert other_tiles not in dumped
        for event in game.events_for(seat):
            text = event.model_dump_json()
            if other_hand is not None:
                assert str(other_hand) not in text


def check_illegal_changes_nothing(game: Game, rng: random.Random) -> None:
    before = game.state_key()
    seat = game.turn
    assert seat is not None
    hand = game.hand_of(seat)
    assert hand is not None
    attempts: list[tuple[Seat, object]] = [
        (seat.other, Discard(tile=str(parse_tiles(game.view(seat.other).own_pool)[0]))),
        (seat, Discard(tile=str(rng.choice(hand.tiles)))
         if not set(hand.tiles) & set(parse_tiles(game.view(seat).own_pool)) else
         {"type": "discard", "tile": "8z"}),
        (seat, ChooseHand(tiles=str(hand))),
        (seat, {"type": "discard"}),
        (seat, "garbage"),
    ]
    for who, command in attempts:
        try:
            game.apply(who, command)  # type: ignore[arg-type]  # malformed, on purpose
        except IllegalCommand as error:
            assert str(error)
        else:  # pragma: no cover - a failure message
            raise AssertionError(f"illegal command accepted: {command!r}")
        assert game.state_key() == before


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40), rules=st.sampled_from(RULES), data=st.data())
def test_random_seeded_games_end_properly_and_replay(seed: int, rules: RuleSettings,
                                                     data: st.DataObject) -> None:
    rng = random.Random(data.draw(st.integers(0, 2**32), label="moves"))
    game = Game(seed, rules)
    play(game, rng)
    assert game.phase == "ended" and game.result is not None
    assert game.result.result in ("ron", "draw")
    assert game.result.result == "ron" or game.discard_count == 34
    again = Game.replay(seed, rules, game.commands)
    assert again.state_key() == game.state_key()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal_seed=st.integers(0, 2**32), beginner=st.booleans(), moves=st.integers(0, 2**32))
def test_tenpai_games_win_or_draw_and_replay(deal_seed: int, beginner: bool, moves: int) -> None:
    rules = RuleSettings.preset("beginner") if beginner else RuleSettings()
    deal, hands = tenpai_deal(deal_seed)
    game = Game(0, rules, deal=deal)
    play(game, random.Random(moves), hands)
    assert game.result is not None
    if game.result.result == "ron":
        value = game.result.value
        assert value is not None and value.eligible
        assert value.points >= (8000 if not beginner else 1000)
        winner = game.result.winner
        assert winner is not None and game.furiten_of(winner) is None
    again = Game(0, rules, deal=deal)
    for seat, command in game.commands:
        again.apply(seat, command)
    assert again.state_key() == game.state_key()
    assert not re.search(r"[0-9][mpsz]", repr(game))
