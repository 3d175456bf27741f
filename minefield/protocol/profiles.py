"""The lobby's profile questions on the wire: a player's profile, a kept game's record, and
the asking player's own games.

Three lobby requests, added to protocol 1 without changing anything an older peer sends or
reads (a server that does not know them answers a ``bad_message`` error, not fatal; a client
that does not know the answers skips their lines):

- ``{"type": "ask_profile", "player": NAME}`` is answered by one :class:`Profile`: the figures
  of ``ssh HOST stats NAME --json`` (:class:`ProfileFigures`), the player's last ten finished
  games that the asking player may see, newest first (:class:`ProfileGame`, the entries of
  ``games --json``), or ``refused``: one line (no such player, a server that keeps no
  profiles).
- ``{"type": "ask_record", "game": GAME}`` is answered by :class:`RecordPart` lines: the kept
  game's record as ``ssh HOST record GAME`` gives it, its JSON lines in order, cut into parts
  that each fit a wire line; the last part says ``"last": true``. A game that the asking
  player may not see (a private room's game of two others) or that is not kept is one part
  with ``refused``.
- ``{"type": "ask_games", "limit": N}`` (N from 1 to :data:`MAX_GAMES`, 20 when left out) is
  answered by one :class:`Games`: the asking player's own finished network games, newest
  first, as the game server keeps them (``history`` over the OpenSSH route asks it).

Nothing hidden goes out: the figures sum finished games, and a record is only sent once its
game is over (its seed belongs to a finished game, as ``record`` gives it).
``assets/protocol.md`` documents both.

>>> AskProfile(player="ann").model_dump_json()
'{"type":"ask_profile","player":"ann"}'
>>> [len(part.lines) for part in record_parts("g1", "a\\nb\\n", limit=5)]
[1, 1]
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from minefield.errors import MinefieldError
from minefield.protocol.messages import MAX_LINE_BYTES

#: A player's name, as a lobby request gives it (the wire's ``PlayerName``).
AskedName = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_.-]+$")]
#: A game's id (the wire's ``GameId``).
AskedGame = Annotated[str, Field(min_length=1, max_length=80, pattern=r"^[A-Za-z0-9_.:-]+$")]
#: The most games a profile lists.
PROFILE_GAMES = 10
#: How many of a player's own games ``history`` asks for (:class:`AskGames`), and the most
#: it may ask for (a line far under the wire's limit).
HISTORY_GAMES = 20
MAX_GAMES = 100
#: The most entries of the rating history a profile carries (the latest): enough for a chart
#: many times the width of a terminal, and a line far under the wire's limit.
MAX_HISTORY = 500
#: What one record part holds at most, in bytes of its JSON (the rest of its line is small).
PART_BYTES = MAX_LINE_BYTES - 4096


class _Wire(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class AskProfile(_Wire):
    """In the lobby: the profile of ``player`` (answered by :class:`Profile`)."""

    type: Literal["ask_profile"] = "ask_profile"
    player: AskedName


class AskRecord(_Wire):
    """In the lobby: the record of the kept game ``game`` (answered by :class:`RecordPart`
    lines)."""

    type: Literal["ask_record"] = "ask_record"
    game: AskedGame


class ProfileFigures(_Wire):
    """A player's figures, as ``stats --json`` gives them (``rating_history``: its latest
    :data:`MAX_HISTORY` entries, each ``[ended, rating]``)."""

    name: str = Field(max_length=40)
    rating: int | None
    deviation: int | None
    games: int = Field(ge=0)
    wins: int = Field(ge=0)
    losses: int = Field(ge=0)
    draws: int = Field(ge=0)
    rated_games: int = Field(ge=0)
    win_rate: float = Field(ge=0, le=1)
    deal_ins: int = Field(ge=0)
    deal_in_rate: float = Field(ge=0, le=1)
    average_win: int = Field(ge=0)
    average_loss: int = Field(ge=0)
    furiten_games: int = Field(ge=0)
    longest_game_streak: int = Field(ge=0)
    rating_history: list[tuple[str, int]] = Field(default_factory=list,
                                                  max_length=MAX_HISTORY)
    program: bool = False


class ProfileGame(_Wire):
    """One finished game as ``games --json`` lists it."""

    game: AskedGame
    ended: str = Field(max_length=40)
    rules: str = Field(max_length=200)
    east: str = Field(max_length=40)
    west: str = Field(max_length=40)
    result: Literal["east", "west", "draw"]
    points: int
    rated: bool
    tournament: str | None = Field(None, max_length=40)


class Profile(_Wire):
    """The answer to :class:`AskProfile`: ``player`` as asked; the ``figures`` and the last
    ``games`` (newest first) the asking player may see; or ``refused``, one line."""

    type: Literal["profile"] = "profile"
    player: str = Field(max_length=40)
    figures: ProfileFigures | None = None
    games: list[ProfileGame] = Field(default_factory=list, max_length=PROFILE_GAMES)
    refused: str | None = Field(None, max_length=500)


class RecordPart(_Wire):
    """A part of the answer to :class:`AskRecord`: some of the record's lines, in order;
    ``last``: the record is whole; ``refused``: one line, and no record."""

    type: Literal["record_part"] = "record_part"
    game: AskedGame
    lines: list[str] = Field(default_factory=list)
    last: bool = True
    refused: str | None = Field(None, max_length=500)


class AskGames(_Wire):
    """In the lobby: the asking player's own finished network games, newest first, at most
    ``limit`` (answered by :class:`Games`): ``history`` over the OpenSSH route."""

    type: Literal["ask_games"] = "ask_games"
    limit: int = Field(HISTORY_GAMES, ge=1, le=MAX_GAMES)


class Games(_Wire):
    """The answer to :class:`AskGames`: the games (newest first, the entries of ``games
    --json``), or ``refused``: one line."""

    type: Literal["games"] = "games"
    games: list[ProfileGame] = Field(default_factory=list, max_length=MAX_GAMES)
    refused: str | None = Field(None, max_length=500)


class RecordTooLong(MinefieldError, ValueError):
    """A record with a line that does not fit in a part."""


def record_parts(game: str, text: str, limit: int | None = None) -> Iterator[RecordPart]:
    """The record ``text`` of ``game`` as parts of at most ``limit`` bytes of lines each (as
    JSON strings; None: :data:`PART_BYTES`); :class:`RecordTooLong` when one line alone is
    longer."""
    limit = PART_BYTES if limit is None else limit
    lines = text.splitlines()
    part: list[str] = []
    size = 0
    for index, line in enumerate(lines):
        cost = len(json.dumps(line)) + 1
        if cost > limit:
            raise RecordTooLong(f"game {game}: a line of its record is too long to send")
        if part and size + cost > limit:
            yield RecordPart(game=game, lines=part, last=False)
            part, size = [], 0
        part.append(line)
        size += cost
        if index == len(lines) - 1:
            yield RecordPart(game=game, lines=part, last=True)
    if not lines:
        yield RecordPart(game=game, lines=[], last=True)


__all__ = ["HISTORY_GAMES", "MAX_GAMES", "MAX_HISTORY", "PROFILE_GAMES", "AskGames",
           "AskProfile", "AskRecord", "Games", "Profile",
           "ProfileFigures", "ProfileGame", "RecordPart", "RecordTooLong", "record_parts"]
