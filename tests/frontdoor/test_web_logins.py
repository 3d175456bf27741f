"""The browser door's links and sessions (:mod:`minefield.frontdoor.web_logins`): single use,
ten minutes, kept hashed, kept across a restart, ended by a sign-out."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

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
