"""LocalSession: practice against a bot and hot-seat, behind the Session protocol."""

from __future__ import annotations

import asyncio
import re

import pytest
from rich.pretty import pretty_repr

from minefield.rules.auto import auto_command
from minefield.rules.game import ChooseHand, Discard, IllegalCommand, PlayerView, Seat
from minefield.session import LocalSession, Session

TILE = re.compile(r"[0-9][mpsz]")


class StandIn:
    level = "easy"

    def __init__(self) -> None:
        self.calls = 0

    def act(self, view: PlayerView) -> ChooseHand | Discard:
        self.calls += 1
        return auto_command(view)


def _hand(session: LocalSession, seat: Seat) -> ChooseHand:
    command = auto_command(session.view(seat))
    assert isinstance(command, ChooseHand)
    return command


def test_local_session_is_a_session() -> None:
    session: Session = LocalSession.hotseat(seed=3)
    assert session.mode == "hotseat" and session.local_seats == (Seat.EAST, Seat.WEST)


def test_practice_seat_is_drawn_from_the_seed_unless_given() -> None:
    """R6: in a single game East is drawn from the seed."""
    seats = {LocalSession.practice(seed, StandIn()).local_seats[0] for seed in range(12)}
    assert seats == {Seat.EAST, Seat.WEST}
    assert LocalSession.practice(5, StandIn(), human=Seat.WEST).local_seats == (Seat.WEST,)


def test_practice_bot_moves_only_through_wait_for_others() -> None:
    async def play() -> None:
        bot = StandIn()
        session = LocalSession.practice(4, bot, human=Seat.WEST, think_seconds=0)
        assert session.needs_others()
        await session.wait_for_others()  # the bot (East) chooses its hand
        assert not session.needs_others()
        await session.send(Seat.WEST, _hand(session, Seat.WEST))
        assert session.view(Seat.WEST).phase == "discarding"
        assert session.needs_others()  # East discards first (R10)
        await session.wait_for_others()
        view = session.view(Seat.WEST)
        assert len(view.discards[Seat.EAST]) == 1 and view.my_turn
        with pytest.raises(IllegalCommand):
            await session.send(Seat.EAST, Discard(tile="1m"))  # not a local seat
        with pytest.raises(IllegalCommand):
            session.view(Seat.EAST)  # the bot's view is not this terminal's (R26)
        assert bot.calls == 2

    asyncio.run(play())


def test_the_bot_pauses_before_a_discard_without_blocking_the_loop() -> None:
    async def play() -> float:
        session = LocalSession.practice(4, StandIn(), human=Seat.WEST, think_seconds=0.2)
        await session.wait_for_others()
        await session.send(Seat.WEST, _hand(session, Seat.WEST))
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        task = asyncio.create_task(ticker())
        loop = asyncio.get_running_loop()
        start = loop.time()
        await session.wait_for_others()
        task.cancel()
        assert ticks >= 5  # the loop kept running while the bot "thought"
        return loop.time() - start

    assert asyncio.run(play()) >= 0.19


def test_hotseat_has_nobody_else_to_wait_for() -> None:
    session = LocalSession.hotseat(seed=8)
    assert not session.needs_others()
    asyncio.run(session.wait_for_others())
    assert session.view(Seat.EAST).phase == "choosing"


def test_repr_of_a_hotseat_session_shows_no_tile() -> None:
    """ARCHITECTURE 3: a crash report prints locals; the session holds both hands."""
    session = LocalSession.hotseat(seed=11)
    for seat in Seat:
        asyncio.run(session.send(seat, _hand(session, seat)))
    asyncio.run(session.send(Seat.EAST, auto_command(session.view(Seat.EAST))))
    for text in (repr(session), pretty_repr(session), str(session)):
        assert not TILE.search(text), text
        assert "hidden" in text


def test_a_wrong_command_leaves_the_session_unchanged() -> None:
    session = LocalSession.hotseat(seed=2)
    before = session.view(Seat.EAST)
    with pytest.raises(IllegalCommand):
        asyncio.run(session.send(Seat.EAST, Discard(tile="1m")))
    assert session.view(Seat.EAST) == before
