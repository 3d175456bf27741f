"""The session messages: what a game tells a seat, and what a seat tells the game.

These pydantic models are the one vocabulary between a game and the screens that show it,
wherever the game runs: :class:`~minefield.session.local.LocalSession` pushes
them to the app in this process, and the game daemon sends the same models as JSON lines over
its socket. Every model forbids unknown keys, every list and string is bounded, and a
message to a seat carries only what that seat may see (R26): its own
:class:`~minefield.rules.game.PlayerView`, its own redacted events, names, clocks and presence.

Every update carries the whole table (a :class:`TableView` is small), so a client never applies
events itself and a reconnect is just a snapshot.

>>> message = parse_client_message('{"type": "command", "command_id": "c1", '
...                                '"command": {"type": "discard", "tile": "5p"}}')
>>> message.command.tile
'5p'
>>> parse_client_message('{"type": "leave", "seat": "west"}')
Traceback (most recent call last):
...
minefield.protocol.messages.ProtocolError: message: field 'leave.seat': unknown field
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from minefield.errors import MinefieldError
from minefield.rules.game import Command, Event, PlayerView, Seat
from minefield.rules.hand import HAND_SIZE
from minefield.rules.settings import describe_validation_error
from minefield.rules.tiles import parse_tiles, tiles_to_str

#: Bumped when a message changes shape; the daemon's handshake compares it.
PROTOCOL_VERSION = 1
#: The longest message line accepted on the wire, in bytes.
MAX_LINE_BYTES = 64 * 1024

CommandId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
Name = Annotated[str, Field(min_length=1, max_length=40)]
#: The name the game server gives a seat nobody has taken yet (not "disconnected").
WAITING_NAME = "(waiting)"


class ProtocolError(MinefieldError, ValueError):
    """A message that is not valid; the text says what is wrong and where."""


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


# ---------------------------------------------------------------------------------------------
# The table a seat sees


class SeatClock(_Message):
    """One seat's clock for its current step (R25): the hand, or one discard.

    ``limit`` is the time allowed for the step (None: no clock); ``remaining`` the time left
    when the message was made; ``running`` whether it counts down now (only a seat that must
    act has a running clock; a seat whose player is away with grace has its clock stopped,
    its ``remaining`` kept, R25b).
    """

    limit: float | None = None
    remaining: float | None = None
    running: bool = False


class PlayerInfo(_Message):
    """A player at the table, as everyone may see them."""

    name: Name
    kind: Literal["human", "bot"] = "human"
    present: bool = True
    #: While a disconnected player's grace period runs: seconds until the server plays for them.
    grace_left: float | None = None


#: Bounds of a match as the protocol carries it (R30: ``hands`` is at most the settings' max).
MAX_MATCH_GAMES = 10_000
MAX_POINTS = 10**9
MatchLine = Annotated[str, Field(max_length=300)]


class SettlementView(_Message):
    """What the last finished game of a match did (R31-R33): the payments by that game's
    seats (they sum to zero), the engine's sentences ("West (Bob) pays East (Ann) 8000 + 1
    counter stick x 1000 = 9000 (R32)"), whether the dealer stays and whether the match is
    over."""

    game: int = Field(ge=1, le=MAX_MATCH_GAMES)
    hand: int = Field(ge=1, le=MAX_MATCH_GAMES)
    result: Literal["ron", "draw"]
    winner: Seat | None = None
    honba: int = Field(ge=0, le=MAX_MATCH_GAMES)
    payments: dict[Seat, int]
    lines: list[MatchLine] = Field(max_length=8)
    renchan: bool
    paarenchan: bool = False
    match_over: bool = False


class StandingView(_Message):
    """One line of the final standings: the place (equal points share it), player, points."""

    place: int = Field(ge=1, le=2)
    player: Name
    points: int = Field(ge=-MAX_POINTS, le=MAX_POINTS)


class MatchView(_Message):
    """The public state of a match (R30-R35), the same for both seats: never its seed.

    ``game`` and ``hand`` are the numbers of the game on the table (``hands`` in all: the deal
    passes that often, R30); ``players`` names who sits where in it, East being the dealer, with
    ``dealer_streak`` repeats and ``honba`` counter sticks (``inherited`` of them passed on by a
    noten dealer, R31); ``ryanshi`` and ``paarenchan`` say whether R34 binds this game and
    whether its dealer holds R35's privilege. ``scores`` are by player, after ``last`` (the
    settlement of this game once it has ended). ``standings`` come when the match is over.
    ``next_asked`` names the players ready for the next game (over a network both must be).
    ``id`` is the match's public id, derived one-way from its seed (the seed never leaves the
    match: every game's seed follows from it).
    """

    id: Annotated[str, Field(max_length=64)] | None = None
    game: int = Field(ge=1, le=MAX_MATCH_GAMES)
    hand: int = Field(ge=1, le=MAX_MATCH_GAMES)
    hands: int = Field(ge=1, le=MAX_MATCH_GAMES)
    players: dict[Seat, Name]
    dealer_streak: int = Field(ge=0, le=MAX_MATCH_GAMES)
    honba: int = Field(ge=0, le=MAX_MATCH_GAMES)
    inherited: int = Field(0, ge=0, le=MAX_MATCH_GAMES)
    dealer_bonus: bool = False
    ryanshi: bool = False
    paarenchan: bool = False
    scores: dict[Name, Annotated[int, Field(ge=-MAX_POINTS, le=MAX_POINTS)]] = Field(
        max_length=2)
    last: SettlementView | None = None
    over: bool = False
    standings: list[StandingView] | None = Field(None, max_length=2)
    next_asked: list[Name] = Field(default_factory=list, max_length=2)

    @property
    def dealer(self) -> str:
        """The name of this game's dealer (East)."""
        return self.players[Seat.EAST]


