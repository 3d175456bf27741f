"""The defense trainer inside the game: the danger overlay, feedback after each discard, and the
progress of practice games (no Textual here; the app owns one :class:`Trainer`).

What the trainer shows is computed from one seat's own view only (R26): the fast danger
estimate of :mod:`minefield.defense.estimate` for the position that seat is in, fitted for the
opponent (the practice bot's level; a person in hot-seat). The aids are
offered only when the session's traits allow them (practice; hot-seat when both players agreed;
never a network game). The progress store is opened once, when first needed; a store that
cannot be used is reported once and the game goes on without it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from minefield.rules.seats import Seat
from minefield.rules.tiles import Tile, kind_str

# The estimate and the progress store (SQLite) load with the first game that uses them, not
# with the app (the menu's first frame waits for every import).
if TYPE_CHECKING:
    from minefield.defense.calibration import Opponent
    from minefield.defense.position import DangerReport
    from minefield.rules.game import GameEnded, PlayerView
    from minefield.session.base import SessionTraits
    from minefield.trainer.progress import Progress
    from minefield.trainer.progress_records import DiscardRecord, Result

Notify = Callable[[str], None]


class Trainer:
    """The trainer's state over the games of one app.

    ``overlay`` (the danger shading and reasons panel) stays as the player left it from game to
    game; it shows only while the session allows aids. Feedback lines and the discards of the
    current game are kept per seat (hot-seat screens come and go behind the curtain).
    """

    def __init__(self) -> None:
        self.overlay = False
        #: Whom the estimates are for: the practice bot's level, else a person.
        self.opponent: Opponent = "person"
        self.aids = False
        self.mode = ""
        self.local_seats: tuple[Seat, ...] = ()
        self.notes: dict[Seat, dict[int, str]] = {}
        self.discards: dict[Seat, list[DiscardRecord]] = {}
        self._reports: dict[tuple[Seat, int], DangerReport] = {}
        self._recorded: set[str] = set()
        self._progress: Progress | None = None
        self._problem_told = False

    def __repr__(self) -> str:
        return f"Trainer(aids={self.aids}, overlay={self.overlay}, <tiles hidden>)"

    # -- games -------------------------------------------------------------------------------

    def new_game(self, traits: SessionTraits, local_seats: tuple[Seat, ...]) -> None:
        """A game starts: whether aids are allowed, and nothing kept from the last one."""
        self.aids = traits.trainer_aids
        self.mode = traits.mode
        self.local_seats = local_seats
        self.opponent = traits.bot_level or "person"
        self.notes = {seat: {} for seat in local_seats}
        self.discards = {seat: [] for seat in local_seats}
        self._reports = {}

    def report_for(self, view: PlayerView) -> DangerReport | None:
        """The fast danger report of ``view``'s seat about to discard (None when aids are not
        allowed or the seat is not to discard)."""
        if not self.aids or not view.my_turn or view.own_hand is None:
            return None
        key = (view.seat, view.discards_made)
        report = self._reports.get(key)
        if report is None:
            from minefield.defense.estimate import estimate
            from minefield.defense.position import Position, PositionError

            try:
                report = estimate(Position.from_view(view), self.opponent)
            except PositionError:
                return None
            self._reports = {key: report}  # only the position on the table is kept
        return report

    def overlay_report(self, view: PlayerView) -> DangerReport | None:
        """The report the overlay shows now (None: the overlay is off or not allowed)."""
        return self.report_for(view) if self.overlay else None

    def discarding(self, view: PlayerView, tile: str) -> str | None:
        """A local seat discards ``tile``: keep the danger it took (for the progress) and its
        feedback line, which is returned (None when there is no estimate)."""
        if view.seat not in self.discards:
            return None
        report = self.report_for(view)
        if report is None:
            return None
        try:
            tile = kind_str(Tile.parse(tile).kind)  # a red five is its kind (0p is 5p)
            taken = report.of(tile).danger
        except (KeyError, ValueError):
            return None
        number = view.discards_made + 1
        from minefield.defense.estimate import feedback
        from minefield.trainer.progress_records import DiscardRecord

        kept = self.discards[view.seat]
        if kept and kept[-1].number >= number:
            return None  # the same discard sent twice (it will be rejected)
        kept.append(DiscardRecord(number=number, tile=tile, danger=taken,
                                  least_danger=report.safest().danger))
        line = feedback(report, tile)
        self.notes[view.seat][number] = line
        return line

    def notes_of(self, seat: Seat) -> dict[int, str]:
        """The feedback lines of ``seat``'s discards, by discard number."""
        return self.notes.get(seat, {}) if self.aids else {}

    # -- progress ----------------------------------------------------------------------------

    def progress(self, tell: Notify) -> Progress:
        """The progress store, opened once; a problem with it is told once."""
        if self._progress is None:
            from minefield.trainer.progress import open_progress

            self._progress, problem = open_progress()
            if problem:
                self._tell_once(tell, problem)
        return self._progress

    def _tell_once(self, tell: Notify, problem: str) -> None:
        if not self._problem_told:
            self._problem_told = True
            tell(f"Your progress is not saved: {problem}")

    def game_ended(self, end: GameEnded, tell: Notify) -> bool:
        """A game ended (told once per game; later calls do nothing): the next game of the
        session (a match, a rematch) starts afresh, and a practice game is recorded with the
        player's discards. Returns True when it was recorded."""
        if end.seed in self._recorded:
            return False
        self._recorded.add(end.seed)
        kept = self.discards
        self.notes = {seat: {} for seat in self.local_seats}
        self.discards = {seat: [] for seat in self.local_seats}
        self._reports = {}
        if self.mode != "practice" or len(self.local_seats) != 1:
            return False
        from minefield.trainer.progress import ProgressError
        from minefield.trainer.progress_records import DiscardRecord, GameRecord

        seat = self.local_seats[0]
        result: Result = "draw"
        points = 0
        if end.result == "ron" and end.winner is not None and end.value is not None:
            won = end.winner is seat
            result = "won" if won else "lost"
            points = end.value.points if won else -end.value.points
        discards = list(kept.get(seat, []))
        if result == "lost" and discards and discards[-1].number == end.discard_number:
            last = discards[-1]
            discards[-1] = DiscardRecord(number=last.number, tile=last.tile, danger=last.danger,
                                         least_danger=last.least_danger, dealt_in=True)
        store = self.progress(tell)
        try:
            store.record_game(GameRecord(mode="practice", seat=seat.value, result=result,
                                         points=points, seed=end.seed), discards)
        except ProgressError as error:
            self._tell_once(tell, str(error))
            return False
        return True

    def close(self) -> None:
        """Close the progress store (the app is leaving)."""
        if self._progress is not None:
            self._progress.close()
            self._progress = None


__all__ = ["Trainer"]
