"""The browser door in a real headless Chromium (``ssh-server --web``): a player signs in with
``ssh HOST web``'s link, is in the same lobby as an SSH player in tmux, accepts that player's
invitation and both play a game by keys; and every refusal (a used or expired link, a forged
cookie, a websocket from another origin, a signed-out session, one session over the cap) is
refused with a clear page or close, without starting a client process.

One ``ssh-server`` and one browser serve the whole module (each test has fresh browser
profiles). Without Chromium the module is skipped, except in CI (``CI=true``), where it fails.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import pytest

from tests.e2e.harness import free_port, keygen, short_folder, unavailable, wait_for
from tests.e2e.test_ssh import RESULT, build_hand, hand_row, play_to_the_end
from tests.frontdoor.browser import CHROMIUM, BrowserPlayer, launch, new_context
from tests.frontdoor.conftest import FrontDoorProcess, SizedTerminals

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext

T = TypeVar("T")
#: A client process started for a browser (one log line each).
STARTED = re.compile(r"browser session of (\w+) \((web-[0-9a-f]+)\) from \S+: \w+, pid (\d+)")
#: Where the screenshots are kept for a person to look at (the test's folder is removed).
SHOTS = Path("/tmp/minefield-web-shots")


@dataclass
class WebSite:
    """The module's server, keys and terminals."""

    folder: Path
    door: FrontDoorProcess
    keys: dict[str, Path]
    terminals: SizedTerminals
    web: str

    def link(self, name: str) -> str:
        """``ssh HOST web`` as ``name``: the link it prints."""
        done = self.door.run(self.keys[name], "web")
        assert done.returncode == 0, done.stderr + self.door.report()
        return done.stdout.strip().splitlines()[-1]

    def log(self) -> str:
        """The server's log so far."""
        return self.door.log.read_text(errors="replace")

    def started(self) -> list[tuple[str, str, int]]:
        """The browser sessions' client processes started so far: (name, session, pid)."""
        return [(m[1], m[2], int(m[3])) for m in STARTED.finditer(self.log())]


class TmuxPlayer:
    """An SSH player in a tmux terminal (the interface of tests.e2e.test_ssh's players)."""

    opened = 0

    def __init__(self, site: WebSite, name: str) -> None:
        self.site = site
        self.name = name
        self.pressed_at: int | None = None
        self.pressed_when = 0.0
        TmuxPlayer.opened += 1
        self.terminal = f"{name}{TmuxPlayer.opened}"
        site.terminals.open(self.terminal, site.door.ssh(site.keys[name], tty=True))

    def screen(self) -> str:
        return self.site.terminals.screen(self.terminal)

    def keys(self, *keys: str) -> None:
        self.site.terminals.keys(self.terminal, *keys)

    def close(self) -> None:
        self.site.terminals.close(self.terminal)

    def report(self) -> str:
        return f"{self.name}'s screen:\n{self.screen()}\n{self.site.door.report()}"

    def wait(self, what: str, check: Callable[[str], T | None]) -> T:
        return wait_for(f"{self.name}: {what}", lambda: check(self.screen()), self.report)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module."""
    if not CHROMIUM.exists():
        unavailable(f"{CHROMIUM} is not installed (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("playwright is not installed (pip install -e '.[test]')")
        raise
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def site() -> Iterator[WebSite]:
    """``ssh-server --open --web`` with two sessions per key (a browser's sessions count by
    its sign-in), and the players ann (the browser), bob (SSH) and cat."""
    if shutil.which("ssh") is None:
        unavailable("the OpenSSH client is not installed (apt-get install openssh-client)")
    with short_folder() as folder:
        keys = {name: keygen(folder / name) for name in ("ann", "bob", "cat")}
        port = free_port()
        door = FrontDoorProcess(folder, "--open", "--web", f"127.0.0.1:{port}",
                                "--sessions-per-key", "2", "--auth-per-minute", "600")
        terminals = SizedTerminals(folder)
        try:
            wait_for("the browser door listens", lambda: "browser door on" in
                     door.log.read_text(errors="replace"), door.report)
            for name in keys:
                assert door.run(keys[name], "name", name).returncode == 0
            yield WebSite(folder, door, keys, terminals, f"http://127.0.0.1:{port}")
        finally:
            terminals.close_all()
            door.stop()


def online(screen: str, name: str) -> bool:
    """The lobby lists ``name`` online (with a rating and what they do)."""
    return re.search(rf"\b{name}(?: \d+)? \(", screen) is not None


def sign_in(site: WebSite, browser: Any, name: str = "ann") -> tuple[Any, Any]:
    """A new browser profile signed in as ``name`` with a fresh link, on the client's page."""
    context = new_context(browser)
    page = context.new_page()
    page.goto(site.link(name))
    page.click("#sign-in")
    page.wait_for_url(site.web + "/")
    return context, page


