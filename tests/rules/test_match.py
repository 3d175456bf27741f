"""The match engine: R23 (dealer values), R30-R35, and the club's decisions for matches."""

from __future__ import annotations

import pytest

from minefield.rules.game import (
    ChooseHand,
    Discard,
    Game,
    GameEnded,
    GameStarted,
    GameTerms,
    Seat,
)
from minefield.rules.match import Match, MatchError, Settlement, match_id
from minefield.rules.prepared import deal_from_tiles, safe_pools
from minefield.rules.seed import derive_seed
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import Tile, parse_tiles, tiles_to_str

EAST, WEST = Seat.EAST, Seat.WEST
SEED = "0123456789abcdef0123456789abcdef"
# Waits on 1m-4m-7m; a ron on 4m with the 2m indicator (dora 3m) is riichi, tanyao, pinfu and
# one dora: 4 han 30 fu, mangan by kiriage (8000; 12000 for a dealer with dealer_bonus).
MANGAN = "23m456m345p678s55s"
# Waits on 2z only: riichi and one dora (3m) for East, 2 han 40 fu: below mangan.
CHEAP = "123m456p789s3332z"
NOTEN = "147m258p369s1234z"  # no wait (R12)
# Waits on 1s-4s; with the 9m indicator (dora 1m x3) a ron on 4s is riichi and three dora,
# 4 han 40 fu: mangan, but only one han from yaku (R34).
RIICHI_DORA = "111m345p678s2399s"
# Waits on 1s-4s; with the 3m indicator (dora 4m x3) a ron on 4s is riichi, tanyao and three
# dora: mangan with two han from yaku (R34).
TANYAO_DORA = "444m456p678s5523s"


def prepared(match: Match, east: str, west: str, east_pool: str = "", west_pool: str = "",
             dora: str = "2m", ura: str = "9p") -> Game:
    """The match's next game with the given hands, chosen; the pools are filled with tiles
    that are waits of neither hand."""
    east_full, west_full = safe_pools(east, west, east_pool, west_pool, dora, ura)
    game = match.new_game(deal=deal_from_tiles(east + east_full, west + west_full, dora, ura))
    game.apply(EAST, ChooseHand(tiles=tiles_to_str(parse_tiles(east))))
    game.apply(WEST, ChooseHand(tiles=tiles_to_str(parse_tiles(west))))
    return game


def filler(game: Game, seat: Seat, avoid: Tile | None = None) -> Discard:
    """The highest pool tile of ``seat`` that is not ``avoid`` (a filler of safe_pools)."""
    pool = [t for t in parse_tiles(game.view(seat).own_pool) if avoid is None or t != avoid]
    return Discard(tile=str(pool[-1]))


def play_draw(game: Game) -> GameEnded:
    """34 filler discards: an exhaustive draw (R11)."""
    while game.result is None:
        assert game.turn is not None
        game.apply(game.turn, filler(game, game.turn))
    return game.result


def play_ron(game: Game, loser: Seat, tile: str) -> GameEnded:
    """Fillers until the loser's second discard, which is ``tile`` (no ippatsu, R16)."""
    target = Tile.parse(tile)
    discards_by_loser = 0
    while game.result is None:
        seat = game.turn
        assert seat is not None
        if seat is loser:
            discards_by_loser += 1
            if discards_by_loser == 2:
                game.apply(seat, Discard(tile=tile))
                continue
        game.apply(seat, filler(game, seat, avoid=target))
    return game.result


def dealer_win(match: Match) -> Settlement:
    """East wins a mangan from West."""
    game = prepared(match, MANGAN, CHEAP, west_pool="4m")
    return match.settle(play_ron(game, WEST, "4m"))


def west_win(match: Match) -> Settlement:
    """West wins a mangan from East."""
    game = prepared(match, CHEAP, MANGAN, east_pool="4m")
    return match.settle(play_ron(game, EAST, "4m"))


