"""The daemon's wire protocol: JSON lines of the session messages, plus a handshake.

Every line on the socket is one JSON object ending in ``\\n`` (UTF-8, at most
:data:`~minefield.protocol.messages.MAX_LINE_BYTES` bytes). The game messages are those of
:mod:`minefield.protocol.messages` unchanged; this module adds what only a socket needs: the
client's :class:`Hello` and the server's :class:`Welcome` (the version handshake), :class:`Ping`
and :class:`Pong` (liveness), :class:`WireError` (a message or a request that could not be
served), :class:`AskRematch` and :class:`RoomState` (a new game in the same room),
:class:`AskNextGame` (a match's next game, R30), and how a line is written (:func:`encode`)
and read (:func:`parse_hello`, :func:`parse_in_game`). The lobby's messages are
:mod:`minefield.protocol.lobby`; every message a client may read from the server,
:mod:`minefield.protocol.server_lines`.
``assets/protocol.md`` describes it for someone writing a client in another language.

>>> hello = parse_hello(b'{"type": "hello", "version": 1, "action": "join", "code": "k7q3px"}')
>>> hello.action, hello.code
('join', 'K7Q3PX')
>>> parse_hello(b'{"type": "hello", "version": 99, "action": "resume"}')
Traceback (most recent call last):
...
minefield.protocol.wire.WireProblem: this server speaks protocol version 1, the client 99: \
update minefield on the side that is older
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    StrictBool,
    StrictInt,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_serializer,
)
from pydantic_core import from_json

from minefield.bots.base import Level
from minefield.errors import MinefieldError
from minefield.protocol.codes import normalize_code
from minefield.protocol.messages import (
    MAX_LINE_BYTES,
    PROTOCOL_VERSION,
    CommandId,
    Draft,
    Leave,
    SendCommand,
)
from minefield.rules.game import Seat
from minefield.rules.settings import MATCH_PRESETS, describe_validation_error

#: A player name given by the shared SSH account (one ``authorized_keys`` line per person).
PlayerName = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_.-]+$")]
#: One rule setting of a hello's ``rule``: its name, and its value (on/off, a number, a word
#: such as ``"none"``, or null); the daemon checks both with the settings (RULES.md presets).
RuleName = Annotated[str, Field(min_length=1, max_length=40)]
RuleValue = StrictBool | StrictInt | Annotated[str, Field(max_length=20)] | None
#: A game's id (the name of its record, without ``.jsonl``).
GameId = Annotated[str, Field(min_length=1, max_length=80, pattern=r"^[A-Za-z0-9_.:-]+$")]

ErrorCode = Literal[
    "bad_message",  # not JSON, not a known message, or a bad field: the text names it
    "too_long",  # a line over the limit (the connection is closed)
    "rate_limited",  # too many messages (closed when it goes on) or too many wrong room codes
    "handshake",  # no hello in time, a second hello, or a message before the hello
    "version",  # the client speaks another protocol version (closed)
    "bad_code",  # no room with this code (wrong, expired or already used)
    "no_game",  # resume: this player has no unfinished game here
    "not_allowed",  # e.g. joining a game you are in, too many open games, test seeds refused
    "idle",  # nothing received for too long (closed)
    "server",  # the server could not do it (e.g. the disk)
]


class WireProblem(MinefieldError, ValueError):
    """A line that is not a valid message; ``code`` is the :data:`ErrorCode` to answer with.

    ``fatal``: the connection closes after the error (a line too long: the rest of the stream
    cannot be trusted to start a new line). ``command_id``: the line was a ``command`` with a
    valid id whose command is malformed (a 12-tile hand, a tile that is no tile): it is
    answered with a ``rejected`` for that id, as every command is (protocol 3).
    """

    def __init__(self, message: str, code: ErrorCode = "bad_message",
                 command_id: str | None = None) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.command_id = command_id

    @property
    def fatal(self) -> bool:
        """True when the connection must close after this problem's error."""
        return self.code == "too_long"


