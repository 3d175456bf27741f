"""LocalSession pushes: the bot moves, clocks run out and errors arrive without being asked."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from minefield.bots.base import Bot
from minefield.protocol.messages import (
    Applied,
    Closed,
    Notice,
    Rejected,
    ServerMessageType,
    Snapshot,
)
from minefield.rules.auto import auto_command
from minefield.rules.game import ChooseHand, Discard, PlayerView, Seat
from minefield.rules.settings import RuleSettings
from minefield.session.local import LocalSession

EAST, WEST = Seat.EAST, Seat.WEST


class StandIn(Bot):
    """The R25 move as a bot."""

    level = "easy"

    def act(self, view: PlayerView) -> ChooseHand | Discard:
        return auto_command(view)


class Failing(StandIn):
    """A bot whose error message names its own tiles."""

    def act(self, view: PlayerView) -> ChooseHand | Discard:
        raise ValueError(f"cannot use {view.own_tiles}")


async def next_of(updates: AsyncIterator[ServerMessageType], kind: type,
                  limit: int = 20) -> ServerMessageType:
    for _ in range(limit):
        message = await asyncio.wait_for(anext(updates), timeout=10)
        if isinstance(message, kind):
            return message
    raise AssertionError(f"no {kind.__name__} in {limit} messages")


async def test_the_bot_moves_while_the_player_is_idle() -> None:
    session = LocalSession.practice(seed=3, bot=StandIn(), human=WEST, think_seconds=0)
    await session.open()
    updates = session.updates()
    first = await anext(updates)
    assert isinstance(first, Snapshot) and first.seat is WEST and first.table.seq == 0
    # The bot (East) chooses its hand with no call from the player.
    applied = await next_of(updates, Applied)
    assert isinstance(applied, Applied) and applied.by is EAST and applied.seat is WEST
    assert applied.table.view.opponent_ready and applied.command_id is None
    hand = auto_command(applied.table.view)
    command_id = await session.send(WEST, hand)
    mine = await next_of(updates, Applied)
    assert isinstance(mine, Applied) and mine.by is WEST and mine.command_id == command_id
    # East discards first (R10): it arrives by itself.
    discard = await next_of(updates, Applied)
    assert isinstance(discard, Applied) and discard.by is EAST
    assert discard.table.view.discards[EAST] and discard.table.view.my_turn
    await session.close()


async def test_a_wrong_command_is_rejected_as_an_update() -> None:
    session = LocalSession.hotseat(seed=3)
    await session.open()
    updates = session.updates()
    await session.send(EAST, Discard(tile="1m"), command_id="x1")
    rejected = await next_of(updates, Rejected)
    assert isinstance(rejected, Rejected) and rejected.command_id == "x1"
    assert "both hands are not chosen" in rejected.reason
    assert session.view(EAST).own_hand is None
    await session.close()


async def test_hotseat_updates_reach_both_seats_each_with_its_own_view() -> None:
    session = LocalSession.hotseat(seed=3)
    assert session.traits.shared_screen and not session.traits.hints_allowed
    await session.open()
    updates = session.updates()
    snapshots = [await anext(updates), await anext(updates)]
    assert [m.seat for m in snapshots] == [EAST, WEST]
    hand = auto_command(session.view(EAST))
    await session.send(EAST, hand)
    to_east, to_west = await anext(updates), await anext(updates)
    assert isinstance(to_east, Applied) and isinstance(to_west, Applied)
    assert to_east.table.view.own_hand and to_west.table.view.own_hand is None
    await session.close()
    rest = [message async for message in updates]
    assert [type(m) for m in rest] == [Closed, Closed]


async def test_r25_the_clock_plays_for_an_idle_player() -> None:
    settings = RuleSettings(hand_seconds=1)
    session = LocalSession.practice(seed=3, bot=StandIn(), human=EAST, settings=settings,
                                    think_seconds=0)
    await session.open()
    updates = session.updates()
    snapshot = await anext(updates)
    assert isinstance(snapshot, Snapshot)
    assert snapshot.table.clocks[EAST].running and snapshot.table.clocks[EAST].limit == 1
    await session.draft(EAST, "")
    mine = None
    while mine is None:
        message = await asyncio.wait_for(anext(updates), timeout=10)
        if isinstance(message, Applied) and message.by is EAST:
            mine = message
    assert mine.automatic and mine.table.view.own_hand is not None
    notice = await next_of(updates, Notice)
    assert isinstance(notice, Notice) and "automatic move" in notice.text
    await session.close()


async def test_a_failing_bot_is_replaced_by_the_automatic_move_and_its_text_never_shown(
        caplog: object) -> None:
    session = LocalSession.practice(seed=3, bot=Failing(), human=WEST, think_seconds=0)
    await session.open()
    updates = session.updates()
    messages = [await asyncio.wait_for(anext(updates), timeout=10) for _ in range(3)]
    notice = next(m for m in messages if isinstance(m, Notice))
    assert isinstance(notice, Notice) and "ValueError" in notice.text
    east_tiles = session._table.game.view(EAST).own_tiles  # the bot's own tiles
    for message in messages:
        assert east_tiles not in message.model_dump_json()
    assert any(isinstance(m, Applied) and m.by is EAST for m in messages)
    assert east_tiles not in getattr(caplog, "text", "")
    await session.close()


def test_repr_shows_no_tile() -> None:
    session = LocalSession.hotseat(seed=3)
    assert "tiles hidden" in repr(session)


async def test_the_bot_builds_its_hand_after_its_pause_even_when_the_player_is_quicker(
) -> None:
    """The bot starts its hand search only after ``think_seconds`` (so that the player's first
    screen is drawn without it); a player who chooses first meanwhile does not stop it."""
    loop = asyncio.get_running_loop()
    session = LocalSession.practice(seed=3, bot=StandIn(), human=WEST, think_seconds=0.2)
    await session.open()
    started = loop.time()
    updates = session.updates()
    first = await anext(updates)
    assert isinstance(first, Snapshot)
    await session.send(WEST, auto_command(first.table.view))  # at once, during the pause
    mine = await next_of(updates, Applied)
    assert isinstance(mine, Applied) and mine.by is WEST
    assert not mine.table.view.opponent_ready
    theirs = await next_of(updates, Applied)
    assert isinstance(theirs, Applied) and theirs.by is EAST
    assert theirs.table.view.phase == "discarding"
    assert loop.time() - started >= 0.2
    await session.close()
