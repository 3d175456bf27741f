"""The browser door's ``/game/GAME/review`` (:mod:`minefield.frontdoor.review_pages`): the
page ``review --html`` writes, for whoever may see the game, made once and kept,
with a Content-Security-Policy that allows its own stylesheet and nothing else; no client
process and no websocket for it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from minefield.frontdoor.accounts import Accounts
from minefield.frontdoor.club import Club
from minefield.frontdoor.public_url import PublicUrl
from minefield.frontdoor.review_pages import REVIEW_POLICY
from minefield.frontdoor.web_door import WebDoor
from minefield.rules.seats import Seat
from minefield.server.kept_games import KeptGames
from minefield.trainer.review_page import STYLE_HASH, review_page
from minefield.trainer.review_parts import review_of_record, review_parts
from tests.server.kept_records import write_record

T = TypeVar("T")


class _Front:
    """What the browser door asks of its front door for a signed-out guest's requests."""

    def __init__(self, folder: Path) -> None:
        from minefield.frontdoor.door_config import FrontDoorConfig
        from minefield.frontdoor.limits import Limits

        self.config = FrontDoorConfig(data=folder, limits=Limits(auth_per_minute=600))
        games = folder / "games"
        write_record(games, "g1", 1, "Ann@u", "Bob@u", "public", minute=1)
        write_record(games, "g2", 2, "Bob@u", "Ann@u", "private", minute=2)
        self.accounts = Accounts(folder / "players.sqlite")
        self.kept = KeptGames(folder / "players.sqlite", games)
        self.kept.scan()
        self.club = Club(self.accounts, self.kept, "u")

    async def ask_club(self, question: Callable[[Club], T]) -> T:
        return question(self.club)


async def test_the_review_route_serves_the_review_page(tmp_path: Path) -> None:
    import aiohttp

    front = _Front(tmp_path)
    web = WebDoor(front, "127.0.0.1", 0, PublicUrl.parse("http://127.0.0.1:1"),
                  tmp_path / "players.sqlite")
    await web.start()
    try:
        base = f"http://127.0.0.1:{web.port}"
        async with aiohttp.ClientSession() as client:
            async with client.get(base + "/game/g1/review") as response:
                assert response.status == 200
                assert response.headers["Content-Type"].startswith("text/html")
                policy = response.headers["Content-Security-Policy"]
                text = await response.text()
            async with client.get(base + "/game/g1/review") as response:  # kept, not remade
                assert response.status == 200 and await response.text() == text
            async with client.get(base + "/game/g2/review") as response:  # private
                assert response.status == 404
                assert "sign in to see your private games" in await response.text()
            async with client.get(base + "/ws/game/g1/review") as response:
                assert response.status == 404  # the review is a page: no client for it
            async with client.get(base + "/game/g1") as response:  # the replay is unchanged
                assert response.status == 200
                assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    finally:
        await web.stop()
    # The page ``review --html`` writes, from East's seat (a guest played neither).
    path = front.kept.record_path("g1")
    assert path is not None
    review, names = review_of_record(Path(path), Seat.EAST)
    expected = review_page(review_parts(review, names), "letters",
                           title=f"Defense review of {names[Seat.EAST]} (east) against "
                           f"{names[Seat.WEST]}", source="game g1")
    assert text == expected and "<h2>Your regrets</h2>" in text
    assert policy == REVIEW_POLICY and f"style-src '{STYLE_HASH}'" in policy
    assert "script-src" not in policy and "default-src 'none'" in policy
    assert web.reviews.made == 1 and web.started == 0


async def test_a_record_that_cannot_be_reviewed_is_a_page_not_a_traceback(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    import aiohttp

    front = _Front(tmp_path)
    path = front.kept.record_path("g1")
    assert path is not None
    Path(path).write_text('{"bad\n')  # spoilt after it was kept
    web = WebDoor(front, "127.0.0.1", 0, PublicUrl.parse("http://127.0.0.1:1"),
                  tmp_path / "players.sqlite")
    await web.start()
    try:
        async with aiohttp.ClientSession() as client, \
                client.get(f"http://127.0.0.1:{web.port}/game/g1/review") as response:
            assert response.status == 500
            text = await response.text()
    finally:
        await web.stop()
    assert "The review of game g1 cannot be made from its record." in text
    assert str(tmp_path) not in text and "Traceback" not in text  # no server path shown
    assert "the review of game g1 cannot be made" in caplog.text


def test_reviews_are_made_one_at_a_time_and_the_last_few_kept(tmp_path: Path,
                                                              monkeypatch: Any) -> None:
    from minefield.frontdoor import review_pages

    made: list[str] = []

    def fake(path: Path, seat: Seat, game: str) -> str:
        made.append(game)
        return f"page of {game}"

    monkeypatch.setattr(review_pages, "make_review_page", fake)
    pages = review_pages.ReviewPages(kept=2)

    async def ask() -> list[str | None]:
        return list(await asyncio.gather(*(pages.page(game, tmp_path, Seat.EAST)
                                           for game in ("a", "a", "b", "c", "a"))))

    assert asyncio.run(ask()) == ["page of a", "page of a", "page of b", "page of c",
                                  "page of a"]
    assert made == ["a", "b", "c", "a"]  # "a" made once, then dropped for b and c
