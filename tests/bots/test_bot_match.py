"""A watched game (minefield/bots/bot_match.py): each bot acts on its own view only
(R26), every discard keeps its discarder's estimate, and a deal-in says what it said (R13)."""

from __future__ import annotations

from minefield.bots.base import Bot
from minefield.bots.bot_match import WatchedGame, deal_in_text
from minefield.bots.levels import make_bot
from minefield.defense.estimate import estimate, percent
from minefield.defense.position import Position
from minefield.rules.game import ChooseHand, Discard, Game, PlayerView, Seat
from minefield.rules.seed import derive_int, parse_seed
from minefield.rules.tiles import Tile, kind_str

#: Easy bots (seeds derived as the Watch screen derives them): East wins on West's 7z, discard
#: 10.
RON_SEED = 6


class Spy:
    """A bot that keeps every view it is given."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.level = bot.level
        self.views: list[PlayerView] = []

    def act(self, view: PlayerView) -> ChooseHand | Discard:
        """The wrapped bot's command, the view kept."""
        self.views.append(view)
        return self.bot.act(view)


def bots_of(seed: int) -> dict[Seat, Spy]:
    canonical = parse_seed(seed)
    return {seat: Spy(make_bot("easy", derive_int(canonical, f"watch {seat.value}")))
            for seat in Seat}


def play_out(watched: WatchedGame) -> None:
    while not watched.over:
        watched.play(*watched.decide())


def test_each_bot_sees_only_its_own_view() -> None:
    spies = bots_of(RON_SEED)
    watched = WatchedGame(RON_SEED, spies)
    play_out(watched)
    replayed = Game(RON_SEED)
    for move in watched.moves:
        replayed.apply(move.seat, move.command)
    for seat, spy in spies.items():
        assert spy.views and all(view.seat is seat for view in spy.views)
        # Each view is exactly what the engine gives that seat (R26): its own tiles only.
        assert all(view.own_tiles == Game(RON_SEED).view(seat).own_tiles for view in spy.views)
    assert replayed.result == watched.game.result


def test_each_discard_keeps_its_discarders_estimate() -> None:
    watched = WatchedGame(RON_SEED, bots_of(RON_SEED))
    checked = 0
    while not watched.over:
        seat, command = watched.decide()
        expected = None
        if isinstance(command, Discard):
            report = estimate(Position.from_view(watched.view(seat)), "easy")  # the other bot
            assert report.opponent == watched.bots[seat.other].level
            expected = report.of(kind_str(Tile.parse(command.tile).kind)).danger
        move = watched.play(seat, command)
        assert move.danger == expected
        checked += expected is not None
    assert checked == watched.game.discard_count


def test_a_deal_in_says_what_the_estimate_said_of_it() -> None:
    watched = WatchedGame(RON_SEED, bots_of(RON_SEED))
    play_out(watched)
    end = watched.game.result
    assert end is not None and end.result == "ron" and end.winner is Seat.EAST
    dealt = [move for move in watched.moves if move.dealt_in]
    assert len(dealt) == 1 and dealt[0].seat is Seat.WEST
    move = dealt[0]
    assert isinstance(move.command, Discard) and move.danger is not None
    text = deal_in_text(move, "West")
    assert text is not None
    assert text.startswith(f"West dealt in with {move.command.tile}: its estimate gave it "
                           f"{percent(move.danger)}")
    assert move.report is not None
    safer = sum(1 for t in move.report.tiles if t.danger < move.danger)
    assert f"{safer} of the {len(move.report.tiles)} kinds" in text
    assert all(deal_in_text(m, "x") is None for m in watched.moves if not m.dealt_in)


def test_no_estimate_outside_a_discard_and_none_after_the_end() -> None:
    watched = WatchedGame(RON_SEED, bots_of(RON_SEED))
    assert watched.to_act() is Seat.EAST and watched.report() is None  # choosing (R7)
    play_out(watched)
    assert watched.to_act() is None and watched.report() is None
    assert "tiles hidden" in repr(watched) and "tiles" not in repr(watched.moves[0]).replace(
        "<hidden>", "")
