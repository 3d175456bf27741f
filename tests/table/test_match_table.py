"""MatchTable: the games of a match one after the other, settled at their end (R30-R33), with
the match's public state in every table view and nothing hidden in it (R26)."""

from __future__ import annotations

import pytest

from minefield.protocol.messages import (
    Applied,
    PlayerInfo,
    ServerMessageType,
    Snapshot,
    TableView,
    parse_server_message,
)
from minefield.rules.auto import auto_command
from minefield.rules.game import ChooseHand, Discard, Game, Seat
from minefield.rules.match import Match, MatchError
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import parse_tiles
from minefield.rules.wall import Deal
from minefield.table.game_table import Recorder
from minefield.table.match_table import MatchTable

EAST, WEST = Seat.EAST, Seat.WEST
NAMES = ("Ann", "Bob")
SEED = "0123456789abcdef0123456789abcdef"


def players() -> dict[str, PlayerInfo]:
    return {name: PlayerInfo(name=name) for name in NAMES}


def ron_deal() -> Deal:
    """East waits on 1p/9p (ittsu, a dora); West's first discard is 1p: East wins (R13)."""
    east = parse_tiles("123456789m1199p" "234567p2345678s1s1234567z")
    west = parse_tiles("123456789m123456788p123456789s1234567z")
    return Deal.from_tiles(east, west, parse_tiles("8m")[0], parse_tiles("3m")[0])


def east_wins(table: MatchTable) -> list[ServerMessageType]:
    """The prepared game: both hands, East's 1z, West's 1p and East's ron."""
    game = table.table
    messages = []
    for seat, command in ((EAST, ChooseHand(tiles="123456789m1199p")),
                          (WEST, ChooseHand(tiles="123456789m2345p")),
                          (EAST, Discard(tile="1z")), (WEST, Discard(tile="1p"))):
        messages += game.submit(seat, None, command, now=0.0)
    return messages


def play_out(table: MatchTable) -> list[ServerMessageType]:
    """Both seats play the automatic move (R25) until the game ends."""
    game = table.table.game
    messages: list[ServerMessageType] = []
    while game.phase != "ended":
        seat = next(s for s in Seat if table.table.must_act(s))
        messages += table.table.submit(seat, None, auto_command(game.view(seat)), now=0.0)
    return messages


def tables_of(messages: list[ServerMessageType]) -> list[TableView]:
    return [m.table for m in messages if isinstance(m, Applied | Snapshot)]


def test_the_first_view_is_the_match_before_its_first_game() -> None:
    table = MatchTable(Match(SEED, NAMES), players())
    view = table.view()
    assert (view.game, view.hand, view.hands, view.honba, view.inherited) == (1, 1, 4, 0, 0)
    assert view.scores == {"Ann": 25000, "Bob": 25000}  # R30: start_points
    assert view.dealer == table.seats[EAST] and set(view.players.values()) == set(NAMES)
    assert view.dealer_bonus and not view.ryanshi and not view.paarenchan  # the match preset
    assert view.last is None and not view.over and view.standings is None
    assert table.table.table(EAST, 0.0).match == view
    assert {seat: info.name for seat, info in table.table.players.items()} == table.seats


def test_a_dealer_win_is_settled_at_once_and_the_dealer_stays() -> None:
    """R31, R32: the dealer wins twice; the second ron is paid one counter stick more."""
    table = MatchTable(Match(SEED, NAMES), players(), deals={1: ron_deal(), 2: ron_deal()})
    dealer = table.seats[EAST]
    messages = east_wins(table)
    assert table.game_ended and table.settlement is not None
    final = tables_of(messages)[-1].match
    assert final is not None and final.last is not None
    points = final.last.payments[EAST]
    assert final.last.payments == {EAST: points, WEST: -points}
    assert final.last.renchan and final.last.result == "ron" and final.last.winner is EAST
    assert final.scores[dealer] == 25000 + points
    assert final.last.lines[0].startswith(f"West ({table.seats[WEST]}) pays East ({dealer}) ")
    assert "stays dealer: 1 counter stick" in final.last.lines[1]
    # the game on the table keeps its numbers until the next one starts
    assert (final.game, final.hand, final.honba) == (1, 1, 0)

    snapshots = table.next_game(now=0.0)
    assert [type(m) for m in snapshots] == [Snapshot, Snapshot]
    second = tables_of(snapshots)[0].match
    assert second is not None and second.last is None
    assert (second.game, second.hand, second.honba, second.dealer_streak) == (2, 1, 1, 1)
    assert second.dealer == dealer
    east_wins(table)
    again = table.view().last
    assert again is not None
    assert f"{points} + 1 counter stick x 1000 = {points + 1000} (R32)" in again.lines[0]
    assert table.view().scores[dealer] == 25000 + 2 * points + 1000


