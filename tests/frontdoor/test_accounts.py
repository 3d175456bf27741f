"""Names, keys and stored ratings of the front door's players."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from minefield.frontdoor.account_keys import CODE_SECONDS, MAX_KEYS, CodeRefused, KeyRefused
from minefield.frontdoor.account_names import NameRefused, check_name
from minefield.frontdoor.accounts import Accounts, RenameLimited


class Clock:
    """A clock the test moves (seconds since the epoch)."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("name", ["Ann", "bob_2", "x-y", "ab", "a" * 16])
def test_good_names(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize(("name", "why"), [
    ("a", "not a name"), ("a" * 17, "not a name"), ("ann bob", "not a name"),
    ("Ann.", "not a name"), ("a\x01b", "no control characters"),
    ("a\x7fb", "no control characters"), ("Strong", "reserved"), ("BOT", "reserved"),
    ("whoami", "reserved"), ("\x1b[31mAnn", "no control characters"),
    ("Ann\x9b", "no control characters"),  # a C1 control (CSI)
    # A look-alike letter and an invisible character are named: the name looks right.
    ("\u0430lice", "it has U.0430 CYRILLIC SMALL LETTER A, not a plain ASCII letter"),
    ("Änn", "it has U.00C4 LATIN CAPITAL LETTER A WITH DIAERESIS, not a plain ASCII"),
    ("\u200fann", r"no invisible characters \(it has U\+200F RIGHT-TO-LEFT MARK\)"),
    ("an\u200bn", "no invisible characters .it has U.200B ZERO WIDTH SPACE"),
    ("ann\u00a0", "no invisible characters .it has U.00A0 NO-BREAK SPACE"),
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
    renamed, released = accounts.rename(ann.id, "Annie")
    assert renamed.name == "Annie" and released == []
    with pytest.raises(NameRefused, match="taken"):
        accounts.claim("SHA256:b", "ann")
    assert accounts.by_name("ANN") == renamed  # a former name still finds its player
    assert accounts.rename(ann.id, "Ann")[0].name == "Ann"  # and may be taken back
    with pytest.raises(NameRefused, match="already has a name"):
        accounts.claim("SHA256:a", "Other")
    accounts.close()
    again = Accounts(tmp_path / "players.sqlite")
    found = again.by_key("SHA256:a")
    assert found is not None and found.name == "Ann"


def test_a_second_key_logs_in_as_the_player_only_once_it_gives_its_code(tmp_path: Path
                                                                         ) -> None:
    accounts = Accounts(tmp_path / "p.sqlite")
    ann = accounts.claim("SHA256:a", "Ann")
    bob = accounts.claim("SHA256:b", "Bob")
    offer = accounts.keys.offer(ann.id, "SHA256:a2", asked_by="SHA256:a")
    assert len(offer.code) >= 8
    assert accounts.by_key("SHA256:a2") is None  # offered, not yet Ann's
    with pytest.raises(CodeRefused, match="not one for this key"):
        accounts.keys.confirm("SHA256:someone", offer.code)  # the code is that key's only
    with pytest.raises(CodeRefused, match="not one for this key"):
        accounts.keys.confirm("SHA256:a2", "WRONGCODE2")
    joined, asked_by = accounts.keys.confirm("SHA256:a2", offer.code.lower())
    assert joined.fingerprints == ("SHA256:a", "SHA256:a2") and asked_by == "SHA256:a"
    assert accounts.by_key("SHA256:a2") == accounts.by_key("SHA256:a")
    with pytest.raises(CodeRefused, match="used already"):
        accounts.keys.confirm("SHA256:a2", offer.code)
    with pytest.raises(KeyRefused, match="another player"):
        accounts.keys.offer(ann.id, "SHA256:b", asked_by="SHA256:a")
    with pytest.raises(KeyRefused, match="already yours"):
        accounts.keys.offer(ann.id, "SHA256:a2", asked_by="SHA256:a")
    # A key that took a name of its own after the offer cannot join with it.
    late = accounts.keys.offer(ann.id, "SHA256:c", asked_by="SHA256:a")
    accounts.claim("SHA256:c", "Cat")
    with pytest.raises(KeyRefused, match="already logs in as Cat: it cannot join"):
        accounts.keys.confirm("SHA256:c", late.code)
    # Keys waiting for their code count toward the most an account holds.
    for number in range(MAX_KEYS - 2):
        accounts.keys.offer(ann.id, f"SHA256:more{number}", asked_by="SHA256:a")
    with pytest.raises(KeyRefused, match=f"at most {MAX_KEYS} keys"):
        accounts.keys.offer(ann.id, "SHA256:onetoomany", asked_by="SHA256:a")
    assert accounts.by_key("SHA256:b") == bob


def test_a_code_expires_after_ten_minutes_and_survives_a_restart(tmp_path: Path) -> None:
    clock = Clock()
    accounts = Accounts(tmp_path / "p.sqlite", clock=clock)
    ann = accounts.claim("SHA256:a", "Ann")
    first = accounts.keys.offer(ann.id, "SHA256:x", asked_by="SHA256:a")
    second = accounts.keys.offer(ann.id, "SHA256:y", asked_by="SHA256:a")
    accounts.close()
    clock.now += CODE_SECONDS - 1
    again = Accounts(tmp_path / "p.sqlite", clock=clock)  # the server started again
    assert again.keys.confirm("SHA256:x", first.code)[0].name == "Ann"
    clock.now += 1
    with pytest.raises(CodeRefused, match=r"expired \(a code lasts 10 minutes\)"):
        again.keys.confirm("SHA256:y", second.code)
    assert again.by_key("SHA256:y") is None
    # The code itself is not in the file (only its SHA-256).
    stored = sqlite3.connect(tmp_path / "p.sqlite").execute(
        "SELECT group_concat(digest) FROM key_codes").fetchone()[0]
    assert first.code not in stored and second.code not in stored


def test_a_new_offer_replaces_the_last_for_that_key(tmp_path: Path) -> None:
    accounts = Accounts(tmp_path / "p.sqlite")
    ann = accounts.claim("SHA256:a", "Ann")
    old = accounts.keys.offer(ann.id, "SHA256:x", asked_by="SHA256:a")
    new = accounts.keys.offer(ann.id, "SHA256:x", asked_by="SHA256:a")
    with pytest.raises(CodeRefused, match="not one for this key"):
        accounts.keys.confirm("SHA256:x", old.code)
    assert accounts.keys.confirm("SHA256:x", new.code)[0].id == ann.id


def test_keys_are_listed_and_removed_but_never_the_last(tmp_path: Path) -> None:
    clock = Clock()
    accounts = Accounts(tmp_path / "p.sqlite", clock=clock)
    ann = accounts.claim("SHA256:a", "Ann")
    accounts.keys.confirm("SHA256:b", accounts.keys.offer(ann.id, "SHA256:b", "SHA256:a").code)
    clock.now += 5
    offer = accounts.keys.offer(ann.id, "SHA256:c", "SHA256:a")
    listed = accounts.keys.listed(ann.id)
    assert [(k.fingerprint, k.pending) for k in listed] == [
        ("SHA256:a", False), ("SHA256:b", False), ("SHA256:c", True)]
    assert listed[2].since == offer.expires
    assert accounts.keys.remove(ann.id, "SHA256:c") is False  # a waiting code withdrawn
    with pytest.raises(CodeRefused):
        accounts.keys.confirm("SHA256:c", offer.code)
    with pytest.raises(KeyRefused, match="not one of yours"):
        accounts.keys.remove(ann.id, "SHA256:zzz")
    assert accounts.keys.remove(ann.id, "SHA256:a") is True
    assert accounts.by_key("SHA256:a") is None
    with pytest.raises(KeyRefused, match="that is your last key"):
        accounts.keys.remove(ann.id, "SHA256:b")
    assert accounts.by_key("SHA256:b") is not None


def test_five_name_changes_a_day_and_three_former_names_kept(tmp_path: Path) -> None:
    clock = Clock()
    accounts = Accounts(tmp_path / "p.sqlite", clock=clock)
    ann = accounts.claim("SHA256:a", "Ann")
    released: list[str] = []
    for number in range(1, 6):
        clock.now += 60
        account, freed = accounts.rename(ann.id, f"Ann{number}")
        released += freed
    assert account.name == "Ann5"
    # The three latest former names stay Ann's; the older were released, one at a time.
    assert accounts.former_names(ann.id) == ["ann4", "ann3", "ann2"]
    assert released == ["ann", "ann1"]
    assert accounts.by_name("ann3") == account and accounts.by_name("Ann1") is None
    with pytest.raises(RenameLimited, match=(
            r"^at most 5 name changes a day: the next is allowed at 2027-01-16 08:01 UTC "
            r"\(in 23 h 56 min\)$")):
        accounts.rename(ann.id, "Ann6")
    assert accounts.by_key("SHA256:a") == account  # nothing changed
    clock.now = 1_800_000_000.0 + 60 + 86400  # a day after the first change
    assert accounts.rename(ann.id, "Ann6")[0].name == "Ann6"
    with pytest.raises(RenameLimited):
        accounts.rename(ann.id, "Ann7")
    # A released name is anyone's again.
    assert accounts.claim("SHA256:b", "ann1").name == "ann1"


def test_a_former_name_taken_back_is_no_longer_former(tmp_path: Path) -> None:
    accounts = Accounts(tmp_path / "p.sqlite")
    ann = accounts.claim("SHA256:a", "Ann")
    accounts.rename(ann.id, "Annie")
    account, _ = accounts.rename(ann.id, "ann")
    assert account.name == "ann" and accounts.former_names(ann.id) == ["annie"]
    with pytest.raises(NameRefused, match="you are already 'ann'"):
        accounts.rename(ann.id, "ann")


def test_an_operator_releases_a_former_name(tmp_path: Path) -> None:
    """What the operator's ``release NAME`` (the club's moderation) calls."""
    accounts = Accounts(tmp_path / "p.sqlite")
    ann = accounts.claim("SHA256:a", "Ann")
    accounts.rename(ann.id, "Annie")
    assert accounts.release("ANN").id == ann.id
    assert accounts.former_names(ann.id) == []
    assert accounts.claim("SHA256:b", "Ann").name == "Ann"
    with pytest.raises(NameRefused, match="'Annie' is a player's name now"):
        accounts.release("annie")
    with pytest.raises(NameRefused, match="nobody holds the name 'zed'"):
        accounts.release("zed")


def test_a_file_of_before_keeps_each_players_three_latest_former_names(tmp_path: Path
                                                                      ) -> None:
    path = tmp_path / "p.sqlite"
    old = sqlite3.connect(path)  # the tables as they were, with 13 names for one key
    old.executescript("""
        CREATE TABLE accounts (id INTEGER PRIMARY KEY, name TEXT NOT NULL, created REAL NOT NULL,
            rating REAL NOT NULL, deviation REAL NOT NULL, volatility REAL NOT NULL,
            games INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE names (folded TEXT PRIMARY KEY, account INTEGER NOT NULL);
        CREATE TABLE keys (fingerprint TEXT PRIMARY KEY, account INTEGER NOT NULL,
            added REAL NOT NULL);
        INSERT INTO accounts VALUES (1, 'N12', 0, 1500, 350, 0.06, 0);
        INSERT INTO keys VALUES ('SHA256:a', 1, 0);
    """)
    for number in range(13):
        old.execute("INSERT INTO names VALUES (?, 1)", (f"n{number}",))
    old.commit()
    old.close()
    accounts = Accounts(path)
    assert accounts.former_names(1) == ["n11", "n10", "n9"]
    assert accounts.by_name("N12") is not None and accounts.by_name("n8") is None
    assert Accounts(path).former_names(1) == ["n11", "n10", "n9"]  # opened again: the same


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
