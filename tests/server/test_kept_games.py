"""Games kept by id: the daemon keeps every finished network game in its index,
with the kind of table (who may look it up) and whether it was rated (R36); the index and
the profiles computed from it are rebuilt from the records alone."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from minefield.files import read_bounded
from minefield.records.header import TableHeader
from minefield.records.reader import RecordError, read_record
from minefield.rules.game import Seat
from minefield.server import rating
from minefield.server.daemon import Daemon
from minefield.server.identity import Identity
from minefield.server.kept_games import KeptGame, KeptGames, Outcome
from minefield.server.profiles import profile
from minefield.session.remote_start import host, join
from tests.server.conftest import autoplay, start_daemon
from tests.server.kept_records import played, write_record
from tests.server.test_daemon import SEED, local_result
from tests.server.test_rating import recording_rater


async def kept_soon(daemon: Daemon, game: str) -> KeptGame:
    """The index's entry of ``game``, once the daemon's record thread has kept it (polled for
    up to a minute: a safety net on a loaded machine, not a limit on time; a few seconds were
    not enough at load 10 with the record threads busy)."""
    assert daemon.kept is not None
    for _ in range(6000):
        found = daemon.kept.find(game)
        if found is not None:
            return found
        await asyncio.sleep(0.01)
    raise AssertionError(f"game {game} was never kept")


async def play_hosted(daemon: Daemon, **options: Any) -> str:
    """Ann hosts (``options``), Bob joins, both play the game out; its id."""
    ann = await host(socket=daemon.config.socket, player="ann", seed=SEED, **options)
    bob = await join(ann.code or "", socket=daemon.config.socket, player="bob")
    await ann.open()
    await bob.open()
    await asyncio.gather(autoplay(ann), autoplay(bob))
    game = ann.game_id
    assert game is not None
    await ann.close()
    await bob.close()
    return game


async def test_a_finished_public_game_is_kept_by_its_id(short_dir: Path) -> None:
    daemon = await start_daemon(short_dir)
    try:
        game = await play_hosted(daemon, public=True)
        kept = await kept_soon(daemon, game)
    finally:
        await daemon.stop()
    expected = local_result(SEED)
    shared = daemon.config.shared_account
    assert {kept.east, kept.west} == {f"ann@{shared}", f"bob@{shared}"}
    assert kept.result == (expected.winner.value if expected.winner else "draw")
    assert kept.points == (expected.value.points if expected.value else 0)
    assert (kept.kind, kept.rated, kept.tournament, kept.bot) == ("public", True, None, False)
    assert kept.visible_to({"cat"})  # a public table's game: every player may look it up
    record = read_record(short_dir / "data" / "games" / "finished" / f"{game}.jsonl")
    assert record.header.table == TableHeader(kind="public", rated=True)
    assert kept.ended == record.commands[-1].model_dump(mode="json")["at"]


async def test_a_casual_game_is_kept_casual_and_never_rated(short_dir: Path) -> None:
    """R36: a casual table's game never changes a rating (the rater is never asked)."""
    daemon = await start_daemon(short_dir)
    asked: list[tuple[str, str, str, float]] = []
    daemon.rate_game = recording_rater(asked)
    try:
        game = await play_hosted(daemon, rated=False)
        kept = await kept_soon(daemon, game)
        await asyncio.gather(*rating._PENDING)
    finally:
        await daemon.stop()
    assert asked == []
    assert (kept.kind, kept.rated) == ("private", False)
    bob = f"bob@{daemon.config.shared_account}"
    assert not kept.visible_to({"cat"}) and kept.visible_to({bob})


async def test_a_hosted_table_is_rated_unless_casual(short_dir: Path) -> None:
    daemon = await start_daemon(short_dir)
    asked: list[tuple[str, str, str, float]] = []
    daemon.rate_game = recording_rater(asked)
    try:
        game = await play_hosted(daemon)
        kept = await kept_soon(daemon, game)
        await asyncio.gather(*rating._PENDING)
    finally:
        await daemon.stop()
    assert [a[0] for a in asked] == [game] and (kept.kind, kept.rated) == ("private", True)


async def test_lobby_pairs_are_quick_rated_or_invitations_casual(daemon: Daemon) -> None:
    ann, bob = Identity("ann@x", "ann"), Identity("bob@x", "bob")
    quick = daemon.rooms[daemon.desk.pair(ann, bob, None, "quick", True)]
    invited = daemon.rooms[daemon.desk.pair(ann, bob, None, "invitation", False)]
    against_bot = daemon.rooms[daemon.desk.pair(ann, None, "easy", "quick", True)]
    assert quick.table_header() == TableHeader(kind="quick", rated=True)
    assert invited.table_header() == TableHeader(kind="invitation", rated=False)
    assert against_bot.table_header() == TableHeader(kind="bot", rated=False)  # R36


