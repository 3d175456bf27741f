"""The profile screen's questions over the daemon's lobby (protocol/profiles.py): a player's
profile and a kept game's record, answered by the club as ``ssh-server`` gives it to its game
server (frontdoor/lobby_profiles.py), to whom may see them; one line from a daemon that keeps
no profiles (the OpenSSH route's); a record longer than a part comes whole in several."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from minefield.frontdoor.accounts import Accounts
from minefield.frontdoor.club import Club
from minefield.frontdoor.lobby_profiles import ThreadProfiles
from minefield.frontdoor.ratings import Rater
from minefield.protocol import profiles
from minefield.server.daemon import Daemon
from minefield.server.kept_games import KeptGames
from minefield.server.lobby_profiles import NO_PROFILES
from minefield.server.moderation_store import ModerationStore
from tests.server.conftest import ME, Raw, start_daemon
from tests.server.kept_records import write_record


@pytest.fixture
def short_dir() -> Iterator[Path]:
    """A folder with a short path (a Unix socket path has at most 107 bytes)."""
    folder = Path(tempfile.mkdtemp(prefix="mf", dir="/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


async def in_lobby(daemon: Daemon, name: str) -> Raw:
    client = await Raw.connect(daemon.config.socket)
    client.hello("lobby", player=name)
    await client.until("lobby")
    return client


async def club_daemon(folder: Path) -> tuple[Daemon, Club]:
    """A daemon whose lobby answers with the club of Ann, Bob and Cat: g1 public (Ann, Bob),
    g2 a private room's (Ann, Bob), g3 a private room's (Bob, Cat)."""
    daemon = await start_daemon(folder)
    games, database = daemon.config.games_dir, daemon.config.database_path
    write_record(games, "g1", 10, f"Ann@{ME}", f"Bob@{ME}", "public", minute=1)
    write_record(games, "g2", 16, f"Bob@{ME}", f"Ann@{ME}", "private", minute=2)
    write_record(games, "g3", 23, f"Bob@{ME}", f"Cat@{ME}", "private", minute=3)
    accounts = Accounts(database)
    for name in ("Ann", "Bob", "Cat", "Dan"):
        accounts.claim(f"SHA256:{name}", name)
    kept = KeptGames(database, games)
    kept.scan()
    Rater(accounts, games, ME).scan()
    answers = ThreadProfiles(database, games, ME)
    daemon.lobby.profiles.profile_of = answers.profile_of
    daemon.lobby.profiles.record_of = answers.record_of
    return daemon, Club(accounts, kept, ME)


async def test_a_profile_holds_the_figures_of_stats_and_the_games_one_may_see(
        short_dir: Path) -> None:
    daemon, club = await club_daemon(short_dir)
    try:
        cat = await in_lobby(daemon, "Cat")
        cat.send({"type": "ask_profile", "player": "bob"})  # a name in any case
        answer = await cat.until("profile")
        viewer = club.accounts.by_name("Cat")
        assert viewer is not None
        stats = json.loads(club.stats(viewer, "Bob", True))
        assert answer["figures"] == stats and answer["refused"] is None
        assert answer["player"] == "bob"
        # Bob's games Cat may see, newest first: not g2, Ann and Bob's private room's.
        assert [game["game"] for game in answer["games"]] == ["g3", "g1"]
        assert list(answer["games"][0]) == ["game", "ended", "rules", "east", "west", "result",
                                            "points", "rated", "tournament"]
        # Ann sees g2, not g3.
        ann = await in_lobby(daemon, "Ann")
        ann.send({"type": "ask_profile", "player": "Bob"})
        assert [g["game"] for g in (await ann.until("profile"))["games"]] == ["g2", "g1"]
        # Nobody's name: one line; the connection goes on.
        ann.send({"type": "ask_profile", "player": "Zed"})
        refused = await ann.until("profile")
        assert refused["refused"] == "no player is called 'Zed' here"
        assert refused["figures"] is None and refused["games"] == []
        ann.send({"type": "ping"})
        assert (await ann.until("pong"))["type"] == "pong"
        ann.close()
        cat.close()
    finally:
        await daemon.stop()


async def test_a_record_comes_whole_to_whom_may_see_it(
        short_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(profiles, "PART_BYTES", 1500)  # a record in several parts
    daemon, club = await club_daemon(short_dir)
    try:
        ann = await in_lobby(daemon, "Ann")
        ann.send({"type": "ask_record", "game": "g2"})
        lines: list[str] = []
        parts = 0
        while True:
            part = await ann.until("record_part")
            assert part["game"] == "g2" and part["refused"] is None
            lines += part["lines"]
            parts += 1
            if part["last"]:
                break
        assert parts > 1
        assert "".join(f"{line}\n" for line in lines) == club.kept.read_text("g2")
        # A private room's game of two others: one line, no record.
        ann.send({"type": "ask_record", "game": "g3"})
        refused = await ann.until("record_part")
        assert refused == {"type": "record_part", "game": "g3", "lines": [], "last": True,
                           "refused": "no finished game g3 that you may see"}
        # An admin sees it.
        dan = club.accounts.by_name("Dan")
        assert dan is not None
        ModerationStore(daemon.config.database_path).add_admin(dan.id, "test")
        admin = await in_lobby(daemon, "Dan")
        admin.send({"type": "ask_record", "game": "g3"})
        assert (await admin.until("record_part"))["refused"] is None
        admin.send({"type": "ask_profile", "player": "Cat"})
        assert [g["game"] for g in (await admin.until("profile"))["games"]] == ["g3"]
        ann.close()
        admin.close()
    finally:
        await daemon.stop()


async def test_a_daemon_without_profiles_says_so_in_one_line(short_dir: Path) -> None:
    """The OpenSSH route's daemon (``minefield serve``) keeps no accounts: each question is
    answered with one line, and the lobby goes on."""
    daemon = await start_daemon(short_dir)
    try:
        ann = await in_lobby(daemon, "ann")
        ann.send({"type": "ask_profile", "player": "bob"})
        assert (await ann.until("profile"))["refused"] == NO_PROFILES
        ann.send({"type": "ask_record", "game": "g1"})
        assert (await ann.until("record_part"))["refused"] == NO_PROFILES
        ann.send({"type": "ask_profile", "player": "not a name!"})
        error = await ann.until("error")
        assert "player" in error["message"] and not error["fatal"]
        ann.close()
    finally:
        await daemon.stop()


async def test_a_player_asks_for_their_own_games_and_gets_theirs_alone(
        short_dir: Path) -> None:
    """``ask_games`` (``history`` over the OpenSSH route): the asking player's own finished
    games, newest first, at most the limit, from the games the game server keeps, on a daemon
    with no accounts too; a bad limit is one error line and the lobby goes on."""
    daemon = await start_daemon(short_dir)
    try:
        games = daemon.config.games_dir
        write_record(games, "g1", 10, f"ann@{ME}", f"bob@{ME}", "private", minute=1)
        write_record(games, "g2", 16, f"bob@{ME}", f"cat@{ME}", "private", minute=2)
        write_record(games, "g3", 23, f"cat@{ME}", f"ann@{ME}", "public", minute=3)
        assert daemon.kept is not None
        daemon.kept.scan()
        ann = await in_lobby(daemon, "ann")
        ann.send({"type": "ask_games"})
        answer = await ann.until("games")
        assert [game["game"] for game in answer["games"]] == ["g3", "g1"]
        assert answer["games"][0] == daemon.kept.listed(None, None, 1)[0].to_json()
        assert answer["refused"] is None
        ann.send({"type": "ask_games", "limit": 1})
        assert [game["game"] for game in (await ann.until("games"))["games"]] == ["g3"]
        for limit in (0, profiles.MAX_GAMES + 1):
            ann.send({"type": "ask_games", "limit": limit})
            error = await ann.until("error")
            assert "limit" in error["message"] and not error["fatal"]
        dan = await in_lobby(daemon, "dan")
        dan.send({"type": "ask_games"})
        assert (await dan.until("games"))["games"] == []
        ann.close()
        dan.close()
    finally:
        await daemon.stop()
