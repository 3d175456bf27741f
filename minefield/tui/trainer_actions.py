"""The defense trainer's doors in the game app: the review of the game just played, the
progress (stats), the drills and the feedback switch, each screen built from the app's
:class:`~minefield.tui.trainer.Trainer`. :class:`TrainerDoors` is made by the app and given
to the screens that own the doors: the menu (drills, progress), the play screen (the feedback
switch) and the result screen (the review; the palette's drills and progress)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import App

# The screens and the trainer's models load when first asked for, not with the menu.
if TYPE_CHECKING:
    from minefield.rules.game import Seat
    from minefield.trainer.defense_review import GameReview
    from minefield.tui.host import PreferencesKeeper
    from minefield.tui.screens.review import ReviewScreen
    from minefield.tui.table_controller import TableController
    from minefield.tui.trainer import Trainer


def review_screen(table: TableController, trainer: Trainer) -> ReviewScreen | None:
    """The review of the finished game on ``table``, each local seat's discards with their
    danger and the opponent's hand revealed (hot-seat: both seats); None before the end.
    A game the review cannot read raises :class:`~minefield.trainer.defense_review.ReviewError`."""
    from minefield.trainer.defense_review import review_game
    from minefield.tui.screens.review import ReviewScreen

    if not table.ready or table.first_view().end is None:
        return None
    reviews: dict[Seat, GameReview] = {}
    for seat in table.session.local_seats:
        view = table.tables[seat].view
        if view.end is not None:
            reviews[seat] = review_game(view.end, view.discards, view.dora_indicator,
                                        table.session.settings, seat)
    return ReviewScreen(reviews, trainer.opponent, table.names()) if reviews else None


class TrainerDoors:
    """The screens of ``trainer`` shown by ``app``, with the player's ``prefs`` (feedback)."""

    def __init__(self, app: App[Any], trainer: Trainer, prefs: PreferencesKeeper) -> None:
        self._app = app
        self.trainer = trainer
        self._prefs = prefs

    def feedback_notes(self, seats: tuple[Seat, ...]) -> dict[int, str]:
        """The feedback lines of ``seats``' discards in this game (none while feedback is off),
        kept for the result's log."""
        if not self._prefs.preferences.discard_feedback:
            return {}
        return {number: line for seat in seats
                for number, line in self.trainer.notes_of(seat).items()}

    def toggle_feedback(self) -> None:
        """Feedback after each of your discards (in the game log) on or off; saved."""
        preferences = self._prefs.preferences
        on = not preferences.discard_feedback
        self._prefs.apply(preferences.model_copy(update={"discard_feedback": on}))
        self._app.notify(f"Feedback after each discard: {'on' if on else 'off'}.", markup=False)

    def tell_progress_problem(self, problem: str) -> None:
        """The progress store cannot be used (told once per app by the trainer)."""
        self._app.notify(problem, title="Progress", severity="warning", timeout=10,
                         markup=False)

    async def review(self, table: TableController | None) -> None:
        """Review the defense of the game finished on ``table``: each discard with its danger,
        the opponent's hand revealed (the local seats; hot-seat: both)."""
        from minefield.trainer.defense_review import ReviewError
        from minefield.tui.screens.review import ReviewScreen

        if table is None or isinstance(self._app.screen, ReviewScreen):
            return
        try:
            screen = review_screen(table, self.trainer)
        except ReviewError as error:
            self._app.notify(str(error), title="Review", severity="error", markup=False)
            return
        if screen is not None:
            await self._app.push_screen(screen)

    async def stats(self) -> None:
        """The trainer's progress: games, deal-ins, danger over time, drills."""
        from minefield.tui.screens.stats import StatsScreen

        if not isinstance(self._app.screen, StatsScreen):
            summary = self.trainer.progress(self.tell_progress_problem).summary()
            await self._app.push_screen(StatsScreen(summary))

    async def drills(self) -> None:
        """Defense drills: questions from seeded games, each answer saved in your progress."""
        from minefield.tui.screens.drills import DrillsScreen, store_recorder

        if not isinstance(self._app.screen, DrillsScreen):
            store = self.trainer.progress(self.tell_progress_problem)
            await self._app.push_screen(DrillsScreen(store_recorder(store.record_drill),
                                                     store.drill_history))


__all__ = ["TrainerDoors", "review_screen"]
