"""LocalSession plays a whole match (R30-R35): the games follow one another in one session, the
player's seat follows the deal (R31) and the bot plays whichever seat is its."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from minefield.bots.base import Bot
from minefield.protocol.messages import Applied, ServerMessageType, Snapshot
from minefield.records.replay import match_records, replay_match
from minefield.rules.auto import auto_command
from minefield.rules.game import ChooseHand, Discard, IllegalCommand, PlayerView, Seat
from minefield.rules.match import MatchError
from minefield.rules.settings import RuleSettings
from minefield.session import LocalSession, MatchSession


class StandIn(Bot):
    """The R25 move as a bot."""

    level = "easy"

    def act(self, view: PlayerView) -> ChooseHand | Discard:
        return auto_command(view)


async def drain(session: LocalSession) -> list[ServerMessageType]:
    """Every update for the local seats once the bot has nothing left to do now."""
    seen: list[ServerMessageType] = []
    while True:
        task = session._bot_task
        if task is not None and not task.done():
            await asyncio.wait([task])
        elif session._queue.empty():
            return seen
        else:
            seen.append(session._queue.get_nowait())


async def play_game(session: LocalSession) -> list[ServerMessageType]:
    """The local seats play the automatic move until the game ends."""
    seen = await drain(session)
    while True:
        seat = next((s for s in session.local_seats if session._table.must_act(s)), None)
        if session._table.game.phase == "ended":
            return seen
        if seat is None:
            seen += await drain(session)
            continue
        await session.send(seat, auto_command(session.view(seat)))
        seen += await drain(session)


async def test_a_practice_match_runs_whole_in_one_session() -> None:
    settings = RuleSettings.preset("match", hands=2)
    session = LocalSession.practice(seed=11, bot=StandIn(), think_seconds=0, settings=settings,
                                    match=True)
    assert isinstance(session, MatchSession)
    await session.open()
    seats_played: list[Seat] = []
    games = 0
    try:
        while True:
            match = session.match
            assert match is not None
            you = session.local_seats[0]
            assert match.players[you] == "You" and session.bot_seat is you.other
            seats_played.append(you)
            seen = await play_game(session)
            games += 1
            assert all(m.seat is you for m in seen)  # only the player's own updates
            last = [m for m in seen if isinstance(m, Applied)][-1].table.match
            assert last is not None and last.last is not None and last.game == match.game
            if last.over:
                assert last.standings is not None
                break
            await session.next_game()
            with pytest.raises(MatchError):  # the new game goes on
                await session.next_game()
            assert games < 40
        with pytest.raises(MatchError):
            await session.next_game()
    finally:
        await session.close()
    assert games >= 2


async def test_the_next_game_comes_as_a_snapshot_of_each_local_seat() -> None:
    session = LocalSession.hotseat(seed=5, match=True)
    await session.open()
    try:
        first = session.match
        assert first is not None and set(first.players.values()) == {"Player 1", "Player 2"}
        await play_game(session)
        ended = session.match
        assert ended is not None and ended.last is not None
        if ended.over:
            return
        await session.next_game()
        fresh = await drain(session)
        assert [type(m) for m in fresh] == [Snapshot, Snapshot]
        assert [m.seat for m in fresh] == [Seat.EAST, Seat.WEST]
        snapshot = fresh[0]
        assert isinstance(snapshot, Snapshot)
        match = snapshot.table.match
        assert match is not None and match.game == 2 and match.last is None
        assert match.dealer == ended.last.lines[-1].split("to ")[-1].split(",")[0] or (
            ended.last.renchan and match.dealer == first.dealer)
    finally:
        await session.close()


async def test_a_single_game_has_no_next_game() -> None:
    session = LocalSession.hotseat(seed=5)
    assert session.match is None
    with pytest.raises(IllegalCommand):
        await session.next_game()


async def test_each_game_of_a_match_is_recorded_and_replays_as_the_match(tmp_path: Path
                                                                         ) -> None:
    """Every game's record carries the match before it and its settlement (R30-R33): the
    records replay to the match the session played."""
    settings = RuleSettings.preset("match", hands=2)
    session = LocalSession.hotseat(seed=9, settings=settings, record_to=tmp_path, match=True)
    await session.open()
    try:
        while True:
            await play_game(session)
            match = session.match
            assert match is not None
            if match.over:
                break
            await session.next_game()
    finally:
        await session.close()
    matches, unreadable = match_records(tmp_path)
    assert not unreadable and len(matches) == 1
    replay = replay_match(next(iter(matches.values())))
    assert replay.consistent, replay.problems
    assert replay.over and replay.match is not None
    assert replay.match.scores == match.scores
    assert match.last is not None
    assert len(replay.games) == match.last.game
