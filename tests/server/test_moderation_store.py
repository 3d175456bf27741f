"""The moderation tables (server/moderation_store.py): admins, bans that end or not, bans
replaced and lifted, the message of the day, the log of admin actions, all kept on disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from minefield.server.moderation_store import ModerationStore

KEY = "SHA256:" + "k" * 43


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(tmp_path: Path, clock: Clock) -> ModerationStore:
    return ModerationStore(tmp_path / "players.sqlite", clock)


def test_a_ban_for_a_time_holds_until_its_end_then_not(store: ModerationStore,
                                                       clock: Clock) -> None:
    ban = store.ban(account=7, fingerprint=None, target="Bob", reason="spam",
                    ends=clock.now + 3600, by="Ann")
    assert store.ban_for(None, 7) == ban
    assert store.ban_for(KEY, 7) == ban  # any key of the account
    assert store.ban_for(KEY, 8) is None and store.ban_for(None, None) is None
    clock.now += 3599
    assert store.ban_for(None, 7) == ban
    clock.now += 1
    assert store.ban_for(None, 7) is None
    assert store.active_bans() == []


def test_a_key_ban_keeps_out_that_key_only(store: ModerationStore) -> None:
    ban = store.ban(account=None, fingerprint=KEY, target=KEY, reason="", ends=None, by="Ann")
    assert ban.ends is None
    assert store.ban_for(KEY, None) == ban
    assert store.ban_for(KEY, 3) == ban  # the key, whoever it logs in as
    assert store.ban_for("SHA256:" + "x" * 43, 3) is None  # the player's other keys
    with pytest.raises(ValueError, match="an account or a key"):
        store.ban(account=3, fingerprint=KEY, target="x", reason="", ends=None, by="Ann")


def test_a_new_ban_replaces_the_old_one_and_unban_lifts_it(store: ModerationStore,
                                                         clock: Clock) -> None:
    store.ban(account=7, fingerprint=None, target="Bob", reason="first", ends=None, by="Ann")
    second = store.ban(account=7, fingerprint=None, target="Bob", reason="second",
                       ends=clock.now + 60, by="Cat")
    assert store.active_bans() == [second]
    assert store.ban_for(None, 7) == second
    assert store.unban(account=7, fingerprint=None, by="Ann") == [second]
    assert store.ban_for(None, 7) is None
    assert store.unban(account=7, fingerprint=None, by="Ann") == []


def test_the_longest_ban_is_the_one_that_refuses(store: ModerationStore, clock: Clock) -> None:
    store.ban(account=7, fingerprint=None, target="Bob", reason="a day", ends=clock.now + 86400,
              by="Ann")
    store.ban(account=None, fingerprint=KEY, target=KEY, reason="for good", ends=None, by="Ann")
    found = store.ban_for(KEY, 7)
    assert found is not None and found.reason == "for good"


def test_admins_motd_and_log_are_kept_on_disk(tmp_path: Path, clock: Clock) -> None:
    store = ModerationStore(tmp_path / "players.sqlite", clock)
    assert store.add_admin(1, "root on the host") is True
    assert store.add_admin(1, "root on the host") is False
    clock.now += 1
    assert store.add_admin(2, "Ann") is True
    assert store.set_motd("Club night on Friday", "Ann") is True
    store.log("Ann", "made Bob an admin")
    store.ban(account=5, fingerprint=None, target="Eve", reason="", ends=None, by="Ann")
    store.close()
    again = ModerationStore(tmp_path / "players.sqlite", clock)
    assert again.admins() == [(1, 1_000_000.0, "root on the host"), (2, 1_000_001.0, "Ann")]
    assert again.is_admin(2) and not again.is_admin(3)
    assert again.motd() == "Club night on Friday"
    assert again.logged() == [(1_000_001.0, "Ann", "made Bob an admin")]
    assert [ban.target for ban in again.active_bans()] == ["Eve"]
    assert again.remove_admin(2) is True and again.remove_admin(2) is False
    assert again.set_motd(None, "Ann") is True
    assert again.motd() is None
    assert again.set_motd(None, "Ann") is False
