"""The app over a real game server (a daemon on a Unix socket in this test's loop): the
opponent's moves arrive with no input, and a dropped link covers the game until it is back."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot

from minefield.protocol.messages import Presence
from minefield.rules.auto import auto_command
from minefield.rules.game import Seat
from minefield.session.daemon_socket import RemoteError
from minefield.session.remote_start import host, join, resume
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.link_watch import LinkWatch
from minefield.tui.screens.builder import HandBuilderScreen
from minefield.tui.screens.dialogs import ConfirmScreen, LinkScreen
from minefield.tui.screens.play import PlayScreen
from tests.server.conftest import (
    ME,
    autoplay,
    make_config,
    next_of,
    short_dir,  # noqa: F401  (a fixture)
    start_daemon,
)
from tests.tui.conftest import screen_text
from tests.waiting import until


async def test_the_opponent_moves_by_itself_and_the_game_survives_a_server_restart(
        short_dir: Path) -> None:  # noqa: F811
    daemon = await start_daemon(short_dir)
    socket = make_config(short_dir).socket
    session = await host(socket=socket, player="alice", seed="7")
    assert session.code is not None
    # Bob is a scripted client (R25's moves), so the game is the same every run.
    bob = await join(session.code, socket=socket, player="bob")
    await bob.open()
    bob_plays = asyncio.create_task(autoplay(bob, stop_at_seq=4))
    app = MinefieldApp(session=session, preferences=Preferences(hint="always"),
                       catch_errors=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HandBuilderScreen), "the builder")
        assert "Playing against" in app.sub_title
        builder = app.screen
        assert isinstance(builder, HandBuilderScreen)
        await pilot.press("i")  # no hint in a network game, whatever the preference
        await pilot.pause()
        assert builder.hint is None and builder.chosen == []
        for _ in range(13):
            await pilot.press("space", "right")
        await pilot.press("enter")
        await pilot.pause()
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, PlayScreen), "the play screen")
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        seat = screen.seat
        if seat is Seat.WEST:  # East (Bob) discards first: it arrives with no input here
            await until(pilot, lambda: screen.view.discards_made == 1, "Bob's discard")
        await until(pilot, lambda: screen.view.my_turn, "my turn")
        await pilot.press("enter")
        await until(pilot, lambda: len(screen.view.discards[seat]) == 1, "my discard applied")
        # The server goes away: the game is covered until it is back (and nothing is lost).
        await daemon.stop()
        await until(pilot, lambda: isinstance(app.screen, LinkScreen), "the reconnecting cover")
        # The cover is drawn a moment after it is pushed (under load, after this line's check).
        await until(pilot, lambda: "Reconnecting" in screen_text(app), "the cover's words")
        daemon = await start_daemon(short_dir)
        await until(pilot, lambda: not isinstance(app.screen, LinkScreen), "the link back")
        assert isinstance(app.screen, PlayScreen)
        assert len(app.screen.view.discards[seat]) == 1
    bob_plays.cancel()
    await bob.close()
    await daemon.stop()


async def test_quitting_a_game_against_a_bot_closes_it_on_the_server(
        short_dir: Path) -> None:  # noqa: F811
    daemon = await start_daemon(short_dir)
    try:
        socket = make_config(short_dir).socket
        session = await host(socket=socket, player="alice", bot="easy")
        app = MinefieldApp(session=session, catch_errors=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, HandBuilderScreen), "the builder")
            await until(pilot, lambda: daemon.by_player.get(f"alice@{ME}") is not None,
                        "the room")
            await pilot.press("ctrl+q")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
            question = app.screen
            assert isinstance(question, ConfirmScreen)
            assert "A game against a bot is closed when you leave it." in question.question
            await pilot.press("y")
            await until(pilot, lambda: f"alice@{ME}" not in daemon.by_player, "the room closed")
        with pytest.raises(RemoteError, match="no unfinished game"):
            await resume(socket=socket, player="alice")
    finally:
        await daemon.stop()


async def test_a_terminal_that_stops_answering_ends_the_app_and_the_seat_waits(
        short_dir: Path) -> None:  # noqa: F811
    """The link watch (over SSH): a terminal that answered and then went silent is a dead
    link; the app leaves, the server starts the seat's grace period and tells the other."""
    daemon = await start_daemon(short_dir)
    try:
        socket = make_config(short_dir).socket
        session = await host(socket=socket, player="alice", seed="7")
        bob = await join(session.code or "", socket=socket, player="bob")
        await bob.open()
        # The watch's clock is the test's: a loaded machine cannot stretch the silence.
        clock = [0.0]
        looks = [0]

        def now() -> float:
            looks[0] += 1
            return clock[0]

        watch = LinkWatch(probe=0.05, silence=25.0, now=now)
        app = MinefieldApp(session=session, catch_errors=False, link_watch=watch)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, HandBuilderScreen), "the builder")
            app.post_message(events.CursorPosition(0, 0))  # the terminal answers, once
            await until(pilot, lambda: watch.last_answer == 0.0, "the answer is taken")
            clock[0] = 24.0  # silent for less than the limit
            seen = looks[0]
            await until(pilot, lambda: looks[0] >= seen + 3, "three more probes")
            assert app.is_running  # still there
            clock[0] = 25.5  # silent for longer than the limit
            await until(pilot, lambda: not app.is_running, "the app leaves")
        assert app.return_code == 3
        presence = await next_of(bob, Presence)
        while presence.players[presence.seat.other].present:
            presence = await next_of(bob, Presence)
        alice = presence.players[presence.seat.other]
        assert alice.name == "alice" and alice.grace_left is not None and alice.grace_left > 0
        await bob.close()
    finally:
        await daemon.stop()


