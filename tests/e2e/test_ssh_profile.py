"""The lobby's profile key over the OpenSSH route (``ssh-entry`` and ``minefield serve``),
through real OpenSSH in tmux: that route keeps no accounts and no ratings (``stats`` is
``ssh-server``'s), so ``p`` says so in one line and Escape goes back to the lobby."""

from __future__ import annotations

from minefield.server.lobby_profiles import NO_PROFILES
from tests.e2e.conftest import Site
from tests.e2e.test_ssh import Player


def test_p_says_in_one_line_that_this_route_keeps_no_profiles(site: Site) -> None:
    alice = Player(site, "alice")
    alice.logins = 400  # a terminal of its own
    alice.login()
    alice.wait("the lobby", lambda screen: "Online (" in screen and "alice (" in screen)
    alice.keys("p")
    alice.wait("whose profile", lambda screen: "Whose profile?" in screen)
    alice.keys("a", "l", "i", "c", "e", "Enter")
    # The line as the daemon says it, wrapped or not at the terminal's width.
    alice.wait("one line", lambda screen: "this server keeps no profiles" in screen
               and "Traceback" not in screen)
    assert " ".join(alice.screen().split()).count(NO_PROFILES.split(":")[0]) == 1
    alice.keys("Escape")
    alice.wait("the lobby again", lambda screen: "Online (" in screen
               and "keeps no profiles" not in screen)
    alice.drop_link()