# -- the index itself ------------------------------------------------------------------------


def make_index(tmp_path: Path) -> tuple[KeptGames, Path]:
    games = tmp_path / "games"
    write_record(games, "g1", 1, "ann@c", "bob@c", "public", minute=1)
    write_record(games, "g2", 2, "bob@c", "cat@c", "private", minute=2)
    write_record(games, "g3", 3, "Ann@c", "cat@c", "invitation", rated=False, minute=3)
    write_record(games, "g4", 4, "cat@c", "Bot (easy)", "bot", rated=False, minute=4)
    write_record(games, "g5", 5, "cat@c", "ann@c", None, minute=5)  # an old record
    write_record(games, "g6", 6, "dan@c", "ann@c", "quick", minute=6, finished=False)
    kept = KeptGames(tmp_path / "club.sqlite", games)
    assert kept.scan() == 6
    return kept, games


def test_games_are_listed_newest_first_to_whom_they_are_visible(tmp_path: Path) -> None:
    kept, _ = make_index(tmp_path)
    assert [k.game for k in kept.listed({"ann@c"})] == ["g6", "g5", "g3", "g1"]
    assert [k.game for k in kept.listed({"cat@c"})] == ["g6", "g5", "g4", "g3", "g2", "g1"]
    assert [k.game for k in kept.listed({"eve@c"})] == ["g6", "g1"]
    assert [k.game for k in kept.listed(None, limit=2)] == ["g6", "g5"]
    # One player's games, as another may see them.
    assert [k.game for k in kept.listed({"eve@c"}, player={"ann@c"})] == ["g6", "g1"]
    assert [k.game for k in kept.listed({"cat@c"}, player={"ann@c"})] == ["g6", "g5", "g3",
                                                                          "g1"]


def test_an_old_record_is_a_private_rated_table_a_bot_game_never_rated(tmp_path: Path) -> None:
    kept, _ = make_index(tmp_path)
    old, bot = kept.find("g5"), kept.find("g4")
    assert old is not None and (old.kind, old.rated, old.bot) == ("private", True, False)
    assert bot is not None and (bot.kind, bot.rated, bot.bot) == ("bot", False, True)


def test_an_entry_says_what_its_record_says(tmp_path: Path) -> None:
    kept, _ = make_index(tmp_path)
    entry = kept.find("g1")
    game = played(1)
    end = game.result
    assert entry is not None and end is not None
    assert entry.result == (end.winner.value if end.winner else "draw")
    assert entry.points == (end.value.points if end.value else 0)
    assert entry.east_furiten == (end.furiten[Seat.EAST] is not None)
    assert entry.to_json() == {
        "game": "g1", "ended": entry.ended, "rules": "standard", "east": "ann", "west": "bob",
        "result": entry.result, "points": entry.points, "rated": True, "tournament": None}
    assert entry.ended.startswith("2026-01-01T00:01:")


def test_rebuilding_from_the_records_gives_the_same_index_and_profiles(tmp_path: Path) -> None:
    kept, _ = make_index(tmp_path)
    before = kept.listed(None)
    ann = {"ann@c"}
    history = {"g1": 1540.0, "g5": 1520.0}
    figures = profile("ann", kept.of_player(ann), ann, 1520.0, 200.0, history)
    kept.db.execute("DELETE FROM kept_games WHERE game IN ('g1', 'g3')")
    kept.db.execute("UPDATE kept_games SET points = 1 WHERE game = 'g5'")
    assert profile("ann", kept.of_player(ann), ann, 1520.0, 200.0, history) != figures
    assert kept.rebuild() == 6
    assert kept.listed(None) == before
    assert profile("ann", kept.of_player(ann), ann, 1520.0, 200.0, history) == figures
    assert figures["games"] == 4 and figures["rated_games"] == 3  # g3 casual, g4 a bot's


def test_a_game_kept_twice_is_one_entry(tmp_path: Path) -> None:
    kept, _ = make_index(tmp_path)
    assert kept.keep("g2") == kept.find("g2")
    assert kept.count() == 6 and kept.scan() == 0
    assert kept.keep("nothing") is None and kept.keep("../g1") is None


