"""The game state machine: R2-R18, R26, R27."""

from __future__ import annotations

import re

import pytest

from minefield.errors import MinefieldError
from minefield.rules.commands import CommandError, InvalidCommand, parse_command, parse_seat
from minefield.rules.game import (
    BecameFuriten,
    ChooseHand,
    Discard,
    Discarded,
    Game,
    GameEnded,
    HandChosen,
    IllegalCommand,
    Seat,
)
from minefield.rules.prepared import game_with_hands
from minefield.rules.seed import SeedError, parse_seed, random_seed
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import parse_tiles, tiles_to_str
from minefield.rules.wall import Deal

EAST, WEST = Seat.EAST, Seat.WEST
# East waits on 1m-4m-7m: 4m and 7m are mangan with tanyao/pinfu/dora (2m indicator -> 3m).
EAST_HAND = "23m456m345p678s55s"
# West waits on 2z only, worth riichi + seat wind (West) = cheap unless ippatsu/dora help.
WEST_HAND = "123m456p789s3332z"
# R2: deals pinned forever (tile ids 0-135, kind = id // 4). Never change these numbers: every
# saved record would replay to another game.
PINNED_2026_EAST = (5, 115, 29, 12, 28, 101)
PINNED_2026_WEST = (120, 89, 3)
PINNED_2026_REST = (6, 46, 0)  # dora indicator id, ura indicator id, east player
PINNED_0_EAST = (11, 83, 62, 118, 123, 114)
PINNED_BIG_EAST = (49, 14, 32, 19, 122, 31)


def first_thirteen(game: Game, seat: Seat) -> str:
    return tiles_to_str(game.tiles_of(seat)[:13])


def start(seed: int = 1) -> Game:
    game = Game(seed)
    for seat in Seat:
        game.apply(seat, ChooseHand(tiles=first_thirteen(game, seat)))
    return game


# --- R2-R5: wall and deal ----------------------------------------------------------------------

def test_r2_same_seed_same_deal_and_different_seeds_differ() -> None:
    assert Deal.from_seed(42) == Deal.from_seed(42)
    assert Deal.from_seed(42).east_tiles != Deal.from_seed(43).east_tiles


def test_r2_deal_is_pinned_forever() -> None:
    # Records and replays depend on the shuffle never changing: it is SHAKE-256 of the seed,
    # fully specified, so these deals hold on every Python version.
    deal = Deal.from_seed(2026)
    assert deal.east_tiles[:6] == PINNED_2026_EAST
    assert deal.west_tiles[:3] == PINNED_2026_WEST
    assert (deal.dora_indicator_id, deal.ura_indicator_id, deal.east_player) == PINNED_2026_REST
    assert Deal.from_seed(0).east_tiles[:6] == PINNED_0_EAST
    big = Deal.from_seed("0123456789abcdef0123456789ABCDEF")
    assert big.seed == "0123456789abcdef0123456789abcdef"
    assert big.east_tiles[:6] == PINNED_BIG_EAST


def test_r2_seeds_are_32_hex_digits_and_small_numbers_map_to_them() -> None:
    assert Game(7).seed == "00000000000000000000000000000007" == parse_seed("7")
    assert Deal.from_seed(7) == Deal.from_seed("00000000000000000000000000000007")
    assert re.fullmatch(r"[0-9a-f]{32}", random_seed())
    for bad in ("-1", "12x", "²", "0x12", "", "1" * 40, 2**128):
        with pytest.raises(SeedError):
            parse_seed(bad)


def test_r2_neighbouring_seeds_share_nothing_visible() -> None:
    # A cryptographic stream: seeds one apart give unrelated deals (no shared prefix of tiles).
    first, second = Deal.from_seed(1000), Deal.from_seed(1001)
    same = sum(a == b for a, b in zip(first.east_tiles, second.east_tiles, strict=True))
    assert same <= 3


def test_r3_r5_deal_shape_and_tile_conservation() -> None:
    deal = Deal.from_seed(9)
    all_ids = deal.east_tiles + deal.west_tiles + deal.dead_wall
    assert len(deal.east_tiles) == len(deal.west_tiles) == 34 and len(deal.dead_wall) == 14
    assert len(set(all_ids)) == len(all_ids) and all(0 <= i < 136 for i in all_ids)
    assert deal.dora_indicator_id == deal.dead_wall[2]
    assert deal.ura_indicator_id == deal.dead_wall[9]


def test_r6_east_discards_first() -> None:
    game = start()
    assert game.turn is EAST
    west_pool = parse_tiles(game.view(WEST).own_pool)
    with pytest.raises(IllegalCommand, match="it is east's turn"):
        game.apply(WEST, Discard(tile=str(west_pool[0])))


# --- R7, R8: building the hand -----------------------------------------------------------------

