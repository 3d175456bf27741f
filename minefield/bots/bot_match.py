"""A game between two bots, one move at a time, for someone watching (the menu's "Watch").

The bots are seats like humans: each is asked for its command with its own
:class:`~minefield.rules.game.PlayerView` and never sees more. Before each discard the fast
danger estimate is made from the discarding seat's view alone (what that seat knows, R26), so
the watcher can see how dangerous each tile was to that seat, and, when a discard deals in,
what the estimate said of it. Nothing here decides what the watcher may see: the screen shows
hands only when the watcher chose to.

>>> from minefield.bots.levels import make_bot
>>> watched = WatchedGame(3, {Seat.EAST: make_bot("easy", 1), Seat.WEST: make_bot("easy", 2)})
>>> while not watched.over:
...     _ = watched.play(*watched.decide())
>>> watched.game.phase, len(watched.moves) >= 3
('ended', True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from minefield.bots.base import Bot
from minefield.defense.estimate import estimate, percent
from minefield.defense.position import DangerReport, Position, PositionError
from minefield.rules.game import ChooseHand, Discard, Game, PlayerView, Seat
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import Tile, kind_str


@dataclass(frozen=True, slots=True)
class WatchedMove:
    """One command played: by whom, what, and for a discard the estimate the discarding seat
    had just before it (None when it could not be made) and whether it dealt in (R13)."""

    seat: Seat
    command: ChooseHand | Discard
    report: DangerReport | None = None
    dealt_in: bool = False

    @property
    def danger(self) -> float | None:
        """The estimated chance that this discard deals in (None: no estimate, or a hand)."""
        if not isinstance(self.command, Discard) or self.report is None:
            return None
        try:
            return self.report.of(kind_str(Tile.parse(self.command.tile).kind)).danger
        except KeyError:
            return None

    def __repr__(self) -> str:
        return f"WatchedMove(seat={self.seat.value}, {type(self.command).__name__}, <hidden>)"


class WatchedGame:
    """A game of ``seed`` under ``settings`` between ``bots`` (one per seat)."""

    def __init__(self, seed: int | str, bots: Mapping[Seat, Bot],
                 settings: RuleSettings | None = None) -> None:
        if set(bots) != set(Seat):
            raise ValueError("a watched game needs a bot in each seat")
        self.game = Game(seed, settings)
        self.bots = dict(bots)
        self.moves: list[WatchedMove] = []
        self._reports: dict[tuple[Seat, int], DangerReport | None] = {}

    @property
    def over(self) -> bool:
        """True once the game has ended (a ron or 34 discards)."""
        return self.game.phase == "ended"

    def to_act(self) -> Seat | None:
        """The seat whose command comes next: East then West choose their hands (R7), then the
        seat whose turn it is (R10); None at the end."""
        game = self.game
        if game.phase == "choosing":
            return next(seat for seat in Seat if game.hand_of(seat) is None)
        return game.turn

    def view(self, seat: Seat) -> PlayerView:
        """What ``seat`` may see now (its own view, R26)."""
        return self.game.view(seat)

    def report(self) -> DangerReport | None:
        """The fast estimate of the seat about to discard, from its own view, fitted for the
        other seat's bot level (None in the choosing phase, at the end, or when no estimate can
        be made)."""
        seat = self.to_act()
        if seat is None or self.game.phase != "discarding":
            return None
        key = (seat, self.game.discard_count)
        if key not in self._reports:
            try:
                position = Position.from_view(self.view(seat))
                self._reports = {key: estimate(position, self.bots[seat.other].level)}
            except PositionError:
                self._reports = {key: None}
        return self._reports[key]

    def decide(self) -> tuple[Seat, ChooseHand | Discard]:
        """Ask the seat to act for its command, with its own view only (slow for strong bots:
        call it off the event loop). Raises ValueError at the end."""
        seat = self.to_act()
        if seat is None:
            raise ValueError("the game has ended")
        return seat, self.bots[seat].act(self.view(seat))

    def play(self, seat: Seat, command: ChooseHand | Discard) -> WatchedMove:
        """Apply ``seat``'s command (the engine checks it) and keep it with its estimate."""
        report = self.report() if isinstance(command, Discard) else None
        self.game.apply(seat, command)
        end = self.game.result
        dealt_in = (isinstance(command, Discard) and end is not None and end.result == "ron"
                    and end.winner is seat.other)
        move = WatchedMove(seat, command, report, dealt_in)
        self.moves.append(move)
        return move

    def __repr__(self) -> str:
        return (f"WatchedGame(phase={self.game.phase}, discards={self.game.discard_count}, "
                "<tiles hidden>)")


def deal_in_text(move: WatchedMove, discarder: str) -> str | None:
    """What the estimate said of a discard that dealt in (None for any other move): its chance,
    how many kinds of the pool it rated safer, and the safest one.

    The text names tiles of the discarder's pool: it is shown only once the game has ended,
    when both hands are revealed (R26).
    """
    if not move.dealt_in or not isinstance(move.command, Discard):
        return None
    if move.report is None:
        return f"{discarder} dealt in with {move.command.tile}; no estimate was made of it."
    tile = kind_str(Tile.parse(move.command.tile).kind)
    chosen = move.report.of(tile)
    safest = move.report.safest()
    safer = sum(1 for t in move.report.tiles if t.danger < chosen.danger)
    kinds = len(move.report.tiles)
    if safer == 0:
        rank = f"no kind of the {kinds} in its pool was estimated safer"
    else:
        rank = (f"{safer} of the {kinds} kinds in its pool were estimated safer, the safest "
                f"{safest.tile} at {percent(safest.danger)}")
    text = (f"{discarder} dealt in with {move.command.tile}: its estimate gave it "
            f"{percent(chosen.danger)}; {rank}.")
    if chosen.reasons:
        text += f" Its reason: {chosen.reasons[0]}."
    return text


__all__ = ["WatchedGame", "WatchedMove", "deal_in_text"]