class TableView(_Message):
    """Everything one seat may see of a table: its own game view, the players and the clocks.

    ``seq`` counts the commands applied so far (the table's version). ``match`` is the match
    the game belongs to (None: a single game).
    """

    view: PlayerView
    seq: int = Field(ge=0)
    players: dict[Seat, PlayerInfo]
    clocks: dict[Seat, SeatClock]
    match: MatchView | None = None

    @property
    def seat(self) -> Seat:
        """The seat this table is shown to."""
        return self.view.seat

    def name(self, seat: Seat) -> str:
        """How to call the player in ``seat``."""
        return self.players[seat].name

    def __repr__(self) -> str:
        return f"TableView(seat={self.seat.value}, seq={self.seq}, <tiles hidden>)"

    def __rich_repr__(self) -> Iterator[Any]:
        yield "seat", self.seat.value
        yield "seq", self.seq
        yield "tiles", "<hidden>"


# ---------------------------------------------------------------------------------------------
# Game to seat


class Snapshot(_Message):
    """The whole table, on attach and whenever asked (a reconnect is a snapshot)."""

    type: Literal["snapshot"] = "snapshot"
    seat: Seat
    table: TableView


class Applied(_Message):
    """A command was applied: its sequence number, the events this seat may see, the new table.

    ``command_id`` is the id the acting seat gave its command; other seats get None.
    """

    type: Literal["applied"] = "applied"
    seat: Seat
    seq: int = Field(ge=1)
    by: Seat
    command_id: CommandId | None = None
    automatic: bool = False
    events: list[Event] = Field(max_length=16)
    table: TableView


class Rejected(_Message):
    """A command of this seat was not applied; the game is unchanged."""

    type: Literal["rejected"] = "rejected"
    seat: Seat
    command_id: CommandId | None = None
    reason: str = Field(max_length=500)


class Clocks(_Message):
    """The clocks changed (a step started or ended); clients count down between messages."""

    type: Literal["clocks"] = "clocks"
    seat: Seat
    clocks: dict[Seat, SeatClock]


class Presence(_Message):
    """Who is at the table: connected, disconnected (with the grace left), a bot; and both
    clocks as they are now (R25b: a player's clock stops while they are away with grace and
    runs again when they return or their grace is spent), when the table has them."""

    type: Literal["presence"] = "presence"
    seat: Seat
    players: dict[Seat, PlayerInfo]
    clocks: dict[Seat, SeatClock] | None = None


class Link(_Message):
    """The state of this client's link to the game (a local game is always connected)."""

    type: Literal["link"] = "link"
    seat: Seat
    state: Literal["connected", "reconnecting", "lost"]
    detail: str = Field("", max_length=500)