def shot(page: Any, name: str) -> None:
    """A screenshot (after the terminal's 0.3 s fade-in) kept in :data:`SHOTS`."""
    SHOTS.mkdir(exist_ok=True)
    page.wait_for_timeout(400)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def gone(pid: int) -> bool:
    """The process has exited."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state == "Z"


def websocket_status(site: WebSite, cookie: str | None, origin: str, path: str = "/ws") -> int:
    """The HTTP status a websocket handshake to the door gets (101: accepted; the connection
    is then closed at once)."""
    import base64
    import http.client
    import os

    host, port = site.web.removeprefix("http://").split(":")
    headers = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
               "Sec-WebSocket-Key": base64.b64encode(os.urandom(16)).decode(),
               "Origin": origin}
    if cookie is not None:
        headers["Cookie"] = f"minefield={cookie}"
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        connection.request("GET", f"{path}?width=80&height=24", headers=headers)
        return connection.getresponse().status
    finally:
        connection.close()


def cookie_of(context: BrowserContext) -> str:
    """The session cookie of a browser profile."""
    return next(c["value"] for c in context.cookies() if c["name"] == "minefield")


def test_a_link_signs_the_player_in_with_a_strict_cookie_and_the_lobby_shows(
        site: WebSite, browser: Any) -> None:
    bob = TmuxPlayer(site, "bob")
    bob.wait("the lobby", lambda screen: "Online (" in screen)
    context = new_context(browser)
    page = context.new_page()
    opened = page.goto(site.link("ann"))
    assert "Sign in as ann" in page.inner_text("body")
    assert "script-src 'self'" in opened.headers["content-security-policy"]
    assert context.cookies() == []  # opening the link signs nobody in (a preview cannot)
    with page.expect_response(site.web + "/") as client_page:
        page.click("#sign-in")
    assert "frame-ancestors 'none'" in client_page.value.headers["content-security-policy"]
    [cookie] = context.cookies()
    assert (cookie["name"], cookie["httpOnly"], cookie["sameSite"], cookie["secure"]) == (
        "minefield", True, "Strict", False)
    ann = BrowserPlayer(page, "ann", wait_for)
    screen = ann.wait("the lobby with bob", lambda s: s if "Online (" in s and online(s, "bob")
                      and online(s, "ann") else None)
    assert "Lobby" in screen
    bob.wait("ann in bob's lobby", lambda screen: online(screen, "ann"))
    assert re.search(r"browser sign-in: ann from 127\.0\.0\.1 \(web-[0-9a-f]{12}\)", site.log())
    shot(page, "lobby")
    [(name, _session, pid)] = [s for s in site.started() if s[0] == "ann"][-1:]
    assert name == "ann" and not gone(pid)
    context.close()  # the browser goes: so does its client process
    wait_for("ann's client process ends", lambda: gone(pid), site.door.report)
    bob.keys("q")
    bob.close()


@pytest.mark.long
def test_the_browser_player_accepts_an_ssh_players_invitation_and_they_play_a_game(
        site: WebSite, browser: Any) -> None:
    """A game between a browser and an SSH player, to its result (R11 or a win), kept as the
    invitation's casual game (R36: an invitation is not rated unless it asks)."""
    bob = TmuxPlayer(site, "bob")
    context, page = sign_in(site, browser)
    ann = BrowserPlayer(page, "ann", wait_for)
    ann.wait("bob in ann's lobby", lambda screen: online(screen, "bob"))
    bob.wait("ann in bob's lobby", lambda screen: online(screen, "ann"))
    bob.keys("i")
    bob.wait("the invitation's form", lambda screen: "Invite whom?" in screen)
    bob.keys("C-a", "C-k")  # the name offered cleared first (as a player would type it)
    bob.wait("an empty name", lambda screen: re.search(r"▊ +name +▎", screen))
    bob.keys("a", "n", "n")
    bob.wait("ann typed", lambda screen: re.search(r"▊ +ann +▎", screen))
    bob.keys("Enter")
    ann.wait("the invitation", lambda screen: "bob invites you to a game" in screen)
    shot(page, "invitation")
    ann.keys("y")
    ann.wait("ann seated", lambda screen: "Hand 0/13" in screen and "vs bob" in screen)
    bob.wait("bob seated", lambda screen: "Hand 0/13" in screen and "vs ann" in screen)
    build_hand(ann)
    build_hand(bob)
    ann.wait("the table", hand_row)
    shot(page, "table")
    seeds, _dropped = play_to_the_end(ann, bob, drop=False)
    if None not in seeds:
        assert seeds[0] == seeds[1], "the two players saw different games"
    ann.wait("the result", lambda screen: RESULT.search(screen))
    # Both result screens give the game's link (the browser door is on).
    ann.wait("the link on ann's result", lambda screen: f"Link: {site.web}/game/" in screen)
    bob.wait("the link on bob's result", lambda screen: f"Link: {site.web}/game/" in screen)
    shot(page, "result")

    def kept() -> list[dict[str, Any]] | None:
        listed: list[dict[str, Any]] = site.door.json(site.keys["ann"], "games", "--json")
        return listed or None

    [game] = wait_for("the game kept", kept, site.door.report)
    assert {game["east"], game["west"]} == {"ann", "bob"} and game["rated"] is False, game
    assert game["link"] == f"{site.web}/game/{game['game']}"
    ladder = site.door.json(site.keys["cat"], "ladder", "--json")
    assert not [row for row in ladder if row["name"] in ("ann", "bob")], ladder
    # Its link: an invitation's game is private, so signed out it is refused (nothing
    # started); its player sees its replay and review in the browser.
    started = len(site.started())
    stranger = new_context(browser)
    refused = stranger.new_page().goto(f"{site.web}/game/{game['game']}")
    assert refused.status == 404
    assert websocket_status(site, None, site.web, f"/ws/game/{game['game']}") == 404
    stranger.close()
    assert len(site.started()) == started
    page.goto(f"{site.web}/game/{game['game']}")
    ann.wait("the replay", lambda screen: "Minefield replay" in screen)
    shot(page, "replay")
    # The review is a page of its own (what `review --html` writes): no client is started,
    # nothing is fetched beyond it, and it is reviewed from ann's seat.
    started = len(site.started())
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(f"{site.web}/game/{game['game']}/review")
    text = page.inner_text("body")
    assert requested == [f"{site.web}/game/{game['game']}/review"], requested
    assert "Defense review of ann" in text and "Your regrets" in text
    assert "The build" in text and page.locator(".tile").count() > 13
    assert len(site.started()) == started
    shot(page, "review")
    context.close()
    bob.close()


