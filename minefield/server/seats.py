"""Who sits where: the seats of a room, presence and grace, and how players are shown.

A :class:`Seated` is a seat's holder: a person (their identity, their connection while they
are here, the grace their moves have left while they are away), a bot (its level) or nobody
yet. Presence goes to both players as :class:`~minefield.protocol.messages.PlayerInfo`.
Players are named in records and matches by identity key (``name@account``) and shown by
display name (:func:`shown_names`, :class:`RoomMatch`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from pydantic import BaseModel

from minefield.bots.base import bot_level, bot_name
from minefield.protocol.messages import WAITING_NAME, MatchView, PlayerInfo, StandingView
from minefield.rules.game import Seat
from minefield.rules.match import Match
from minefield.rules.wall import Deal
from minefield.server.identity import Identity, display_name
from minefield.table.game_table import GameTable
from minefield.table.match_table import MatchTable, RecorderFactory

#: R25b: a player who returns finds their stopped clock where it stopped, never below this.
RETURN_SECONDS = 5.0


class Client(Protocol):
    """A connection as a room sees it: messages go out, and it can be closed."""

    def send(self, message: BaseModel) -> None:
        """Queue one message (never blocks; a client that does not read is dropped)."""
        ...

    def close(self) -> None:
        """Close the connection (after the queued messages)."""
        ...


@dataclass(slots=True)
class Seated:
    """Who holds a seat: a person (``identity``), a bot (``level``) or nobody yet."""

    identity: Identity | None = None
    level: str | None = None
    client: Client | None = None
    #: Seconds of grace left in this game; and when the running grace period ends.
    grace_budget: float = 0.0
    grace_until: float | None = None

    @property
    def is_bot(self) -> bool:
        """True for a bot seat."""
        return self.level is not None

    @property
    def taken(self) -> bool:
        """True once a person or a bot holds the seat."""
        return self.identity is not None or self.level is not None

    @property
    def record_name(self) -> str:
        """The player as the record has it: an identity key or ``Bot (level)``."""
        if self.level is not None:
            return bot_name(self.level)
        return self.identity.key if self.identity is not None else WAITING_NAME

    def info(self, now: float) -> PlayerInfo:
        """The player as both seats see them."""
        if self.level is not None:
            return PlayerInfo(name=bot_name(self.level), kind="bot")
        if self.identity is None:
            return PlayerInfo(name=WAITING_NAME, present=False)
        grace = None
        if self.client is None and self.grace_until is not None:
            grace = round(max(0.0, self.grace_until - now), 3)
        return PlayerInfo(name=self.identity.name, present=self.client is not None,
                          grace_left=grace)

    # -- presence and grace ------------------------------------------------------------------

    def arrive(self, client: Client, now: float) -> None:
        """The player connects (or comes back): the grace they did not spend is kept."""
        if self.grace_until is not None:
            self.grace_budget = max(0.0, self.grace_until - now)
            self.grace_until = None
        self.client = client

    def leave(self, now: float, on_purpose: bool) -> None:
        """The player's connection is gone during a game: their grace runs (none when they
        left on purpose, or have none left)."""
        self.client = None
        if on_purpose or self.grace_budget <= 0:
            self.grace_budget = 0.0
            self.grace_until = None
        else:
            self.grace_until = now + self.grace_budget

    def new_game(self, grace: float, now: float) -> None:
        """A game starts: a fresh grace budget, running at once for a player who is away."""
        self.grace_budget = grace
        self.grace_until = (now + grace if self.client is None and self.identity is not None
                            else None)

    def grace_spent(self, now: float) -> bool:
        """True (once) when the running grace ran out by ``now``: the budget is spent."""
        if self.grace_until is not None and self.grace_until <= now:
            self.grace_until = None
            self.grace_budget = 0.0
            return True
        return False


def next_wake(seats: Mapping[Seat, Seated], table: GameTable) -> float | None:
    """When a game going on must next be looked at: a running clock running out (R25), or
    a grace period ending (R25b; the clock of a player away with grace is stopped)."""
    times = [s.grace_until for s in seats.values() if s.grace_until is not None]
    due = table.next_deadline()
    if due is not None:
        times.append(due[0])
    return min(times) if times else None


def clocks_out(table: GameTable, now: float) -> list[Seat]:
    """The seats whose running clock has run out by ``now``."""
    return [seat for seat, clock in table.clocks(now).items()
            if clock.running and (clock.remaining or 0.0) <= 0.0]


def seated_from_record(name: str, grace: float, now: float) -> Seated:
    """Who holds a seat of a restored game, from the record's name (a bot, or a person away
    whose grace starts now)."""
    level = bot_level(name)
    if level is not None:
        return Seated(level=level)
    return Seated(identity=Identity(key=name, name=display_name(name)), grace_budget=grace,
                  grace_until=now + grace)


def shown_names(players: Sequence[str]) -> dict[str, str]:
    """How the match's players (identity keys, bot names) are shown: their display names,
    kept distinct (and within a protocol name's 40 characters).

    >>> shown_names(["bob@games", "Bot (easy)"])
    {'bob@games': 'bob', 'Bot (easy)': 'Bot (easy)'}
    >>> shown_names(["bob@games", "bob"])
    {'bob@games': 'bob', 'bob': 'bob (2)'}
    """
    shown = {name: display_name(name) if bot_level(name) is None else name
             for name in players}
    if len(set(shown.values())) < len(shown):
        for number, name in enumerate(list(players)[1:], start=2):
            shown[name] = f"{shown[name][:34]} ({number})"
    return shown


class RoomMatch(MatchTable):
    """A :class:`MatchTable` whose views name the players as they are shown (identity keys
    stay in the match and its records, R26 views get display names)."""

    def __init__(self, match: Match, players: Mapping[str, PlayerInfo], *,
                 recorders: RecorderFactory | None = None, deals: Mapping[int, Deal] | None = None,
                 now: float | None = None, rematch_of: str | None = None) -> None:
        self.shown = shown_names(match.players)
        super().__init__(match, players, recorders=recorders, deals=deals, now=now,
                         rematch_of=rematch_of)

    def view(self) -> MatchView:
        """The match's public state with the players' shown names (never the seed)."""
        view = super().view()
        shown = self.shown

        def name(key: str) -> str:
            return shown.get(key, key[:40])

        last = view.last
        if last is not None and any(key != name(key) for key in shown):
            lines = []
            for line in last.lines:
                for key in sorted(shown, key=len, reverse=True):
                    line = line.replace(key, name(key))
                lines.append(line)
            last = last.model_copy(update={"lines": lines})
        return view.model_copy(update={
            "players": {seat: name(key) for seat, key in view.players.items()},
            "scores": {name(key): points for key, points in view.scores.items()},
            "standings": None if view.standings is None else [
                StandingView(place=s.place, player=name(s.player), points=s.points)
                for s in view.standings],
            "next_asked": [name(key) for key in view.next_asked],
            "last": last})



__all__ = ["RETURN_SECONDS", "WAITING_NAME", "Client", "RoomMatch", "Seated",
           "clocks_out", "next_wake", "seated_from_record", "shown_names"]
