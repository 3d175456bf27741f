"""A table's life (minefield/table/series.py): a single game and a match are
the two kinds of series; every game of a series is dealt in one place; a rematch is a new
series linked to the old one by id."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from minefield.protocol.messages import PlayerInfo
from minefield.rules.auto import auto_command
from minefield.rules.game import ChooseHand, Discard, Game, IllegalCommand, Seat
from minefield.rules.match import Match, MatchError
from minefield.table.game_table import Recorder
from minefield.table.match_table import MatchTable
from minefield.table.series import Series, SingleGame

NAMES = ("Ann", "Bob")


class Lines:
    """A record in memory."""

    def __init__(self) -> None:
        self.commands: list[int] = []

    def command(self, seq: int, seat: Seat, command: ChooseHand | Discard, *,
                command_id: str | None = None, automatic: bool = False) -> None:
        self.commands.append(seq)

    def result(self, game: Game) -> None:
        pass


def play_out(series: Series) -> None:
    """Both seats play R25's automatic moves until the game on the table ends."""
    table = series.table
    while table.game.phase != "ended":
        seat = next(s for s in Seat if table.must_act(s))
        table.submit(seat, None, auto_command(table.game.view(seat)), now=0.0)


def test_a_single_game_is_a_series_with_no_next_game() -> None:
    made: list[Mapping[Seat, str]] = []

    def record(game: Game, seats: Mapping[Seat, str]) -> Recorder:
        made.append(dict(seats))
        return Lines()

    series = SingleGame(Game(3), {Seat.EAST: PlayerInfo(name="Ann"),
                                  Seat.WEST: PlayerInfo(name="Bob")}, recorders=record)
    assert series.kind == "single" and series.over and series.view() is None
    assert made == [{Seat.EAST: "Ann", Seat.WEST: "Bob"}]  # the record of its one game
    play_out(series)
    assert series.game_ended
    with pytest.raises(IllegalCommand, match="a single game has no next game"):
        series.next_game(now=0.0)
    assert series.ask_next_game("Ann", now=0.0) == []


def test_a_rematch_is_a_new_series_linked_by_id_with_the_seats_swapped() -> None:
    names = {Seat.EAST: "ann@games", Seat.WEST: "bob@games"}
    series = SingleGame(Game(3), {seat: PlayerInfo(name=name.split("@")[0])
                                  for seat, name in names.items()}, names=names)
    play_out(series)
    again = series.rematch(seed=4)
    assert again is not series and again.id != series.id and again.rematch_of == series.id
    assert again.seats == {Seat.EAST: "bob@games", Seat.WEST: "ann@games"}
    assert again.table.players[Seat.EAST].name == "bob"  # the views keep the shown names
    assert again.table.game.phase == "choosing" and series.game_ended  # the old one as it was


def test_a_match_deals_each_game_through_next_game_and_its_rematch_is_a_new_match() -> None:
    match = Match(7, NAMES)
    series = MatchTable(match, {name: PlayerInfo(name=name) for name in NAMES})
    assert series.kind == "match" and not series.over and series.players == NAMES
    with pytest.raises(MatchError, match="has not ended"):
        series.next_game(now=0.0)
    play_out(series)
    first_table = series.table
    assert series.ask_next_game("Ann", now=0.0) and series.next_asked == {"Ann"}
    series.ask_next_game("Bob", now=0.0)  # both asked: the next game is dealt
    assert series.table is not first_table and series.next_asked == set()
    view = series.view()
    assert view is not None and view.game == 2
    again = series.rematch(seed=8)
    assert isinstance(again, MatchTable) and again.rematch_of == series.id
    assert again.match.players == NAMES and again.match.game_number == 1
    assert series.match.game_number == 2  # the old match is left as it was
