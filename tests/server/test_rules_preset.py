"""The rules preset a room was hosted with travels to its players and its records, never
guessed back from the settings (RULES.md "Rule presets"): the wire's ``rules`` line after the
welcome, the records' ``preset``. Old clients skip the line, old servers do not send it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated

import pytest
from pydantic import BaseModel, Field, TypeAdapter

from minefield.protocol import wire
from minefield.protocol.lobby import (
    Invitation,
    LobbyState,
    Matching,
    Motd,
    Seated,
    TournamentRound,
)
from minefield.protocol.messages import (
    Applied,
    Clocks,
    Closed,
    Link,
    Notice,
    Presence,
    Rated,
    Rejected,
    RulesChosen,
    Snapshot,
)
from minefield.protocol.profiles import Games, Profile, RecordPart
from minefield.protocol.wire import Pong, RoomState, Welcome, WireError
from minefield.records.reader import read_record
from minefield.rules.settings import RuleSettings
from minefield.server.daemon import Daemon
from minefield.session import remote
from minefield.session.remote_start import host, join
from tests.server.conftest import LIMIT, Raw, make_config, next_of, start_daemon

#: What a client older than the ``rules`` line parses a server's line with: every message
#: it knew, the line's type not among them (it skips the line, protocol 7).
OLD_CLIENT_ADAPTER: TypeAdapter[BaseModel] = TypeAdapter(Annotated[
    Snapshot | Applied | Rejected | Clocks | Presence | Link | Notice | Closed | Rated | Welcome
    | WireError | Pong | RoomState | LobbyState | Invitation | Matching | Seated
    | TournamentRound | Motd | Profile | RecordPart | Games, Field(discriminator="type")])


async def test_the_rules_line_follows_the_welcome_which_is_as_before(
        daemon: Daemon) -> None:
    """A room hosted with the standard preset and beginner's minimum (R14): the line names
    the standard preset, although the settings equal the beginner preset's."""
    raw = await Raw.connect(daemon.config.socket)
    raw.hello("host", player="ann", rules="standard", rule={"minimum": "none"})
    welcome = await raw.until("welcome")
    assert set(welcome) == {"type", "version", "seat", "game", "code", "player", "resumed"}
    rules = await raw.recv()
    assert rules == {"type": "rules", "seat": welcome["seat"], "preset": "standard"}
    snapshot = await raw.recv()
    assert snapshot is not None and snapshot["type"] == "snapshot"
    settings = RuleSettings.model_validate(snapshot["table"]["view"]["settings"])
    assert settings.model_copy(update={"hand_seconds": None, "discard_seconds": None}) == (
        RuleSettings.preset("beginner"))
    raw.close()


async def test_a_client_older_than_the_line_skips_it_and_plays(
        daemon: Daemon, monkeypatch: pytest.MonkeyPatch) -> None:
    def old_client_parse(line: bytes | str) -> BaseModel:
        value = json.loads(line)
        try:
            return OLD_CLIENT_ADAPTER.validate_python(value)
        except ValueError:
            raise wire.WireProblem("not understood") from None

    with pytest.raises(ValueError):  # the old parser refuses the line: it is skipped
        OLD_CLIENT_ADAPTER.validate_python({"type": "rules", "seat": "east", "preset": "x"})
    monkeypatch.setattr(remote, "parse_server_line", old_client_parse)
    ann = await host(socket=daemon.config.socket, player="ann", rules="beginner", seed="7")
    assert ann.code is not None
    bob = await join(ann.code, socket=daemon.config.socket, player="bob")
    await ann.open()
    snapshot = await next_of(ann, Snapshot)
    assert snapshot.table.view.settings.minimum == "none"
    await bob.close()
    await ann.close()


async def test_a_new_client_gets_the_preset_from_a_new_server(daemon: Daemon) -> None:
    ann = await host(socket=daemon.config.socket, player="ann", rules="beginner",
                     rule={"minimum": "mangan"})
    await ann.open()
    chosen = await next_of(ann, RulesChosen)
    assert chosen.preset == "beginner" and chosen.seat is ann.local_seats[0]
    await ann.close()


async def test_records_carry_the_preset_and_a_restarted_server_keeps_it(
        short_dir: Path) -> None:
    """The records' header says the preset chosen; a room restored from its record after a
    restart lists it in the lobby as before; a record older than the key is guessed."""
    daemon = await start_daemon(short_dir)
    ann = await host(socket=daemon.config.socket, player="ann", rules="standard",
                     rule={"minimum": "none"}, seed="7")
    assert ann.code is not None
    bob = await join(ann.code, socket=daemon.config.socket, player="bob")
    await ann.open()
    await next_of(ann, Snapshot)
    room = next(iter(daemon.rooms.values()))
    assert room.rules_name == "standard"
    game = room.id
    await bob.close()
    await ann.close()
    await daemon.stop()
    path = make_config(short_dir).games_dir / f"{game}.jsonl"
    async with asyncio.timeout(LIMIT):
        while not path.exists():
            await asyncio.sleep(0.01)
    header = read_record(path).header
    assert header.preset == "standard"
    assert header.rules.minimum == "none"

    daemon = await start_daemon(short_dir)
    assert daemon.rooms[game].rules_name == "standard"
    await daemon.stop()

    lines = path.read_text().splitlines(keepends=True)
    old = json.loads(lines[0])
    del old["preset"]
    path.write_text(json.dumps(old) + "\n" + "".join(lines[1:]))
    assert read_record(path).header.preset is None  # an older record still reads
    daemon = await start_daemon(short_dir)
    assert daemon.rooms[game].rules_name == "beginner"  # guessed: the nearest preset
    await daemon.stop()

