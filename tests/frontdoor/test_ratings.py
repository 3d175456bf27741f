"""Glicko-2 ratings from the daemon's finished records: people rated, bots and strangers not,
each game once."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from minefield.frontdoor import ratings
from minefield.frontdoor.accounts import Accounts
from minefield.frontdoor.ratings import Rater, RatingScanner, rate_pair
from minefield.records.header import Players
from minefield.records.reader import ReadRecord, read_record
from minefield.records.writer import RecordWriter
from minefield.rules.auto import auto_command
from minefield.rules.game import Game, IllegalCommand, Seat
from minefield.rules.settings import RuleSettings

ACCOUNT = "games"


def play_record(folder: Path, east: str, west: str, seed: str, finish: bool = True) -> Path:
    """A network game's record played by the R25 automatic moves (ended unless ``finish`` is
    False); its path."""
    game = Game(seed, RuleSettings())
    writer = RecordWriter.start(game, "network", Players(east=east, west=west), folder)
    seq = 0
    while game.result is None:
        for seat in Seat:
            if game.result is not None:
                break
            try:
                command = auto_command(game.view(seat))
                game.apply(seat, command)
            except IllegalCommand:
                continue
            seq += 1
            writer.command(seq, seat, command)
        if not finish and seq >= 4:
            return writer.path
    writer.result(game)
    return writer.path


def test_rate_pair_is_the_glicko2_update_both_ways() -> None:
    ann, bob = rate_pair((1500.0, 200.0, 0.06), (1400.0, 30.0, 0.06), score=1.0)
    # Glickman's worked example (1500/200 beats 1400/30): 1563.6, deviation 175.4.
    assert ann[0] == pytest.approx(1563.6, abs=0.1) and ann[1] == pytest.approx(175.4, abs=0.1)
    assert bob[0] < 1400.0
    draw_one, draw_two = rate_pair((1500.0, 350.0, 0.06), (1500.0, 350.0, 0.06), score=0.5)
    assert draw_one[0] == pytest.approx(1500.0) and draw_two[0] == pytest.approx(1500.0)
    assert draw_one[1] < 350.0


def test_finished_games_between_players_are_rated_once(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    accounts = Accounts(tmp_path / "p.sqlite")
    ann = accounts.claim("SHA256:a", "Ann")
    bob = accounts.claim("SHA256:b", "Bob")
    accounts.claim("SHA256:c", "Cat")
    rater = Rater(accounts, games, ACCOUNT)
    play_record(games, f"Ann@{ACCOUNT}", f"Bob@{ACCOUNT}", "1" * 32)
    (games / "finished").mkdir()
    play_record(games / "finished", f"Cat@{ACCOUNT}", "Bot (easy)", "2" * 32)  # a bot
    play_record(games, "Cat", f"Ann@{ACCOUNT}", "3" * 32)  # a Unix user: a stranger here
    unfinished = play_record(games, f"Ann@{ACCOUNT}", f"Cat@{ACCOUNT}", "4" * 32, finish=False)
    assert rater.scan() == 1
    assert rater.scan() == 0  # once
    assert Rater(accounts, games, ACCOUNT).scan() == 0  # once, after a restart too
    rated = {a.name: a for a in accounts.ladder()}
    assert set(rated) == {"Ann", "Bob"}
    assert rated["Ann"].games == rated["Bob"].games == 1
    assert rated["Ann"].deviation < 350.0 and rated["Bob"].deviation < 350.0
    assert rated["Ann"].rating + rated["Bob"].rating == pytest.approx(3000.0)
    cat = accounts.by_key("SHA256:c")
    assert cat is not None and cat.games == 0
    assert ann.id != bob.id
    assert unfinished.exists() and not accounts.is_rated(unfinished.stem)


def test_the_daemon_asks_as_a_game_ends_and_the_scan_does_not_rate_it_again(
        tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    path = tmp_path / "p.sqlite"
    accounts = Accounts(path)
    accounts.claim("SHA256:a", "Ann")
    accounts.claim("SHA256:b", "Bob")
    accounts.claim("SHA256:c", "Cat")
    record = play_record(games, f"Ann@{ACCOUNT}", f"Bob@{ACCOUNT}", "1" * 32)
    # The daemon's rater: its own connection (as in a record thread of the daemon).
    daemon_side = Rater(Accounts(path), games, ACCOUNT)
    changes = daemon_side.rate_game(record.stem, f"Ann@{ACCOUNT}", f"Bob@{ACCOUNT}", 1.0)
    assert changes is not None
    assert [(c.name, c.before) for c in changes] == [("Ann", 1500), ("Bob", 1500)]
    assert changes[0].after == 1662 and changes[1].after == 1338  # rate_pair's doctest
    assert changes[0].deviation < 350
    # Asked again (a restarted daemon): the same changes, not a second rating.
    assert daemon_side.rate_game(record.stem, f"Ann@{ACCOUNT}", f"Bob@{ACCOUNT}",
                                 1.0) == changes
    assert Rater(accounts, games, ACCOUNT).scan() == 0  # the scan finds it rated
    ann = accounts.by_name("ann")
    assert ann is not None and ann.games == 1 and round(ann.rating) == 1662
    # Not rated: a stranger (a Unix user of the OpenSSH route), one person in both seats.
    assert daemon_side.rate_game("g2", "Cat", f"Ann@{ACCOUNT}", 0.0) is None
    assert daemon_side.rate_game("g3", f"Cat@{ACCOUNT}", f"cat@{ACCOUNT}", 0.0) is None
    assert not accounts.is_rated("g2") and not accounts.is_rated("g3")


def test_the_lobby_is_told_the_ratings_of_the_front_doors_players_only(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    path = tmp_path / "p.sqlite"
    accounts = Accounts(path)
    accounts.claim("SHA256:a", "Ann")
    accounts.claim("SHA256:b", "Bob")
    record = play_record(games, f"Ann@{ACCOUNT}", f"Bob@{ACCOUNT}", "1" * 32)
    daemon_side = Rater(Accounts(path), games, ACCOUNT)
    assert daemon_side.rate_game(record.stem, f"Ann@{ACCOUNT}", f"Bob@{ACCOUNT}", 1.0)
    # Ann and Bob by their record names (any case); a name nobody holds, a Unix user of the
    # OpenSSH route and a name of another account are not known.
    asked = [f"ann@{ACCOUNT}", f"Bob@{ACCOUNT}", f"Eve@{ACCOUNT}", "Ann", "Ann@other"]
    assert daemon_side.ratings_of(asked) == {f"ann@{ACCOUNT}": 1662, f"Bob@{ACCOUNT}": 1338}
    assert daemon_side.ratings_of([]) == {}


def _two_pairs_played(tmp_path: Path) -> tuple[Path, Path]:
    """The players' file and a records folder with three finished games between Ann and Bob
    (none rated yet, as on a first start over a restored data folder)."""
    games = tmp_path / "games"
    games.mkdir()
    path = tmp_path / "p.sqlite"
    accounts = Accounts(path)
    accounts.claim("SHA256:a", "Ann")
    accounts.claim("SHA256:b", "Bob")
    for seed in ("1", "2", "3"):
        play_record(games, f"Ann@{ACCOUNT}", f"Bob@{ACCOUNT}", seed * 32)
    accounts.close()
    return path, games


def _reads_held(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event]:
    """The rater's record reads held until the test sets the second event (``reading``: one
    has begun); a safety net of 10 s, the test releases them."""
    reading, release = threading.Event(), threading.Event()

    def held_read(record: Path) -> ReadRecord:
        reading.set()
        release.wait(10.0)
        return read_record(record)

    monkeypatch.setattr(ratings, "read_record", held_read)
    return reading, release


def test_the_front_doors_scan_reads_records_while_the_event_loop_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The front door's periodic scan (a first start reads thousands of records for seconds)
    runs in a thread of its own: the loop that answers every player goes on meanwhile."""
    path, games = _two_pairs_played(tmp_path)
    reading, release = _reads_held(monkeypatch)
    scanner = RatingScanner(path, games, ACCOUNT)

    async def scan_while_the_loop_goes_on() -> tuple[bool, int, int]:
        scan = asyncio.ensure_future(scanner.scan())
        turns = 0
        while not reading.is_set() and turns < 1000:
            await asyncio.sleep(0.01)
            turns += 1
        await asyncio.sleep(0)  # the loop takes another turn while the record is read
        still_reading = reading.is_set() and not scan.done()
        release.set()
        return still_reading, await scan, await scanner.scan()

    try:
        still_reading, first, second = asyncio.run(scan_while_the_loop_goes_on())
    finally:
        release.set()
        scanner.stop()
    assert still_reading
    assert (first, second) == (3, 0)
    ann = Accounts(path).by_name("ann")
    assert ann is not None and ann.games == 3


def test_stopping_the_scanner_ends_a_long_scan_between_two_records(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path, games = _two_pairs_played(tmp_path)
    reading, release = _reads_held(monkeypatch)
    scanner = RatingScanner(path, games, ACCOUNT)

    async def stop_mid_scan() -> int:
        scan = asyncio.ensure_future(scanner.scan())
        while not reading.is_set():
            await asyncio.sleep(0.01)
        scanner.stop()
        release.set()
        return await scan

    try:
        assert asyncio.run(stop_mid_scan()) == 1  # the record being read, then no other
    finally:
        release.set()
        scanner.stop()
    monkeypatch.setattr(ratings, "read_record", read_record)
    # The next start rates the rest, each game once.
    assert Rater(Accounts(path), games, ACCOUNT).scan() == 2
    ann = Accounts(path).by_name("ann")
    assert ann is not None and ann.games == 3
