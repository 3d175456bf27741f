"""The record's header, line 1: what deals the game again (R2), who played it, and for a
network game or a game of a match, where and in which match (the format:
:mod:`minefield.records.format`).

>>> header = RecordHeader(seed="0" * 32, rules=RuleSettings(), mode="practice",
...                       players=Players(east="Ann", west="Bot"), started=utc_now())
>>> header
RecordHeader(seed='<hidden>', mode='practice', players=Players(east='Ann', west='Bot'), ...)
>>> RecordHeader.model_validate_json(header.model_dump_json()) == header
True
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any, Final, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from minefield.records.format import UtcTime, hidden_args, utc_now
from minefield.rules.game import Game, GameTerms, Seat
from minefield.rules.match import Match, match_id
from minefield.rules.seed import derive_seed
from minefield.rules.settings import RuleSettings

RECORD_NAME: Final = "minefield"
RECORD_VERSION: Final = 1

Mode = Literal["practice", "hotseat", "simulate", "network"]
MODES: tuple[Mode, ...] = ("practice", "hotseat", "simulate", "network")


class Players(BaseModel):
    """Who sat where: a name, a bot level (``"A strong"``) or a player id."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    east: str
    west: str

    def of(self, seat: Seat) -> str:
        """The player in ``seat``."""
        return self.east if seat is Seat.EAST else self.west


_HEX32 = r"^[0-9a-f]{32}$"


class MatchHeader(BaseModel):
    """The header's ``match`` object: the match before this game (R30-R35).

    ``id`` is the public id (:func:`~minefield.rules.match.match_id` of ``seed``), ``game``
    the game's number in the match (repeats included), ``players`` its seats, ``scores`` by
    player in the match's players order. Extensions: ``seed`` (hidden in every repr), ``hand``
    (the hand number, 1 to the ``hands`` setting) and ``terms`` (what the game is dealt with
    besides the rules). Build it with :meth:`of_match`.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    id: str = Field(pattern=_HEX32)
    game: int = Field(ge=1)
    players: Players
    dealer_streak: int = Field(ge=0)
    honba: int = Field(ge=0)
    scores: dict[str, int]
    seed: str = Field(pattern=_HEX32)
    hand: int = Field(ge=1)
    terms: GameTerms

    @model_validator(mode="after")
    def _check(self) -> MatchHeader:
        if self.id != match_id(self.seed):
            raise ValueError("the match id does not follow from the match seed")
        if self.players.east == self.players.west:
            raise ValueError("the two players of a match need distinct names")
        if set(self.scores) != {self.players.east, self.players.west}:
            raise ValueError("the scores must name exactly the two players")
        if self.dealer_streak > self.honba:
            raise ValueError(f"a dealer streak of {self.dealer_streak} needs at least as many "
                             f"counter sticks, not {self.honba}")
        if self.hand > self.game:
            raise ValueError(f"hand {self.hand} cannot come after game {self.game}")
        return self

    @classmethod
    def of_match(cls, match: Match) -> MatchHeader:
        """The match object of the header of ``match``'s next game."""
        return cls.model_validate({**match.snapshot(), "seed": match.seed,
                                   "hand": match.hand_number, "terms": match.terms})

    @property
    def match_players(self) -> tuple[str, str]:
        """The players in the match's order (the order of ``scores``), as
        :meth:`~minefield.rules.match.Match.replay` takes them."""
        first, second = self.scores
        return first, second

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        yield from hidden_args(self, {"seed"})

    def __repr__(self) -> str:
        return (f"MatchHeader(id={self.id!r}, game={self.game}, players={self.players!r}, "
                f"scores={self.scores!r}, seed='<hidden>', ...)")


#: Where a network game was played: a public table of the lobby, a private room code, an
#: invitation, a quick match, a tournament, or a private game against the server's bot.
TableKind = Literal["public", "private", "invitation", "quick", "tournament", "bot"]
TABLE_KINDS: tuple[TableKind, ...] = ("public", "private", "invitation", "quick", "tournament",
                                      "bot")
#: The kinds of table whose games every player of the server may look up (the others: only
#: their two players).
PUBLIC_KINDS: frozenset[TableKind] = frozenset({"public", "quick", "tournament"})


