"""The lobby screen: the players and tables as the server sends them, Enter joins a public
table or watches a game being played, the keys choose; an 80x24 snapshot."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from textual import events

from minefield.protocol.lobby import (
    AnswerInvitation,
    Cancel,
    Invitation,
    Invite,
    LobbyPlayer,
    LobbyState,
    LobbyTable,
    LobbyTournament,
    Matching,
    QuickMatch,
    Seated,
    TournamentRound,
)
from minefield.rules.game import Seat
from minefield.tui.lobby_app import LobbyApp, LobbyChoice
from tests.tui.conftest import screen_text, settle

STATE = LobbyState(
    online=[LobbyPlayer(name="Ann", status="waiting", rating=1662),
            LobbyPlayer(name="Bob", status="playing"),
            LobbyPlayer(name="Cat", status="playing"), LobbyPlayer(name="Dan", status="lobby")],
    tables=[LobbyTable(code="K7Q3PX", host="Ann", rules="beginner", public=True,
                       players=["Ann"]),
            LobbyTable(game="20261201T120000.000Z-network-abcd", host="Bob", rules="standard",
                       public=False, players=["Bob", "Cat"], watchers=2)])


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
        # Ann's rating is known (the front door's), the others' are not: none shown.
        assert ("Online (4): Ann 1662 (waiting), Bob (playing), Cat (playing), Dan (lobby)"
                in text)
        assert "join K7Q3PX" in text and "beginner" in text and "Bob vs Cat" in text
        # The footer is whole at 80 columns: the last keys are not cut off.
        footer = text.splitlines()[-1]
        assert "q Quit" in footer and "F1 Help" in footer


@pytest.mark.parametrize(("keys", "choice"), [
    (["enter"], LobbyChoice("join", code="K7Q3PX")),
    (["h"], LobbyChoice("host")),
    (["c"], LobbyChoice("host", casual=True)),  # R36: a casual table
    (["b"], LobbyChoice("host", bot="normal")),
    (["m"], LobbyChoice("menu")),
    (["q"], None),
    (["down", "enter"], LobbyChoice("watch", game="20261201T120000.000Z-network-abcd")),
    (["down", "w"], LobbyChoice("watch", game="20261201T120000.000Z-network-abcd")),
])
async def test_the_keys_choose(keys: list[str], choice: LobbyChoice | None) -> None:
    app = LobbyApp(states_of(STATE))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(*keys)
        await settle(pilot)
    assert app.choice == choice


async def test_a_casual_table_says_so() -> None:
    """R36: a table is rated or casual, shown before its game starts."""
    casual = LobbyState(online=[], tables=[LobbyTable(code="K7Q3PX", host="Ann",
                                                      rules="beginner", public=True,
                                                      players=["Ann"], rated=False)])
    app = LobbyApp(states_of(casual))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "beginner, casual" in screen_text(app)


async def test_a_table_waiting_for_a_player_has_nothing_to_watch() -> None:
    app = LobbyApp(states_of(STATE))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        assert app.is_running and app.choice is None
        assert any("nothing to watch yet" in n.message for n in app._notifications)
        assert "Bob vs Cat" in screen_text(app) and "2" in screen_text(app)
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


def scripted(*sent: Any) -> tuple[Any, list[Any], asyncio.Queue[Any]]:
    """A lobby that sends ``sent``, then whatever the test puts in its queue; the requests
    the app sends are kept in the list."""
    requests: list[Any] = []
    more: asyncio.Queue[Any] = asyncio.Queue()

    async def states() -> AsyncIterator[Any]:
        for event in sent:
            yield event
        while True:
            yield await more.get()

    return states, requests, more


async def test_an_invitation_is_a_notice_to_accept_and_a_room_sits_the_player() -> None:
    states, requests, more = scripted(STATE)
    app = LobbyApp(states, requests.append, me="Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        more.put_nowait(Invitation(id="ab12", by="Ann", to="Dan", state="open", seconds=60))
        await settle(pilot)
        assert "Ann invites you to a game" in screen_text(app)
        assert "casual: no rating" in screen_text(app)  # R36: said before the game starts
        await pilot.press("y")
        await settle(pilot)
        assert requests == [AnswerInvitation(invitation="ab12", accept=True)]
        more.put_nowait(Seated(game="20261201T120000.000Z-network-beef", opponent="Ann"))
        await settle(pilot)
    assert app.choice == LobbyChoice("resume", game="20261201T120000.000Z-network-beef")


async def test_a_declined_invitation_and_one_that_expired_while_asked() -> None:
    states, requests, more = scripted(STATE)
    app = LobbyApp(states, requests.append, me="Dan")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        more.put_nowait(Invitation(id="ab12", by="Ann", to="Dan", state="open", seconds=60))
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        assert requests == [AnswerInvitation(invitation="ab12", accept=False)]
        more.put_nowait(Invitation(id="cd34", by="Bob", to="Dan", state="open", seconds=60))
        await settle(pilot)
        more.put_nowait(Invitation(id="cd34", by="Bob", to="Dan", state="expired", seconds=0))
        await settle(pilot)
        assert "invites you" not in screen_text(app)  # the notice went with the invitation
        assert any("Bob's invitation expired" in n.message for n in app._notifications)
        assert len(requests) == 1 and app.is_running


async def test_inviting_a_player_and_hearing_the_answer() -> None:
    states, requests, more = scripted(STATE)
    app = LobbyApp(states, requests.append, me="Ann")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("i")
        await settle(pilot)
        assert "In the lobby: Dan" in screen_text(app)  # only those free to play
        await pilot.press("enter")
        await settle(pilot)
        assert requests == [Invite(player="Dan")]
        more.put_nowait(Invitation(id="ab12", by="Ann", to="Dan", state="open", seconds=60))
        more.put_nowait(Invitation(id="ab12", by="Ann", to="Dan", state="declined"))
        await settle(pilot)
        messages = [n.message for n in app._notifications]
        assert "Invitation sent to Dan: waiting for the answer (60 s)." in messages
        assert "Dan declined your invitation." in messages
        await pilot.press("i")
        await settle(pilot)
        await pilot.press("ctrl+a", "ctrl+k", *"x y", "enter")  # not a name: one line
        await settle(pilot)
        assert len(requests) == 1
        assert any("'x y' is not a player's name" in n.message for n in app._notifications)


async def test_quick_match_waits_then_takes_the_bot_offered() -> None:
    states, requests, more = scripted(STATE)
    app = LobbyApp(states, requests.append, me="Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("k")
        await settle(pilot)
        assert requests == [QuickMatch()]
        more.put_nowait(Matching(state="waiting"))
        await settle(pilot)
        assert "Looking for a player for a quick match" in screen_text(app)
        more.put_nowait(Matching(state="bot_offer", bot="normal"))
        await settle(pilot)
        assert "Nobody yet: b plays a bot (normal) now, or keep waiting" in screen_text(app)
        await pilot.press("b")
        await settle(pilot)
        assert requests[-1] == QuickMatch(bot="normal") and app.choice is None
        more.put_nowait(Seated(game="20261201T120000.000Z-network-f00d", opponent="Bot (normal)"))
        await settle(pilot)
    assert app.choice == LobbyChoice("resume", game="20261201T120000.000Z-network-f00d")


async def test_escape_stops_waiting() -> None:
    states, requests, more = scripted(STATE, Matching(state="waiting"))
    app = LobbyApp(states, requests.append, me="Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert requests == [Cancel()]
        more.put_nowait(Matching(state="cancelled"))
        await settle(pilot)
        assert "Looking for a player" not in screen_text(app)


def test_lobby_invited_80x24(snap_compare: Any) -> None:
    states, _, _ = scripted(STATE, Invitation(id="ab12", by="Ann", to="Dan", state="open",
                                              seconds=60))
    assert snap_compare(LobbyApp(states, lambda _: None, me="Dan"), terminal_size=(80, 24))


def test_lobby_bot_offer_80x24(snap_compare: Any) -> None:
    states, _, _ = scripted(STATE, Matching(state="bot_offer", bot="normal"))
    assert snap_compare(LobbyApp(states, lambda _: None, me="Dan"), terminal_size=(80, 24))


def footer(app: LobbyApp) -> str:
    """The footer's line."""
    return screen_text(app).splitlines()[-1]


