"""The lobby's profile screen (``p``): the figures of ``stats --json``, the rating history as a
chart, the last ten games the player may see, newest first (Enter replays one), one line for a
name nobody has, Escape back to the lobby as it was; an 80x24 snapshot.

The server here is the club itself (:class:`~minefield.frontdoor.club.Club`, as the front door
gives it to the game server), answering the screen's requests as the daemon would."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from minefield.frontdoor.accounts import Accounts
from minefield.frontdoor.club import Club, ClubRefused
from minefield.frontdoor.ratings import Rater
from minefield.protocol.lobby import LobbyPlayer, LobbyState
from minefield.protocol.profiles import AskProfile, AskRecord, Profile, RecordPart, record_parts
from minefield.protocol.wire import WireError
from minefield.records.reader import read_record
from minefield.rules.game import Seat
from minefield.server.kept_games import KeptGames
from minefield.tui.lobby_app import LobbyApp
from minefield.tui.screens.help import keys_markdown
from minefield.tui.screens.profile import ProfileReplayScreen, ProfileScreen
from tests.server.kept_records import write_record
from tests.tui.conftest import on_top, screen_text, settle

#: The deals of Ann and Bob's games g01 to g12 (some won, some drawn: R13).
SEEDS = (10, 16, 1, 23, 24, 2, 29, 33, 3, 37, 4, 5)
STATE = LobbyState(online=[LobbyPlayer(name="Ann", status="lobby", rating=1600),
                           LobbyPlayer(name="Bob", status="lobby")], tables=[])


def make_club(folder: Path) -> Club:
    """Ann and Bob's twelve games (the twelfth at a private room), and a private game of Bob
    and Cat (z13, the newest), rated as the front door rates them."""
    games = folder / "games"
    for n, seed in enumerate(SEEDS, start=1):
        east, west = ("Ann@u", "Bob@u") if n % 2 else ("Bob@u", "Ann@u")
        write_record(games, f"g{n:02}", seed, east, west, "private" if n == 12 else "public",
                     minute=n)
    write_record(games, "z13", 6, "Bob@u", "Cat@u", "private", minute=20)
    accounts = Accounts(folder / "players.sqlite")
    for name in ("Ann", "Bob", "Cat"):
        accounts.claim(f"SHA256:{name}", name)
    kept = KeptGames(folder / "players.sqlite", games)
    kept.scan()
    Rater(accounts, games, "u").scan()
    return Club(accounts, kept, "u")


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Club:
    return make_club(tmp_path_factory.mktemp("club"))


class Server:
    """The game server's side of the lobby: the state, then the club's answers to what the
    app asks, as the viewer ``me`` (an identity key)."""

    def __init__(self, club: Club, me: str = "Ann@u") -> None:
        self.club = club
        self.me = me
        self.asked: list[BaseModel] = []
        self.answers: asyncio.Queue[Any] = asyncio.Queue()

    async def states(self) -> AsyncIterator[Any]:
        yield STATE
        while True:
            yield await self.answers.get()

    def send(self, message: BaseModel) -> None:
        self.asked.append(message)
        viewer = self.club.viewer_keys(self.me)
        if isinstance(message, AskProfile):
            self.answers.put_nowait(self.club.lobby_profile(viewer, message.player))
        elif isinstance(message, AskRecord):
            try:
                text = self.club.lobby_record(viewer, message.game)
            except ClubRefused as refusal:
                self.answers.put_nowait(RecordPart(game=message.game, refused=str(refusal)))
                return
            for part in record_parts(message.game, text, limit=2000):  # several parts
                self.answers.put_nowait(part)


async def open_profile(pilot: Any, *keys: str) -> None:
    await settle(pilot)
    await pilot.press("p", *keys)
    await settle(pilot)


async def test_the_profile_shows_the_figures_of_stats(club: Club) -> None:
    server = Server(club)
    ann = club.accounts.by_name("Ann")
    assert ann is not None
    stats = json.loads(club.stats(ann, "Bob", True))
    app = LobbyApp(server.states, server.send, me="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_profile(pilot, "down", "enter")  # Bob, the second player online
        assert server.asked == [AskProfile(player="Bob")]
        assert isinstance(app.screen, ProfileScreen)
        text = screen_text(app)
        casual = stats["games"] - stats["rated_games"]
        for shown in (f"Rating {stats['rating']} ± {stats['deviation']}",
                      f"Games {stats['games']} ({stats['rated_games']} rated, {casual} casual)",
                      f"Won {stats['wins']}, lost {stats['losses']}, drawn {stats['draws']}",
                      f"Win rate {stats['win_rate']:.0%}",
                      f"Deal-ins {stats['deal_ins']} ({stats['deal_in_rate']:.0%})",
                      f"Furiten games {stats['furiten_games']}",
                      f"Average win {stats['average_win']}",
                      f"Average loss {stats['average_loss']}",
                      f"Longest streak {stats['longest_game_streak']}"):
            assert shown in text, shown
        assert stats["program"] is False and "program" not in text
        # The chart: the first and the latest rating of the history, its high and low.
        history = [rating for _, rating in stats["rating_history"]]
        assert len(history) == 13  # every rated game of Bob's counts, private ones too
        assert (f"last {len(history)} rated games (first {history[0]}, now {history[-1]})"
                in text)
        assert f"{max(history)} │" in text and f"{min(history)} │" in text
        figures = app.screen.profile.figures if app.screen.profile else None
        assert figures is not None
        assert figures.model_dump(exclude={"rating_history"}) == {
            key: value for key, value in stats.items() if key != "rating_history"}
        assert [list(entry) for entry in figures.rating_history] == stats["rating_history"]


async def test_ten_games_newest_first_without_the_private_games_of_others(club: Club) -> None:
    """Ann looks at Bob: his last ten games she may see, newest first; his private game with
    Cat (z13, the newest of all) is not hers to see. Cat looks at Bob: their private game is
    listed, Ann and Bob's private one (g12) is not."""
    server = Server(club)
    app = LobbyApp(server.states, server.send, me="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_profile(pilot, "B", "o", "b", "enter")  # a name typed
        screen = app.screen
        assert isinstance(screen, ProfileScreen)
        assert [game.game for game in screen.games] == [f"g{n:02}" for n in range(12, 2, -1)]
        assert "z13" not in [game.game for game in screen.games]
    cat = Server(club, me="Cat@u")
    app = LobbyApp(cat.states, cat.send, me="Cat")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_profile(pilot, "B", "o", "b", "enter")
        games = [game.game for game in app.screen.games]  # type: ignore[attr-defined]
        assert games == ["z13", *[f"g{n:02}" for n in range(11, 2, -1)]]


async def test_enter_replays_the_game_and_escape_goes_back(club: Club) -> None:
    server = Server(club)
    app = LobbyApp(server.states, server.send, me="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_profile(pilot, "enter")  # Ann, the first player online
        await pilot.press("down", "enter")  # the second newest: g11
        await settle(pilot)
        assert server.asked[-1] == AskRecord(game="g11")
        replay = on_top(app)
        assert isinstance(replay, ProfileReplayScreen)
        path = club.kept.record_path("g11")
        assert path is not None and replay.header == read_record(path).header  # g11 itself
        assert replay.names[Seat.EAST] == "Ann"
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ProfileScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert "Online (2): Ann 1600 (lobby), Bob (lobby)" in screen_text(app)
        assert app.is_running and app.choice is None


async def test_an_unknown_player_is_one_line(club: Club) -> None:
    server = Server(club)
    app = LobbyApp(server.states, server.send, me="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_profile(pilot, "Z", "e", "d", "enter")
        text = screen_text(app)
        assert "no player is called 'Zed' here" in text and "Traceback" not in text
        assert "Ended (UTC)" not in text  # no empty table of games under it
        await pilot.press("escape")
        await settle(pilot)
        assert "Online (2)" in screen_text(app)


async def test_a_server_without_profiles_says_so_in_one_line() -> None:
    """The OpenSSH route's daemon keeps no accounts: its answer is the screen's one line."""
    answers: asyncio.Queue[Any] = asyncio.Queue()

    async def states() -> AsyncIterator[Any]:
        yield STATE
        while True:
            yield await answers.get()

    def send(message: BaseModel) -> None:
        if isinstance(message, AskProfile):
            answers.put_nowait(Profile(player=message.player, refused="this server keeps no "
                                       "profiles: its players have no accounts or ratings"))

    app = LobbyApp(states, send, me="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_profile(pilot, "enter")
        assert "this server keeps no profiles" in screen_text(app)


async def test_a_server_older_than_profiles_is_one_line() -> None:
    """A server that does not know ``ask_profile`` answers a ``bad_message`` error (not
    fatal): the screen says so in one line, the lobby goes on."""
    answers: asyncio.Queue[Any] = asyncio.Queue()

    async def states() -> AsyncIterator[Any]:
        yield STATE
        while True:
            yield await answers.get()

    def send(message: BaseModel) -> None:
        answers.put_nowait(WireError(code="bad_message", message="field 'type': unknown"))

    app = LobbyApp(states, send, me="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_profile(pilot, "enter")
        assert "does not answer profiles (older than this client)" in screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
        assert "Online (2)" in screen_text(app)


def test_the_lobby_help_names_p() -> None:
    """F1 in the lobby lists its keys (the footer leaves p out to stay whole at 80 columns)."""
    async def states() -> AsyncIterator[Any]:
        yield STATE

    app = LobbyApp(states)  # never run: its keys are read
    keys = keys_markdown(app, [("Lobby", LobbyApp.SCREEN_BINDINGS)])
    assert "| `p` | A player's profile: figures, rating history, last games |" in keys


def test_profile_80x24(snap_compare: Any, tmp_path: Path) -> None:
    server = Server(make_club(tmp_path))

    async def run_before(pilot: Any) -> None:
        await open_profile(pilot, "down", "enter")

    assert snap_compare(LobbyApp(server.states, server.send, me="Ann"), terminal_size=(80, 24),
                        run_before=run_before)


def test_profile_pick_80x24(snap_compare: Any, club: Club) -> None:
    """``p``: the players online, the one chosen shown (here: Ann, this player)."""
    server = Server(club)

    async def run_before(pilot: Any) -> None:
        await open_profile(pilot)

    assert snap_compare(LobbyApp(server.states, server.send, me="Ann"), terminal_size=(80, 24),
                        run_before=run_before)