async def test_the_host_sees_who_joined_and_a_disconnect_countdown_that_fits_80_columns(
        short_dir: Path) -> None:  # noqa: F811
    daemon = await start_daemon(short_dir)
    try:
        socket = make_config(short_dir).socket
        session = await host(socket=socket, player="alice", seed="7")
        app = MinefieldApp(session=session, catch_errors=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, HandBuilderScreen), "the builder")
            text = screen_text(app)
            assert "opponent (waiting)" in text
            assert f"to join: minefield join {session.code}" in text.splitlines()[0]
            bob = await join(session.code or "", socket=socket, player="bob")
            await bob.open()
            await until(pilot, lambda: "opponent bob" in screen_text(app), "bob's name")
            assert "(waiting)" not in screen_text(app)
            await bob.close()  # bob's link drops: his grace period runs
            await until(pilot, lambda: "bob disconnected" in screen_text(app), "the countdown")
            header = screen_text(app).splitlines()[0]
            assert re.search(r"Minefield — You \d:\d\d · bob disconnected, grace \d:\d\d ",
                             header), header
            assert "…" not in header
    finally:
        await daemon.stop()


async def test_an_away_player_whose_grace_is_spent_shows_the_clock_that_will_move_for_them(
        short_dir: Path) -> None:  # noqa: F811
    """R25b: once an absent player's grace is spent their move clock runs on and the automatic
    move comes when it runs out: the other player's header shows that clock beside the
    absence, not the absence alone."""
    daemon = await start_daemon(short_dir, grace_seconds=0.3)
    try:
        socket = make_config(short_dir).socket
        session = await host(socket=socket, player="alice", seed="7")
        app = MinefieldApp(session=session, catch_errors=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, HandBuilderScreen), "the builder")
            bob = await join(session.code or "", socket=socket, player="bob")
            await bob.open()
            await until(pilot, lambda: "opponent bob" in screen_text(app), "bob's name")
            await bob.close()  # bob's link drops; his grace is gone in 0.3 s
            await until(pilot, lambda: "bob disconnected" in screen_text(app)
                        and "grace" not in screen_text(app).splitlines()[0], "grace spent")
            header = screen_text(app).splitlines()[0]
            assert re.search(r"You \d:\d\d · bob \d:\d\d · bob disconnected", header), header
    finally:
        await daemon.stop()


async def _play_app_seat(pilot: Pilot[int], app: MinefieldApp, game_id: str) -> None:
    """Play R25's moves for the app's seat through its session until that game ends."""
    sent: set[int] = set()
    for _ in range(2000):
        table = app.table
        session = getattr(table, "session", None)
        if table is not None and getattr(session, "game_id", None) == game_id and table.ready:
            view = table.first_view()
            if view.phase == "ended":
                return
            key = -1 if view.phase == "choosing" else table.tables[view.seat].seq
            mine = (view.phase == "choosing" and view.own_hand is None) or view.my_turn
            if mine and key not in sent:
                sent.add(key)
                await table.session.send(view.seat, auto_command(view))
        await pilot.pause(0.01)
    raise AssertionError("the game never ended")


@pytest.mark.long
async def test_the_running_score_of_a_room_survives_a_resume(
        short_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setenv("MINEFIELD_DATA_DIR", str(short_dir / "alice-data"))
    daemon = await start_daemon(short_dir)
    try:
        socket = make_config(short_dir).socket
        session = await host(socket=socket, player="alice", seed="7")
        bob = await join(session.code or "", socket=socket, player="bob")
        await bob.open()
        first_game = session.game_id
        app = MinefieldApp(session=session, catch_errors=False)
        async with app.run_test(size=(100, 32)) as pilot:
            bob_plays = asyncio.create_task(autoplay(bob))
            await _play_app_seat(pilot, app, first_game)
            await until(pilot, lambda: "Score over 1 game" in screen_text(app), "the tally")
            await bob_plays
            await bob.rematch()
            await session.rematch()
            await until(pilot, lambda: session.game_id != first_game, "the rematch")
        # alice's terminal closes mid-game 2; `resume` is a new app (a new process over SSH).
        again = await resume(socket=socket, player="alice")
        app = MinefieldApp(session=again, catch_errors=False)
        async with app.run_test(size=(100, 32)) as pilot:
            bob_plays = asyncio.create_task(autoplay(bob))
            await _play_app_seat(pilot, app, again.game_id or "")
            await until(pilot, lambda: "Score over 2 games" in screen_text(app),
                        "the tally of both games")
            await bob_plays
        await bob.close()
    finally:
        await daemon.stop()
