"""The daemon's front desk: which room and seat a hello gets, and the room codes.

A ``host`` hello opens a room (a code to share, unless it plays a bot), a ``join`` takes the
free seat of the room with its code, a ``resume`` finds the player's room (the game it names,
or an unfinished one first, then the newest); the lobby's invitations and quick matches get a
room with both seats held (:meth:`FrontDesk.pair`). What cannot be served is a
:class:`Refusal`: one line to the client, and nothing changed. Wrong codes are rate limited
per player, open games capped per player, and used or expired codes remembered for an hour
(to say so rather than "unknown").
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Mapping

from minefield.errors import MinefieldError
from minefield.protocol.codes import new_code
from minefield.protocol.wire import ErrorCode, Hello
from minefield.records.header import TableKind
from minefield.rules.game import Seat
from minefield.rules.settings import CLOCK_SETTINGS, RuleSettings, SettingsError
from minefield.server.identity import Identity
from minefield.server.invites import PairRefused
from minefield.server.limits import TokenBucket
from minefield.server.room import Room, Services

#: Retired codes are remembered this long (to say "expired" or "used" rather than "unknown").
RETIRED_CODE_SECONDS = 3600.0


class Refusal(MinefieldError):
    """A hello the daemon will not serve; sent to the client as a fatal :class:`WireError`."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code