def test_r7_any_thirteen_own_tiles_are_accepted_even_noten() -> None:
    game = start(3)
    assert game.phase == "discarding"


def test_r7_tiles_not_owned_are_refused_with_the_reason() -> None:
    game = Game(5)
    own = game.tiles_of(EAST)
    missing = next(t for t in parse_tiles("123456789m123456789p123456789s1234567z")
                   if t not in own)
    hand = tiles_to_str([*own[:12], missing])
    with pytest.raises(IllegalCommand, match=f"cannot keep {missing}"):
        game.apply(EAST, ChooseHand(tiles=hand))
    assert game.hand_of(EAST) is None


def test_r7_twelve_tiles_is_refused() -> None:
    game = Game(5)
    with pytest.raises(InvalidCommand, match="hand has 12 tiles, expected 13"):
        game.apply(EAST, parse_command(
            {"type": "choose_hand", "tiles": tiles_to_str(game.tiles_of(EAST)[:12])}))


def test_r8_hands_never_change() -> None:
    game = Game(5)
    game.apply(EAST, ChooseHand(tiles=first_thirteen(game, EAST)))
    with pytest.raises(IllegalCommand, match="already chosen"):
        game.apply(EAST, ChooseHand(tiles=tiles_to_str(game.tiles_of(EAST)[1:14])))


# --- R10, R11: discards and the draw -----------------------------------------------------------

def test_r10_r11_seventeen_discards_each_then_a_draw() -> None:
    game = game_with_hands(EAST_HAND, WEST_HAND, dora="2m")
    for number in range(1, 35):
        seat = game.turn
        assert seat is (EAST if number % 2 else WEST)
        pool = parse_tiles(game.view(seat).own_pool)
        game.apply(seat, Discard(tile=str(pool[-1])))
    assert game.phase == "ended" and game.result is not None
    assert game.result.result == "draw" and game.result.discard_number == 34
    assert all(len(parse_tiles(game.view(s).own_pool)) == 4 for s in Seat)


def test_r10_cannot_discard_a_hand_tile() -> None:
    game = game_with_hands(EAST_HAND, WEST_HAND)
    pool = game.view(EAST).own_pool
    hand_only = next(t for t in parse_tiles(EAST_HAND) if str(t) not in
                     [str(p) for p in parse_tiles(pool)])
    before = game.state_key()
    with pytest.raises(IllegalCommand, match="in their hand"):
        game.apply(EAST, Discard(tile=str(hand_only)))
    assert game.state_key() == before


# --- R13, R14, R18: ron ------------------------------------------------------------------------

def test_r13_eligible_wait_wins_at_once() -> None:
    game = game_with_hands(EAST_HAND, WEST_HAND, west_pool="4m", dora="2m")
    game.apply(EAST, Discard(tile=_pool_filler(game, EAST)))
    events = game.apply(WEST, Discard(tile="4m"))
    ended = events[EAST][-1]
    assert events[WEST][-1] == ended  # the end is public (R26)
    assert isinstance(ended, GameEnded) and ended.result == "ron" and ended.winner is EAST
    assert ended.win_tile == "4m" and ended.value is not None
    assert ended.value.points == 8000 and ended.value.eligible
    assert game.phase == "ended"


def test_r18_ura_is_revealed_and_added_after_a_win() -> None:
    # ura indicator 4m: dora 5m, one in East's hand
    game = game_with_hands(EAST_HAND, WEST_HAND, west_pool="7m", dora="2m", ura="4m")
    game.apply(EAST, Discard(tile=_pool_filler(game, EAST)))
    game.apply(WEST, Discard(tile="7m"))
    assert game.result is not None and game.result.value is not None
    assert game.result.ura_indicator == "4m"
    value = game.result.value
    assert value.ura == 1 and value.han == value.han_without_ura + 1


# --- R15: furiten ------------------------------------------------------------------------------

def test_r15a_discarding_an_own_wait_is_permanent_furiten() -> None:
    game = game_with_hands(EAST_HAND, WEST_HAND, east_pool="1m", west_pool="4m", dora="2m")
    events = game.apply(EAST, Discard(tile="1m"))
    furiten = [e for e in events[EAST] if isinstance(e, BecameFuriten)]
    assert not any(isinstance(e, BecameFuriten) for e in events[WEST])  # R26
    assert furiten and furiten[0].seat is EAST and furiten[0].cause.kind == "own_discard"
    # West's 4m would be mangan for East, but East is furiten: no ron.
    game.apply(WEST, Discard(tile="4m"))
    assert game.phase == "discarding"


