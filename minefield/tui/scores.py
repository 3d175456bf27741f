"""The running score of games played one after the other ("play again"), and who pays whom at
the end of a game (R23). Kept apart from the result screen so that the app holds a score
without loading the result screen, the rules engine and the wire models (the menu's first
frame waits for every import)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from textual.markup import escape

from minefield.rules.seats import Seat
from minefield.tui.render import YOU

if TYPE_CHECKING:
    from minefield.rules.game import GameEnded
    from minefield.session import Session


def payment(end: GameEnded, names: Mapping[Seat, str]) -> tuple[Seat, Seat, int] | None:
    """Who pays whom how much (R23: one payer, both paid as non-dealers in a single game);
    None after a draw (draw payments belong to matches, R33)."""
    if end.result != "ron" or end.winner is None or end.value is None:
        return None
    return end.winner.other, end.winner, end.value.points


class RunningScore:
    """The points each player won and lost over the games played one after the other ("play
    again"); the app keeps one per session of play. Each game counts once, however often its
    result is shown (a game's seed names it)."""

    def __init__(self) -> None:
        self.points: dict[str, int] = {}
        self.games = 0
        self._counted: set[str] = set()

    def record(self, end: GameEnded, names: Mapping[Seat, str]) -> None:
        """Count a finished game (again: nothing changes)."""
        if end.seed in self._counted:
            return
        self._counted.add(end.seed)
        self.games += 1
        for seat in Seat:
            self.points.setdefault(names[seat], 0)
        paid = payment(end, names)
        if paid is not None:
            payer, payee, points = paid
            self.points[names[payer]] -= points
            self.points[names[payee]] += points

    def to_dict(self) -> dict[str, Any]:
        """The tally as JSON-ready data (kept on disk so that a resume finds it)."""
        return {"points": dict(self.points), "games": self.games,
                "counted": sorted(self._counted)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RunningScore:
        """A tally from :meth:`to_dict`'s data; what is not well formed is left out."""
        score = cls()
        points = data.get("points")
        if isinstance(points, dict):
            score.points = {str(name)[:40]: value for name, value in list(points.items())[:2]
                            if isinstance(value, int) and not isinstance(value, bool)}
        games = data.get("games")
        if isinstance(games, int) and not isinstance(games, bool) and games >= 0:
            score.games = games
        counted = data.get("counted")
        if isinstance(counted, list):
            score._counted = {seed for seed in counted[:10_000] if isinstance(seed, str)}
        return score

    def text(self) -> str:
        """``Score over 3 games: You 16000 · Bot (normal) -16000`` (markup; the player here
        first), or nothing before the first game."""
        if not self.games:
            return ""
        order = sorted(self.points, key=lambda name: name != YOU)
        totals = " · ".join(f"{escape(name)} {self.points[name]}" for name in order)
        return f"Score over {self.games} game{'s' if self.games != 1 else ''}: {totals}"

    def __repr__(self) -> str:
        return f"RunningScore(games={self.games})"


__all__ = ["RunningScore", "payment"]


class ScoreKeeper:
    """The running score of this terminal's games (:attr:`scores`): it goes on over "play
    again", starts afresh for a game chosen anew (:meth:`start_afresh`), and for a network
    room survives a resume (:meth:`room_tally`)."""

    def __init__(self) -> None:
        self.scores = RunningScore()
        self._room_game: str | None = None  # the network game whose tally is kept on disk

    def start_afresh(self) -> None:
        """A game chosen anew (or another room): a new running score."""
        self.scores = RunningScore()

    def new_session(self) -> None:
        """Another session is played here: its room's tally is not known yet."""
        self._room_game = None

    def room_tally(self, session: Session, before: bool) -> None:
        """A network room's running score survives a resume: it is kept on disk under each
        of the room's game ids (:mod:`minefield.tui.room_scores`). ``before`` an update: a
        game id seen for the first time takes the tally kept for it (a resume), or keeps the
        tally so far under it (a new room starts at nothing, a rematch carries it on); after
        a game's end: the tally with that game is kept."""
        game_id = getattr(session, "game_id", None)
        if session.traits.mode != "network" or not isinstance(game_id, str):
            return
        from minefield.tui import room_scores

        if before:
            if game_id == self._room_game:
                return
            if self._room_game is None and (kept := room_scores.load(game_id)) is not None:
                self.scores = RunningScore.from_dict(kept)
            self._room_game = game_id
        room_scores.save(game_id, self.scores.to_dict())
