"""The club's moderation without SSH (frontdoor/moderation.py and the words of
moderation_commands.py): what a ban keeps out and what it says, the admins' actions and their
refusals in one line with nothing changed, the admission of a hello to the game server."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from minefield.frontdoor.accounts import Accounts
from minefield.frontdoor.commands import parse_command
from minefield.frontdoor.moderation import (
    ModerationRefused,
    Moderator,
    host_admin,
    parse_duration,
)
from minefield.frontdoor.moderation_commands import (
    AdminUsage,
    ModerationCommand,
    parse_moderation,
)
from minefield.server.identity import Identity
from minefield.server.moderation_store import ModerationStore

ANN_KEY, BOB_KEY, BOB_OTHER = ("SHA256:" + c * 43 for c in "abc")


@pytest.fixture
def moderator(tmp_path: Path) -> Moderator:
    path = tmp_path / "players.sqlite"
    accounts = Accounts(path, clock=lambda: 1_000_000.0)
    ann = accounts.claim(ANN_KEY, "Ann")
    bob = accounts.claim(BOB_KEY, "Bob")
    accounts.db.execute("INSERT INTO keys (fingerprint, account, added) VALUES (?, ?, ?)",
                        (BOB_OTHER, bob.id, 1.0))
    store = ModerationStore(path, clock=lambda: 1_000_000.0)
    store.add_admin(ann.id, "root on the host")
    return Moderator(accounts, store, "games")


def test_a_banned_player_is_refused_with_every_key_and_at_the_game_server(
        moderator: Moderator) -> None:
    ann = moderator.accounts.by_name("Ann")
    said, ban, holder = moderator.ban(ann, "Ann", "bob", 7 * 86400, "spam in the lobby")
    assert said == "Bob is banned for 7 d, until 1970-01-19 13:46 UTC: spam in the lobby"
    assert holder is not None and holder.name == "Bob" and ban.account == holder.id
    line = "you are banned from this server until 1970-01-19 13:46 UTC: spam in the lobby"
    assert moderator.login_refusal(BOB_KEY) == line
    assert moderator.login_refusal(BOB_OTHER) == line
    assert moderator.login_refusal(ANN_KEY) is None
    # The game server's hello: Bob as a player of the shared account, in any case.
    assert moderator.admission(Identity(key="bOB@games", name="bOB")) == line
    assert moderator.admission(Identity(key="Ann@games", name="Ann")) is None
    # A Unix user called bob (the OpenSSH route's own accounts) is someone else.
    assert moderator.admission(Identity(key="bob", name="bob")) is None


def test_a_key_ban_keeps_out_that_key_only_and_for_good(moderator: Moderator) -> None:
    said, ban, _ = moderator.ban(None, "Ann", BOB_OTHER, None, "")
    assert said == f"{BOB_OTHER} (a key of Bob) is banned for good: no reason given"
    assert ban.account is None and ban.fingerprint == BOB_OTHER
    assert moderator.login_refusal(BOB_OTHER) == (
        "you are banned from this server (permanent): no reason given")
    assert moderator.login_refusal(BOB_KEY) is None
    assert moderator.admission(Identity(key="Bob@games", name="Bob")) is None
    # ssh-entry says which key logged in (sshd tells it): that key is refused there too, for
    # the shared account's players only.
    assert moderator.admission(Identity(key="Bob@games", name="Bob"), BOB_OTHER) == (
        "you are banned from this server (permanent): no reason given")
    assert moderator.admission(Identity(key="Bob@games", name="Bob"), BOB_KEY) is None
    assert moderator.admission(Identity(key="bob", name="bob"), BOB_OTHER) is None
    # A key never seen may be banned before it comes.
    unknown = "SHA256:" + "z" * 43
    moderator.ban(None, "Ann", unknown, 3600, "a known troll's key")
    assert moderator.login_refusal(unknown) is not None
    assert moderator.unban("Ann", unknown) == f"{unknown} is no longer banned."
    assert moderator.login_refusal(unknown) is None


@pytest.mark.parametrize(("target", "reason"), [
    ("Zed", "no player is called 'Zed' here"),
    ("SHA256:abc", "'SHA256:abc' is not a key's fingerprint"),
    ("Ann", "you cannot ban yourself"),
    (ANN_KEY, "you cannot ban yourself"),
    ("bot", "'bot' is reserved"),
])
def test_a_bad_ban_is_one_line_and_changes_nothing(moderator: Moderator, target: str,
                                                   reason: str) -> None:
    ann = moderator.accounts.by_name("Ann")
    with pytest.raises(ModerationRefused, match=reason):
        moderator.ban(ann, "Ann", target, None, "")
    assert moderator.store.active_bans() == []
    assert moderator.store.logged() == []


def test_an_admin_is_not_banned_until_removed(moderator: Moderator) -> None:
    moderator.admin_add("Ann", "Bob")
    with pytest.raises(ModerationRefused, match="Bob is an admin: admin remove Bob first"):
        moderator.ban(None, "Cat", "Bob", None, "")
    assert moderator.admin_remove("Ann", "Bob") == "Bob is no longer an admin."
    moderator.ban(None, "Cat", "Bob", None, "")
    assert moderator.login_refusal(BOB_KEY) is not None
    with pytest.raises(ModerationRefused, match="Bob is not an admin"):
        moderator.admin_remove("Ann", "Bob")


def test_every_action_is_logged_with_who_did_it(moderator: Moderator) -> None:
    moderator.admin_add("Ann", "Bob")
    moderator.motd("Ann", "Club night")
    moderator.motd("Bob", None)
    assert [(by, action) for _, by, action in moderator.store.logged()] == [
        ("Bob", "cleared the message of the day"),
        ("Ann", "set the message of the day: Club night"),
        ("Ann", "made Bob an admin")]


def test_an_admins_rename_is_not_limited_and_the_old_name_stays_reserved(
        moderator: Moderator) -> None:
    name = "Bob"
    for number in range(7):  # past the 5 a day a player may make
        said, renamed = moderator.rename("Ann", name, f"Robert{number}")
        assert renamed.name == f"Robert{number}"
        name = renamed.name
    assert said == "Robert5 is now Robert6 (Robert5 stays reserved to them: release Robert5 " \
        "frees it)."
    with pytest.raises(ModerationRefused, match="the name 'Ann' is taken"):
        moderator.rename("Ann", "Robert6", "Ann")
    assert moderator.accounts.by_name("Robert5") is not None
    assert moderator.release("Ann", "Robert5") == (
        "The name Robert5 is free: anyone may take it (Robert6 keeps theirs).")
    assert moderator.accounts.by_name("Robert5") is None
    with pytest.raises(ModerationRefused, match="is a player's name now"):
        moderator.release("Ann", "Robert6")


def test_the_hosts_admin_command(tmp_path: Path, moderator: Moderator) -> None:
    path = tmp_path / "players.sqlite"
    assert host_admin(path, "add", "bob", False, "me on the host") == (
        "Bob is now an admin of this server.")
    assert host_admin(path, "list", None, False, "me on the host").splitlines() == [
        "Ann (admin since 1970-01-12 13:46 UTC, made by root on the host)",
        f"Bob (admin since {host_admin_time(path)}, made by me on the host)"]
    with pytest.raises(ModerationRefused, match="no player is called 'Zed' here"):
        host_admin(path, "add", "Zed", False, "me on the host")
    assert "made Bob an admin" in host_admin(path, "log", None, False, "me")
    assert host_admin(path, "remove", "Bob", False, "me") == "Bob is no longer an admin."
    with pytest.raises(ModerationRefused, match="Bob is not an admin"):
        host_admin(path, "remove", "Bob", False, "me")
    with pytest.raises(ModerationRefused, match="admin add takes a player's name"):
        host_admin(path, "add", None, False, "me")


def host_admin_time(path: Path) -> str:
    from minefield.frontdoor.accounts import utc

    store = ModerationStore(path)
    return utc(store.admins()[-1][1])


@pytest.mark.parametrize(("typed", "expected"), [
    ("ban Bob", ModerationCommand("ban", name="Bob")),
    ("minefield ban Bob --reason=spam --for=1h",
     ModerationCommand("ban", name="Bob", seconds=3600.0, reason="spam")),
    ('ban Bob --reason "flooding the lobby; twice!" --for 2w',
     ModerationCommand("ban", name="Bob", seconds=14 * 86400.0,
                       reason="flooding the lobby; twice!")),
    ("unban SHA256:" + "a" * 43, ModerationCommand("unban", name="SHA256:" + "a" * 43)),
    ("bans --json", ModerationCommand("bans", json=True)),
    ("kick Bob", ModerationCommand("kick", name="Bob")),
    ("rename Bob Robert", ModerationCommand("rename", name="Bob", new="Robert")),
    ("release Bob", ModerationCommand("release", name="Bob")),
    ("motd Café (8pm) & drinks", ModerationCommand("motd", text="Café (8pm) & drinks")),
    ("motd --clear", ModerationCommand("motd")),
    ("admin add Bob", ModerationCommand("admin-add", name="Bob")),
    ("admin list --json", ModerationCommand("admin-list", json=True)),
])
def test_the_admin_commands_words(typed: str, expected: ModerationCommand) -> None:
    assert parse_moderation(typed) == expected
    command = parse_command(typed)
    assert command.action == "moderation" and command.moderation == expected


@pytest.mark.parametrize(("typed", "reason"), [
    ("ban", "ban takes a player's name"),
    ("ban Bob --for", "--for needs a duration"),
    ("ban Bob --for 0m", "at least a minute"),
    ("ban Bob --for 3651d", "at most 3650 days"),
    ("ban Bob --for 1h --for 2h", "--for is given twice"),
    ("ban Bob --reason", "--reason needs"),
    ("ban Bob --reason " + "x" * 201, "at most 200 characters"),
    ("ban Bob now", "not 'now'"),
    ("unban SHA256:short", "not a key's fingerprint"),
    ("unban", "unban takes"),
    ("kick", "kick takes a player's name"),
    ("kick Bob Cat", "kick takes a player's name"),
    ("rename Bob", "rename takes"),
    ("motd", "motd takes the message"),
    ("motd " + "x" * 201, "at most 200 characters"),
    ("motd bell \x07", "no control or invisible characters (U+0007)"),
    ("motd right\u202eto left", "(U+202E)"),
    ("admin", "admin takes add NAME"),
    ("admin list now", "admin takes add NAME"),
    ("bans --all", "bans takes nothing but --json"),
])
def test_a_bad_admin_command_is_one_line(typed: str, reason: str) -> None:
    with pytest.raises(AdminUsage, match=re.escape(reason)):
        parse_moderation(typed)


def test_durations() -> None:
    assert parse_duration("90m") == 5400
    assert parse_duration("1w2d") == 9 * 86400
    for bad in ("", "7", "h", "1.5h", "-1h", "1y", "1h "):
        with pytest.raises(ModerationRefused):
            parse_duration(bad)


def test_the_hellos_key_is_left_out_unless_known() -> None:
    """Older servers refuse an unknown field: a hello without a key is as before."""
    import json

    from pydantic import ValidationError

    from minefield.protocol.wire import Hello, parse_hello

    plain = json.loads(Hello(version=1, action="lobby", player="bob").model_dump_json())
    assert "key" not in plain
    keyed = Hello(version=1, action="lobby", player="bob", key=BOB_KEY)
    assert parse_hello(keyed.model_dump_json()).key == BOB_KEY
    with pytest.raises(ValidationError):
        Hello(version=1, action="lobby", player="bob", key="SHA256:short")
