"""The Session protocol: everything a screen needs from a game, wherever the game runs.

A session knows which seats are played at this terminal (``local_seats``): one in practice and
network play, both in hot-seat. The other seat moves on its own (a bot, or a remote player);
the app lets it move by awaiting :meth:`Session.wait_for_others`, in a worker, whenever
:meth:`Session.needs_others` says the game waits on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from minefield.rules.game import ChooseHand, Discard, PlayerView, Seat
from minefield.rules.settings import RuleSettings

SessionMode = Literal["practice", "hotseat", "network"]


@dataclass(frozen=True, slots=True)
class SessionTraits:
    """What a screen may know about a session, and nothing more (it never asks who the other
    seat is: a bot, a person at this keyboard or one far away).

    ``shared_screen``: both seats play at this keyboard (a curtain goes between them).
    ``hints_allowed``: the hand builder may offer the bot's best hand. ``resumable``: leaving
    does not end the game (it can be joined again).
    """

    mode: SessionMode
    shared_screen: bool
    hints_allowed: bool
    resumable: bool


class Session(Protocol):
    """A game seen from this terminal. Implementations must keep tiles out of their repr."""

    @property
    def mode(self) -> SessionMode:
        """``practice`` (against a bot), ``hotseat`` (two players here) or ``remote``."""
        ...

    @property
    def local_seats(self) -> tuple[Seat, ...]:
        """The seats played at this terminal, East first."""
        ...

    @property
    def settings(self) -> RuleSettings:
        """The rules of this game."""
        ...

    def seat_name(self, seat: Seat) -> str:
        """How to call the player in ``seat``: ``"You"``, ``"Bot (easy)"``, ``"West"``."""
        ...

    def view(self, seat: Seat) -> PlayerView:
        """What ``seat`` may see now (R26). Only local seats may be asked."""
        ...

    async def send(self, seat: Seat, command: ChooseHand | Discard) -> None:
        """Play a local seat's command; raises ``IllegalCommand`` (state unchanged) if wrong."""
        ...

    def needs_others(self) -> bool:
        """True when the game waits on a seat that is not played here."""
        ...

    async def wait_for_others(self) -> None:
        """Return once a seat that is not played here has moved (at once if none must)."""
        ...