def draw(match: Match, east: str, west: str) -> Settlement:
    return match.settle(play_draw(prepared(match, east, west)))


def new_match(**settings: object) -> Match:
    return Match(SEED, ("ann", "bob"), RuleSettings.preset("match", **settings))


# --- R30: length, start, first dealer, early end ---------------------------------------------

def test_r30_players_start_with_start_points_and_the_first_dealer_is_east() -> None:
    match = new_match(start_points=30000)
    assert match.scores == {"ann": 30000, "bob": 30000}
    assert match.seat_of(match.dealer) is EAST and match.seat_of(match.seats[WEST]) is WEST
    with pytest.raises(ValueError, match="does not play"):
        match.seat_of("cid")
    assert match.dealer == match.seats[EAST] and {match.seats[EAST], match.seats[WEST]} == {
        "ann", "bob"}
    assert (match.game_number, match.hand_number, match.honba, match.over) == (1, 1, 0, False)


def test_r30_first_dealer_is_drawn_from_the_seed_deterministically() -> None:
    dealers = {seed: Match(seed, ("ann", "bob")).dealer for seed in range(40)}
    assert dealers == {seed: Match(seed, ("ann", "bob")).dealer for seed in range(40)}
    assert set(dealers.values()) == {"ann", "bob"}  # both outcomes happen


def test_r30_player_names_must_be_distinct() -> None:
    with pytest.raises(ValueError, match="distinct names"):
        Match(SEED, ("ann", "ann"))
    with pytest.raises(ValueError, match="two player names"):
        Match(SEED, ("ann",))


def test_r30_match_is_hands_dealerships_then_over() -> None:
    match = new_match(hands=2)
    first = match.dealer
    west_win(match)  # the deal passes: hand 2
    assert (match.hand_number, match.game_number, match.over) == (2, 2, False)
    assert match.dealer != first
    last = west_win(match)
    assert last.match_over and match.over
    assert last.lines[-1] == "Match over after 2 hands (R30)"  # "1 hand" for one
    assert not any("deal passes" in line or "sticks" in line for line in last.lines)
    with pytest.raises(MatchError, match="the match is over"):
        match.new_game()


def test_r30_below_zero_ends_the_match_early() -> None:
    match = new_match(start_points=7000)
    loser = match.seats[EAST]
    settlement = west_win(match)
    assert match.scores[loser] == -1000 and settlement.match_over and match.over
    assert "below zero (R30)" in settlement.lines[-1]


def test_r30_r31_the_last_game_says_the_match_is_over_not_who_deals_next() -> None:
    """East wins twice (R31: they stay dealer, a counter stick each time), the second time
    putting West below zero: the match ends there, and its last lines say what was paid and
    that it is over, never "stays dealer: 2 counter sticks on the table"."""
    match = new_match(start_points=13000)
    assert "stays dealer: 1 counter stick" in dealer_win(match).lines[-1]
    last = dealer_win(match)
    assert last.match_over and match.over
    assert last.lines[-1].startswith("Match over: ") and last.lines[-1].endswith(
        "below zero (R30)")
    assert not any("stays dealer" in line for line in last.lines), last.lines


def test_r30_exactly_zero_continues() -> None:
    match = new_match(start_points=8000)
    loser = match.seats[EAST]
    settlement = west_win(match)
    assert match.scores[loser] == 0 and not settlement.match_over and not match.over
    match.new_game()


# --- R23: dealer values ------------------------------------------------------------------------

def test_r23_dealer_bonus_pays_east_12000_for_a_mangan_and_west_8000() -> None:
    match = new_match()
    east_player = match.dealer
    settlement = dealer_win(match)
    assert settlement.payments == {EAST: 12000, WEST: -12000}
    assert settlement.lines[0] == f"West ({match.seats[WEST]}) pays East ({east_player}) 12000"
    match = new_match()
    settlement = west_win(match)
    assert settlement.payments == {EAST: -8000, WEST: 8000}


