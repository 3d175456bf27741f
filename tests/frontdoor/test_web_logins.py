"""The browser door's links and sessions (:mod:`minefield.frontdoor.web_logins`): single use,
ten minutes, kept hashed, kept across a restart, ended by a sign-out."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from minefield.frontdoor.web_door import PublicUrl, WebDoorError, content_policy
from minefield.frontdoor.web_logins import (
    LINK_SECONDS,
    MAX_WAITING_LINKS,
    LinkRefused,
    WebLogins,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_link_has_128_bits_serves_once_and_is_kept_only_hashed(tmp_path: Path) -> None:
    path = tmp_path / "players.sqlite"
    logins = WebLogins(path)
    token, _expires = logins.issue(3)
    assert len(token) == 22  # 16 bytes in URL-safe base64
    stored = sqlite3.connect(path).execute("SELECT digest FROM web_links").fetchall()
    assert token not in {row[0] for row in stored}
    account, cookie = logins.redeem(token)
    assert account == 3
    rows = sqlite3.connect(path).execute("SELECT digest FROM web_sessions").fetchall()
    assert cookie not in {row[0] for row in rows}
    with pytest.raises(LinkRefused, match="used already"):
        logins.redeem(token)
    with pytest.raises(LinkRefused, match="not one this server gave"):
        logins.redeem(token[:-1] + ("A" if token[-1] != "A" else "B"))


def test_a_link_expires_after_ten_minutes() -> None:
    clock = Clock()
    logins = WebLogins(":memory:", clock=clock)
    token, expires = logins.issue(3)
    assert expires == clock.now + LINK_SECONDS == clock.now + 600
    clock.now += LINK_SECONDS + 1
    with pytest.raises(LinkRefused, match="expired"):
        logins.peek(token)
    with pytest.raises(LinkRefused, match="expired"):
        logins.redeem(token)


def test_links_and_sessions_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "players.sqlite"
    first = WebLogins(path)
    waiting, _ = first.issue(5)
    used, _ = first.issue(5)
    _account, cookie = first.redeem(used)
    first.close()
    again = WebLogins(path)
    assert again.peek(waiting) == 5
    session = again.session(cookie)
    assert session is not None and session.account == 5
    with pytest.raises(LinkRefused, match="used already"):
        again.redeem(used)


def test_sign_out_all_ends_the_players_sessions_and_waiting_links_only() -> None:
    logins = WebLogins(":memory:")
    cookies = [logins.redeem(logins.issue(1)[0])[1] for _ in range(2)]
    other = logins.redeem(logins.issue(2)[0])[1]
    waiting, _ = logins.issue(1)
    assert logins.sign_out_all(1) == 2
    assert [logins.session(cookie) for cookie in cookies] == [None, None]
    assert logins.session(other) is not None
    with pytest.raises(LinkRefused):
        logins.redeem(waiting)


def test_a_forged_or_missing_cookie_is_no_session() -> None:
    logins = WebLogins(":memory:")
    logins.redeem(logins.issue(1)[0])
    assert logins.session(None) is None
    assert logins.session("") is None
    assert logins.session("A" * 43) is None
    assert logins.session("x" * 10_000) is None


def test_only_the_newest_waiting_links_work() -> None:
    clock = Clock()
    logins = WebLogins(":memory:", clock=clock)
    tokens = []
    for _ in range(MAX_WAITING_LINKS + 1):
        tokens.append(logins.issue(1)[0])
        clock.now += 1
    with pytest.raises(LinkRefused):
        logins.peek(tokens[0])
    assert all(logins.peek(token) == 1 for token in tokens[1:])


@pytest.mark.parametrize(("text", "origin", "websocket"), [
    ("http://127.0.0.1:8080", "http://127.0.0.1:8080", "ws://127.0.0.1:8080/ws"),
    ("https://Mahjong.Example.org:443/", "https://mahjong.example.org",
     "wss://mahjong.example.org/ws"),
    ("http://[::1]:9000", "http://[::1]:9000", "ws://[::1]:9000/ws"),
])
def test_public_url(text: str, origin: str, websocket: str) -> None:
    public = PublicUrl.parse(text)
    assert (public.origin, public.websocket) == (origin, websocket)
    policy = content_policy(public)
    assert f"connect-src {websocket};" in policy
    assert "script-src 'self';" in policy and "frame-ancestors 'none'" in policy


@pytest.mark.parametrize("text", ["ftp://x.org", "https://x.org/play", "x.org", "https://",
                                  "https://u@x.org", "http://x.org:99999"])
def test_public_url_refused(text: str) -> None:
    with pytest.raises(WebDoorError, match="--public-url"):
        PublicUrl.parse(text)


class _Front:
    """What the browser door asks of its front door, for requests that need no account."""

    def __init__(self, folder: Path, auth_per_minute: int) -> None:
        from minefield.frontdoor.door_config import FrontDoorConfig
        from minefield.frontdoor.limits import Limits

        self.config = FrontDoorConfig(data=folder, limits=Limits(auth_per_minute=auth_per_minute))


async def test_requests_past_the_per_address_limit_are_refused_with_a_page(
        tmp_path: Path) -> None:
    """One SSH connection a minute allows four requests (a sign-in's), then 429 with a page;
    static files are not counted; every response has the Content-Security-Policy."""
    import aiohttp

    from minefield.frontdoor.web_door import WebDoor

    web = WebDoor(_Front(tmp_path, auth_per_minute=1), "127.0.0.1", 0,
                  PublicUrl.parse("http://127.0.0.1:1"), tmp_path / "players.sqlite")
    await web.start()
    try:
        base = f"http://127.0.0.1:{web.port}"
        async with aiohttp.ClientSession() as client:
            statuses = []
            for _ in range(5):
                async with client.get(base + "/") as response:
                    statuses.append(response.status)
                    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
                    text = await response.text()
            assert statuses == [401, 401, 401, 401, 429]
            assert "Too many requests from 127.0.0.1" in text
            async with client.get(base + "/") as response:  # still refused
                assert response.status == 429
            async with client.get(base + "/static/js/textual.js") as response:
                assert response.status == 200
                assert "Content-Security-Policy" in response.headers
            async with client.get(base + "/web/nothing-here") as response:
                assert response.status == 404
                assert "Content-Security-Policy" in response.headers
    finally:
        await web.stop()
