"""Every line a client may read from the daemon, told apart by its ``type``: the session
messages of a game (:mod:`minefield.protocol.messages`), the socket's own
(:mod:`minefield.protocol.wire`) and the lobby's (:mod:`minefield.protocol.lobby`,
:mod:`minefield.protocol.profiles`).

>>> parse_server_line(b'{"type": "pong"}')
Pong(type='pong')
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, TypeAdapter

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
    ServerMessageType,
    Snapshot,
)
from minefield.protocol.profiles import Games, Profile, RecordPart
from minefield.protocol.wire import Pong, RoomState, Welcome, WireError, line_object, validated

WireServerMessage = (Welcome | WireError | Pong | RoomState | LobbyState | Invitation | Matching
                     | Seated | TournamentRound | Motd | Profile | RecordPart | Games)
AnyServerMessage = ServerMessageType | WireServerMessage


SERVER_WIRE_ADAPTER: TypeAdapter[AnyServerMessage] = TypeAdapter(Annotated[
    Snapshot | Applied | Rejected | Clocks | Presence | Link | Notice | Closed | Rated | RulesChosen
    | Welcome | WireError | Pong | RoomState | LobbyState | Invitation | Matching | Seated
    | TournamentRound | Motd | Profile | RecordPart | Games, Field(discriminator="type")])


def parse_server_line(data: bytes | str) -> AnyServerMessage:
    """A server's line (for clients); :class:`~minefield.protocol.wire.WireProblem` naming
    what is wrong."""
    value = line_object(data)
    result: AnyServerMessage = validated(SERVER_WIRE_ADAPTER, value)
    return result


__all__ = ["SERVER_WIRE_ADAPTER", "AnyServerMessage", "WireServerMessage", "parse_server_line"]