def test_r23_without_dealer_bonus_east_is_paid_as_a_non_dealer() -> None:
    match = Match(SEED, ("ann", "bob"), RuleSettings())
    assert dealer_win(match).payments == {EAST: 8000, WEST: -8000}


def test_r23_a_single_game_has_no_terms() -> None:
    game = Game(1, RuleSettings.preset("match"))
    assert game.terms == GameTerms() and game.view(EAST).terms == GameTerms()


def test_r23_r34_a_match_game_shows_its_terms_to_both_seats() -> None:
    match = new_match(ryanshi=True)
    four_repeats(match)
    game = match.new_game()
    terms = GameTerms(dealer_bonus=True, ryanshi=True)
    assert game.terms == terms and all(game.view(seat).terms == terms for seat in Seat)
    started = game.events_for(WEST)[0]
    assert isinstance(started, GameStarted) and started.terms == terms
    again = Game.replay(game.seed, game.settings, [], terms=terms)
    assert again.state_key() == game.state_key()


# --- R31: renchan and counter sticks -----------------------------------------------------------

def test_r31_dealer_win_repeats_and_adds_a_stick() -> None:
    match = new_match()
    dealer = match.dealer
    settlement = dealer_win(match)
    assert settlement.renchan and match.dealer == dealer
    assert (match.honba, match.dealer_streak, match.inherited) == (1, 1, 0)
    assert (match.game_number, match.hand_number) == (2, 1)  # a repeat is not a new hand
    assert settlement.lines[-1] == f"East ({dealer}) stays dealer: 1 counter stick on the " \
                                   "table (R31)"


def test_r31_dealer_tenpai_draw_repeats() -> None:
    match = new_match()
    dealer = match.dealer
    settlement = draw(match, MANGAN, NOTEN)
    assert settlement.renchan and match.dealer == dealer
    assert (match.honba, match.dealer_streak) == (1, 1)


def test_r31_non_dealer_win_passes_the_deal_and_clears_the_sticks() -> None:
    match = new_match()
    dealer = match.dealer
    dealer_win(match)
    draw(match, MANGAN, MANGAN)
    assert match.honba == 2
    settlement = west_win(match)
    assert not settlement.renchan and match.dealer != dealer and match.seats[WEST] == dealer
    assert (match.honba, match.inherited, match.dealer_streak, match.hand_number) == (0, 0, 0, 2)
    assert "counter sticks cleared" in settlement.lines[-1]


def test_r31_noten_draw_passes_the_deal_with_inherited_sticks() -> None:
    match = new_match()
    dealer = match.dealer
    dealer_win(match)
    draw(match, MANGAN, NOTEN)
    settlement = draw(match, NOTEN, MANGAN)
    assert not settlement.renchan and match.dealer != dealer
    assert (match.honba, match.inherited, match.dealer_streak, match.hand_number) == (2, 2, 0, 2)
    assert "2 counter sticks inherited" in settlement.lines[-1]
    repeat = draw(match, MANGAN, NOTEN)  # the new dealer repeats: a stick on top
    assert repeat.renchan and (match.honba, match.inherited, match.dealer_streak) == (3, 2, 1)


# --- R32: counter sticks are paid by the loser -------------------------------------------------

@pytest.mark.parametrize(("honba_points", "total"), [(1000, 8000 + 2000), (300, 8000 + 600)])
def test_r32_loser_pays_the_sticks_on_top(honba_points: int, total: int) -> None:
    match = new_match(honba_points=honba_points)
    dealer, other = match.seats[EAST], match.seats[WEST]
    draw(match, MANGAN, NOTEN)  # West pays 1000 noten (R33)
    draw(match, MANGAN, MANGAN)
    assert match.honba == 2
    settlement = west_win(match)
    assert settlement.payments == {EAST: -total, WEST: total}
    assert settlement.lines[0].endswith(
        f"8000 + 2 counter sticks x {honba_points} = {total} (R32)")
    assert match.scores == {dealer: 25000 + 1000 - total, other: 25000 - 1000 + total}


