"""The session messages: every type round-trips through JSON; bad input is a clear error."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minefield.protocol.messages import (
    Draft,
    Leave,
    Link,
    PlayerInfo,
    ProtocolError,
    SendCommand,
    ServerMessageType,
    parse_client_message,
    parse_server_message,
)
from minefield.rules.auto import auto_command
from minefield.rules.game import ChooseHand, Discard, Game, Seat
from minefield.table.game_table import GameTable

EAST, WEST = Seat.EAST, Seat.WEST


def server_messages() -> list[ServerMessageType]:
    """One of every server message, from a real table."""
    table = GameTable(Game(5), {EAST: PlayerInfo(name="Ann"), WEST: PlayerInfo(name="Bob")})
    messages: list[ServerMessageType] = [table.snapshot(EAST, 0.0)]
    messages += table.submit(EAST, "c1", auto_command(table.game.view(EAST)), 0.0)
    messages += table.submit(WEST, "c2", Discard(tile="1m"), 0.0)  # rejected
    messages += table.clock_messages(0.0)
    messages += table.set_presence(WEST, False, grace_left=42.0)
    messages.append(Link(seat=EAST, state="reconnecting"))
    return messages


def test_every_server_message_round_trips() -> None:
    messages = server_messages()
    assert {m.type for m in messages} >= {
        "snapshot", "applied", "rejected", "clocks", "presence", "link"}
    for message in messages:
        text = message.model_dump_json()
        assert parse_server_message(text) == message


def test_every_client_message_round_trips() -> None:
    for message in (SendCommand(command_id="a-1", command=ChooseHand(tiles="123456789m1234p")),
                    SendCommand(command_id="b", command=Discard(tile="5p")),
                    Draft(tiles="55p1z"), Leave()):
        assert parse_client_message(message.model_dump_json()) == message


@pytest.mark.parametrize(("line", "problem"), [
    ('{"type": "command", "command_id": "x", "command": {"type": "discard", "tile": "8z"}}',
     "not a tile"),
    ('{"type": "command", "command_id": "has space", "command": {"type": "discard", '
     '"tile": "1m"}}', "command_id"),
    ('{"type": "draft", "tiles": "11112222333344m"}', "at most 13"),
    ('{"type": "leave", "extra": 1}', "unknown field"),
    ('{"type": "nope"}', "does not match any of the expected tags"),
    ("[1, 2", "Invalid JSON"),
    ('{"type": "draft", "tiles": "' + "1m" * 40_000 + '"}', "longer than"),
])
def test_malformed_client_messages_are_clear_errors(line: str, problem: str) -> None:
    with pytest.raises(ProtocolError, match=re.escape(problem)):
        parse_client_message(line)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_random_bytes_never_raise_anything_but_protocol_error(data: bytes) -> None:
    try:
        parse_client_message(data)
    except ProtocolError as error:
        assert str(error).startswith("message:")


def test_reprs_of_messages_hide_tiles() -> None:
    for message in server_messages():
        assert not re.search(r"\d[mpsz]", repr(message)), repr(message)
    assert "hidden" in repr(Draft(tiles="123m"))
