"""What a command caused: the events of a game, and how each seat may see them (R26, R27).

Events are the single source of truth of a game: a record is the seed, the settings and the
commands, and replaying them gives the same events. An event hides what its viewer may not
see (:meth:`for_seat <_Event.for_seat>`): another seat's hand, another seat's furiten.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from minefield.rules.report import WaitReport
from minefield.rules.seats import Seat
from minefield.rules.settings import RuleSettings
from minefield.rules.terms import GameTerms


class FuritenCause(BaseModel):
    """Why a player became furiten (R15, R27)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    kind: Literal["own_discard", "passed_wait"]
    tile: str
    discard_number: int
    detail: str


# ---------------------------------------------------------------------------------------------
# Events


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    def for_seat(self, viewer: Seat) -> _Event | None:
        """This event as ``viewer`` may see it (None: not at all)."""
        return self


class GameStarted(_Event):
    """Tiles are dealt; the dora indicator is face up (R3)."""

    type: Literal["game_started"] = "game_started"
    dora_indicator: str
    settings: RuleSettings
    terms: GameTerms = GameTerms()


class HandChosen(_Event):
    """A player fixed their hand. Only that player sees the tiles."""

    type: Literal["hand_chosen"] = "hand_chosen"
    seat: Seat
    hand: str | None = None

    def for_seat(self, viewer: Seat) -> _Event | None:
        return self if viewer is self.seat else self.model_copy(update={"hand": None})

    def __repr__(self) -> str:
        return f"HandChosen(seat={self.seat.value}, <hand hidden>)"


class DiscardsBegin(_Event):
    """Both hands are fixed; East discards first (R10)."""

    type: Literal["discards_begin"] = "discards_begin"


class Discarded(_Event):
    """A discard (public). ``number`` counts all discards of the game, 1 to 34."""

    type: Literal["discarded"] = "discarded"
    seat: Seat
    tile: str
    number: int


class BecameFuriten(_Event):
    """A player is now permanently furiten (R15). Private to that player (R26, R27)."""

    type: Literal["became_furiten"] = "became_furiten"
    seat: Seat
    cause: FuritenCause

    def for_seat(self, viewer: Seat) -> _Event | None:
        return self if viewer is self.seat else None


class GameEnded(_Event):
    """The end: ron or exhaustive draw, with everything revealed (R11, R13, R18, R26)."""

    type: Literal["game_ended"] = "game_ended"
    result: Literal["ron", "draw"]
    winner: Seat | None = None
    win_tile: str | None = None
    discard_number: int
    value: WaitReport | None = None
    seed: str
    hands: dict[Seat, str | None]
    pools: dict[Seat, str]
    waits: dict[Seat, list[str]]
    furiten: dict[Seat, FuritenCause | None]
    ura_indicator: str


Event = Annotated[
    GameStarted | HandChosen | DiscardsBegin | Discarded | BecameFuriten | GameEnded,
    Field(discriminator="type"),
]
EVENT_ADAPTER: TypeAdapter[
    GameStarted | HandChosen | DiscardsBegin | Discarded | BecameFuriten | GameEnded
] = TypeAdapter(Event, config=ConfigDict(defer_build=True))


__all__ = ["EVENT_ADAPTER", "BecameFuriten", "Discarded", "DiscardsBegin", "Event",
           "FuritenCause", "GameEnded", "GameStarted", "HandChosen"]
