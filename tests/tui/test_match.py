"""Matches in the app (R30-R35): a hot-seat match through two games with the curtain between
the seats and the scoreboard always shown, the payments in words on each result (R31-R33), the
final standings (R30), Washizu's cc of blood, and the menu's and the command line's way in."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Select, Static

from minefield.bots.base import Bot
from minefield.cli.game import request_from_args
from minefield.protocol.messages import MatchView, PlayerInfo, StandingView
from minefield.rules.auto import auto_command
from minefield.rules.game import ChooseHand, Discard, GameTerms, PlayerView, Seat
from minefield.rules.match import Match
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import Tile, parse_tiles
from minefield.rules.wall import Deal
from minefield.session import LocalSession
from minefield.table.match_table import MatchTable
from minefield.tui.analysis import analyze_choice
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.games import GameRequest
from minefield.tui.screens.builder import HandBuilderScreen
from minefield.tui.screens.dialogs import ConfirmScreen, CurtainScreen
from minefield.tui.screens.new_game import NewGameScreen
from minefield.tui.screens.play import PlayScreen
from minefield.tui.screens.result import ResultScreen
from minefield.tui.screens.standings import StandingsScreen, standings_lines
from minefield.tui.widgets.scoreboard import Scoreboard, scoreboard_text
from tests.tui.conftest import screen_text, settle, stand_in
from tests.tui.test_hotseat import TILE, assert_shows_only_own_tiles, rendered_tiles

SEED = "0123456789abcdef0123456789abcdef"
NAMES = ("Ann", "Bob")
WINNER = "123456789m1199p" "234567p2345678s1s1234567z"  # ittsu, waits 1p/9p, one dora (9m)
LOSER = "123456789m123456788p123456789s1234567z"
WINNING_HAND, LOSING_HAND = "123456789m1199p", "123456789m2345p"


def app_for(request: GameRequest | None = None, **preferences: Any) -> MinefieldApp:
    """An app with a stand-in bot; it starts ``request`` at once if given."""
    return MinefieldApp(request, think_seconds=0, bot_factory=stand_in,
                        preferences=Preferences(hint="off", **preferences), catch_errors=False)


def scoreboard(app: MinefieldApp) -> str:
    """The scoreboard's text on the screen now."""
    return str(app.screen.query_one("#scoreboard", Scoreboard).render())


def assert_curtain_hides_everything(app: MinefieldApp, curtain: CurtainScreen) -> None:
    """R26 in a hot-seat match: the curtain names the seat and its player, and no private tile
    exists on any screen while it is up."""
    text = screen_text(app)
    who = f"{curtain.seat.value.title()} ({curtain.name_shown})"
    assert f"Pass to {who} - press Enter when ready" in text
    assert not TILE.search(text), text
    assert rendered_tiles(app) == []
    assert not any(isinstance(s, HandBuilderScreen | PlayScreen) for s in app.screen_stack)


async def take_turn(pilot: Pilot[Any]) -> None:
    """One step of a hot-seat game by keys: lift the curtain, build a hand from the first 13
    tiles of the rack, discard the first pool tile, or pass the keyboard."""
    screen = pilot.app.screen
    if isinstance(screen, CurtainScreen):
        await pilot.press("enter")
    elif isinstance(screen, HandBuilderScreen):
        for _ in range(13):
            await pilot.press("space", "right")
        await pilot.press("enter")
        await pilot.pause()
        if isinstance(pilot.app.screen, ConfirmScreen):  # not tenpai: keep it anyway
            await pilot.press("y")
    elif isinstance(screen, PlayScreen):
        await pilot.press("enter")  # discard, or pass the keyboard after it
    await pilot.pause()


async def play_to_the_result(pilot: Pilot[Any], app: MinefieldApp, game: int,
                             until: Callable[[], bool] | None = None) -> None:
    """Play a hot-seat game by keys to its result (or until ``until`` holds), checking at
    every step that the curtain hides everything and that the scoreboard names this game."""
    for _ in range(300):
        screen = app.screen
        if isinstance(screen, ResultScreen) or (until is not None and until()):
            return
        if isinstance(screen, CurtainScreen):
            assert_curtain_hides_everything(app, screen)
        elif isinstance(screen, HandBuilderScreen | PlayScreen):
            assert_shows_only_own_tiles(app, screen.seat)
            assert f"Game {game} · hand" in scoreboard(app)
        await take_turn(pilot)
    raise AssertionError("the game did not end")


