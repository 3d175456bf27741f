"""The game record format: one JSONL file per game.

A record has three kinds of line, each one JSON object:

1. the header, line 1: ``{"record": "minefield", "version": 1, "seed": ..., "rules": {...},
   "mode": ..., "players": {"east": ..., "west": ...}, "started": ...}``;
2. one line per accepted command: ``{"seq": 1, "seat": "east", "command": {"type":
   "choose_hand", "tiles": ...}, "at": ...}`` (``seq`` counts from 1);
3. once the game has ended, the result and the revealed deal: ``{"result": {...},
   "deal": {...}}``.

A game of a match (R30-R35) has two additions. The header gets ``"match": {"id": ...,
"game": 3, "players": {"east": ..., "west": ...}, "dealer_streak": 1, "honba": 1, "scores":
{"<name>": 25000, "<name>": 25000}}``, the match before the game (:class:`MatchHeader`), with
three extension keys: ``seed`` (the match seed, hidden in every repr: it deals every game),
``hand`` (the hand number, R30) and ``terms`` (the game's :class:`GameTerms`). The result gets
``"payments": {"east": 9000, "west": -9000}`` (counter sticks and draw payments included) and
``"match_over": true | false``. Both are absent from a single game's record.

A network game's header also says what table it was played at: ``"table": {"kind":
"public", "rated": true}`` (:class:`TableHeader`; ``"tournament": NAME`` for a game of a
tournament). Records written before tables were rated or casual lack it (they were rated).

Times are ISO 8601 in UTC (``2025-01-02T03:04:05.678Z``); tiles are mpsz. The dead wall is
written tile by tile in its order (``"1m5p7z..."``, each tile with its own suit letter, which
:func:`~minefield.rules.tiles.parse_tiles` reads back in order): the top row of seven, then the
row beneath, so index 2 is the dora indicator and index 9 the ura indicator (R3).

Every model forbids unknown keys; a later version may add optional keys with defaults, which
old files simply lack. Models that hold the seed or hidden tiles never show them in a repr.

>>> header = RecordHeader(seed="0" * 32, rules=RuleSettings(), mode="practice",
...                       players=Players(east="Ann", west="Bot"), started=utc_now())
>>> header
RecordHeader(seed='<hidden>', mode='practice', players=Players(east='Ann', west='Bot'), ...)
>>> RecordHeader.model_validate_json(header.model_dump_json()) == header
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Annotated, Any, Final, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from minefield.rules.game import (
    Command,
    FuritenCause,
    Game,
    GameTerms,
    Seat,
)
from minefield.rules.match import Match, Settlement, match_id
from minefield.rules.report import YakuEntry
from minefield.rules.seed import derive_seed
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import Tile, parse_tiles, tiles_to_str
from minefield.rules.wall import DEAD_WALL_SIZE, DEAL_SIZE, tile_from_id

RECORD_NAME: Final = "minefield"
RECORD_VERSION: Final = 1
#: The longest line a record may have (a real one is under 2 KiB); the reader skips longer ones.
MAX_LINE_BYTES = 64 * 1024
#: Where the dora and ura indicators lie in the dead wall string (R3).
DORA_INDEX, URA_INDEX = 2, 7 + 2

Mode = Literal["practice", "hotseat", "simulate", "network"]
MODES: tuple[Mode, ...] = ("practice", "hotseat", "simulate", "network")


def utc_now() -> datetime:
    """The current time in UTC, to the millisecond (the clock of records)."""
    return _to_utc(datetime.now(UTC))


def _to_utc(value: datetime) -> datetime:
    # Milliseconds, as written: a time read back equals the time written.
    value = value.astimezone(UTC)
    return value.replace(microsecond=value.microsecond // 1000 * 1000)


def format_time(value: datetime) -> str:
    """ISO 8601 in UTC with milliseconds: ``2025-01-02T03:04:05.678Z``."""
    return _to_utc(value).isoformat(timespec="milliseconds").replace("+00:00", "Z")


UtcTime = Annotated[AwareDatetime, AfterValidator(_to_utc), PlainSerializer(format_time)]
"""A timezone-aware time, kept in UTC and written as :func:`format_time` does."""


def tiles_in_order(tiles: Iterable[Tile]) -> str:
    """Tiles one by one, each with its suit letter, keeping their order: ``'1m5p7z1m'``."""
    return "".join(str(tile) for tile in tiles)


def _hidden_args(model: BaseModel, hidden: set[str]) -> Iterator[tuple[str | None, Any]]:
    for name in type(model).model_fields:
        yield name, "<hidden>" if name in hidden else getattr(model, name)


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
        yield from _hidden_args(self, {"seed"})

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


class RecordHeader(BaseModel):
    """Line 1: what is needed to deal the game again (R2) and who played it; ``match`` for a
    game of a match (absent for a single game)."""

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

    @model_serializer(mode="wrap")
    def _drop_no_match(self, handler: SerializerFunctionWrapHandler,
                       info: SerializationInfo) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for key in ("match", "table", "preset"):
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
                 preset: str | None = None) -> RecordHeader:
        """The header of ``game`` (its seed and rules), started now unless given; ``match``
        for a game of a match (ValueError when it is not this game's: other terms or seed);
        ``table``: where a network game is played; ``preset``: the rules preset chosen."""
        if match is not None and match.terms != game.terms:
            raise ValueError(f"the game's terms {game.terms!r} are not the match's "
                             f"{match.terms!r}: start games with Match.new_game")
        return cls(seed=game.seed, rules=game.settings, mode=mode, players=players,
                   started=started or utc_now(), match=match, table=table, preset=preset)

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
        yield from _hidden_args(self, {"seed"})

    def __repr__(self) -> str:
        return (f"RecordHeader(seed='<hidden>', mode={self.mode!r}, players={self.players!r},"
                " ...)")


#: A client's id for a command (the wire's ``command_id``), as a record keeps it.
CommandId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]


class CommandLine(BaseModel):
    """One accepted command: its number in the game (from 1), the seat and when.

    Two keys are optional and left out when they do not apply (older records never have
    them): ``command_id``, the id the player's client sent the command with (network games:
    a restarted daemon still knows which ids it applied), and ``automatic``, true for a move
    played for the seat when its clock ran out (R25, R25b), never by the player.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    seq: int = Field(ge=1)
    seat: Seat
    command: Command
    at: UtcTime
    command_id: CommandId | None = None
    automatic: bool = False

    @model_serializer(mode="wrap")
    def _drop_defaults(self, handler: SerializerFunctionWrapHandler,
                       info: SerializationInfo) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if data.get("command_id", False) is None:
            del data["command_id"]
        if data.get("automatic", True) is False:
            del data["automatic"]
        return data