def test_r15b_a_passed_cheap_wait_freezes_the_hand() -> None:
    # 1m gives only riichi + pinfu (+1 dora) = 3 han: below mangan, so it passes.
    game = game_with_hands(EAST_HAND, WEST_HAND, west_pool="1m4m", dora="2m")
    for _ in range(2):  # past West's first discard, so no ippatsu (R16) lifts it
        game.apply(EAST, Discard(tile=_pool_filler(game, EAST)))
        game.apply(WEST, Discard(tile=_pool_filler(game, WEST)))
    game.apply(EAST, Discard(tile=_pool_filler(game, EAST)))
    events = game.apply(WEST, Discard(tile="1m"))
    furiten = [e for e in events[EAST] if isinstance(e, BecameFuriten)]
    # The discarder never learns that its tile was a wait (R26): West sees only the discard.
    assert [type(e) for e in events[WEST]] == [Discarded]
    assert furiten and furiten[0].seat is EAST and furiten[0].cause.kind == "passed_wait"
    assert "below mangan" in furiten[0].cause.detail
    game.apply(EAST, Discard(tile=_pool_filler(game, EAST)))
    game.apply(WEST, Discard(tile="4m"))  # now a mangan wait, but East is furiten
    assert game.phase == "discarding"
    assert game.view(EAST).own_furiten is not None


def test_r15_furiten_event_is_private() -> None:
    game = game_with_hands(EAST_HAND, WEST_HAND, east_pool="1m", dora="2m")
    game.apply(EAST, Discard(tile="1m"))
    assert any(isinstance(e, BecameFuriten) for e in game.events_for(EAST))
    assert not any(isinstance(e, BecameFuriten) for e in game.events_for(WEST))
    assert game.view(WEST).own_furiten is None


# --- R16, R17: ippatsu and houtei --------------------------------------------------------------

def test_r16_west_gets_ippatsu_on_the_first_discard_of_the_game() -> None:
    # West: riichi + ippatsu + seat wind (333z) + dora 2z x2 (indicator 1z) = 5 han
    game = game_with_hands(EAST_HAND, WEST_HAND, east_pool="2z", dora="1z")
    game.apply(EAST, Discard(tile="2z"))
    assert game.result is not None and game.result.winner is WEST
    assert game.result.value is not None
    assert "ippatsu" in [y.name for y in game.result.value.yaku]


def test_r16_east_gets_ippatsu_only_on_wests_first_discard() -> None:
    game = game_with_hands(EAST_HAND, WEST_HAND, west_pool="4m", dora="2m")
    game.apply(EAST, Discard(tile=_pool_filler(game, EAST)))
    game.apply(WEST, Discard(tile="4m"))
    assert game.result is not None and game.result.value is not None
    assert "ippatsu" in [y.name for y in game.result.value.yaku]

    later = game_with_hands(EAST_HAND, WEST_HAND, west_pool="4m", dora="2m")
    for _ in range(2):
        later.apply(EAST, Discard(tile=_pool_filler(later, EAST)))
        later.apply(WEST, Discard(tile=_pool_filler(later, WEST)))
    later.apply(EAST, Discard(tile=_pool_filler(later, EAST)))
    later.apply(WEST, Discard(tile="4m"))
    assert later.result is not None and later.result.value is not None
    assert "ippatsu" not in [y.name for y in later.result.value.yaku]


def test_r17_houtei_on_the_last_discard() -> None:
    # 1m alone is 3 han (riichi, pinfu, dora): houtei makes it 4 han 30 fu, a kiriage mangan.
    game = game_with_hands(EAST_HAND, WEST_HAND, west_pool="1m", dora="2m")
    for _ in range(16):
        game.apply(EAST, Discard(tile=_pool_filler(game, EAST)))
        game.apply(WEST, Discard(tile=_pool_filler(game, WEST)))
    game.apply(EAST, Discard(tile=_pool_filler(game, EAST)))
    game.apply(WEST, Discard(tile="1m"))
    assert game.result is not None and game.result.result == "ron"
    assert game.result.discard_number == 34 and game.result.value is not None
    assert "houtei" in [y.name for y in game.result.value.yaku]


# --- R26, R27: views ---------------------------------------------------------------------------

def test_r26_a_view_shows_nothing_of_the_other_hand_or_pool() -> None:
    game = game_with_hands(EAST_HAND, WEST_HAND)
    view = game.view(EAST)
    dumped = view.model_dump_json()
    assert WEST_HAND not in dumped and str(game.hand_of(WEST)) not in dumped
    assert view.own_hand == str(game.hand_of(EAST))
    west_hand_event = next(e for e in game.events_for(EAST)
                           if isinstance(e, HandChosen) and e.seat is WEST)
    assert isinstance(west_hand_event, HandChosen) and west_hand_event.hand is None


