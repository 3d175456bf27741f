"""A room before its first game: what it will play once both seats are taken.

``host`` makes a :class:`Plan`: the seed, the rules, whether it is a match, the host's seat
(the seed gives it, R6; a match's first dealer is drawn from the seed, R30) and the first game
as it will be dealt, which the host sees (and may build a hand in) while the room waits for
``join``. Once both seats are taken the plan becomes the room's series (:func:`first_series`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from minefield.bots.base import bot_name
from minefield.protocol.messages import WAITING_NAME, MatchView, PlayerInfo
from minefield.rules.game import Game, Seat
from minefield.rules.match import Match
from minefield.rules.settings import RuleSettings
from minefield.server.identity import Identity
from minefield.server.seats import RoomMatch, Seated
from minefield.table.match_table import RecorderFactory
from minefield.table.series import GameRecorderFactory, Series, SingleGame


@dataclass(frozen=True, slots=True)
class Plan:
    """What a waiting room will play once both seats are taken: the seed, the rules, whether
    it is a match, the host's seat, and the first game as it will be dealt (shown to the host
    while waiting)."""

    seed: str
    settings: RuleSettings
    match: bool
    host_seat: Seat
    preview: Game

    def __repr__(self) -> str:
        return f"Plan(match={self.match}, host={self.host_seat}, <seed and tiles hidden>)"

    @classmethod
    def hosted(cls, host: Identity, settings: RuleSettings, bot: str | None, seed: str,
               match: bool) -> Plan:
        """What ``host`` hosts: the host's seat is the one the seed gives the host (R6); with
        ``match``, a match (R30) from the seed, the host being its first player (the first
        dealer is drawn from the seed)."""
        if match:
            guest = bot_name(bot) if bot is not None else WAITING_NAME
            provisional = Match(seed, (host.key, guest), settings)
            seat, preview = provisional.seat_of(host.key), provisional.new_game()
        else:
            preview = Game(seed, settings)
            seat = Seat.EAST if preview.deal.east_player == 0 else Seat.WEST
        return cls(seed, settings, match, seat, preview)

    def waiting_match(self, seats: Mapping[Seat, Seated]) -> MatchView | None:
        """A match room waiting for its second player: the match as it will start (None for
        a single game)."""
        if not self.match:
            return None
        players = (seats[self.host_seat].record_name, seats[self.host_seat.other].record_name)
        match = Match(self.seed, players, self.settings)
        return RoomMatch(match, {name: PlayerInfo(name="?") for name in players}).view()

    def first_series(self, seats: Mapping[Seat, Seated], now: float, *,
                     match_records: RecorderFactory,
                     game_records: GameRecorderFactory) -> Series:
        """The series the room plays once both ``seats`` are taken, its games recorded by
        ``match_records`` (a match) or ``game_records`` (a single game)."""
        if self.match:
            host, guest = seats[self.host_seat], seats[self.host_seat.other]
            match = Match(self.seed, (host.record_name, guest.record_name), self.settings)
            infos = {seated.record_name: seated.info(now) for seated in seats.values()}
            return RoomMatch(match, infos, recorders=match_records)
        names = {seat: seated.record_name for seat, seated in seats.items()}
        return SingleGame(self.preview, {seat: seated.info(now) for seat, seated in seats.items()},
                          names=names, recorders=game_records)


__all__ = ["Plan"]