async def test_the_footer_shows_b_i_and_escape_when_they_apply() -> None:
    """``b`` and ``i`` always there (i dimmed with nobody to invite); Escape in the place of
    ``k`` while waiting for a quick match and of ``i`` while an invitation waits for its
    answer (withdrawn by it); whole at 80 columns each time."""
    states, requests, more = scripted(STATE)
    app = LobbyApp(states, requests.append, me="Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        shown = footer(app)
        assert "b Bot" in shown and "i Invite" in shown and "k Quick match" in shown
        assert "esc" not in shown and "F1 Help" in shown
        more.put_nowait(Matching(state="waiting"))
        await settle(pilot)
        shown = footer(app)
        assert "esc Stop waiting" in shown and "k Quick" not in shown and "F1 Help" in shown
        await pilot.press("escape")
        await settle(pilot)
        assert requests == [Cancel()]
        more.put_nowait(Matching(state="cancelled"))
        more.put_nowait(Invitation(id="ab12cd34", by="Dan", to="Ann", state="open",
                                   seconds=60))
        await settle(pilot)
        shown = footer(app)
        assert "esc Withdraw" in shown and "i Invite" not in shown and "k Quick" in shown
        assert "F1 Help" in shown
        await pilot.press("escape")
        await settle(pilot)
        assert requests == [Cancel(), Cancel()]
        more.put_nowait(Invitation(id="ab12cd34", by="Dan", to="Ann", state="cancelled",
                                   seconds=0))
        await settle(pilot)
        assert "esc" not in footer(app) and "i Invite" in footer(app)


async def test_an_invitation_is_casual_unless_rated_is_ticked() -> None:
    """R36: an invitation's game is casual by default; the form's box makes it rated."""
    states, requests, _more = scripted(STATE)
    app = LobbyApp(states, requests.append, me="Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("i")
        await settle(pilot)
        await pilot.press("enter")  # the name offered, casual
        await settle(pilot)
        await pilot.press("i")
        await settle(pilot)
        await pilot.press("tab", "space", "shift+tab", "enter")  # ticked: rated
        await settle(pilot)
    assert [(r.player, r.rated) for r in requests] == [("Ann", False), ("Ann", True)]


async def test_invite_with_nobody_in_the_lobby_says_so() -> None:
    """Nobody else in the lobby (as far as this list knows: a player busy in another terminal
    is shown busy): i still opens the form, which says so, and Escape closes it unsent."""
    alone = LobbyState(online=[LobbyPlayer(name="Dan", status="lobby")], tables=[])
    states, requests, _more = scripted(alone)
    app = LobbyApp(states, requests.append, me="Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("i")
        await settle(pilot)
        assert "In the lobby: nobody else" in screen_text(app)
        await pilot.press("escape")  # the form closed, nothing sent
        await settle(pilot)
        assert "Invite whom?" not in screen_text(app)
        await pilot.press("escape")  # nothing to stop: nothing sent
        await settle(pilot)
        assert requests == []


async def test_a_tournament_round_is_a_notice_and_enter_sits_the_player() -> None:
    """R37: when a round begins the lobby says which tournament, round, game and opponent;
    Enter sits the player at that game (a resume); told again meanwhile, one notice."""
    game = "20261201T120000.000Z-network-cafe"
    notice = TournamentRound(tournament="spring", round=2, game=game, seat=Seat.WEST,
                             opponent="Ann")
    running = STATE.model_copy(update={"tournaments": [
        LobbyTournament(name="spring", round=2, rounds=3)]})
    states, requests, _more = scripted(running, notice, notice)
    app = LobbyApp(states, requests.append, me="Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "spring, round 2: your game against Ann (West)" in text
        assert "Tournament spring: round 2 of 3" in text
        assert text.count("spring, round 2") == 1
        await pilot.press("enter")
        await settle(pilot)
    assert app.choice == LobbyChoice("resume", game=game)


@pytest.mark.parametrize("keys", [
    ["i", "ctrl+a", "ctrl+k", "b", "o", "b", "enter"],  # all in one packet
    ["ctrl+a", "ctrl+k", "b", "o", "b", "enter"],  # the form shown first, then a packet
])
async def test_keys_typed_fast_into_the_invitation_are_all_taken_in_order(
        keys: list[str]) -> None:
    """Over SSH several keys arrive together: the invitation's form takes them all, in the
    order typed (Textual ran an input's own keys, Ctrl+K here, after the letters that came
    with them, and the name typed was erased; a letter typed with ``i`` went to the lobby,
    where ``b`` plays a bot)."""
    states, requests, _more = scripted(STATE)
    app = LobbyApp(states, requests.append, me="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        if keys[0] != "i":
            await pilot.press("i")
            await settle(pilot)
            assert "In the lobby: Dan" in screen_text(app)  # the name offered: Dan
        for key in keys:  # posted together: none is handled before the last arrives
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await settle(pilot)
        await settle(pilot)
        assert app.choice is None and app.is_running  # no bot game, nothing else chosen
        assert requests == [Invite(player="bob")]


async def test_a_program_is_marked_in_the_lobby() -> None:
    """A player who plays over ``ssh HOST wire`` (a bot someone brought) is said to be a
    program, beside its status; people are not marked."""
    state = LobbyState(online=[LobbyPlayer(name="Robo", status="lobby", rating=1500,
                                           program=True),
                               LobbyPlayer(name="Dan", status="lobby")], tables=[])
    app = LobbyApp(states_of(state))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Online (2): Robo 1500 (lobby, program), Dan (lobby)" in screen_text(app)