class TableHeader(BaseModel):
    """The header's ``table`` object (network games): the kind of table, whether its games
    are rated or casual (R36) and the tournament's name for a game of one.

    >>> TableHeader(kind="invitation", rated=False).model_dump_json()
    '{"kind":"invitation","rated":false}'
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    kind: TableKind
    rated: bool
    tournament: str | None = Field(None, min_length=1, max_length=40)

    @model_serializer(mode="wrap")
    def _drop_no_tournament(self, handler: SerializerFunctionWrapHandler,
                            info: SerializationInfo) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if data.get("tournament", False) is None:
            del data["tournament"]
        return data

    @property
    def public(self) -> bool:
        """True when every player of the server may look the game up."""
        return self.kind in PUBLIC_KINDS


#: A game id as the daemon names a record (``<time>-network-<random>``, no suffix).
GAME_ID_PATTERN: Final = r"^[0-9A-Za-z][0-9A-Za-z._-]{0,99}$"


class RecordHeader(BaseModel):
    """Line 1: what is needed to deal the game again (R2) and who played it; ``match`` for a
    game of a match (absent for a single game); ``follows``: the id of the game this one
    follows at the same table (a rematch's first game, a match's next game), absent for a
    table's first game and in every record written before games were linked."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    record: Literal["minefield"] = RECORD_NAME
    version: Literal[1] = RECORD_VERSION
    seed: str = Field(pattern=r"^[0-9a-f]{32}$")
    rules: RuleSettings
    mode: Mode
    players: Players
    started: UtcTime
    match: MatchHeader | None = None
    table: TableHeader | None = None
    #: The rules preset the players chose (``rules`` holds every setting, changes included);
    #: older records have none (the preset is guessed from ``rules`` then).
    preset: str | None = Field(None, min_length=1, max_length=20)
    #: The id of the game this one follows at its table (a rematch's, a match's next
    #: game); none for a table's first game and in records written before games were linked.
    follows: str | None = Field(None, pattern=GAME_ID_PATTERN)

    @model_serializer(mode="wrap")
    def _drop_no_match(self, handler: SerializerFunctionWrapHandler,
                       info: SerializationInfo) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for key in ("match", "table", "preset", "follows"):
            if data.get(key, False) is None:
                del data[key]  # a single game's header (a local game's) is as before
        return data

    @model_validator(mode="after")
    def _check_match(self) -> RecordHeader:
        if self.match is not None:
            if self.match.players != self.players:
                raise ValueError("the match's players are not the game's players")
            if self.match.terms.dealer_bonus != self.rules.dealer_bonus:
                raise ValueError("the match's dealer_bonus term is not the rules' (R23)")
            if self.seed != derive_seed(self.match.seed, "game", self.match.game):
                raise ValueError(f"the seed is not game {self.match.game}'s of the match")
        return self

    @classmethod
    def for_game(cls, game: Game, mode: Mode, players: Players,
                 started: datetime | None = None, *,
                 match: MatchHeader | None = None,
                 table: TableHeader | None = None,
                 preset: str | None = None,
                 follows: str | None = None) -> RecordHeader:
        """The header of ``game`` (its seed and rules), started now unless given; ``match``
        for a game of a match (ValueError when it is not this game's: other terms or seed);
        ``table``: where a network game is played; ``preset``: the rules preset chosen;
        ``follows``: the id of the game this one follows at its table (a rematch's, a
        match's next game)."""
        if match is not None and match.terms != game.terms:
            raise ValueError(f"the game's terms {game.terms!r} are not the match's "
                             f"{match.terms!r}: start games with Match.new_game")
        return cls(seed=game.seed, rules=game.settings, mode=mode, players=players,
                   started=started or utc_now(), match=match, table=table, preset=preset,
                   follows=follows)

    def shown_names(self) -> dict[Seat, str]:
        """Each seat's player as the players know them: a network game's record names a
        player of a shared account ``NAME@ACCOUNT`` (its identity on the server), shown as
        ``NAME``.

        >>> header = RecordHeader(seed="0" * 32, rules=RuleSettings(), mode="network",
        ...                       players=Players(east="Ann@club", west="Bot (easy)"),
        ...                       started=utc_now())
        >>> header.shown_names()[Seat.EAST]
        'Ann'
        """
        return {seat: self.players.of(seat).split("@", 1)[0] or self.players.of(seat)
                if self.mode == "network" else self.players.of(seat) for seat in Seat}

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        # The seed reveals the whole deal (R2): never in a repr, str or traceback.
        yield from hidden_args(self, {"seed"})

    def __repr__(self) -> str:
        return (f"RecordHeader(seed='<hidden>', mode={self.mode!r}, players={self.players!r},"
                " ...)")


__all__ = [
    "GAME_ID_PATTERN",
    "MODES",
    "PUBLIC_KINDS",
    "RECORD_NAME",
    "RECORD_VERSION",
    "TABLE_KINDS",
    "MatchHeader",
    "Mode",
    "Players",
    "RecordHeader",
    "TableHeader",
    "TableKind",
]
