"""The club's answers over the kept games (frontdoor/club.py), without SSH: whose games a
player's names find (a former name too), what a review opens, and refusals in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from minefield.frontdoor.accounts import Accounts
from minefield.frontdoor.club import Club, ClubRefused
from minefield.rules.seats import Seat
from minefield.server.kept_games import KeptGames
from tests.server.kept_records import write_record


@pytest.fixture
def club(tmp_path: Path) -> Club:
    games = tmp_path / "games"
    write_record(games, "g1", 1, "Ann@u", "Bob@u", "public", minute=1)
    write_record(games, "g2", 2, "Bob@u", "Ann@u", "private", minute=2)
    write_record(games, "g3", 3, "Bob@u", "Cat@u", "invitation", minute=3)
    accounts = Accounts(tmp_path / "players.sqlite")
    for name in ("Ann", "Bob", "Cat"):
        accounts.claim(f"SHA256:{name}", name)
    kept = KeptGames(tmp_path / "players.sqlite", games)
    kept.scan()
    return Club(accounts, kept, "u")


def test_a_review_opens_from_the_players_seat_or_easts(club: Club) -> None:
    ann, cat = club.accounts.by_name("Ann"), club.accounts.by_name("Cat")
    assert ann is not None and cat is not None
    path = str(club.kept.record_path("g2"))
    assert club.client_argv(ann, "review", "g2") == ["review", "--seat", "west", path]
    assert club.client_argv(cat, "review", "g1")[:3] == ["review", "--seat", "east"]
    assert club.client_argv(cat, "replay", "g1") == ["replay", str(club.kept.record_path("g1"))]
    with pytest.raises(ClubRefused, match="no finished game g2 that you may see"):
        club.client_argv(cat, "replay", "g2")
    # review GAME --html: the same record and seat, the same refusal.
    assert club.review_source(ann, "g2") == (club.kept.record_path("g2"), Seat.WEST)
    assert club.review_source(cat, "g1") == (club.kept.record_path("g1"), Seat.EAST)
    with pytest.raises(ClubRefused, match="no finished game g2 that you may see"):
        club.review_source(cat, "g2")


def test_a_renamed_player_keeps_the_games_of_the_former_name(club: Club) -> None:
    ann = club.accounts.by_name("Ann")
    assert ann is not None
    renamed, _ = club.accounts.rename(ann.id, "Anna")
    assert [g["game"] for g in json.loads(club.games(renamed, None, None, True))] == [
        "g2", "g1"]
    bob = club.accounts.by_name("Bob")
    assert bob is not None
    assert [g["game"] for g in json.loads(club.games(bob, "Anna", None, True))] == ["g2", "g1"]
    with pytest.raises(ClubRefused, match="no player is called 'Zed' here"):
        club.stats(bob, "Zed", True)
