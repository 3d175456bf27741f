"""What a player may type after the host: every form, and the refusals."""

from __future__ import annotations

import pytest

from minefield.cli.ssh_entry import EntryCommand, Refused
from minefield.frontdoor.commands import FrontCommand, parse_command


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
    ("key list", "key add takes a public key line"),
    ("x" * 2000, "too long"),
    ("name \u00e9", "ASCII"),
])
def test_refused(typed: str, why: str) -> None:
    with pytest.raises(Refused, match=why.replace("$", r"\$").replace("(", r"\(")):
        parse_command(typed)