def test_a_used_or_expired_link_is_refused_with_a_page_and_starts_nothing(
        site: WebSite, browser: Any) -> None:
    started = len(site.started())
    used = site.link("ann")
    other = new_context(browser)
    page = other.new_page()
    page.goto(used)
    page.click("#sign-in")
    BrowserPlayer(page, "ann", wait_for).wait("the lobby", lambda s: "Online (" in s)
    other.close()
    again = new_context(browser)
    page = again.new_page()
    refused = page.goto(used)
    assert refused.status == 403
    text = page.inner_text("body")
    assert "this link was used already" in text and " web" in text
    # A link left waiting past its ten minutes (aged in the store: the server's clock is real).
    expired = site.link("ann")
    database = sqlite3.connect(site.door.data / "players.sqlite")
    with database:
        database.execute("UPDATE web_links SET expires = expires - 601 WHERE used IS NULL")
    database.close()
    refused = page.goto(expired)
    assert refused.status == 403 and "this link has expired" in page.inner_text("body")
    assert again.cookies() == []
    page.goto(site.web + "/")
    assert "Sign in with a link" in page.inner_text("body")
    assert len(site.started()) == started + 1  # the one good sign-in
    for link in (used, expired):  # the log says who signed in, never with what
        assert link.rsplit("/", 1)[1] not in site.log()
    again.close()