# --- R33: draw payments ------------------------------------------------------------------------

def test_r33_noten_dealer_pays_the_tenpai_non_dealer() -> None:
    match = new_match()
    east, west = match.seats[EAST], match.seats[WEST]
    settlement = draw(match, NOTEN, MANGAN)
    assert settlement.payments == {EAST: -1000, WEST: 1000}
    assert settlement.lines[0] == (f"Draw: West tenpai, East noten: East ({east}) pays "
                                   f"West ({west}) 1000 (R33)")
    assert match.scores == {east: 24000, west: 26000}


def test_r33_noten_non_dealer_pays_the_tenpai_dealer() -> None:
    match = new_match(noten_payment=3000)
    settlement = draw(match, MANGAN, NOTEN)
    assert settlement.payments == {EAST: 3000, WEST: -3000}


@pytest.mark.parametrize(("east", "west", "words"), [
    (MANGAN, MANGAN, "both tenpai"), (NOTEN, NOTEN, "both noten")])
def test_r33_both_tenpai_or_both_noten_nobody_pays(east: str, west: str, words: str) -> None:
    match = new_match()
    settlement = draw(match, east, west)
    assert settlement.payments == {EAST: 0, WEST: 0}
    assert settlement.lines[0] == f"Draw: {words}, nobody pays (R33)"
    assert match.scores == {"ann": 25000, "bob": 25000}


def test_r33_furiten_tenpai_still_counts_as_tenpai() -> None:
    # East discards its own wait (R15a): furiten, but the hand still has waits (R12).
    match = new_match()
    game = prepared(match, MANGAN, NOTEN, east_pool="7m")
    game.apply(EAST, Discard(tile="7m"))
    assert game.furiten_of(EAST) is not None
    settlement = match.settle(play_draw(game))
    assert settlement.payments == {EAST: 1000, WEST: -1000} and settlement.renchan


# --- R34: ryanshi ------------------------------------------------------------------------------

def four_repeats(match: Match) -> None:
    for _ in range(4):
        draw(match, MANGAN, NOTEN)
    assert match.honba == 4


def test_r34_ryanshi_binds_from_four_sticks_only_when_set() -> None:
    match = new_match(ryanshi=True)
    for _ in range(3):
        draw(match, MANGAN, NOTEN)
    assert not match.terms.ryanshi
    draw(match, MANGAN, NOTEN)
    assert match.terms.ryanshi and match.new_game().terms.ryanshi
    plain = new_match()
    four_repeats(plain)
    assert not plain.terms.ryanshi


def test_r34_riichi_and_dora_alone_do_not_win_and_the_receiver_is_furiten() -> None:
    match = new_match(ryanshi=True)
    four_repeats(match)
    game = prepared(match, MANGAN, RIICHI_DORA, east_pool="4s", dora="9m")
    ended = play_ron(game, EAST, "4s")  # refused: West is furiten and the game is drawn
    assert ended.result == "draw"
    cause = ended.furiten[WEST]
    assert cause is not None and cause.kind == "passed_wait" and cause.tile == "4s"
    assert "only 1 han from yaku" in cause.detail and "R34" in cause.detail


def test_r34_riichi_and_dora_win_without_ryanshi() -> None:
    match = new_match()
    four_repeats(match)
    game = prepared(match, MANGAN, RIICHI_DORA, east_pool="4s", dora="9m")
    ended = play_ron(game, EAST, "4s")
    assert ended.result == "ron" and ended.winner is WEST


def test_r34_riichi_and_one_yaku_han_wins_under_ryanshi() -> None:
    match = new_match(ryanshi=True)
    four_repeats(match)
    game = prepared(match, MANGAN, TANYAO_DORA, east_pool="4s", dora="3m")
    ended = play_ron(game, EAST, "4s")
    assert ended.result == "ron" and ended.winner is WEST and ended.value is not None
    assert [y.name for y in ended.value.yaku] == ["riichi", "tanyao"]
    settlement = match.settle(ended)
    assert settlement.payments[WEST] == 8000 + 4 * 1000