class FrontDesk:
    """Places each hello (see the module): ``by_player`` is the daemon's rooms by player
    (their open games are counted there) and ``register`` serves a new room (or one with a
    new player)."""

    def __init__(self, services: Services, by_player: Mapping[str, set[Room]],
                 register: Callable[[Room], None]) -> None:
        self.services = services
        self.config = services.config
        self.by_player = by_player
        self._register = register
        self.codes: dict[str, Room] = {}
        self.retired_codes: OrderedDict[str, tuple[str, float]] = OrderedDict()
        self.code_failures: dict[str, TokenBucket] = {}

    def pair(self, first: Identity, second: Identity | None, bot: str | None,
             kind: TableKind = "invitation", rated: bool = False) -> str:
        """A private room of the lobby (``kind``: an invitation, a quick match) with both
        seats held: ``first`` and ``second``, or ``bot``; a standard single game, ``rated``
        or casual (R36). Its game id, or :class:`~minefield.server.invites.PairRefused` (too
        many open games)."""
        limit = self.config.max_games_per_player
        for who in (first, second):
            if who is not None and self._open_games(who) >= limit:
                raise PairRefused(f"{who.name} already has {limit} open games: finish one "
                                  "first (minefield resume)")
        settings = RuleSettings.preset("standard", hand_seconds=self.config.hand_seconds,
                                       discard_seconds=self.config.discard_seconds)
        room = Room.host(self.services, first, settings, bot=bot)
        room.kind, room.rated_games = kind, rated
        free = room.free_seat()
        if second is not None and free is not None:
            room.claim(free, second)
        self._register(room)
        return room.id

    def _open_games(self, identity: Identity) -> int:
        """How many of ``identity``'s games go on (a match between games too)."""
        return sum(1 for room in self.by_player.get(identity.key, ()) if room.going_on)

    def room_closed(self, room: Room) -> None:
        """``room`` closed: its code, if it still had one, is retired as expired."""
        if room.code is not None and self.codes.get(room.code) is room:
            del self.codes[room.code]
            self._retire(room.code, "expired")

    def _retire(self, code: str, why: str) -> None:
        now = self.services.now()
        self.retired_codes[code] = (why, now)
        while self.retired_codes:
            oldest = next(iter(self.retired_codes.values()))
            if oldest[1] + RETIRED_CODE_SECONDS > now and len(self.retired_codes) < 100_000:
                break
            self.retired_codes.popitem(last=False)

    def place(self, identity: Identity, hello: Hello) -> tuple[Room, Seat, bool]:
        """The room and seat a hello asks for, or :class:`Refusal`."""
        if hello.seed is not None and not self.config.test_seeds:
            raise Refusal("not_allowed", "this server does not accept chosen seeds")
        if hello.action == "host":
            return self._host(identity, hello)
        if hello.action == "join":
            return self._join(identity, hello)
        return self._resume(identity, hello)

    def _host(self, identity: Identity, hello: Hello) -> tuple[Room, Seat, bool]:
        if self._open_games(identity) >= self.config.max_games_per_player:
            raise Refusal("not_allowed", f"you already have {self.config.max_games_per_player} "
                          "open games: finish one first (minefield resume)")
        try:
            default = "match" if hello.wants_match else "standard"
            if CLOCK_SETTINGS & hello.rule.keys():
                raise SettingsError("the clocks of a network game are the server's (R25): "
                                    "leave hand_seconds and discard_seconds out")
            settings = RuleSettings.preset(hello.rules or default,
                                           **{**hello.rule,
                                              "hand_seconds": self.config.hand_seconds,
                                              "discard_seconds": self.config.discard_seconds})
        except SettingsError as error:
            raise Refusal("bad_message", str(error)) from None
        room = Room.host(self.services, identity, settings, bot=hello.bot, seed=hello.seed,
                         match=hello.wants_match)
        room.public = hello.public and hello.bot is None
        room.kind = "public" if room.public else "private"
        room.rated_games = hello.rated is not False  # a host's table is rated unless casual
        room.rules_name = hello.rules or default
        if hello.bot is None:
            room.code = new_code(self.codes.keys() | self.retired_codes.keys())
            room.code_expires = self.services.now() + self.config.code_seconds
            self.codes[room.code] = room
        self._register(room)
        seat = room.seat_of(identity)
        assert seat is not None
        return room, seat, False

    def _join(self, identity: Identity, hello: Hello) -> tuple[Room, Seat, bool]:
        if hello.code is None:
            raise Refusal("bad_message", "join needs the room code (6 letters and digits)")
        now = self.services.now()
        failures = self.code_failures.setdefault(identity.key, TokenBucket(
            self.config.code_attempts, 1.0 / self.config.code_retry_seconds, now))
        if not failures.available(now):
            raise Refusal("rate_limited", "too many wrong room codes: try again in "
                          f"{math.ceil(failures.wait(now))} s")
        room = self.codes.get(hello.code)
        if room is None or room.closed:
            failures.take(now)
            retired = self.retired_codes.get(hello.code)
            if retired is not None and retired[0] == "expired":
                raise Refusal("bad_code", f"the room code {hello.code} has expired (codes last "
                              f"{round(self.config.code_seconds / 60)} minutes): ask for a new "
                              "one")
            if retired is not None:
                raise Refusal("bad_code", f"the room code {hello.code} has already been used")
            raise Refusal("bad_code", f"no room has the code {hello.code}: check it")
        seat = room.seat_of(identity)
        if seat is not None:  # the host, from another terminal
            return room, seat, True
        free = room.free_seat()
        if free is None:  # pragma: no cover - a code is retired when its seat is taken
            raise Refusal("bad_code", f"the room {hello.code} is full")
        if self._open_games(identity) >= self.config.max_games_per_player:
            raise Refusal("not_allowed", f"you already have {self.config.max_games_per_player} "
                          "open games: finish one first (minefield resume)")
        code = hello.code
        room.claim(free, identity)
        del self.codes[code]
        self._retire(code, "used")
        self._register(room)
        return room, free, False

    def _resume(self, identity: Identity, hello: Hello) -> tuple[Room, Seat, bool]:
        rooms = [room for room in self.by_player.get(identity.key, ()) if not room.closed]
        if hello.game is not None:
            rooms = [room for room in rooms if hello.game in room.game_ids]
            if not rooms:
                raise Refusal("no_game", "that game is over or no longer on this server")
        if not rooms:
            # The client adds how to host or join as its player reaches this server.
            raise Refusal("no_game", "you have no unfinished game on this server")
        # An unfinished game first, then the newest (ids start with their time).
        room = max(rooms, key=lambda r: (r.going_on, not r.waiting, r.id))
        seat = room.seat_of(identity)
        assert seat is not None
        return room, seat, True


__all__ = ["RETIRED_CODE_SECONDS", "FrontDesk", "Refusal"]