class WireModel(BaseModel):
    """A message of the wire (this module's and the lobby's): frozen, unknown keys refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")


# -- client to server ---------------------------------------------------------------------------


class Hello(WireModel):
    """The first line a client sends: its protocol version and what it wants.

    ``host``: a new room (``bot`` plays the other seat at once, else a room code is given to
    share); ``rules``: a preset name. ``join``: the free seat of the room with ``code``.
    ``resume``: the player's game ``game`` (or, without it, their latest unfinished one).
    ``player`` is honoured only from the server's shared account. ``seed`` only when the
    server runs with test seeds (a seed fixes both deals; in a match, every game's).
    ``match`` (host): a whole match (R30-R35) rather than one game; ``"rules": "match"`` asks
    for one too (so does ``"club"``). It is left out of the line when false, so that a single
    game's hello is the same as before matches (a server without them refuses the field).
    ``rule`` (host): settings over the preset by name (``--rule``), left out when empty.
    ``public`` (host): the room's code is listed in the lobby for anyone to join (also left
    out when false). ``rated`` (host): false for a casual table, whose games never change a
    rating (R36); left out, the table is rated. ``key`` (with ``player``, honoured from the
    shared account only): the SHA256 fingerprint of the SSH key the player logged in with,
    when sshd tells it, so that a banned key is refused (left out when unknown).
    ``lobby``: no room; the server sends
    :class:`~minefield.protocol.lobby.LobbyState` now and
    whenever it changes. ``watch``: watch the game ``game`` (required) without a seat
    (:mod:`minefield.protocol.watching`).
    """

    type: Literal["hello"] = "hello"
    version: StrictInt
    action: Literal["host", "join", "resume", "lobby", "watch"]
    bot: Level | None = None
    rules: str | None = Field(None, max_length=20)
    code: str | None = Field(None, max_length=16)
    game: GameId | None = None
    player: PlayerName | None = None
    seed: str | None = Field(None, max_length=40, pattern=r"^[0-9a-fA-F]+$")
    match: StrictBool = False
    rule: dict[RuleName, RuleValue] = Field(default_factory=dict, max_length=20)
    public: StrictBool = False
    rated: StrictBool | None = None
    key: str | None = Field(None, pattern=r"^SHA256:[A-Za-z0-9+/]{43}$")

    @model_serializer(mode="wrap")
    def _drop_no_match(self, handler: SerializerFunctionWrapHandler,
                       info: SerializationInfo) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for flag in ("match", "rule", "public"):  # left out when false or empty: older
            if not data.get(flag, True):  # servers refuse them
                del data[flag]
        for unknown in ("rated", "key"):  # left out unless given: older servers refuse them
            if data.get(unknown, False) is None:
                del data[unknown]
        return data

    @property
    def wants_match(self) -> bool:
        """True when a ``host`` asks for a match (``match``, or the ``match`` or ``club``
        rules)."""
        return self.match or self.rules in MATCH_PRESETS

    @field_validator("code")
    @classmethod
    def _canonical_code(cls, value: str | None) -> str | None:
        if value is None:
            return None
        code = normalize_code(value)
        if code is None:
            raise ValueError("a room code is 6 letters and digits, such as K7Q3PX")
        return code


class Ping(WireModel):
    """Liveness: the server answers :class:`Pong`. Send one every 10 s when idle."""

    type: Literal["ping"] = "ping"


class AskRematch(WireModel):
    """After a game: ask for a rematch, or accept the other player's request."""

    type: Literal["rematch"] = "rematch"


class AskNextGame(WireModel):
    """In a match, after a game: ready for the next one (it starts once both players are)."""

    type: Literal["next_game"] = "next_game"


InGameMessage = SendCommand | Draft | Leave | Ping | AskRematch | AskNextGame
IN_GAME_ADAPTER: TypeAdapter[InGameMessage] = TypeAdapter(
    Annotated[InGameMessage, Field(discriminator="type")])


# -- server to client ---------------------------------------------------------------------------


class Welcome(WireModel):
    """The handshake's answer: the seat, the game and (while it waits) the room code.

    A :class:`~minefield.protocol.messages.Snapshot` follows. A new Welcome arrives when a
    rematch starts a new game (the seats are swapped).
    """

    type: Literal["welcome"] = "welcome"
    version: int = PROTOCOL_VERSION
    seat: Seat
    game: GameId
    code: str | None = None
    player: str = Field(max_length=40)
    resumed: bool = False