def test_r34_game_terms_alone_refuse_a_one_yaku_han_win() -> None:
    east_pool, west_pool = safe_pools(MANGAN, RIICHI_DORA, "4s", "", "9m", "3z")
    deal = deal_from_tiles(MANGAN + east_pool, RIICHI_DORA + west_pool, "9m", "3z")
    for ryanshi, result in ((False, "ron"), (True, "draw")):
        game = Game(0, deal=deal, terms=GameTerms(ryanshi=ryanshi))
        game.apply(EAST, ChooseHand(tiles=MANGAN))
        game.apply(WEST, ChooseHand(tiles=tiles_to_str(parse_tiles(RIICHI_DORA))))
        assert play_ron(game, EAST, "4s").result == result


def test_r34_ryanshi_binds_under_minimum_none_too() -> None:
    # With the beginner minimum a riichi-only wait wins, but not with ryanshi binding.
    rules = RuleSettings.preset("beginner")
    east_pool, west_pool = safe_pools(MANGAN, CHEAP, "2z", "", "2m", "9p")
    deal = deal_from_tiles(MANGAN + east_pool, CHEAP + west_pool, "2m", "9p")
    for ryanshi, result in ((False, "ron"), (True, "ron")):
        game = Game(0, rules, deal=deal, terms=GameTerms(ryanshi=ryanshi))
        game.apply(EAST, ChooseHand(tiles=MANGAN))
        game.apply(WEST, ChooseHand(tiles=tiles_to_str(parse_tiles(CHEAP))))
        assert play_ron(game, EAST, "2z").result == result  # West: riichi + seat wind, 2 han
    east_pool, west_pool = safe_pools(CHEAP, MANGAN, "", "2z", "2m", "9p")
    deal = deal_from_tiles(CHEAP + east_pool, MANGAN + west_pool, "2m", "9p")
    for ryanshi, result in ((False, "ron"), (True, "draw")):
        game = Game(0, rules, deal=deal, terms=GameTerms(ryanshi=ryanshi))
        game.apply(EAST, ChooseHand(tiles=tiles_to_str(parse_tiles(CHEAP))))
        game.apply(WEST, ChooseHand(tiles=MANGAN))
        assert play_ron(game, WEST, "2z").result == result  # East: riichi (+ dora) only


# --- R35: paarenchan ---------------------------------------------------------------------------

def eight_repeats(match: Match) -> None:
    for _ in range(8):
        draw(match, MANGAN, NOTEN)
    assert match.dealer_streak == 8


def cheap_dealer_ron(match: Match) -> GameEnded:
    """East waits on 2z with riichi and a dora, below mangan; West discards 2z."""
    game = prepared(match, CHEAP, NOTEN, west_pool="2z")
    return play_ron(game, WEST, "2z")


def test_r35_eight_repeats_make_the_dealers_next_ron_a_yakuman() -> None:
    match = new_match(paarenchan=True, ryanshi=True)
    dealer = match.dealer
    eight_repeats(match)
    assert match.paarenchan and match.terms == GameTerms(dealer_bonus=True, ryanshi=True,
                                                         paarenchan=True)
    ended = cheap_dealer_ron(match)
    assert ended.result == "ron" and ended.winner is EAST and ended.value is not None
    assert [(y.name, y.han) for y in ended.value.yaku] == [("paarenchan", 13)]
    assert ended.value.points == 48000 and ended.value.limit == "yakuman"
    settlement = match.settle(ended)
    assert settlement.paarenchan and settlement.renchan
    assert settlement.payments[EAST] == 48000 + 8 * 1000
    assert match.dealer == dealer and match.dealer_streak == 9


