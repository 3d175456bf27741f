"""The lobby screen: the players and tables as the server sends them, Enter joins a public
table, the keys choose; an 80x24 snapshot."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from minefield.session.wire import LobbyPlayer, LobbyState, LobbyTable
from minefield.tui.lobby_app import LobbyApp, LobbyChoice
from tests.tui.conftest import screen_text, settle

STATE = LobbyState(
    online=[LobbyPlayer(name="Ann", status="waiting"), LobbyPlayer(name="Bob", status="playing"),
            LobbyPlayer(name="Cat", status="playing"), LobbyPlayer(name="Dan", status="lobby")],
    tables=[LobbyTable(code="K7Q3PX", host="Ann", rules="beginner", public=True,
                       players=["Ann"]),
            LobbyTable(game="20261201T120000.000Z-network-abcd", host="Bob", rules="standard",
                       public=False, players=["Bob", "Cat"])])


def states_of(*sent: LobbyState) -> Any:
    """A lobby that sends ``sent`` and then stays open."""

    async def states() -> AsyncIterator[LobbyState]:
        for state in sent:
            yield state
        await asyncio.Event().wait()

    return states


async def test_the_lobby_shows_players_and_tables() -> None:
    app = LobbyApp(states_of(STATE))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "Online (4): Ann (waiting), Bob (playing), Cat (playing), Dan (lobby)" in text
        assert "join K7Q3PX" in text and "beginner" in text and "Bob vs Cat" in text


@pytest.mark.parametrize(("keys", "choice"), [
    (["enter"], LobbyChoice("join", code="K7Q3PX")),
    (["h"], LobbyChoice("host")),
    (["b"], LobbyChoice("host", bot="normal")),
    (["m"], LobbyChoice("menu")),
    (["q"], None),
])
async def test_the_keys_choose(keys: list[str], choice: LobbyChoice | None) -> None:
    app = LobbyApp(states_of(STATE))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(*keys)
        await settle(pilot)
    assert app.choice == choice


async def test_a_game_being_played_is_not_joined() -> None:
    app = LobbyApp(states_of(STATE))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("down", "enter")
        await settle(pilot)
        assert app.is_running and app.choice is None
        assert any("watching is not offered yet" in n.message for n in app._notifications)
    assert app.choice is None


async def test_the_cursor_stays_on_its_table_when_the_lobby_changes() -> None:
    newer = STATE.model_copy(update={"tables": [
        LobbyTable(code="AAAAAA", host="Eve", rules="standard", public=True, players=["Eve"]),
        *STATE.tables]})
    gate = asyncio.Event()

    async def states() -> AsyncIterator[LobbyState]:
        yield STATE
        await gate.wait()
        yield newer
        await asyncio.Event().wait()

    app = LobbyApp(states)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        gate.set()
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
    assert app.choice == LobbyChoice("join", code="K7Q3PX")


def test_lobby_80x24(snap_compare: Any) -> None:
    assert snap_compare(LobbyApp(states_of(STATE)), terminal_size=(80, 24))