class FuritenBySeat(BaseModel):
    """Each seat's furiten cause at the end (R15), or None."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    east: FuritenCause | None
    west: FuritenCause | None


class RecordResult(BaseModel):
    """How the game ended (R11, R13, R18).

    ``discard`` is the number (1-34) of the discard that ended the game, for a ron and for a
    draw (always 34). A draw has no winner or tile, 0 points, han and fu, no limit, no yaku and
    0 dora and ura. ``aka`` (red fives, R1) is written only when it is not 0.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    kind: Literal["ron", "draw"]
    winner: Seat | None
    tile: str | None
    discard: int | None = Field(ge=1, le=34)
    points: int = Field(ge=0)
    han: int = Field(ge=0)
    fu: int = Field(ge=0)
    limit: str | None
    yaku: list[YakuEntry]
    dora: int = Field(ge=0)
    aka: int = Field(0, ge=0)
    ura: int = Field(ge=0)
    furiten: FuritenBySeat
    payments: dict[Seat, int] | None = None
    match_over: bool | None = None

    @model_serializer(mode="wrap")
    def _drop_zero_aka(self, handler: SerializerFunctionWrapHandler,
                       info: SerializationInfo) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if data.get("aka") == 0:
            del data["aka"]
        for key in ("payments", "match_over"):  # a game of a match only
            if key in data and data[key] is None:
                del data[key]
        return data

    @model_validator(mode="after")
    def _check_kind(self) -> RecordResult:
        if self.kind == "ron" and (self.winner is None or self.tile is None):
            raise ValueError("a ron needs a winner and a tile")
        if self.kind == "draw" and (self.winner is not None or self.tile is not None):
            raise ValueError("a draw has no winner and no tile")
        if (self.payments is None) != (self.match_over is None):
            raise ValueError("a game of a match has both payments and match_over")
        if self.payments is not None:
            if set(self.payments) != set(Seat):
                raise ValueError("the payments name both seats")
            if sum(self.payments.values()) != 0:
                raise ValueError("the payments do not sum to zero")
        return self

    def without_match(self) -> RecordResult:
        """This result without the match's additions (what replaying the game alone gives)."""
        return self.model_copy(update={"payments": None, "match_over": None})

    @classmethod
    def of_game(cls, game: Game, settlement: Settlement | None = None) -> RecordResult:
        """The result of an ended ``game``, with ``settlement``'s payments and match_over for
        a game of a match; ValueError if it has not ended."""
        end = game.result
        if end is None:
            raise ValueError("the game has not ended")
        value = end.value
        extra: dict[str, Any] = {}
        if settlement is not None:
            if settlement.result != end.result or settlement.winner != end.winner:
                raise ValueError("the settlement is not this game's")
            extra = {"payments": dict(settlement.payments),
                     "match_over": settlement.match_over}
        return cls(**extra,
            kind=end.result, winner=end.winner, tile=end.win_tile, discard=end.discard_number,
            points=value.points if value else 0, han=value.han if value else 0,
            fu=value.fu if value else 0, limit=value.limit if value else None,
            yaku=list(value.yaku) if value else [], dora=value.dora if value else 0,
            aka=value.aka if value else 0, ura=value.ura if value else 0,
            furiten=FuritenBySeat(east=end.furiten[Seat.EAST], west=end.furiten[Seat.WEST]),
        )


