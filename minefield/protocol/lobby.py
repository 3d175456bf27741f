"""The lobby's messages: what a ``lobby`` connection asks (:class:`Invite`,
:class:`AnswerInvitation`, :class:`QuickMatch`, :class:`Cancel`, the profile questions of
:mod:`minefield.protocol.profiles`, and :class:`~minefield.protocol.wire.Ping`) and what the
server tells it (:class:`LobbyState`, :class:`Invitation`, :class:`Matching`, :class:`Seated`,
:class:`TournamentRound`, :class:`Motd`), lines of the wire as :mod:`minefield.protocol.wire`
writes and reads them.

>>> parse_lobby(b'{"type": "invite", "player": "ann"}')
Invite(type='invite', player='ann', rated=False)
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    StrictBool,
    TypeAdapter,
    model_serializer,
)

from minefield.bots.base import Level
from minefield.protocol.profiles import AskGames, AskProfile, AskRecord
from minefield.protocol.wire import (
    GameId,
    Ping,
    PlayerName,
    WireModel,
    WireProblem,
    line_object,
    validated,
)
from minefield.rules.game import Seat

# -- client to server ---------------------------------------------------------------------------


class Invite(WireModel):
    """In the lobby: invite ``player`` (someone in the lobby) to a game; they are asked.
    ``rated``: the game is rated (R36; left out, it is casual)."""

    type: Literal["invite"] = "invite"
    player: PlayerName
    rated: StrictBool = False


class AnswerInvitation(WireModel):
    """In the lobby: accept or decline the invitation ``invitation``."""

    type: Literal["answer"] = "answer"
    invitation: str = Field(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9]+$")
    accept: StrictBool


class QuickMatch(WireModel):
    """In the lobby: pair me with the next player who asks; ``bot``: take the bot offered
    after :data:`~minefield.server.invites.BOT_OFFER_SECONDS` instead."""

    type: Literal["quick_match"] = "quick_match"
    bot: Level | None = None


class Cancel(WireModel):
    """In the lobby: stop waiting for a quick match, withdraw my invitation."""

    type: Literal["cancel"] = "cancel"

LobbyMessage = (Ping | Invite | AnswerInvitation | QuickMatch | Cancel | AskProfile | AskRecord
                | AskGames)
LOBBY_ADAPTER: TypeAdapter[LobbyMessage] = TypeAdapter(
    Annotated[LobbyMessage, Field(discriminator="type")])


# -- server to client ---------------------------------------------------------------------------


#: What a player online does: in the ``lobby``, ``waiting`` for a quick match, ``watching`` a
#: game, ``hosting`` a room nobody has joined yet, on a game's ``result`` (the game over, its
#: room still open), ``playing``.
PlayerStatus = Literal["lobby", "waiting", "watching", "hosting", "result", "playing"]


class LobbyPlayer(WireModel):
    """A player connected to the server and what they do (:data:`PlayerStatus`); ``rating``:
    their rating when whoever keeps ratings (the SSH front door) knows them, None otherwise
    (left out of the line then); ``program``: true for a program (a key that has connected
    over ``ssh HOST wire``), left out of the line otherwise."""

    name: str = Field(max_length=40)
    status: PlayerStatus
    rating: int | None = None
    program: bool = False

    @model_serializer(mode="wrap")
    def _drop_no_rating(self, handler: SerializerFunctionWrapHandler,
                        info: SerializationInfo) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if data.get("rating", 0) is None:  # unknown: left out
            del data["rating"]
        if not data.get("program", True):  # a person: left out
            del data["program"]
        return data


class LobbyTable(WireModel):
    """A table in the lobby: a public room waiting for a player (``code``: join it) or a game
    being played (``game``), rated or casual (``rated``, R36). Never anything of the game
    itself but who sits at it."""

    code: str | None = None
    game: GameId | None = None
    host: str = Field(max_length=40)
    rules: str = Field(max_length=20)
    public: bool
    players: list[str] = Field(max_length=2)
    watchers: int = Field(0, ge=0)
    rated: bool = True


class LobbyTournament(WireModel):
    """A running tournament as the lobby lists it: its name and the round being played."""

    name: str = Field(max_length=40)
    round: int = Field(ge=1)
    rounds: int = Field(ge=1)


class LobbyState(WireModel):
    """The lobby (to a ``lobby`` hello): who is connected, the tables, and the running
    tournaments (left out of the line when there are none)."""

    type: Literal["lobby"] = "lobby"
    online: list[LobbyPlayer] = Field(max_length=10_000)
    tables: list[LobbyTable] = Field(max_length=10_000)
    tournaments: list[LobbyTournament] = Field(default_factory=list, max_length=100)

    @model_serializer(mode="wrap")
    def _drop_no_tournaments(self, handler: SerializerFunctionWrapHandler,
                             info: SerializationInfo) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if not data.get("tournaments", True):
            del data["tournaments"]
        return data


class Invitation(WireModel):
    """An invitation as it stands, sent to both players: ``open`` (the invited player is
    asked), ``declined``, ``expired`` (no answer in time), ``cancelled`` (the inviter
    withdrew or left), ``gone`` (the invited player left the lobby). An accepted one ends in
    :class:`Seated` for both. ``rated``: its game is rated (R36; otherwise casual)."""

    type: Literal["invitation"] = "invitation"
    id: str = Field(max_length=16)
    by: str = Field(max_length=40)
    to: str = Field(max_length=40)
    state: Literal["open", "declined", "expired", "cancelled", "gone"]
    seconds: int = Field(0, ge=0)
    rated: bool = False


class Matching(WireModel):
    """A quick match as it stands: ``waiting`` for another player, ``bot_offer`` (nobody
    came in time: a bot is offered, waiting goes on), ``cancelled``."""

    type: Literal["matching"] = "matching"
    state: Literal["waiting", "bot_offer", "cancelled"]
    bot: Level | None = None


class Seated(WireModel):
    """A room was made for you (an accepted invitation, a quick match): send a ``resume``
    hello with ``game`` to sit down."""

    type: Literal["seated"] = "seated"
    game: GameId
    opponent: str = Field(max_length=40)


class TournamentRound(WireModel):
    """A round of a tournament has begun and your game waits for you (R37): send a
    ``resume`` hello with ``game`` to sit down within the round's first 10 minutes (absent
    then, the game is lost by forfeit). Sent to each lobby connection of the player when the
    round begins, and again on coming to the lobby while the game waits."""

    type: Literal["tournament_round"] = "tournament_round"
    tournament: str = Field(max_length=40)
    round: int = Field(ge=1)
    game: GameId
    seat: Seat
    opponent: str = Field(max_length=40)


#: The longest message of the day (the lobby shows it on one or two lines).
MAX_MOTD = 200


class Motd(WireModel):
    """The server's message of the day, set by its admins (``ssh HOST motd TEXT``): sent to a
    lobby connection after its first state when there is one, and to every lobby connection
    when it changes (``text`` null: cleared). A client older than it skips the line."""

    type: Literal["motd"] = "motd"
    text: str | None = Field(None, max_length=MAX_MOTD)


def parse_lobby(data: bytes | str) -> LobbyMessage:
    """A lobby connection's line after the handshake;
    :class:`~minefield.protocol.wire.WireProblem` naming what is wrong."""
    value = line_object(data)
    if value.get("type") == "hello":
        raise WireProblem("already greeted: hello is sent once, first", "handshake")
    return validated(LOBBY_ADAPTER, value)


__all__ = [
    "LOBBY_ADAPTER", "MAX_MOTD", "AnswerInvitation", "Cancel", "Invitation", "Invite",
    "LobbyMessage", "LobbyPlayer", "LobbyState", "LobbyTable", "LobbyTournament", "Matching",
    "Motd", "PlayerStatus", "QuickMatch", "Seated", "TournamentRound", "parse_lobby",
]
