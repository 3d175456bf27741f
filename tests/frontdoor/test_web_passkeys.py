"""Passkeys on the browser door (``ssh-server --open --web``), in a real headless Chromium with
its virtual authenticator (the DevTools protocol's WebAuthn domain): a player without an SSH
key signs up with a name and a passkey, signs in again with it later, and a browser without
that passkey cannot sign in as that name (nor take it); an SSH key joins the passkey's player
with the code the browser's keys page gives (the proof rule of ``key add``). WebAuthn needs a
host name, not an address: the page is opened as ``localhost``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.harness import free_port, keygen, short_folder, wait_for
from tests.frontdoor.browser import BrowserPlayer, new_context
from tests.frontdoor.conftest import FrontDoorProcess
from tests.frontdoor.test_web_browser import browser  # noqa: F401 - the module's Chromium

AUTHENTICATOR = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                 "hasUserVerification": True, "isUserVerified": True,
                 "automaticPresenceSimulation": True}


@pytest.fixture(scope="module")
def door() -> Iterator[tuple[FrontDoorProcess, str]]:
    """``ssh-server --open`` with its browser door at ``http://localhost:PORT``."""
    with short_folder() as folder:
        port = free_port()
        web = f"http://localhost:{port}"
        server = FrontDoorProcess(folder, "--open", "--web", f"127.0.0.1:{port}",
                                  "--public-url", web)
        try:
            wait_for("the browser door listens", lambda: "browser door on" in
                     server.log.read_text(errors="replace"), server.report)
            yield server, web
        finally:
            server.stop()


def with_authenticator(context: Any) -> Any:
    """A page with a virtual platform authenticator of its own (no passkey yet)."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return page


def message(page: Any) -> str:
    """What the passkey page says, once it says something."""
    return str(wait_for("the page's message", lambda: page.inner_text("#message"),
                        lambda: page.content()))


def test_a_passkey_signs_up_and_in_and_another_browser_cannot_use_the_name(
        door: tuple[FrontDoorProcess, str], browser: Any) -> None:  # noqa: F811
    server, web = door
    context = new_context(browser)
    page = with_authenticator(context)
    page.goto(web + "/passkey")
    page.fill("#name", "dee")
    page.click("#sign-up")
    page.wait_for_url(web + "/")
    dee = BrowserPlayer(page, "dee", wait_for)
    dee.wait("the lobby", lambda screen: "Online (" in screen and "dee " in screen)
    assert "browser sign-in: dee from 127.0.0.1 (passkey sign-up" in server.log.read_text()
    # Later, signed out (no cookie): the same passkey signs dee in again.
    context.clear_cookies()
    page.goto(web + "/passkey")
    page.click("#sign-in")
    page.wait_for_url(web + "/")
    dee.wait("the lobby again", lambda screen: "Online (" in screen and "dee " in screen)
    assert "browser sign-in: dee from 127.0.0.1 (passkey, web-" in server.log.read_text()
    # An SSH key joins dee with the code the browser gives, as with key add over SSH.
    key = keygen(server.folder / "dee")
    page.goto(web + "/keys")
    page.fill("#key", (server.folder / "dee.pub").read_text())
    page.click("#add-key")
    command = page.inner_text("#command").split()
    assert command[-3:-1] == ["key", "confirm"], command
    assert server.json(key, "whoami", "--json")["name"] is None  # not dee before the code
    done = server.run(key, "key", "confirm", command[-1])
    assert done.returncode == 0 and "now logs in as dee" in done.stdout, done.stderr
    assert server.json(key, "whoami", "--json")["name"] == "dee"
    # Another browser, with a passkey of its own, is neither dee nor can become dee.
    other = new_context(browser)
    stranger = with_authenticator(other)
    stranger.goto(web + "/passkey")
    stranger.click("#sign-in")
    assert message(stranger).startswith("Not signed in:")
    assert other.cookies() == []
    stranger.fill("#name", "DEE")
    stranger.click("#sign-up")
    assert "the name 'DEE' is taken" in message(stranger)
    assert other.cookies() == []
    stranger.goto(web + "/")
    assert "Sign in with a link" in stranger.inner_text("body")
    other.close()
    context.close()


def test_a_banned_players_passkey_signs_in_no_more(
        door: tuple[FrontDoorProcess, str], browser: Any) -> None:  # noqa: F811
    """A ban holds on a passkey too: its sign-in is refused with the line an SSH login gets,
    and no cookie is set; lifted, the passkey signs in again."""
    from tests.frontdoor.test_server_moderation import host_admin

    server, web = door
    admin = keygen(server.folder / "boss")
    assert server.run(admin, "name", "boss").returncode == 0
    assert host_admin(server, "add", "boss").returncode == 0
    context = new_context(browser)
    page = with_authenticator(context)
    page.goto(web + "/passkey")
    page.fill("#name", "eve")
    page.click("#sign-up")
    page.wait_for_url(web + "/")
    banned = server.run(admin, "ban", "eve", "--reason", "spam")
    assert banned.returncode == 0, banned.stderr + server.report()
    context.clear_cookies()
    page.goto(web + "/passkey")
    page.click("#sign-in")
    assert message(page) == ("Not signed in: you are banned from this server (permanent): "
                             "spam")
    assert context.cookies() == []
    assert server.run(admin, "unban", "eve").returncode == 0
    page.goto(web + "/passkey")
    page.click("#sign-in")
    page.wait_for_url(web + "/")
    context.close()