@pytest.mark.long
async def test_a_hotseat_match_through_two_games_to_the_scoreboard() -> None:
    """R30, R31, R33: a match at one keyboard, its first game played out by keys to a draw,
    the curtain between the players at every hand-over, the scoreboard on every screen and
    the payments on the result; then the next game behind the curtain, its dealer by R31,
    and its first hand-overs. (A second game played to its result, with "After game 2" on
    the scoreboard, is test_the_result_explains_the_payments_and_the_counter_sticks.)"""
    app = app_for(GameRequest("hotseat", seed=3, match=True))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        session = app.session
        assert isinstance(session, LocalSession) and session.match is not None
        first = session.match
        assert isinstance(app.screen, CurtainScreen)  # the first game starts behind it
        await play_to_the_result(pilot, app, game=1)
        result = app.screen
        assert isinstance(result, ResultScreen) and result.match is not None
        settled = result.match.last
        assert settled is not None
        text = screen_text(app)
        for line in settled.lines:  # the payments in words (R31-R33)
            assert line in text
        assert settled.result == "draw"  # this seed's game: both hands, tenpai or noten (R33)
        assert "noten" in text or "tenpai" in text
        board = scoreboard(app)
        scores = result.match.scores
        assert all(f"{name}" in board for name in scores) and sum(scores.values()) == 50000
        assert "Next game" in text  # the footer's key
        assert app.table is not None and app.table.game_on  # leaving now would lose the match

        await pilot.press("n")  # the next game, behind the curtain again
        await pilot.pause()
        assert isinstance(app.screen, CurtainScreen)
        second = session.match
        assert second is not None and second.game == 2
        assert second.dealer == (first.dealer if settled.renchan
                                 else next(n for n in first.players.values()
                                           if n != first.dealer))  # R31

        def two_discards_each() -> bool:
            assert session is not None
            return (isinstance(app.screen, CurtainScreen)
                    and all(session.view(seat).discards_made >= 2 for seat in Seat))

        await play_to_the_result(pilot, app, game=2, until=two_discards_each)
        assert two_discards_each() and app.table is not None and app.table.game_on


def prepared_match(*deals: Deal, settings: RuleSettings | None = None) -> LocalSession:
    """A hot-seat match between Ann and Bob whose first games are dealt as given."""
    table = MatchTable(Match(SEED, NAMES, settings), {n: PlayerInfo(name=n) for n in NAMES},
                       deals=dict(enumerate(deals, start=1)))
    players = {seat: PlayerInfo(name=name) for seat, name in table.seats.items()}
    return LocalSession(table, "hotseat", (Seat.EAST, Seat.WEST), players)


def paid_to(session: LocalSession, seat: Seat) -> int:
    """What ``seat`` was paid by the last game of the session's match."""
    match = session.match
    assert match is not None and match.last is not None
    return match.last.payments[seat]


def deal(east: str, west: str) -> Deal:
    return Deal.from_tiles(parse_tiles(east), parse_tiles(west), Tile.parse("8m"),
                           Tile.parse("3m"))


async def type_keys(pilot: Pilot[Any], text: str) -> None:
    for key in text:
        await pilot.press(key)
    await pilot.pause()


async def ron_on_the_first_discards(pilot: Pilot[Any], east_wins: bool) -> None:
    """Both hands typed in, then East's first discard (1z, or 1p dealing in) and, when East
    waits on it, West's 1p: a ron on the first discards (R13, R16)."""
    east_hand, west_hand = ((WINNING_HAND, LOSING_HAND) if east_wins
                            else (LOSING_HAND, WINNING_HAND))
    for hand in (east_hand, west_hand):
        await pilot.press("enter")  # the curtain
        await pilot.pause()
        await type_keys(pilot, "".join(str(tile) for tile in parse_tiles(hand)))
        await pilot.press("enter")
        await pilot.pause()
    await pilot.press("enter")  # East at the keyboard
    await pilot.pause()
    await type_keys(pilot, "1z" if east_wins else "1p")
    await pilot.press("enter")
    await settle(pilot)
    if east_wins:
        await pilot.press("enter")  # pass the keyboard
        await pilot.pause()
        await pilot.press("enter")  # West at the keyboard
        await pilot.pause()
        await type_keys(pilot, "1p")
        await pilot.press("enter")
        await settle(pilot)


