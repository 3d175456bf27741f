"""Tournaments on the daemon (R37): kept in SQLite, played in the daemon's rooms.

The daemon is the one writer of its tournaments, as of the club's other memory: the
organizer, the players (with their rating at the start), the rounds (when each started), the
pairings with their games, results and forfeits, all in the club's SQLite file
(:mod:`~minefield.server.tournament_store`; every change committed before anyone hears of
it), so a restart, ``kill -9`` included, loses nothing: :meth:`Tournaments.resume` takes up
every running tournament, the rooms of its round (a game already begun comes back from its
record; one nobody had sat at yet gets a new room) and its forfeit alarm.

A round begins (:meth:`Tournaments._begin_round`) with its pairings (pure,
:mod:`~minefield.server.tournament_pairing`): a bye is scored at once; every other pairing
gets a room with both seats held, East and West as paired, and each player connected to the
lobby is sent :class:`~minefield.protocol.lobby.TournamentRound` (sent again whenever they come
back to the lobby while the game waits for them); a ``resume`` hello with its game sits
them. :data:`~minefield.server.config.ServerConfig.tournament_forfeit_seconds` after the
round began, a player who has not sat down loses by forfeit (both absent: both lose) and the
room is closed. When every game of the round has ended the next round begins, or the
tournament is finished.

What a new tournament may be is checked by :mod:`~minefield.server.tournament_terms`; what
``tournament show`` and ``tournaments`` say, by :mod:`~minefield.server.tournament_reports`.

Everything here runs in the daemon's event loop; SQLite's writes are small and few (a round's
pairings, a result), so they are made there, in order, under the loop.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import sqlite3
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from minefield.protocol.lobby import LobbyTournament, TournamentRound
from minefield.rules.game import Seat
from minefield.rules.seed import random_seed
from minefield.rules.settings import RuleSettings
from minefield.server.identity import Identity
from minefield.server.room import Room
from minefield.server.tournament_pairing import (
    Pairing,
    Result,
    round_robin,
    standings,
    swiss_round,
)
from minefield.server.tournament_reports import listed, shown
from minefield.server.tournament_store import Board, Store
from minefield.server.tournament_terms import (
    MAX_NAME,
    NewTournament,
    TournamentError,
    check_name,
    check_terms,
)

if TYPE_CHECKING:
    from minefield.server.daemon import Daemon

log = logging.getLogger("minefield.server")


class Tournaments:
    """The daemon's tournaments (one per daemon)."""

    def __init__(self, daemon: Daemon) -> None:
        self.daemon = daemon
        self.store = Store(daemon.config.database_path)
        self._alarms: dict[str, asyncio.TimerHandle] = {}
        self._clock: Callable[[], float] = time.time
        self.closed = False
        #: The tournaments whose next round is being paired (no second start meanwhile).
        self._beginning: set[str] = set()

    def close(self) -> None:
        """The daemon stops: alarms off, the database closed."""
        for alarm in self._alarms.values():
            alarm.cancel()
        self._alarms.clear()
        self.closed = True
        self.store.close()

    # -- commands -------------------------------------------------------------------------------

    def new(self, organizer: Identity, asked: NewTournament) -> str:
        """A new open tournament organized by ``organizer``; a line saying so."""
        check_name(asked.name)
        if self.store.tournament(asked.name) is not None:
            raise TournamentError(f"a tournament called {asked.name} exists already")
        rule = check_terms(asked)
        self.store.execute(
            "INSERT INTO tournaments (name, organizer, format, rules, rule, match, casual, "
            "max_players, rounds, status, round, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, "
            "'open', 0, ?)", asked.name, organizer.key, asked.format, asked.rules,
            json.dumps(rule), int(asked.match), int(asked.casual), asked.max_players,
            asked.rounds, self._clock())
        log.info("tournament %s: created", asked.name)
        return f"Tournament {asked.name} created ({asked.format}): players join with " \
               f"'tournament join {asked.name}', you start it with 'tournament start " \
               f"{asked.name}'."

    def _open(self, name: str) -> sqlite3.Row:
        row = self.store.tournament(name)
        if row is None:
            raise TournamentError(f"no tournament is called {name[:MAX_NAME]}")
        return row

    def join(self, player: Identity, name: str) -> str:
        """``player`` joins the open tournament ``name``."""
        row = self._open(name)
        if row["status"] != "open":
            raise TournamentError(f"{row['name']} has started: players join before it starts")
        players = self.store.players(row["name"])
        if any(p["key"] == player.key for p in players):
            raise TournamentError(f"you are already in {row['name']}")
        if row["max_players"] is not None and len(players) >= row["max_players"]:
            raise TournamentError(f"{row['name']} is full ({row['max_players']} players)")
        self.store.execute("INSERT INTO players (tournament, key, name, joined) VALUES "
                           "(?, ?, ?, ?)", row["name"], player.key, player.name, self._clock())
        return f"You joined {row['name']} ({len(players) + 1} players)."

    def leave(self, player: Identity, name: str) -> str:
        """``player`` leaves the open tournament ``name``."""
        row = self._open(name)
        if row["status"] != "open":
            raise TournamentError(f"{row['name']} has started: you can leave only before it "
                                  "starts")
        if not any(p["key"] == player.key for p in self.store.players(row["name"])):
            raise TournamentError(f"you are not in {row['name']}")
        self.store.execute("DELETE FROM players WHERE tournament = ? AND key = ?",
                           row["name"], player.key)
        return f"You left {row['name']}."

    async def start(self, player: Identity, name: str, admin: bool = False) -> str:
        """The organizer (or an admin) starts ``name``: the players are seeded by rating and
        the first round begins."""
        row = self._open(name)
        if row["organizer"] != player.key and not admin:
            raise TournamentError(f"only the organizer of {row['name']} (or an admin) can "
                                  "start it")
        if row["status"] != "open":
            raise TournamentError(f"{row['name']} has already started")
        players = self.store.players(row["name"])
        if len(players) < 2:
            raise TournamentError(f"{row['name']} needs at least 2 players to start (it has "
                                  f"{len(players)})")
        if row["format"] == "swiss" and row["rounds"] is not None \
                and row["rounds"] >= len(players) + len(players) % 2:
            raise TournamentError(f"a Swiss of {len(players)} players has at most "
                                  f"{len(players) - 1 + len(players) % 2} rounds (no pair "
                                  "meets twice)")
        ratings = await self._ratings([p["key"] for p in players])
        seeded = sorted(players, key=lambda p: (-ratings.get(p["key"], 0), p["joined"]))
        count = len(players)
        rounds = (count - 1 + count % 2 if row["format"] == "round-robin"
                  else row["rounds"] or min(count - 1 + count % 2,
                                            max(1, math.ceil(math.log2(count)))))
        self.store.transaction(
            [("UPDATE players SET seed = ?, rating = ? WHERE tournament = ? AND key = ?",
              (i, ratings.get(p["key"]), row["name"], p["key"])) for i, p in enumerate(seeded)]
            + [("UPDATE tournaments SET status = 'running', rounds = ? WHERE name = ?",
                (rounds, row["name"]))])
        log.info("tournament %s: started with %d players", row["name"], count)
        await self._begin_round(row["name"], 1)
        return f"{row['name']} has started: round 1 of {rounds}."

    async def _ratings(self, keys: list[str]) -> dict[str, float]:
        ratings_of = self.daemon.lobby.ratings_of
        if ratings_of is None:
            return {}
        try:
            known = await self.daemon.run_io(ratings_of, keys)
        except Exception as error:  # no ratings: the join order seeds
            log.error("tournament: ratings failed (%s)", type(error).__name__)
            return {}
        return {key: float(value) for key, value in known.items()}

    # -- what is shown --------------------------------------------------------------------------

    def show(self, name: str) -> dict[str, Any]:
        """``tournament show NAME --json``."""
        row = self._open(name)
        return shown(row, self.store.players(row["name"]), self.store.pairings(row["name"]))

    def listing(self) -> list[dict[str, Any]]:
        """``tournaments --json``: every tournament, newest first."""
        return [listed(row, len(self.store.players(row["name"]))) for row in self.store.all()]

    def running(self) -> list[LobbyTournament]:
        """The running tournaments and their round, newest first (the lobby lists them;
        none once the daemon has stopped)."""
        if self.closed:
            return []
        return [LobbyTournament(name=row["name"], round=row["round"], rounds=row["rounds"])
                for row in self.store.all() if row["status"] == "running"]

    # -- rounds ---------------------------------------------------------------------------------

    def _settings(self, row: sqlite3.Row) -> RuleSettings:
        config = self.daemon.config
        return RuleSettings.preset(row["rules"], **{
            **json.loads(row["rule"]), "hand_seconds": config.hand_seconds,
            "discard_seconds": config.discard_seconds})

    async def _pairs(self, row: sqlite3.Row, number: int) -> list[Pairing]:
        """Round ``number``'s pairings. A Swiss round's matching is made in a worker thread
        (200 players take a few tenths of a second: the games in play must not wait)."""
        players = [p["key"] for p in self.store.players(row["name"])]
        if row["format"] == "round-robin":
            return round_robin(players)[number - 1]
        games = [p.as_game() for p in self.store.pairings(row["name"])]
        ratings = {p["key"]: p["rating"] or 0.0 for p in self.store.players(row["name"])}
        ranked = [s.name for s in standings(players, games, "swiss", ratings)]
        return await self.daemon.run_io(swiss_round, ranked, games)

    async def _begin_round(self, name: str, number: int) -> None:
        """Round ``number`` of ``name`` begins: pairings stored, rooms made, players told."""
        row = self._open(name)
        self._beginning.add(name)
        try:
            pairs = await self._pairs(row, number)
        finally:
            self._beginning.discard(name)
        if self.closed:
            return
        started = self._clock()
        self.store.transaction(
            [("UPDATE tournaments SET round = ? WHERE name = ?", (number, name)),
             ("INSERT INTO rounds (tournament, round, started) VALUES (?, ?, ?)",
              (name, number, started))]
            + [("INSERT INTO pairings (tournament, round, board, east, west, result) VALUES "
                "(?, ?, ?, ?, ?, ?)", (name, number, board, p.east, p.west,
                                       "east" if p.west is None else None))
               for board, p in enumerate(pairs, 1)])
        log.info("tournament %s: round %d began (%d games)", name, number, len(pairs))
        for pairing in self.store.pairings(name):
            if pairing.round == number and pairing.west is not None:
                self._seat_pairing(row, pairing)
        self._arm(name, started)
        await self._after_result(name)

    def _identities(self, name: str) -> dict[str, Identity]:
        return {p["key"]: Identity(key=p["key"], name=p["name"])
                for p in self.store.players(name)}

    def _seat_pairing(self, row: sqlite3.Row, pairing: Board) -> None:
        """A room for ``pairing``, East and West as paired, and both players told."""
        assert pairing.west is not None
        people = self._identities(row["name"])
        east, west = people[pairing.east], people[pairing.west]
        settings = self._settings(row)
        room = Room.host(self.daemon, east, settings, seed=random_seed(), match=row["match"])
        while room.seat_of(east) is not Seat.EAST:  # the seed deals East (R6): draw again
            room = Room.host(self.daemon, east, settings, seed=random_seed(),
                             match=row["match"])
        room.claim(Seat.WEST, west)
        # A tournament's games are every player's to watch and look up, rated unless the
        # tournament is casual (R36); the record names the tournament (the kept games').
        room.kind, room.tournament = "tournament", row["name"]
        room.rated_games = not row["casual"]
        room.rules_name = row["rules"]
        self.daemon.register(room)
        self.store.execute("UPDATE pairings SET game = ? WHERE tournament = ? AND round = ? "
                           "AND board = ?", room.id, row["name"], pairing.round, pairing.board)
        pairing.game = room.id
        self._tell(row["name"], pairing, people)

    def _notices(self, name: str, pairing: Board,
                 people: dict[str, Identity]) -> list[tuple[str, TournamentRound]]:
        assert pairing.west is not None and pairing.game is not None
        return [(key, TournamentRound(tournament=name, round=pairing.round, game=pairing.game,
                                      seat=seat, opponent=people[other].name))
                for key, other, seat in ((pairing.east, pairing.west, Seat.EAST),
                                         (pairing.west, pairing.east, Seat.WEST))]

    def _tell(self, name: str, pairing: Board, people: dict[str, Identity]) -> None:
        for key, notice in self._notices(name, pairing, people):
            for conn in list(self.daemon.lobby.members):
                if conn.identity is not None and conn.identity.key == key:
                    conn.send(notice)

    def waiting_for(self, identity: Identity) -> list[TournamentRound]:
        """The tournament games waiting for ``identity`` to sit down (told again on coming
        to the lobby)."""
        notices: list[TournamentRound] = []
        if self.closed:
            return notices
        for row in self.store.all():
            if row["status"] != "running":
                continue
            people = self._identities(row["name"])
            for p in self.store.pairings(row["name"]):
                if p.round != row["round"] or p.result is not None or p.west is None:
                    continue
                mine = ((p.east == identity.key and not p.east_seated)
                        or (p.west == identity.key and not p.west_seated))
                if mine and p.game is not None:
                    notices += [n for key, n in self._notices(row["name"], p, people)
                                if key == identity.key]
        return notices

    def _arm(self, name: str, started: float) -> None:
        """The forfeit alarm of the round that began at ``started`` (wall clock)."""
        old = self._alarms.pop(name, None)
        if old is not None:
            old.cancel()
        delay = max(0.0, started + self.daemon.config.tournament_forfeit_seconds
                    - self._clock())
        loop = asyncio.get_running_loop()
        self._alarms[name] = loop.call_later(
            delay, lambda: self._spawn(self._forfeits(name)))

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self.daemon.keep(task)

    # -- players and games ----------------------------------------------------------------------

    def _pairing_of(self, room: Room) -> tuple[sqlite3.Row, Board] | None:
        if self.closed:
            return None
        ids = room.game_ids
        for row in self.store.all():
            if row["status"] != "running":
                continue
            for p in self.store.pairings(row["name"]):
                if p.game is not None and p.game in ids and p.round == row["round"]:
                    return row, p
        return None

    def seated(self, room: Room, identity: Identity) -> None:
        """``identity`` sat down at ``room`` (a ``resume`` or ``join`` hello placed)."""
        found = self._pairing_of(room)
        if found is None or found[1].result is not None:
            return
        row, p = found
        column = ("east_seated" if p.east == identity.key
                  else "west_seated" if p.west == identity.key else None)
        if column is not None:
            self.store.execute(f"UPDATE pairings SET {column} = 1 WHERE tournament = ? AND "
                               "round = ? AND board = ?", row["name"], p.round, p.board)

    def game_ended(self, room: Room) -> None:
        """``room``'s game ended: a tournament game's result (a match's once it is over)."""
        if room.going_on:  # a match goes on
            return
        found = self._pairing_of(room)
        if found is None or found[1].result is not None:
            return
        row, p = found
        result, points = _outcome(room, p)
        self.store.execute("UPDATE pairings SET result = ?, points = ? WHERE tournament = ? "
                           "AND round = ? AND board = ?", result, points, row["name"],
                           p.round, p.board)
        log.info("tournament %s: round %d board %d over", row["name"], p.round, p.board)
        self._spawn(self._after_result(row["name"]))

    async def _forfeits(self, name: str) -> None:
        """The round's forfeit time has come: whoever has not sat down loses (R37)."""
        self._alarms.pop(name, None)
        row = self._open(name)
        for p in self.store.pairings(name):
            if p.round != row["round"] or p.result is not None or p.west is None:
                continue
            if p.east_seated and p.west_seated:
                continue
            result: Result = ("east" if p.east_seated else "west" if p.west_seated
                              else "none")
            self.store.execute("UPDATE pairings SET result = ?, forfeit = 1, points = 0 WHERE "
                               "tournament = ? AND round = ? AND board = ?", result, name,
                               p.round, p.board)
            log.info("tournament %s: round %d board %d lost by forfeit", name, p.round,
                     p.board)
            room = self.daemon.rooms.get(p.game or "")
            if room is not None:
                minutes = round(self.daemon.config.tournament_forfeit_seconds / 60)
                await room.close_for_good(f"A player did not sit down within {minutes} "
                                          "minutes of the round's start: the game is lost by "
                                          "forfeit (R37).")
        await self._after_result(name)

    async def _after_result(self, name: str) -> None:
        """Every game of the round over: the next round, or the end."""
        row = self._open(name)
        if row["status"] != "running" or name in self._beginning:
            return
        current = [p for p in self.store.pairings(name) if p.round == row["round"]]
        if any(p.result is None for p in current):
            return
        alarm = self._alarms.pop(name, None)
        if alarm is not None:
            alarm.cancel()
        self.store.execute("UPDATE rounds SET ended = ? WHERE tournament = ? AND round = ?",
                           self._clock(), name, row["round"])
        if row["round"] >= row["rounds"]:
            self.store.execute("UPDATE tournaments SET status = 'finished' WHERE name = ?",
                               name)
            log.info("tournament %s: finished", name)
            return
        await self._begin_round(name, row["round"] + 1)

    async def resume(self) -> None:
        """At the daemon's start (its rooms restored): every running tournament goes on."""
        for row in self.store.all():
            if row["status"] != "running":
                continue
            name = row["name"]
            for p in self.store.pairings(name):
                if p.round != row["round"] or p.result is not None or p.west is None:
                    continue
                if p.game is None or not any(p.game in room.game_ids
                                             for room in self.daemon.rooms.values()):
                    self._seat_pairing(row, p)  # nobody had sat down: a new room
            started = self.store.round_started(name, row["round"])
            self._arm(name, started if started is not None else self._clock())
            await self._after_result(name)


def _outcome(room: Room, pairing: Board) -> tuple[Result, int]:
    """Who won ``room``'s game (a match: on the final scores, R30) and what was paid."""
    east_key = pairing.east
    series = room.series
    match = getattr(series, "match", None)
    if match is not None:
        scores: dict[str, int] = match.scores
        west_key = str(pairing.west)
        east, west = scores.get(east_key, 0), scores.get(west_key, 0)
        start = int(match.settings.start_points)
        if east == west:
            return "draw", 0
        return ("east", max(0, east - start)) if east > west else ("west", max(0, west - start))
    end = room.game.result
    if end is None or end.winner is None:
        return "draw", 0
    points = end.value.points if end.value is not None else 0
    seat_of_east = next((seat for seat, seated in room.seats.items()
                         if seated.identity is not None and seated.identity.key == east_key),
                        Seat.EAST)
    return ("east" if end.winner is seat_of_east else "west"), points


__all__ = ["Tournaments"]
