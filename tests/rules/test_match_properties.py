"""Properties of whole matches played by bots (R30-R35): points are conserved, the dealer and
the counter sticks follow R31 from the results alone, and a match replays from its results."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minefield.bots.base import Bot
from minefield.bots.levels import make_bot
from minefield.rules.game import ChooseHand, Discard, Game, GameEnded, PlayerView, Seat
from minefield.rules.match import PAARENCHAN_REPEATS, RYANSHI_STICKS, Match
from minefield.rules.seed import derive_int
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import parse_tiles, tiles_to_str

MAX_GAMES = 10  # bot matches may repeat for long (two tenpai hands draw and repeat, R31)


class FirstTiles:
    """A careless player: keeps its first 13 tiles (often noten) and discards its lowest."""

    level = "easy"

    def act(self, view: PlayerView) -> ChooseHand | Discard:
        if view.phase == "choosing":
            return ChooseHand(tiles=tiles_to_str(parse_tiles(view.own_tiles)[:13]))
        return Discard(tile=str(parse_tiles(view.own_pool)[0]))


def player(kind: str, seed: int) -> Bot | FirstTiles:
    return FirstTiles() if kind == "first" else make_bot(kind, seed=seed)


def play(game: Game, bots: dict[Seat, Bot | FirstTiles]) -> GameEnded:
    while game.result is None:
        for seat in Seat:
            view = game.view(seat)
            if (view.phase == "choosing" and view.own_hand is None) or view.my_turn:
                game.apply(seat, bots[seat].act(view))
    return game.result


@dataclass
class Expected:
    """R30, R31, R34, R35 worked out from the results alone, independently of Match."""

    dealer: str
    other: str
    honba: int = 0
    streak: int = 0
    passes: int = 0
    clean: bool = True
    used: bool = False

    def privilege(self, rules: RuleSettings) -> bool:
        return (rules.paarenchan and self.clean and not self.used
                and self.streak >= PAARENCHAN_REPEATS)

    def follow(self, ended: GameEnded, rules: RuleSettings) -> None:
        dealer_keeps = (ended.winner is Seat.EAST if ended.result == "ron"
                        else bool(ended.waits[Seat.EAST]))
        if dealer_keeps:
            if ended.result == "ron" and self.privilege(rules):
                self.used = True
            self.honba += 1
            self.streak += 1
            return
        if ended.result == "ron":
            self.honba = 0
        self.dealer, self.other = self.other, self.dealer
        self.streak, self.passes, self.clean, self.used = 0, self.passes + 1, self.honba == 0, False


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64), hands=st.integers(1, 3),
       kinds=st.tuples(*[st.sampled_from(["easy", "normal", "first"])] * 2),
       honba_points=st.sampled_from([1000, 300]), ryanshi=st.booleans(),
       paarenchan=st.booleans(), dealer_bonus=st.booleans())
def test_r30_r35_random_matches_follow_the_rules_and_replay(
        seed: int, hands: int, kinds: tuple[str, str], honba_points: int, ryanshi: bool,
        paarenchan: bool, dealer_bonus: bool) -> None:
    rules = RuleSettings(hands=hands, honba_points=honba_points, ryanshi=ryanshi,
                         paarenchan=paarenchan, dealer_bonus=dealer_bonus)
    names = ("ann", "bob")
    match = Match(seed, names, rules)
    bots = {name: player(kind, derive_int(match.seed, name)) for name, kind in zip(
        names, kinds, strict=True)}
    expected = Expected(match.dealer, match.seats[Seat.WEST])
    ends: list[GameEnded] = []
    while not match.over and len(ends) < MAX_GAMES:
        # The state before the game, as R31, R34 and R35 give it from the results so far.
        assert (match.dealer, match.honba, match.dealer_streak) == (
            expected.dealer, expected.honba, expected.streak)
        assert match.hand_number == expected.passes + 1 and match.game_number == len(ends) + 1
        assert match.terms.ryanshi == (ryanshi and expected.honba >= RYANSHI_STICKS)
        assert match.terms.paarenchan == expected.privilege(rules)
        assert match.snapshot()["players"] == {"east": expected.dealer, "west": expected.other}
        before = dict(match.scores)
        game = match.new_game()
        ended = play(game, {seat: bots[name] for seat, name in match.seats.items()})
        ends.append(ended)
        settlement = match.settle(ended)
        expected.follow(ended, rules)
        # Points are conserved: what one pays the other gets (R32, R33; sticks are counters).
        assert sum(settlement.payments.values()) == 0
        assert {settlement.seats[s]: before[settlement.seats[s]] + settlement.payments[s]
                for s in Seat} == match.scores == settlement.scores
        assert sum(match.scores.values()) == 2 * rules.start_points
        if ended.result == "ron":
            assert ended.value is not None
            assert abs(settlement.payments[Seat.EAST]) == (
                ended.value.points + settlement.honba * honba_points)
        # R30: over after `hands` passes or below zero, never otherwise.
        assert match.over == (expected.passes == hands or min(match.scores.values()) < 0)
    replayed = Match.replay(seed, names, rules, ends)
    assert replayed.state_key() == match.state_key()
    assert replayed.snapshot() == match.snapshot()
    assert [s.lines for s in replayed.history] == [s.lines for s in match.history]