def test_a_forged_cookie_and_a_websocket_from_another_origin_are_refused(
        site: WebSite, browser: Any) -> None:
    context, page = sign_in(site, browser)
    BrowserPlayer(page, "ann", wait_for).wait("the lobby", lambda s: "Online (" in s)
    real = cookie_of(context)
    started = len(site.started())
    forged = new_context(browser)
    forged.add_cookies([{"name": "minefield", "value": real[:-2] + "xy", "url": site.web}])
    page = forged.new_page()
    shown = page.goto(site.web + "/")
    assert shown.status == 401 and "Sign in with a link" in page.inner_text("body")
    forged.close()
    assert websocket_status(site, real[:-2] + "xy", site.web) == 403
    assert websocket_status(site, None, site.web) == 403
    assert websocket_status(site, real, "http://evil.example") == 403
    assert websocket_status(site, real, "http://localhost" + site.web[16:]) == 403
    assert "Origin 'http://evil.example' is not" in site.log()
    assert len(site.started()) == started
    # A form of another site cannot sign anyone in either (login CSRF), even with a good link.
    import urllib.error
    import urllib.request

    link = site.link("ann")
    request = urllib.request.Request(link, method="POST",
                                     headers={"Origin": "http://evil.example"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 403
    context.close()


def test_sign_out_all_ends_the_open_session_and_the_cookie_signs_in_no_more(
        site: WebSite, browser: Any) -> None:
    context, page = sign_in(site, browser, "cat")
    cat = BrowserPlayer(page, "cat", wait_for)
    cat.wait("the lobby", lambda s: "Online (" in s)
    cookie = cookie_of(context)
    [(_name, _session, pid)] = [s for s in site.started() if s[0] == "cat"][-1:]
    done = site.door.run(site.keys["cat"], "web", "--sign-out-all")
    assert done.returncode == 0 and "1 session ended" in done.stdout, done.stdout
    wait_for("the page sees its session end", cat.ended, cat.report)
    wait_for("cat's client process ends", lambda: gone(pid), site.door.report)
    started = len(site.started())
    shown = page.goto(site.web + "/")
    assert shown.status == 401 and "Sign in with a link" in page.inner_text("body")
    assert websocket_status(site, cookie, site.web) == 403
    assert len(site.started()) == started
    context.close()


def test_a_session_over_the_cap_is_refused_with_a_page(site: WebSite, browser: Any) -> None:
    """The server runs with two sessions per key: a browser's sign-in counts as one key."""
    context, page = sign_in(site, browser)
    BrowserPlayer(page, "ann", wait_for).wait("the lobby", lambda s: "Online (" in s)
    second = context.new_page()
    second.goto(site.web + "/")
    BrowserPlayer(second, "ann", wait_for).wait("the lobby", lambda s: "Online (" in s)
    started = len(site.started())
    third = context.new_page()
    shown = third.goto(site.web + "/")
    assert shown.status == 429
    assert "this browser already has 2 sessions open: close one first" in third.inner_text(
        "body")
    assert websocket_status(site, cookie_of(context), site.web) == 429
    assert len(site.started()) == started
    context.close()


def test_the_client_page_loads_nothing_from_elsewhere_and_breaks_no_policy(
        site: WebSite, browser: Any) -> None:
    context = new_context(browser)
    page = context.new_page()
    requests: list[str] = []
    problems: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.on("console", lambda message: problems.append(message.text)
            if message.type == "error" else None)
    page.goto(site.link("ann"))
    page.click("#sign-in")
    BrowserPlayer(page, "ann", wait_for).wait("the lobby", lambda s: "Online (" in s)
    assert requests and all(url.startswith((site.web, "ws://127.0.0.1")) for url in requests)
    assert not [p for p in problems if "Content Security Policy" in p], problems
    context.close()



def test_a_public_games_link_opens_its_replay_signed_out_and_a_private_ones_is_refused(
        browser: Any) -> None:
    """``games --json`` gives each game's link; signed out, a public table's game (g1) opens
    in the replay viewer, a private room's (g2) is refused with a page and starts nothing."""
    from tests.frontdoor.test_server_kept import club_records

    with short_folder() as folder:
        ann = keygen(folder / "ann")
        club_records(folder / "door")
        port = free_port()
        door = FrontDoorProcess(folder, "--open", "--web", f"127.0.0.1:{port}")
        terminals = SizedTerminals(folder)
        site = WebSite(folder, door, {"ann": ann}, terminals, f"http://127.0.0.1:{port}")
        try:
            wait_for("the browser door listens", lambda: "browser door on" in site.log(),
                     door.report)
            assert door.run(ann, "name", "Ann").returncode == 0
            links = {game["game"]: game["link"] for game in door.json(ann, "games", "--json")}
            assert links == {name: f"{site.web}/game/{name}" for name in ("g4", "g2", "g1")}
            context = new_context(browser)
            page = context.new_page()
            opened = page.goto(links["g1"])
            assert opened is not None and opened.status == 200
            guest = BrowserPlayer(page, "a guest", wait_for)
            screen = guest.wait("the replay", lambda s: s if "Minefield replay" in s else None)
            assert "Ann (East) vs Bob (West)" in screen
            assert context.cookies() == []  # nobody signed in
            shot(page, "public-game-link")
            started = site.log().count("browser session of")
            refused = context.new_page()
            shown = refused.goto(links["g2"])
            assert shown is not None and shown.status == 404
            assert "No finished game g2 that you may see: sign in" in refused.inner_text("body")
            assert websocket_status(site, None, site.web, "/ws/game/g2") == 404
            assert site.log().count("browser session of") == started
            context.close()
        finally:
            terminals.close_all()
            door.stop()


def test_a_ban_ends_the_browser_session_and_its_cookie_signs_in_no_more(
        site: WebSite, browser: Any) -> None:
    """An admin bans a player signed in on a browser: the page's session ends and its client
    process with it, the cookie signs in no more, and no new link is given to them."""
    from tests.frontdoor.test_server_moderation import host_admin

    assert host_admin(site.door, "add", "ann").returncode == 0
    context, page = sign_in(site, browser, "cat")
    cat = BrowserPlayer(page, "cat", wait_for)
    cat.wait("the lobby", lambda s: "Online (" in s)
    cookie = cookie_of(context)
    [(_name, _session, pid)] = [s for s in site.started() if s[0] == "cat"][-1:]
    try:
        done = site.door.run(site.keys["ann"], "ban", "cat", "--for", "1h", "--reason", "a test")
        assert done.returncode == 0, done.stderr + site.door.report()
        assert re.search(r"\(\d sessions? closed\)$", done.stdout.strip()), done.stdout
        wait_for("the page sees its session end", cat.ended, cat.report)
        wait_for("cat's client process ends", lambda: gone(pid), site.door.report)
        started = len(site.started())
        shown = page.goto(site.web + "/")
        assert shown.status == 401 and "Sign in with a link" in page.inner_text("body")
        assert websocket_status(site, cookie, site.web) == 403
        refused = site.door.run(site.keys["cat"], "web")
        assert refused.returncode == 1 and refused.stderr.startswith(
            "minefield: you are banned from this server until "), refused.stderr
        assert len(site.started()) == started
    finally:
        site.door.run(site.keys["ann"], "unban", "cat")
        context.close()
