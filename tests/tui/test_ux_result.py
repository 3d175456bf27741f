"""The result screen: sentences that read well, furiten said from each seat's point of view,
who pays whom, discards apart from the tiles never discarded, and the running score."""

from __future__ import annotations

from minefield.protocol.messages import PlayerInfo
from minefield.rules.game import ChooseHand, Discard, Game, Seat
from minefield.rules.tiles import parse_tiles
from minefield.rules.wall import Deal
from minefield.session import LocalSession
from minefield.tui.app import MinefieldApp
from minefield.tui.screens.builder import HandBuilderScreen
from minefield.tui.screens.menu import MenuScreen
from minefield.tui.screens.result import ResultScreen, value_lines
from tests.tui.conftest import StandInBot, make_app, settle
from tests.tui.test_snapshots import ron_game

EAST_TILES = "123456789m1199p" "234567p2345678s1s1234567z"
# West holds a second 5p instead of an 8p: a wait of its own hand left in its pool.
WEST_TILES = "123456789m123455678p123456789s1234567z"


def bot_furiten_game(seed: int = 5) -> Game:
    """East waits on 1p/9p; West (2p/5p) discards its own 5p (R15a), then East's 1p: ron."""
    deal = Deal.from_tiles(parse_tiles(EAST_TILES), parse_tiles(WEST_TILES),
                           parse_tiles("8m")[0], parse_tiles("3m")[0])
    game = Game(seed, deal=deal)
    game.apply(Seat.EAST, ChooseHand(tiles="123456789m1199p"))
    game.apply(Seat.WEST, ChooseHand(tiles="123456789m2345p"))
    for seat, tile in ((Seat.EAST, "1z"), (Seat.WEST, "5p"), (Seat.EAST, "2z"),
                       (Seat.WEST, "1p")):
        game.apply(seat, Discard(tile=tile))
    assert game.result is not None and game.result.winner is Seat.EAST
    return game


def practice(game: Game, you: Seat) -> LocalSession:
    """The ended ``game`` as practice, the player at this keyboard in seat ``you``."""
    players = {you: PlayerInfo(name="You"), you.other: PlayerInfo(name="Bot (normal)", kind="bot")}
    return LocalSession(game, "practice", (you,), players, StandInBot(), think_seconds=0)


def hotseat(game: Game) -> LocalSession:
    players = {seat: PlayerInfo(name=seat.value.title()) for seat in Seat}
    return LocalSession(game, "hotseat", (Seat.EAST, Seat.WEST), players)


def result_text(app: MinefieldApp) -> str:
    """The whole result screen's text, scrolled into view or not (markup left in)."""
    screen = app.screen
    assert isinstance(screen, ResultScreen)
    parts = [str(widget.render()) for widget in screen.query("Static")]
    return "\n".join(parts)


async def test_the_bot_wins_on_your_tile_and_you_pay() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.play(practice(ron_game(), Seat.WEST))  # the bot, East, wins on your 1p
        await settle(pilot)
        text = result_text(app)
        assert "Ron! Bot (normal), East, wins on your 1p." in text
        assert "You pay Bot (normal) 12000." in text
        assert "(East)" not in text and "You's" not in text


async def test_furiten_is_said_from_each_seat_and_pools_apart_from_discards() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.play(practice(bot_furiten_game(), Seat.EAST))
        await settle(pilot)
        text = result_text(app)
        assert "Ron! You, East, win on Bot (normal)'s 1p." in text
        assert "Discard 4 of 34 · Bot (normal) pays you 8000." in text
        # The bot's furiten, about the bot (the engine's detail says "your own waits").
        assert ("furiten since discard 2: Bot (normal) discarded 5p, one of their own waits "
                "(R15a)") in text
        assert "your own waits" not in text and "one of your waits" not in text
        # The discards in order, apart from the tiles never discarded.
        assert "discards: E S\n" in text and "discards: 5p 1p\n" in text  # honors by name
        assert "never discarded: 2p 3p 4p 5p 6p 7p 1s 2s 3s 4s 5s 6s 7s 8s W N Wh Gr Rd" in text
        # The log ends with the result and holds both seats' furiten (everything is shown).
        assert "Bot (normal) is furiten: Bot (normal) discarded their wait 5p" in text
        assert text.index(" 4 Bot (normal) 1p") < text.index("Ron! You win on Bot (normal)'s 1p")


async def test_hotseat_names_the_seats_once() -> None:
    app = make_app("hotseat")
    async with app.run_test(size=(80, 24)) as pilot:
        await app.play(hotseat(ron_game()))
        await settle(pilot)
        text = result_text(app)
        assert "Ron! East wins on West's 1p." in text
        assert "West pays East 12000." in text


def test_dora_and_ura_rows_are_always_shown() -> None:
    end = ron_game().result
    assert end is not None and end.value is not None
    no_dora = end.value.model_copy(update={"dora": 0, "ura": 0})
    rows = [line.split()[0] for line in value_lines(no_dora)]
    assert "dora" in rows and "ura" in rows


async def test_the_running_score_adds_up_over_play_again_and_restarts_from_the_menu() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.play(practice(bot_furiten_game(seed=5), Seat.EAST))  # you win 8000
        await settle(pilot)
        assert "Score over 1 game: You 8000 · Bot (normal) -8000" in result_text(app)
        await pilot.press("n")  # play again: a new game of the same kind
        await settle(pilot)
        assert isinstance(app.screen, HandBuilderScreen)
        await app.play(practice(ron_game(), Seat.WEST))  # as if played: the bot wins 12000
        await settle(pilot)
        assert "Score over 2 games: You -4000 · Bot (normal) 4000" in result_text(app)
        await pilot.press("m")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("p", "enter")  # a new practice from the menu (its form: Start)
        await settle(pilot)
        assert isinstance(app.screen, HandBuilderScreen)
        assert app.scores.games == 0  # starts a new running score