def _canonical(value: str, count: int, what: str, keep_order: bool = False) -> str:
    tiles = parse_tiles(value)
    if len(tiles) != count:
        raise ValueError(f"{what} has {len(tiles)} tiles, expected {count}")
    return tiles_in_order(tiles) if keep_order else tiles_to_str(tiles)


class RecordDeal(BaseModel):
    """The deal, revealed at the end: both seats' 34 tiles and the dead wall in order (R3, R5).

    Its repr hides the tiles (a traceback must not show them; the file itself is private).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    east: str
    west: str
    dora_indicator: str
    ura_indicator: str
    dead_wall: str

    @field_validator("east", "west")
    @classmethod
    def _check_seat_tiles(cls, value: str) -> str:
        return _canonical(value, DEAL_SIZE, "a seat's deal")

    @field_validator("dora_indicator", "ura_indicator")
    @classmethod
    def _check_indicator(cls, value: str) -> str:
        return _canonical(value, 1, "an indicator")

    @field_validator("dead_wall")
    @classmethod
    def _check_dead_wall(cls, value: str) -> str:
        return _canonical(value, DEAD_WALL_SIZE, "the dead wall", keep_order=True)

    @model_validator(mode="after")
    def _check_indicators(self) -> RecordDeal:
        dead = parse_tiles(self.dead_wall)
        if str(dead[DORA_INDEX]) != self.dora_indicator:
            raise ValueError(f"the dora indicator {self.dora_indicator} is not the dead wall's "
                             f"third tile ({dead[DORA_INDEX]}, R3)")
        if str(dead[URA_INDEX]) != self.ura_indicator:
            raise ValueError(f"the ura indicator {self.ura_indicator} is not the tile beneath "
                             f"the dora indicator ({dead[URA_INDEX]}, R3)")
        return self

    @classmethod
    def of_game(cls, game: Game) -> RecordDeal:
        """The deal of ``game`` (hidden information: write it only once the game has ended)."""
        red = game.settings.red_fives
        deal = game.deal

        def tiles(ids: tuple[int, ...]) -> list[Tile]:
            return [tile_from_id(i, red) for i in ids]

        return cls(east=tiles_to_str(tiles(deal.east_tiles)),
                   west=tiles_to_str(tiles(deal.west_tiles)),
                   dora_indicator=str(game.dora_indicator), ura_indicator=str(game.ura_indicator),
                   dead_wall=tiles_in_order(tiles(deal.dead_wall)))

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        yield from _hidden_args(self, set(type(self).model_fields))

    def __repr__(self) -> str:
        return "RecordDeal(<tiles hidden>)"


class ResultLine(BaseModel):
    """The last line: the result and the revealed deal."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    result: RecordResult
    deal: RecordDeal

    @classmethod
    def of_game(cls, game: Game, settlement: Settlement | None = None) -> ResultLine:
        """The last line of an ended ``game`` (with ``settlement`` for a game of a match);
        ValueError if it has not ended."""
        return cls(result=RecordResult.of_game(game, settlement), deal=RecordDeal.of_game(game))


def dump_line(line: RecordHeader | CommandLine | ResultLine) -> bytes:
    """One line of a record: compact JSON and a newline, UTF-8."""
    return line.model_dump_json().encode() + b"\n"



__all__ = [
    "DORA_INDEX",
    "MAX_LINE_BYTES",
    "MODES",
    "PUBLIC_KINDS",
    "RECORD_NAME",
    "RECORD_VERSION",
    "TABLE_KINDS",
    "URA_INDEX",
    "CommandLine",
    "FuritenBySeat",
    "MatchHeader",
    "Mode",
    "Players",
    "RecordDeal",
    "RecordHeader",
    "RecordResult",
    "ResultLine",
    "TableHeader",
    "TableKind",
    "UtcTime",
    "dump_line",
    "format_time",
    "tiles_in_order",
    "utc_now",
]