async def test_the_result_explains_the_payments_and_the_counter_sticks() -> None:
    """R23, R31, R32: the dealer wins twice; the second ron is paid a counter stick more, in
    words on the result ("West (..) pays East (..) 12000 + 1 counter stick x 1000")."""
    app = app_for()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        session = prepared_match(deal(WINNER, LOSER), deal(WINNER, LOSER))
        await app.play(session)
        await pilot.pause()
        match = session.match
        assert match is not None
        east, west = match.players[Seat.EAST], match.players[Seat.WEST]
        await ron_on_the_first_discards(pilot, east_wins=True)
        assert isinstance(app.screen, ResultScreen)
        points = paid_to(session, Seat.EAST)
        assert points == 18000  # haneman with the ura dora, paid as dealer (R23)
        text = screen_text(app)
        assert f"West ({west}) pays East ({east}) {points}   " in text  # no sticks yet
        assert f"East ({east}) stays dealer: 1 counter stick on the table (R31)" in text
        # One moment per line: after the game, its points and the next game's sticks (R31).
        assert scoreboard(app) == (f"After game 1 · {east} {25000 + points} · {west} "
                                   f"{25000 - points} · next, game 2 (hand 1 of 4): {east} "
                                   "dealer, 1 counter stick")
        await pilot.press("n")
        await pilot.pause()
        assert session.match is not None and session.match.honba == 1
        board = scoreboard_text(session.match, washizu=False)  # game 2's, behind the curtain
        assert board.startswith("[b]Game 2[/] · hand 1 of 4 · ") and "1 counter stick" in board
        assert f"{east} [reverse]dealer[/] [b]{25000 + points}[/]" in board  # before game 2
        await ron_on_the_first_discards(pilot, east_wins=True)
        text = screen_text(app)
        assert (f"West ({west}) pays East ({east}) {points} + 1 counter stick x 1000 = "
                f"{points + 1000} (R32)") in text
        # West is below zero: the match is over (R30), and nobody deals next.
        assert f"Match over: {west} below zero (R30)" in text
        assert "stays dealer" not in text
        board = scoreboard(app)
        assert board == (f"After game 2 · {east} {25000 + 2 * points + 1000} · {west} "
                         f"{25000 - 2 * points - 1000} · match over")
        assert "counter stick" not in board  # no sticks of before the game beside the points
        # The log says the hand's value and what was paid with the sticks (R32).
        log = str(app.screen.query_one("#result-log", Static).render())
        assert f"({points} + counter sticks = {points + 1000}, R32)" in log


async def test_the_final_standings_after_the_last_hand() -> None:
    """R30: a one-hand match; West wins, the deal would pass, the match is over: ``n`` shows
    the standings with the winner, and ``n`` there starts a new match."""
    app = app_for(washizu=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        session = prepared_match(deal(LOSER, WINNER),
                                 settings=RuleSettings.preset("match", hands=1))
        await app.play(session)
        await pilot.pause()
        match = session.match
        assert match is not None
        west = match.players[Seat.WEST]
        await ron_on_the_first_discards(pilot, east_wins=False)
        assert isinstance(app.screen, ResultScreen)
        text = screen_text(app)
        points = paid_to(session, Seat.WEST)
        assert "Match over after 1 hand (R30)" in text
        assert "Final standings" in text and "Next game" not in text
        assert app.table is not None and not app.table.game_on  # leaving loses nothing now
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, StandingsScreen)
        text = screen_text(app)
        total = 25000 + points
        assert f"1st  {west}  {total} ({total // 10} cc)  (+{points} over the match)" in text
        assert "Final standings after 1 game, in hand 1 of 1 (R30)" in text
        assert f"{west} wins the match." in text
        assert f"has given {points // 10} cc of blood" in text


def test_a_tie_shares_the_first_place() -> None:
    """The club's decision (match_decisions.md): equal points share a place, no tie-break."""
    view = MatchView(game=4, hand=4, hands=4, players={Seat.EAST: "Ann", Seat.WEST: "Bob"},
                     dealer_streak=0, honba=0, scores={"Ann": 25000, "Bob": 25000}, over=True,
                     standings=[StandingView(place=1, player="Ann", points=25000),
                                StandingView(place=1, player="Bob", points=25000)])
    lines = standings_lines(view, washizu=False)
    assert lines[0].endswith("Ann  [b]25000[/]  (0 over the match)")
    assert lines[1].startswith("[b]1st[/]")
    assert "Ann and Bob share first place" in lines[-1]


async def test_washizu_stakes_show_cc_of_blood() -> None:
    """Washizu's page: 1,000 points are 100 cc; the scoreboard and the payments show both."""
    app = app_for(washizu=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        session = prepared_match(deal(WINNER, LOSER))
        await app.play(session)
        await pilot.pause()
        match = session.match
        assert match is not None
        east, west = match.players[Seat.EAST], match.players[Seat.WEST]
        await ron_on_the_first_discards(pilot, east_wins=True)
        points = paid_to(session, Seat.EAST)
        winner, loser = 25000 + points, 25000 - points
        assert f"{east} {winner} ({winner // 10} cc)" in scoreboard(app)
        assert f"{west} {loser} ({loser // 10} cc)" in scoreboard(app)
        assert f"In blood: {west} gives {east} {points // 10} cc" in screen_text(app)


async def test_the_menu_form_offers_a_match_with_its_settings() -> None:
    app = app_for()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewGameScreen)
        form.query_one("#kind", Select).value = "match"
        await pilot.pause()
        assert form.query_one("#rules", Select).value == "match"
        note = str(form.query_one("#preset-note", Static).render())
        assert "A match of 4 hands from 25000 points each (R30)" in note
        await pilot.press("ctrl+s")  # the focus is in the first field, a name
        await settle(pilot)
        session = app.session
        assert isinstance(session, LocalSession) and session.match is not None
        assert session.settings == RuleSettings.preset("match")
        assert isinstance(app.screen, CurtainScreen)
        assert "Pass to East (Player" in screen_text(app)


