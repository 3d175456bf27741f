"""A finished game between two people is rated as it ends and both players are told (the
rating function is whoever keeps ratings': here a recording fake); a bot game is never
asked about; a player coming back to the finished game is told again."""

from __future__ import annotations

import asyncio
from pathlib import Path

from minefield.protocol.messages import Rated, RatingChange
from minefield.rules.game import Seat
from minefield.server import rating
from minefield.server.daemon import Daemon
from minefield.server.rating import RateGame
from minefield.session.remote_start import host, join, resume
from tests.server.conftest import autoplay, next_of, start_daemon
from tests.server.test_daemon import SEED, local_result


def recording_rater(asked: list[tuple[str, str, str, float]]) -> RateGame:
    def rate(game: str, east: str, west: str, score: float) -> list[RatingChange]:
        asked.append((game, east, west, score))
        return [RatingChange(name=east.split("@")[0], before=1500, after=1500 + int(
                    (score - 0.5) * 300), deviation=290),
                RatingChange(name=west.split("@")[0], before=1500, after=1500 - int(
                    (score - 0.5) * 300), deviation=290)]
    return rate


async def test_a_game_between_two_people_is_rated_and_both_told(short_dir: Path) -> None:
    daemon = await start_daemon(short_dir)
    asked: list[tuple[str, str, str, float]] = []
    daemon.rate_game = recording_rater(asked)
    try:
        ann = await host(socket=daemon.config.socket, player="ann", seed=SEED)
        bob = await join(ann.code or "", socket=daemon.config.socket, player="bob")
        await ann.open()
        await bob.open()
        await asyncio.gather(autoplay(ann), autoplay(bob))
        told_ann, told_bob = await next_of(ann, Rated), await next_of(bob, Rated)
        expected = local_result(SEED)
        east_score = 0.5 if expected.winner is None else float(expected.winner == Seat.EAST)
        assert len(asked) == 1
        game, east, west, score = asked[0]
        assert score == east_score and {east, west} == {f"ann@{daemon.config.shared_account}",
                                                         f"bob@{daemon.config.shared_account}"}
        assert told_ann.seat == ann.local_seats[0] and told_bob.seat == bob.local_seats[0]
        assert told_ann.game == told_bob.game == game
        assert [p.name for p in told_ann.players] == [east.split("@")[0], west.split("@")[0]]
        await ann.close()
        # Back to the finished game: told again, not rated again.
        again = await resume(socket=daemon.config.socket, player="ann", game=game)
        await again.open()
        assert (await next_of(again, Rated)).players == told_ann.players
        assert len(asked) == 1
        await again.close()
        await bob.close()
    finally:
        await daemon.stop()


async def test_a_bot_game_is_never_rated(short_dir: Path) -> None:
    daemon = await start_daemon(short_dir)
    asked: list[tuple[str, str, str, float]] = []
    daemon.rate_game = recording_rater(asked)
    try:
        ann = await host(socket=daemon.config.socket, player="ann", seed=SEED, bot="easy")
        await ann.open()
        seen = await autoplay(ann)
        await asyncio.gather(*rating._PENDING)  # a rating would have been asked for by now
        assert not asked and not any(isinstance(m, Rated) for m in seen)
        await ann.close()
    finally:
        await daemon.stop()


async def test_without_ratings_nothing_is_sent(daemon: Daemon) -> None:
    ann = await host(socket=daemon.config.socket, player="ann", seed=SEED)
    bob = await join(ann.code or "", socket=daemon.config.socket, player="bob")
    await ann.open()
    await bob.open()
    seen = await asyncio.gather(autoplay(ann), autoplay(bob))
    assert daemon.rate_game is None
    assert not any(isinstance(m, Rated) for messages in seen for m in messages)
    await ann.close()
    await bob.close()
