"""A room is not its game: a rematch or a match's next game gets an id of its own, written
in its record's header as the game it ``follows``; the room keeps its key, and every earlier
id of its games still reaches it (``resume``, ``watch``), across a restart too."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from minefield.protocol.messages import Snapshot
from minefield.records.header import RecordHeader
from minefield.records.reader import read_record
from minefield.records.writer import RECORD_SUFFIX
from minefield.rules.settings import RuleSettings
from minefield.server.daemon import Daemon
from minefield.session.remote import RemoteSession
from minefield.session.remote_start import host, join, resume
from tests.server.conftest import Raw, autoplay, next_of, start_daemon
from tests.server.test_lobby_state import until_lobby

SEED = "5"


def header_line(daemon: Daemon, game: str) -> dict[str, Any]:
    """The first line of ``game``'s record as written (unfinished or finished)."""
    games = daemon.config.games_dir
    for path in (games / f"{game}{RECORD_SUFFIX}", games / "finished" / f"{game}{RECORD_SUFFIX}"):
        if path.exists():
            line: dict[str, Any] = json.loads(path.read_text().splitlines()[0])
            return line
    raise AssertionError(f"no record of {game}")


async def rematched(socket: Path, public: bool = False
                    ) -> tuple[RemoteSession, RemoteSession, str]:
    """Ann and Bob play a game (R25's automatic moves) and a rematch starts (seats swapped,
    R31); the first game's id."""
    ann = await host(socket=socket, player="ann", seed=SEED, public=public)
    bob = await join(ann.code or "", socket=socket, player="bob")
    for session in (ann, bob):
        await session.open()
    await asyncio.gather(autoplay(ann), autoplay(bob))
    first = ann.game_id
    await ann.rematch()
    await bob.rematch()
    for session in (ann, bob):
        snapshot = await next_of(session, Snapshot)
        assert snapshot.table.seq == 0 and snapshot.table.view.phase == "choosing"
    assert ann.game_id == bob.game_id != first
    return ann, bob, first


async def test_a_rematch_records_the_game_it_follows(daemon: Daemon) -> None:
    ann, bob, first = await rematched(daemon.config.socket)
    # The header is written before anyone hears of the game (a record thread).
    assert header_line(daemon, ann.game_id)["follows"] == first
    assert read_record(daemon.config.games_dir / f"{ann.game_id}{RECORD_SUFFIX}"
                       ).header.follows == first
    # The room's first game follows nothing: the key is left out of its line.
    assert "follows" not in header_line(daemon, first)
    for session in (ann, bob):
        await session.close()


async def test_a_matchs_next_game_records_the_game_it_follows(daemon: Daemon) -> None:
    ann = await host(socket=daemon.config.socket, player="ann", bot="easy", seed="9",
                     match=True)
    await ann.open()
    await autoplay(ann, game=1)
    first = ann.game_id
    await ann.next_game()  # the bot is always ready (R30)
    while True:
        snapshot = await next_of(ann, Snapshot)
        if snapshot.table.match is not None and snapshot.table.match.game == 2:
            break
    assert ann.game_id != first
    header = header_line(daemon, ann.game_id)
    assert header["follows"] == first and header["match"]["game"] == 2
    assert "follows" not in header_line(daemon, first)
    await ann.close()


async def test_resume_by_the_id_before_a_rematch_reaches_the_room(daemon: Daemon) -> None:
    ann, bob, first = await rematched(daemon.config.socket)
    current = ann.game_id
    await ann.close()
    again = await resume(socket=daemon.config.socket, player="ann", game=first)
    assert again.game_id == current and again.local_seats == ann.local_seats
    await again.open()
    snapshot = await next_of(again, Snapshot)
    assert snapshot.table.seq == 0 and snapshot.seat is ann.local_seats[0]
    await again.close()
    plain = await resume(socket=daemon.config.socket, player="ann")  # no id: the same room
    assert plain.game_id == current
    for session in (plain, bob):
        await session.close()


async def test_a_watcher_of_the_old_id_is_moved_and_a_new_one_finds_the_room(
        daemon: Daemon) -> None:
    socket = daemon.config.socket
    lobby = await Raw.connect(socket)
    lobby.hello("lobby", player="dan")
    ann = await host(socket=socket, player="ann", seed=SEED, public=True)
    bob = await join(ann.code or "", socket=socket, player="bob")
    for session in (ann, bob):
        await session.open()
    first_snapshot = await next_of(ann, Snapshot)
    assert first_snapshot.table.seq == 0
    first = ann.game_id
    early = await Raw.connect(socket)
    early.hello("watch", game=first, player="cat")
    assert (await early.until("watch"))["table"]["game"] == first
    ann._queue.put_nowait(first_snapshot)  # autoplay acts on it
    await asyncio.gather(autoplay(ann), autoplay(bob))
    await ann.rematch()
    await bob.rematch()
    await next_of(ann, Snapshot)
    current = ann.game_id
    assert current != first
    # The watcher who was there is moved to the new game.
    for _ in range(200):
        if (await early.until("watch"))["table"]["game"] == current:
            break
    else:
        raise AssertionError("the watcher was never moved to the rematch")
    # One who names the old id now reaches the same room, and is shown its new game.
    late = await Raw.connect(socket)
    late.hello("watch", game=first, player="eve")
    assert (await late.until("watch"))["table"]["game"] == current
    # The lobby lists the room once, by the game being played.
    state = await until_lobby(lobby, lambda s: [t["game"] for t in s["tables"]] == [current])
    assert len(state["tables"]) == 1
    for raw in (early, late, lobby):
        raw.close()
    for session in (ann, bob):
        await session.close()


async def test_after_a_restart_the_id_before_a_rematch_still_resumes(short_dir: Path) -> None:
    server = await start_daemon(short_dir)
    try:
        ann, bob, first = await rematched(server.config.socket)
        current = ann.game_id
        for session in (ann, bob):
            await session.close()
    finally:
        await server.stop()
    server = await start_daemon(short_dir)  # the rematch is taken up from its record
    try:
        assert list(server.rooms) == [first]  # the room's key, as before the restart
        again = await resume(socket=server.config.socket, player="bob", game=first)
        assert again.game_id == current
        await again.close()
    finally:
        await server.stop()


def test_a_header_without_follows_reads_and_writes_as_before() -> None:
    """A record written before games were linked: its header reads, follows nothing, and
    is written back byte for byte (the key is only ever added)."""
    line = ('{"record":"minefield","version":1,"seed":"' + "0" * 32 + '","rules":'
            + RuleSettings().model_dump_json() + ',"mode":"network",'
            '"players":{"east":"ann@x","west":"bob@x"},"started":"2025-01-02T03:04:05.678Z",'
            '"table":{"kind":"private","rated":true}}')
    header = RecordHeader.model_validate_json(line)
    assert header.follows is None
    assert header.model_dump_json() == line
    linked = header.model_copy(update={"follows": "20250102T030405.678Z-network-1f2e3d4c"})
    assert json.loads(linked.model_dump_json())["follows"] == linked.follows