class Notice(_Message):
    """Something the player should be told that is not a rule event: the server played the
    automatic move (R25) for a seat, an opponent's program failed and was replaced."""

    type: Literal["notice"] = "notice"
    seat: Seat
    text: str = Field(max_length=500)
    severity: Literal["information", "warning", "error"] = "information"


class Closed(_Message):
    """The table is closed for this seat: no more messages follow."""

    type: Literal["closed"] = "closed"
    seat: Seat
    reason: str = Field("", max_length=500)


class RatingChange(_Message):
    """One player's rating (Glicko-2, rounded) before and after a rated game."""

    name: str = Field(max_length=40)
    before: int
    after: int
    deviation: int = Field(ge=0)


class Rated(_Message):
    """A finished game between two people was rated: each player's rating before and after
    (East first). Sent once the result is in, by a server that keeps ratings (the SSH front
    door's); never for a game against a bot."""

    type: Literal["rated"] = "rated"
    seat: Seat
    game: str = Field(max_length=80)
    players: list[RatingChange] = Field(min_length=2, max_length=2)


class RulesChosen(_Message):
    """The rules preset the game's rules were chosen from (the table's settings hold every
    setting, what was changed over the preset included), so that they are shown as chosen.
    The game server sends it after each welcome. A client older than it skips the line, and a
    client of a server older than it guesses the preset from the settings."""

    type: Literal["rules"] = "rules"
    seat: Seat
    preset: str = Field(min_length=1, max_length=20)


ServerMessage = Annotated[
    Snapshot | Applied | Rejected | Clocks | Presence | Link | Notice | Closed | Rated
    | RulesChosen,
    Field(discriminator="type"),
]
SERVER_ADAPTER: TypeAdapter[
    Snapshot | Applied | Rejected | Clocks | Presence | Link | Notice | Closed | Rated
    | RulesChosen
] = TypeAdapter(ServerMessage, config=ConfigDict(defer_build=True))


# ---------------------------------------------------------------------------------------------
# Seat to game


class SendCommand(_Message):
    """Play this seat's command. A command resent with the same id is applied once."""

    type: Literal["command"] = "command"
    command_id: CommandId
    command: Command


class Draft(_Message):
    """The hand-builder's current choice: R25's automatic hand keeps these tiles."""

    type: Literal["draft"] = "draft"
    tiles: str = Field(max_length=64)

    @field_validator("tiles")
    @classmethod
    def _at_most_a_hand(cls, value: str) -> str:
        tiles = parse_tiles(value)
        if len(tiles) > HAND_SIZE:
            raise ValueError(f"a draft holds at most {HAND_SIZE} tiles, not {len(tiles)}")
        return tiles_to_str(tiles)

    def __repr__(self) -> str:
        return "Draft(<tiles hidden>)"

    def __rich_repr__(self) -> Iterator[Any]:
        yield "tiles", "<hidden>"


class Leave(_Message):
    """This seat leaves the table (its game goes on under the clocks, R25)."""

    type: Literal["leave"] = "leave"


ClientMessage = Annotated[SendCommand | Draft | Leave, Field(discriminator="type")]
CLIENT_ADAPTER: TypeAdapter[SendCommand | Draft | Leave] = TypeAdapter(
    ClientMessage, config=ConfigDict(defer_build=True))


def parse_client_message(data: str | bytes) -> ClientMessageType:
    """A seat's message from JSON; :class:`ProtocolError` names what is wrong."""
    return _parse(CLIENT_ADAPTER, data)


ServerMessageType = (Snapshot | Applied | Rejected | Clocks | Presence | Link | Notice | Closed
                     | Rated | RulesChosen)
ClientMessageType = SendCommand | Draft | Leave


def parse_server_message(data: str | bytes) -> ServerMessageType:
    """A game's message from JSON; :class:`ProtocolError` names what is wrong."""
    return _parse(SERVER_ADAPTER, data)


_T = TypeVar("_T")


def _parse(adapter: TypeAdapter[_T], data: str | bytes) -> _T:
    if len(data) > MAX_LINE_BYTES:
        raise ProtocolError(f"message: longer than {MAX_LINE_BYTES} bytes")
    try:
        return adapter.validate_json(data)
    except ValidationError as error:
        raise ProtocolError(f"message: {describe_validation_error(error, 'field')}") from None