def test_r35_the_paarenchan_dealer_is_not_bound_by_ryanshi() -> None:
    east_pool, west_pool = safe_pools(RIICHI_DORA, MANGAN, "", "4s", "9m", "9p")
    deal = deal_from_tiles(RIICHI_DORA + east_pool, MANGAN + west_pool, "9m", "9p")
    game = Game(0, deal=deal, terms=GameTerms(ryanshi=True, paarenchan=True))
    game.apply(EAST, ChooseHand(tiles=tiles_to_str(parse_tiles(RIICHI_DORA))))
    game.apply(WEST, ChooseHand(tiles=MANGAN))
    ended = play_ron(game, WEST, "4s")
    assert ended.winner is EAST and ended.value is not None and ended.value.points == 32000


def test_r35_without_dealer_bonus_paarenchan_is_a_non_dealer_yakuman() -> None:
    match = Match(SEED, ("ann", "bob"), RuleSettings(paarenchan=True))
    eight_repeats(match)
    ended = cheap_dealer_ron(match)
    assert ended.value is not None and ended.value.points == 32000


def test_r35_only_the_next_win_the_dealers_wins_are_ordinary_after() -> None:
    match = new_match(paarenchan=True, start_points=100000)
    eight_repeats(match)
    match.settle(cheap_dealer_ron(match))
    assert not match.paarenchan and not match.terms.paarenchan
    ended = cheap_dealer_ron(match)  # the same cheap wait is now below mangan: furiten
    cause = ended.furiten[EAST]
    assert ended.result == "draw" and cause is not None and "below mangan" in cause.detail


def test_r35_a_tenpai_draw_keeps_the_privilege() -> None:
    match = new_match(paarenchan=True)
    eight_repeats(match)
    draw(match, MANGAN, NOTEN)
    assert match.paarenchan and match.dealer_streak == 9


def test_r35_not_without_the_setting() -> None:
    match = new_match()
    eight_repeats(match)
    assert not match.paarenchan
    assert cheap_dealer_ron(match).result == "draw"


def test_r35_the_non_dealer_never_has_it() -> None:
    match = new_match(paarenchan=True)
    eight_repeats(match)
    # West's cheap wait (2z) is refused and makes West furiten, privilege or not.
    game = prepared(match, NOTEN, CHEAP, east_pool="2z")
    ended = play_ron(game, EAST, "2z")
    assert ended.result == "draw" and ended.furiten[WEST] is not None


def test_r35_a_dealer_who_took_the_seat_with_inherited_sticks_cannot_reach_it() -> None:
    match = new_match(paarenchan=True)
    draw(match, MANGAN, NOTEN)
    draw(match, NOTEN, MANGAN)  # the deal passes with one inherited stick
    assert match.inherited == 1
    eight_repeats(match)
    assert match.honba == 9 and not match.paarenchan
    assert cheap_dealer_ron(match).result == "draw"


def test_r35_a_dealer_who_took_the_seat_after_a_noten_draw_without_sticks_can_reach_it() -> None:
    match = new_match(paarenchan=True)
    draw(match, NOTEN, MANGAN)  # the deal passes, no sticks on the table
    eight_repeats(match)
    assert match.paarenchan


# --- settle: errors, replay, snapshot ----------------------------------------------------------

def test_settle_refuses_an_unfinished_game_and_changes_nothing() -> None:
    match = new_match()
    game = prepared(match, MANGAN, NOTEN)
    before = match.state_key()
    with pytest.raises(MatchError, match="has not ended"):
        match.settle(game)
    assert match.state_key() == before


def test_settle_twice_is_refused_and_changes_nothing() -> None:
    match = new_match()
    game = prepared(match, MANGAN, NOTEN)
    ended = play_draw(game)
    match.settle(game)
    before = match.state_key()
    with pytest.raises(MatchError, match="settled once"):
        match.settle(ended)
    assert match.state_key() == before


