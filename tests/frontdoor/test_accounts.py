"""Names, keys and stored ratings of the front door's players."""

from __future__ import annotations

from pathlib import Path

import pytest

from minefield.frontdoor.accounts import (
    MAX_KEYS,
    Accounts,
    KeyRefused,
    NameRefused,
    check_name,
)


@pytest.mark.parametrize("name", ["Ann", "bob_2", "x-y", "ab", "a" * 16])
def test_good_names(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize(("name", "why"), [
    ("a", "not a name"), ("a" * 17, "not a name"), ("ann bob", "not a name"),
    ("Ann.", "not a name"), ("Änn", "not a name"), ("a\x01b", "no control characters"),
    ("a\x7fb", "no control characters"), ("Strong", "reserved"), ("BOT", "reserved"),
    ("whoami", "reserved"),
])
def test_bad_names_are_refused_with_the_reason(name: str, why: str) -> None:
    with pytest.raises(NameRefused, match=why):
        check_name(name)


def test_names_are_unique_without_regard_to_case_and_kept_after_a_rename(tmp_path: Path
                                                                         ) -> None:
    accounts = Accounts(tmp_path / "players.sqlite")
    ann = accounts.claim("SHA256:a", "Ann")
    with pytest.raises(NameRefused, match="taken"):
        accounts.claim("SHA256:b", "aNN")
    assert accounts.by_key("SHA256:b") is None  # nothing half-made
    renamed = accounts.rename(ann.id, "Annie")
    assert renamed.name == "Annie"
    with pytest.raises(NameRefused, match="taken"):
        accounts.claim("SHA256:b", "ann")
    assert accounts.by_name("ANN") == renamed  # a former name still finds its player
    assert accounts.rename(ann.id, "Ann").name == "Ann"  # and may be taken back
    with pytest.raises(NameRefused, match="already has a name"):
        accounts.claim("SHA256:a", "Other")
    accounts.close()
    again = Accounts(tmp_path / "players.sqlite")
    assert again.by_key("SHA256:a") is not None and again.by_key("SHA256:a").name == "Ann"


def test_a_second_key_logs_in_as_the_same_player(tmp_path: Path) -> None:
    accounts = Accounts(tmp_path / "p.sqlite")
    ann = accounts.claim("SHA256:a", "Ann")
    bob = accounts.claim("SHA256:b", "Bob")
    assert accounts.add_key(ann.id, "SHA256:a2").fingerprints == ("SHA256:a", "SHA256:a2")
    assert accounts.by_key("SHA256:a2") == accounts.by_key("SHA256:a")
    with pytest.raises(KeyRefused, match="another player"):
        accounts.add_key(ann.id, "SHA256:b")
    with pytest.raises(KeyRefused, match="already yours"):
        accounts.add_key(ann.id, "SHA256:a2")
    for number in range(MAX_KEYS - 2):
        accounts.add_key(ann.id, f"SHA256:more{number}")
    with pytest.raises(KeyRefused, match=f"at most {MAX_KEYS}"):
        accounts.add_key(ann.id, "SHA256:onetoomany")
    assert accounts.by_key("SHA256:b") == bob


def test_a_rated_game_is_stored_once_and_the_ladder_lists_rated_players(tmp_path: Path
                                                                       ) -> None:
    accounts = Accounts(tmp_path / "p.sqlite")
    ann = accounts.claim("SHA256:a", "Ann")
    bob = accounts.claim("SHA256:b", "Bob")
    accounts.claim("SHA256:c", "Cat")
    assert accounts.ladder() == []
    accounts.rate("game-1", [(ann.id, 1600.0, 300.0, 0.06), (bob.id, 1400.0, 300.0, 0.06)])
    assert accounts.is_rated("game-1") and not accounts.is_rated("game-2")
    ladder = accounts.ladder()
    assert [(a.name, a.rating, a.games) for a in ladder] == [("Ann", 1600.0, 1),
                                                             ("Bob", 1400.0, 1)]