class WireError(WireModel):
    """A line or a request the server could not serve; ``fatal``: the connection closes."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str = Field(max_length=500)
    fatal: bool = False


class Pong(WireModel):
    """The answer to :class:`Ping`."""

    type: Literal["pong"] = "pong"


class RoomState(WireModel):
    """The room between games: who has asked for a rematch (a new game starts once both have)."""

    type: Literal["room"] = "room"
    seat: Seat
    rematch: list[Seat] = Field(max_length=2)


# -- encoding and parsing -----------------------------------------------------------------------


def encode(message: BaseModel) -> bytes:
    """One line of the wire: compact JSON and a newline."""
    return message.model_dump_json().encode() + b"\n"


def error_text(text: str) -> str:
    """``text`` cut to fit :class:`WireError` (500 characters)."""
    return text if len(text) <= 480 else text[:477] + "..."


def line_object(data: bytes | str) -> dict[str, Any]:
    """One line of the wire as a JSON object; :class:`WireProblem` when it is too long
    (``too_long``), not JSON or not an object."""
    if isinstance(data, bytes):
        size = len(data) - data.endswith(b"\n")
    else:
        size = len(data.encode()) - data.endswith("\n")
    if size > MAX_LINE_BYTES:  # the newline does not count (protocol 1)
        raise WireProblem(f"line longer than {MAX_LINE_BYTES} bytes", "too_long")
    try:
        value = from_json(data)
    except ValueError as error:
        raise WireProblem(error_text(f"not JSON: {error}")) from None
    if not isinstance(value, dict):
        raise WireProblem("not a JSON object: every message is an object with a \"type\"")
    return value


_T = TypeVar("_T")


def validated(adapter: TypeAdapter[_T], value: dict[str, Any]) -> _T:
    """``value`` read by ``adapter``; :class:`WireProblem` naming the field that is wrong."""
    try:
        return adapter.validate_python(value)
    except ValidationError as error:
        raise WireProblem(error_text(describe_validation_error(error, "field"))) from None


_HELLO_ADAPTER: TypeAdapter[Hello] = TypeAdapter(Hello)


def parse_hello(data: bytes | str) -> Hello:
    """The client's first line; :class:`WireProblem` (code ``version`` for another version)."""
    value = line_object(data)
    if value.get("type") != "hello":
        raise WireProblem('the first message must be {"type": "hello", ...}', "handshake")
    version = value.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise WireProblem("field 'version': a whole number is needed (the protocol version, "
                          f"{PROTOCOL_VERSION})")
    if version != PROTOCOL_VERSION:
        shown = str(version)[:20]
        raise WireProblem(f"this server speaks protocol version {PROTOCOL_VERSION}, the client "
                          f"{shown}: update minefield on the side that is older", "version")
    return validated(_HELLO_ADAPTER, value)


def parse_in_game(data: bytes | str) -> InGameMessage:
    """A client's line after the handshake; :class:`WireProblem` naming what is wrong."""
    value = line_object(data)
    if value.get("type") == "hello":
        raise WireProblem("already greeted: hello is sent once, first", "handshake")
    try:
        return validated(IN_GAME_ADAPTER, value)
    except WireProblem as problem:
        if value.get("type") == "command":
            problem.command_id = _valid_command_id(value.get("command_id"))
        raise


_COMMAND_ID_ADAPTER: TypeAdapter[str] = TypeAdapter(CommandId)


def _valid_command_id(value: object) -> str | None:
    """``value`` if it is a valid ``command_id``, else None."""
    if not isinstance(value, str):
        return None
    try:
        return _COMMAND_ID_ADAPTER.validate_python(value)
    except ValidationError:
        return None


__all__ = [
    "AskNextGame", "AskRematch", "ErrorCode", "GameId", "Hello", "InGameMessage", "Ping",
    "PlayerName", "Pong", "RoomState", "Welcome", "WireError", "WireModel", "WireProblem",
    "encode", "error_text", "line_object", "parse_hello", "parse_in_game", "validated",
]