def test_settle_refuses_a_game_with_other_terms() -> None:
    match = new_match()
    game = Game(match.game_seed, match.settings)  # no dealer_bonus term
    with pytest.raises(MatchError, match="not started by the match"):
        match.settle(game)


def test_each_game_has_its_own_seed_derived_from_the_match_seed() -> None:
    match = new_match()
    first = match.new_game()
    assert first.seed == match.new_game().seed == new_match().new_game().seed
    match.settle(play_draw(prepared(match, MANGAN, NOTEN)))
    assert match.new_game().seed != first.seed and match.game_number == 2


def test_snapshot_is_the_state_before_the_game() -> None:
    match = new_match()
    east, west = match.seats[EAST], match.seats[WEST]
    dealer_win(match)
    assert match.snapshot() == {
        "id": match.id, "game": 2, "players": {"east": east, "west": west}, "dealer_streak": 1,
        "honba": 1, "scores": {east: 37000, west: 13000}}


def test_the_public_id_is_derived_from_the_seed_and_does_not_reveal_it() -> None:
    match = new_match()
    assert match.id == match_id(SEED) == new_match().id and len(match.id) == 32
    assert match.id != SEED and SEED not in str(match.snapshot())
    assert match_id(SEED) != match_id("0123456789abcdef0123456789abcdee")
    # The id is not a game seed either: it deals none of the match's games.
    assert match.id not in {derive_seed(SEED, "game", n) for n in range(1, 20)}
    dealer_win(match)
    assert match.id == match_id(SEED) and SEED not in repr(match)


def test_players_in_order_rebuilds_the_match_from_its_first_dealer() -> None:
    for seed in range(12):
        match = Match(seed, ("ann", "bob"))
        assert Match.players_in_order(seed, match.dealer, match.seats[WEST]) == ("ann", "bob")
        swapped = Match(seed, ("bob", "ann"))
        assert Match.players_in_order(seed, swapped.dealer, swapped.seats[WEST]) == (
            "bob", "ann")


def test_replay_mid_way_continues_like_the_match_itself() -> None:
    match = new_match()
    ends = [play_draw(prepared(match, MANGAN, NOTEN))]
    match.settle(ends[-1])
    resumed = Match.replay(SEED, ("ann", "bob"), match.settings, ends)
    assert resumed.state_key() == match.state_key()
    ends.append(play_ron(prepared(match, CHEAP, MANGAN, east_pool="4m"), EAST, "4m"))
    assert resumed.settle(ends[-1]) == match.settle(ends[-1])
    assert resumed.state_key() == match.state_key()


def test_replay_from_seed_players_settings_and_results_gives_the_same_state() -> None:
    match = new_match(ryanshi=True)
    ends = [play_ron(prepared(match, MANGAN, CHEAP, west_pool="4m"), WEST, "4m")]
    match.settle(ends[-1])
    ends.append(play_draw(prepared(match, NOTEN, MANGAN)))
    match.settle(ends[-1])
    ends.append(play_ron(prepared(match, CHEAP, MANGAN, east_pool="4m"), EAST, "4m"))
    match.settle(ends[-1])
    again = Match.replay(SEED, ("ann", "bob"), match.settings, ends)
    assert again.state_key() == match.state_key() and again.snapshot() == match.snapshot()
    assert again.history == match.history
    with pytest.raises(MatchError, match="not game 1's"):
        Match.replay(SEED, ("ann", "bob"), match.settings, ends[1:])


def test_standings_share_places_on_a_tie() -> None:
    match = new_match()
    assert [(s.place, s.points) for s in match.standings()] == [(1, 25000), (1, 25000)]
    east = match.dealer
    dealer_win(match)
    assert [tuple(s) for s in match.standings()] == [
        (1, east, 37000), (2, match.seats[WEST], 13000)]


def test_repr_hides_no_tiles_and_names_the_state() -> None:
    match = new_match()
    text = repr(match)
    assert "game=1" in text and "honba=0" in text