def test_match_on_the_command_line() -> None:
    args = argparse.Namespace(command="practice", seed=None, level=None, seat="west",
                              rules=None, match=True)
    request = request_from_args(args)
    assert request is not None and request.match and request.seat is None  # R30 draws it


def test_the_wait_preview_says_what_ryanshi_and_paarenchan_change() -> None:
    """R34: with four sticks a wait of one han of yaku (riichi) and three dora cannot win; R35:
    the privileged dealer's every wait is a yakuman (48000 as dealer, R23)."""
    hand = parse_tiles("123m456p789s222z5s")  # 5s tanki: riichi and 3 dora, 4 han 40 fu
    south = Tile.parse("1z")  # the indicator: South (2z) is dora, and no seat's yakuhai
    plain = analyze_choice(hand, hand, Seat.WEST, south)
    assert plain.can_win  # kiriage mangan (R14)
    bound = analyze_choice(hand, hand, Seat.WEST, south, terms=GameTerms(ryanshi=True))
    assert not bound.can_win and not bound.waits[0].report.eligible
    assert any("only 1 han from yaku" in w and "ryanshi, R34" in w for w in bound.warnings)
    weak = parse_tiles("123m456p789s1112z")  # 2z tanki: riichi only for West
    assert not analyze_choice(weak, weak, Seat.WEST, Tile.parse("9m")).can_win
    east = analyze_choice(weak, weak, Seat.EAST, Tile.parse("9m"),
                          terms=GameTerms(dealer_bonus=True, paarenchan=True))
    assert east.can_win and all(w.report.points == 48000 for w in east.waits)
    assert any("Paarenchan (R35)" in w for w in east.warnings)


class ScriptedBot(Bot):
    """A practice opponent that plays the given commands, then the automatic move (R25)."""

    level = "easy"

    def __init__(self, *commands: ChooseHand | Discard) -> None:
        self.commands = list(commands)

    def act(self, view: PlayerView) -> ChooseHand | Discard:
        return self.commands.pop(0) if self.commands else auto_command(view)


async def test_a_practice_match_follows_the_player_to_the_other_seat() -> None:
    """R31: the non-dealer wins, the deal passes and the seats swap: the next game shows the
    player's new seat, with the scoreboard of hand 2."""
    names = ("You", "Bot (easy)")
    match = Match(SEED, names)
    you = match.seat_of("You")
    # Whoever is West holds the winning tiles; East deals in with 1p on the first discard.
    script: list[ChooseHand | Discard] = (
        [ChooseHand(tiles=LOSING_HAND), Discard(tile="1p")] if you is Seat.WEST
        else [ChooseHand(tiles=WINNING_HAND)])
    table = MatchTable(match, {"You": PlayerInfo(name="You"),
                               "Bot (easy)": PlayerInfo(name="Bot (easy)", kind="bot")},
                       deals={1: deal(LOSER, WINNER)})
    players = {seat: table.table.players[seat] for seat in Seat}
    session = LocalSession(table, "practice", (you,), players, ScriptedBot(*script),
                           think_seconds=0)
    app = app_for()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await app.play(session)
        await settle(pilot)
        assert isinstance(app.screen, HandBuilderScreen) and app.screen.seat is you
        assert "Game 1 · hand 1 of 4" in scoreboard(app)
        hand = WINNING_HAND if you is Seat.WEST else LOSING_HAND
        await type_keys(pilot, "".join(str(tile) for tile in parse_tiles(hand)))
        await pilot.press("enter")
        await settle(pilot)
        if you is Seat.EAST:
            await type_keys(pilot, "1p")
            await pilot.press("enter")
            await settle(pilot)
        assert isinstance(app.screen, ResultScreen)
        assert "The deal passes to" in screen_text(app)
        await pilot.press("n")
        await settle(pilot)
        assert session.local_seats == (you.other,)
        screen = app.screen
        assert isinstance(screen, HandBuilderScreen) and screen.seat is you.other
        assert "Game 2 · hand 2 of 4" in scoreboard(app)
        assert_shows_only_own_tiles(app, you.other)