def test_r26_everything_is_shown_at_the_end() -> None:
    game = game_with_hands(EAST_HAND, WEST_HAND, west_pool="4m", dora="2m")
    game.apply(EAST, Discard(tile=_pool_filler(game, EAST)))
    game.apply(WEST, Discard(tile="4m"))
    end = game.view(EAST).end
    assert end is not None
    assert end.hands[WEST] == str(game.hand_of(WEST))
    assert len(parse_tiles(end.pools[WEST])) == 21 and end.ura_indicator


def test_r27_own_furiten_is_shown_with_its_cause() -> None:
    game = game_with_hands(EAST_HAND, WEST_HAND, east_pool="7m", dora="2m")
    game.apply(EAST, Discard(tile="7m"))
    cause = game.view(EAST).own_furiten
    assert cause is not None and cause.tile == "7m" and cause.discard_number == 1


def test_reprs_hide_tiles() -> None:
    game = game_with_hands(EAST_HAND, WEST_HAND)
    hand_event = next(e for e in game.events_for(EAST) if isinstance(e, HandChosen))
    for text in (repr(game), repr(game.view(EAST)), repr(ChooseHand(tiles=EAST_HAND)),
                 repr(hand_event), repr(game.hand_of(EAST)), repr(game.deal)):
        assert not re.search(r"[0-9][mpsz]", text), text


# --- commands and replay -----------------------------------------------------------------------

def test_commands_from_json_and_malformed_json() -> None:
    """Strings and dicts are parsed at the edge: a malformed one is an InvalidCommand there,
    and the game refuses anything that is not a typed command or seat, unchanged (R7)."""
    game = Game(7)
    with pytest.raises(InvalidCommand, match="Invalid JSON"):
        parse_command("{not json")
    with pytest.raises(InvalidCommand, match="expected tags"):
        parse_command({"type": "shout"})
    with pytest.raises(InvalidCommand, match="'north' is not a seat"):
        parse_seat("north")
    with pytest.raises(InvalidCommand, match="dict is not a command"):
        game.apply(EAST, {"type": "choose_hand",  # type: ignore[arg-type]
                          "tiles": first_thirteen(game, EAST)})
    with pytest.raises(InvalidCommand, match="'east' is not a seat"):
        game.apply("east", ChooseHand(tiles=first_thirteen(game, EAST)))  # type: ignore[arg-type]
    assert game.commands == [] and game.hand_of(EAST) is None
    chosen = parse_command(f'{{"type": "choose_hand", "tiles": "{first_thirteen(game, EAST)}"}}')
    game.apply(parse_seat("east"), chosen)
    assert game.hand_of(EAST) is not None


def test_malformed_and_illegal_are_told_apart_and_both_are_command_errors() -> None:
    """A well-formed command the rules refuse now (R10: West does not discard first) is an
    IllegalCommand, not an InvalidCommand; both are CommandError, and MinefieldError."""
    game = start(3)
    with pytest.raises(IllegalCommand) as refused:
        game.apply(WEST, Discard(tile=str(parse_tiles(game.view(WEST).own_pool)[0])))
    assert not isinstance(refused.value, InvalidCommand)
    assert isinstance(refused.value, CommandError) and isinstance(refused.value, MinefieldError)
    assert not issubclass(InvalidCommand, IllegalCommand)
    assert issubclass(InvalidCommand, CommandError)


def test_legal_discards_are_the_pool_on_the_seats_turn_only() -> None:
    """R10: the seat whose turn it is discards one tile of its pool; the other seat, and
    anyone before both hands are chosen or after the end, discards nothing."""
    assert Game(5).legal_discards(EAST) == []
    game = start(11)
    pool = sorted(set(parse_tiles(game.view(EAST).own_pool)))
    assert game.legal_discards(EAST) == pool and game.legal_discards(WEST) == []
    for tile in game.legal_discards(EAST):  # each is accepted (on a copy of the game)
        again = Game.replay(11, RuleSettings(), game.commands)
        again.apply(EAST, Discard(tile=str(tile)))
    game.apply(EAST, Discard(tile=str(pool[0])))
    assert game.legal_discards(EAST) == [] and game.legal_discards(WEST) != []


def test_replay_rebuilds_the_same_state() -> None:
    game = start(11)
    for _ in range(5):
        seat = game.turn
        assert seat is not None
        game.apply(seat, Discard(tile=str(parse_tiles(game.view(seat).own_pool)[0])))
    again = Game.replay(11, RuleSettings(), game.commands)
    assert again.state_key() == game.state_key()
    discarded = [e for e in again.events_for(EAST) if isinstance(e, Discarded)]
    assert len(discarded) == game.discard_count


def _pool_filler(game: Game, seat: Seat) -> str:
    """A pool tile that is a wait of neither hand (safe to discard in these tests)."""
    danger = set(game.waits_of(EAST)) | set(game.waits_of(WEST))
    pool = parse_tiles(game.view(seat).own_pool)
    return str(next(t for t in reversed(pool) if t.kind not in danger))