def test_a_record_moved_to_finished_while_it_is_kept_is_kept(
        tmp_path: Path, monkeypatch: Any) -> None:
    """The room moves a finished series' records to ``finished/`` in a thread of its own while
    the daemon keeps the game in another: a record found among the games going on and gone
    when read is looked for again, never left out of the index until the next restart (a
    tournament's game was once missing from it)."""
    games = tmp_path / "games"
    going_on = write_record(games, "g7", 7, "ann@c", "bob@c", "quick", finished=False)
    kept = KeptGames(tmp_path / "club.sqlite", games)
    moved: list[Path] = []

    def read_after_the_move(path: Path | str) -> Any:
        if not moved:  # the room's move lands between finding the record and reading it
            (games / "finished").mkdir(exist_ok=True)
            moved.append(going_on.rename(games / "finished" / going_on.name))
        return read_record(path)

    monkeypatch.setattr("minefield.server.kept_games.read_record", read_after_the_move)
    entry = kept.keep("g7")
    assert moved and entry is not None and kept.find("g7") == entry
    assert (entry.game, entry.east, entry.west) == ("g7", "ann@c", "bob@c")
    broken = games / "finished" / "g8.jsonl"
    broken.write_text("not a record\n")
    assert kept.keep("g8") is None and kept.find("g8") is None  # there, and unreadable


def test_a_record_moved_to_finished_while_it_is_asked_for_is_read(
        tmp_path: Path, monkeypatch: Any) -> None:
    """``record GAME`` as the series ends: the same move between finding the record and
    reading it gives the record's text, not "cannot be read"."""
    games = tmp_path / "games"
    going_on = write_record(games, "g7", 7, "ann@c", "bob@c", "quick", finished=False)
    text = going_on.read_text()
    kept = KeptGames(tmp_path / "club.sqlite", games)
    moved: list[Path] = []

    def read_after_the_move(path: Path, limit: int) -> bytes:
        if not moved:
            (games / "finished").mkdir(exist_ok=True)
            moved.append(going_on.rename(games / "finished" / going_on.name))
        return read_bounded(path, limit)

    monkeypatch.setattr("minefield.server.kept_games.read_bounded", read_after_the_move)
    assert kept.read_text("g7") == text and moved
    with pytest.raises(RecordError, match="g9: no record"):
        kept.read_text("g9")


def test_a_profile_counts_wins_losses_and_deal_ins_by_hand() -> None:
    """R11: every win is a ron on the other's discard, so a loss is a deal-in."""
    def game(n: int, east: str, result: Outcome, points: int, furiten: bool = False) -> KeptGame:
        return KeptGame(game=f"g{n}", ended=f"2026-01-01T00:0{n}:00.000Z", rules="standard",
                        east=east, west="x@c" if east != "x@c" else "ann@c",
                        result=result, points=points,
                        rated=n != 4, kind="public", tournament=None, bot=False,
                        east_furiten=furiten, west_furiten=False)
    games = [game(1, "ann@c", "east", 8000), game(2, "x@c", "west", 12000),
             game(3, "ann@c", "draw", 0, furiten=True), game(4, "ann@c", "west", 16000),
             game(5, "x@c", "west", 32000), game(6, "ann@c", "east", 8000)]
    figures = profile("ann", games, {"ann@c"}, None, None, {})
    assert figures == {
        "name": "ann", "rating": None, "deviation": None, "games": 6, "wins": 4,
        "losses": 1, "draws": 1, "rated_games": 5, "win_rate": 0.667, "deal_ins": 1,
        "deal_in_rate": 0.167, "average_win": 15000, "average_loss": 16000,
        "furiten_games": 1, "longest_game_streak": 2, "rating_history": []}


async def test_an_invitation_is_casual_unless_it_asks_to_be_rated(daemon: Daemon) -> None:
    """R36: fixed when the table is made and shown to both before the game starts."""
    from tests.server.test_invites import in_lobby

    ann, bob = await in_lobby(daemon, "ann"), await in_lobby(daemon, "bob")
    headers = []
    for invite in ({"type": "invite", "player": "bob"},
                   {"type": "invite", "player": "bob", "rated": True}):
        ann.send(invite)
        asked = await bob.until("invitation")
        assert asked["rated"] is invite.get("rated", False)
        bob.send({"type": "answer", "invitation": asked["id"], "accept": True})
        headers.append(daemon.rooms[(await bob.until("seated"))["game"]].table_header())
    assert headers == [TableHeader(kind="invitation", rated=False),
                       TableHeader(kind="invitation", rated=True)]
    ann.close()
    bob.close()