def test_seeded_games_pass_the_deal_and_end_the_match() -> None:
    """R30, R31, R33: automatic moves on seeded deals until the match ends; every settlement
    pays as much as it takes, and the standings come at the end."""
    settings = RuleSettings.preset("match", hands=2)
    table = MatchTable(Match(7, NAMES, settings), players())
    games = 0
    while True:
        start = table.view()
        messages = play_out(table)
        games += 1
        last = table.view().last
        assert last is not None and last.game == start.game
        assert sum(last.payments.values()) == 0
        assert sum(table.view().scores.values()) == 2 * settings.start_points
        if last.result == "draw":
            assert any("R33" in line for line in last.lines)
        assert tables_of(messages)[-1].match == table.view()
        if table.over:
            break
        table.next_game(now=0.0)
        assert games < 50
    final = table.view()
    assert final.over and final.standings is not None and final.last is not None
    assert final.last.match_over
    assert [s.points for s in final.standings] == sorted(final.scores.values(), reverse=True)
    with pytest.raises(MatchError):
        table.next_game(now=0.0)
    assert table.ask_next_game("Ann", now=0.0) == []


def test_the_next_game_waits_until_both_players_ask() -> None:
    table = MatchTable(Match(SEED, NAMES), players(), deals={1: ron_deal()})
    with pytest.raises(MatchError):
        table.next_game(now=0.0)  # the game goes on
    assert table.ask_next_game("Ann", now=0.0) == []
    east_wins(table)
    waiting = table.ask_next_game("Ann", now=0.0)
    assert [m.seat for m in waiting] == [EAST, WEST]
    asked = tables_of(waiting)[0].match
    assert asked is not None and asked.next_asked == ["Ann"]
    started = table.ask_next_game("Bob", now=0.0)
    view = tables_of(started)[0]
    assert view.seq == 0 and view.view.phase == "choosing"
    assert view.match is not None and view.match.game == 2 and view.match.next_asked == []
    with pytest.raises(ValueError, match="does not play"):
        table.ask_next_game("Cid", now=0.0)


def test_views_never_show_the_seed_or_the_other_hand() -> None:
    """R26: before a game ends a seat's messages hold nothing of the other hand, and no
    message (or repr) ever holds the match seed, whose every game's seed follows from it."""
    match = Match(SEED, NAMES)
    table = MatchTable(match, players())
    for _ in range(3):
        game = table.table.game
        seen: list[ServerMessageType] = [table.table.snapshot(s, 0.0) for s in Seat]
        while game.phase != "ended":
            seat = next(s for s in Seat if table.table.must_act(s))
            seen += table.table.submit(seat, None, auto_command(game.view(seat)), now=0.0)
        for message in seen:
            text = message.model_dump_json()
            assert SEED not in text and match.seed not in text
            assert parse_server_message(text) == message  # the wire format round-trips
            assert isinstance(message, Applied | Snapshot)
            if message.table.view.phase != "ended":
                other = game.hand_of(message.seat.other)
                if other is not None:  # the own hand is in the same notation
                    assert str(other) not in text
        assert SEED not in repr(table) and "tiles hidden" in repr(table.table)
        if table.over:
            break
        table.next_game(now=0.0)


def test_each_game_gets_its_own_record() -> None:
    made: list[tuple[int, int]] = []

    class Lines:
        def __init__(self) -> None:
            self.results = 0

        def command(self, seq: int, seat: Seat, command: ChooseHand | Discard, *,
                    command_id: str | None = None, automatic: bool = False) -> None:
            pass

        def result(self, game: Game) -> None:
            self.results += 1

    records: list[Lines] = []

    def factory(game: Game, match: Match) -> Recorder:
        made.append((match.game_number, match.honba))
        records.append(Lines())
        return records[-1]

    table = MatchTable(Match(SEED, NAMES), players(), recorders=factory,
                       deals={1: ron_deal(), 2: ron_deal()})
    east_wins(table)
    table.next_game(now=0.0)
    east_wins(table)
    assert made == [(1, 0), (2, 1)]
    assert [r.results for r in records] == [1, 1]


def test_the_players_must_be_the_matchs() -> None:
    with pytest.raises(ValueError, match="the match's two players"):
        MatchTable(Match(SEED, NAMES), {"Ann": PlayerInfo(name="Ann")})
