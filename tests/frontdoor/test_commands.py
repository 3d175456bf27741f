"""What a player may type after the host: every form, and the refusals."""

from __future__ import annotations

import pytest

from minefield.frontdoor.account_names import NameRefused, check_name
from minefield.frontdoor.commands import BadName, FrontCommand, parse_command
from minefield.frontdoor.grammar import EntryCommand, Refused


@pytest.mark.parametrize(("typed", "expected"), [
    (None, FrontCommand("menu", entry=EntryCommand("menu"))),
    ("", FrontCommand("menu", entry=EntryCommand("menu"))),
    ("minefield", FrontCommand("menu", entry=EntryCommand("menu"))),
    ("host", FrontCommand("host", entry=EntryCommand("host"))),
    ("host --public --bot strong --match",
     FrontCommand("host", entry=EntryCommand("host", bot="strong", match=True), public=True)),
    ("join k7q-3px", FrontCommand("join", entry=EntryCommand("join", code="K7Q3PX"))),
    ("resume", FrontCommand("resume", entry=EntryCommand("resume"))),
    ("history", FrontCommand("history", entry=EntryCommand("history"))),
    ("whoami", FrontCommand("whoami")), ("whoami --json", FrontCommand("whoami", json=True)),
    ("who --json", FrontCommand("who", json=True)), ("ladder", FrontCommand("ladder")),
    ("name Ann", FrontCommand("name", name="Ann")),
    ("watch 20261201T-x", FrontCommand("watch", entry=EntryCommand("watch", game="20261201T-x"),
                                       game="20261201T-x")),
    ("key add ssh-ed25519 AAAAC3Nz me@home",
     FrontCommand("key-add", key="ssh-ed25519 AAAAC3Nz")),
    ("key confirm k7qp-3xwm-2b", FrontCommand("key-confirm", code="K7QP3XWM2B")),
    ("key list", FrontCommand("key-list")),
    ("key list --json", FrontCommand("key-list", json=True)),
    ("key remove SHA256:" + "aB+/" * 10 + "xyz",
     FrontCommand("key-remove", key="SHA256:" + "aB+/" * 10 + "xyz")),
    ("help", FrontCommand("help")),
    ("web", FrontCommand("web")), ("web --sign-out-all", FrontCommand("web-sign-out")),
    ("review 20261201T-x", FrontCommand("review", game="20261201T-x")),
    ("review 20261201T-x --html", FrontCommand("review-html", game="20261201T-x")),
    ("review --html 20261201T-x", FrontCommand("review-html", game="20261201T-x")),
])
def test_accepted(typed: str | None, expected: FrontCommand) -> None:
    assert parse_command(typed) == expected


@pytest.mark.parametrize(("typed", "why"), [
    ("bash", "unknown command 'bash'"),
    ("host; id", "shell syntax"),
    ("who $(id)", "shell syntax"),
    ("name a\x01b", "control characters"),
    ("name 'Ann", "unbalanced quotes"),
    ("whoami --verbose", "takes only --json"),
    ("who everyone", "nothing but --json"),
    ("join --public K7Q3PX", "only host takes --public"),
    ("host --public --public", "given twice"),
    ("host --socket /tmp/x", "--socket is set by the server"),
    ("name", "one new name"),
    ("key list all", "key list takes nothing but --json"),
    ("key", "key takes add PUBLIC-KEY, confirm CODE"),
    ("key add", "key add takes a public key line"),
    ("key confirm", "key confirm takes the code"),
    ("key confirm ab", "key confirm takes the code"),
    ("key remove SHA256:short", "key remove takes a key's fingerprint"),
    ("key remove ssh-ed25519", "key remove takes a key's fingerprint"),
    ("help me", "help takes nothing"),
    ("web --json", "web takes nothing, or --sign-out-all"),
    ("web --sign-out-all now", "web takes nothing, or --sign-out-all"),
    ("x" * 2000, "too long"),
    ("review g1 --html --html", "--html is given twice"),
    ("review --html", "review takes one finished game's id"),
    ("review g1 g2 --html", "review takes one finished game's id"),
    ("review g1 --text", "review takes one finished game's id"),
    ("name \u00e9", "ASCII"),
])
def test_refused(typed: str, why: str) -> None:
    with pytest.raises(Refused, match=why.replace("$", r"\$").replace("(", r"\(")):
        parse_command(typed)


@pytest.mark.parametrize("name", [
    "\u0430lice",  # a Cyrillic a
    "\u200fann",  # a right-to-left mark
    "\x1b[31mAnn",  # a colour
    "Ann.", "a", "Strong", "\u00e9mile",
])
def test_name_refuses_with_the_name_rules_own_reason(name: str) -> None:
    """``name X`` and the name prompt refuse a name with the same line: the name rules'."""
    with pytest.raises(NameRefused) as rules:
        check_name(name)
    with pytest.raises(BadName) as command:
        parse_command(f"name {name}")
    assert str(command.value) == str(rules.value)
