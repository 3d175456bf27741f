"""Defense drills (:mod:`minefield.trainer.drills`): pick a kind and a difficulty (or let the
spaced repetition choose; a new choice makes a new drill at once), answer with the keyboard,
see the explanation at once and the truth after it. Each answer is saved in the progress store.
Kinds and patterns are shown in words (:func:`~minefield.trainer.drills.kind_words`).

Answers are typed in the answer line: a tile (``5p``, safest), the kinds you think the opponent
waits on (``2p 5p``, read_wait), ``y`` or ``n`` (is_mangan), or 13 tiles (safe_hand). A drill
is built from seeded bot games, which takes a moment: it is made in a worker thread. "From my
games" asks again the positions of the player's saved games that cost the most expected points
(:mod:`minefield.trainer.game_drills`); without any, it says so in one line.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import Input, Label, Select, Static
from textual.worker import Worker, WorkerState

from minefield.defense.estimate import percent
from minefield.rules.seed import derive_seed, parse_seed
from minefield.rules.tiles import kind_str, tiles_to_str
from minefield.trainer.drill_answers import DrillAnswer, DrillTruth, answer_text
from minefield.trainer.drill_schedule import Scheduler
from minefield.trainer.drills import (
    DIFFICULTIES,
    KINDS,
    Drill,
    DrillError,
    kind_words,
    make_drill,
    pattern_words,
    reader_lines,
)
from minefield.trainer.game_drills import (
    FROM_GAMES,
    GameDrill,
    NoGameDrills,
    answer_game_drill,
    next_game_drill,
)
from minefield.trainer.progress import ProgressError
from minefield.trainer.progress_records import DrillRecord
from minefield.trainer.wait_drill import PATTERN as WAIT_PATTERN
from minefield.tui.screens.dialogs import FORM_FOCUS_KEYS
from minefield.tui.textual_private import OrderedInput, SteadyHeader
from minefield.tui.widgets.footer import KeysFooter
from minefield.tui.widgets.phrases import PhraseStatic
from minefield.tui.widgets.tiles import named

#: The kind choice that lets the spaced repetition pick (patterns missed come back sooner).
DUE = "due"
#: What each kind asks for, as the answer line's placeholder.
PLACEHOLDERS = {
    "safest": "type the safest tile of your pool, e.g. 9p or E, then Enter",
    "read_wait": "type the kinds you think they wait on, e.g. 2p 5p Wh, then Enter",
    "is_mangan": "y (the ron is allowed) or n, then Enter",
    "safe_hand": "type your 13 tiles, e.g. 123m456p789s E E S S, then Enter",
}

Recorder = Callable[[DrillRecord], str | None]
HistoryReader = Callable[[], Sequence[DrillRecord]]


def drill_lines(drill: Drill) -> list[str]:
    """What the trainee may see of a drill (R26), as markup lines."""
    lines = [f"[dim]{escape(kind_words(drill.kind))} · {drill.difficulty}[/]"]
    lines += [f"[b]{escape(line)}[/]" for line in drill.prompt]
    position = drill.position
    if position is not None:
        pool = " ".join(kind_str(k) * 1 for k in position.pool_kinds
                        for _ in range(position.pool_counts[k]))
        lines += [f"Your hand: {position.hand}", f"Your pool: {pool}"]
        lines += [escape(line) for line in reader_lines(position)]
    elif drill.tiles is not None:
        lines.append(f"Your 34 tiles: {tiles_to_str(list(drill.tiles))}")
    return lines


def truth_lines(truth: DrillTruth) -> list[str]:
    """The truth an answer reveals, as markup lines."""
    lines = ["[b]The truth[/]"]
    if truth.opponent_hand is not None:
        lines.append(f"Their hand {truth.opponent_hand}, waits "
                     f"{' '.join(truth.opponent_waits) or 'none'}")
        lines.append(f"Would deal in: {' '.join(truth.deal_ins) or 'nothing'}")
    if truth.report is not None:
        # A readable wait's truth is the opponent's view of their own pool then.
        label = "Their view of their pool" if truth.pattern == WAIT_PATTERN else "Estimates"
        lines.append(f"{label}: " + " · ".join(
            f"{t.tile} {percent(t.danger)}" for t in sorted(truth.report.tiles,
                                                           key=lambda t: t.danger)))
    if truth.allowed is not None:
        lines.append(f"The ron is {'allowed' if truth.allowed else 'not allowed'} (R14).")
    if truth.best is not None:
        lines.append(f"The bot's best hand: {truth.best.hand}")
    lines.append(f"[dim]Pattern: {escape(pattern_words(truth.pattern))}[/]")
    return lines


def answer_lines(result: DrillAnswer) -> list[str]:
    """The verdict and the explanation at once, then the truth."""
    verdict = ("[$text-success][b]Right[/b][/]" if result.correct
               else "[$text-error][b]Not right[/b][/]")
    lines = [f"{verdict} · score {result.score:.0%}"]
    lines += [escape(line) for line in result.explanation]
    return [*lines, "", *truth_lines(result.truth)]


class DrillsScreen(Screen[None]):
    """One drill at a time: the question, the answer line, then the explanation and the truth.

    ``record`` saves an answer (returns a problem to show, or None); ``history`` gives the
    answers so far (the spaced repetition replays them). ``seed`` makes the drills
    reproducible (tests); without it each drill has a random one.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+n", "next_drill", "Next drill", priority=True),
        Binding("escape", "close", "Back"),
        Binding("pagedown", "scroll_body(1)", "Scroll down", show=False),
        Binding("pageup", "scroll_body(-1)", "Scroll up", show=False),
        *FORM_FOCUS_KEYS,
    ]

    def __init__(self, record: Recorder, history: HistoryReader,
                 seed: int | str | None = None) -> None:
        super().__init__()
        self._record = record
        self._history = history
        self._seed = parse_seed(seed) if seed is not None else None
        self._count = 0
        self.drill: Drill | GameDrill | None = None
        self.result: DrillAnswer | None = None
        self._made_with: tuple[str, str] | None = None
        self._answer_text: str | None = None  # the verdict shown, in mpsz (named when shown)

    def compose(self) -> ComposeResult:
        yield SteadyHeader()
        with Horizontal(id="drill-choice"):
            yield Label("Kind", classes="drill-label")
            yield Select([("Due (spaced repetition)", DUE), *((kind_words(k), k) for k in KINDS),
                          (kind_words(FROM_GAMES), FROM_GAMES)],
                         value=DUE, allow_blank=False, id="drill-kind")
            yield Label("Level", classes="drill-label")
            yield Select([(d, d) for d in DIFFICULTIES], value="intermediate",
                         allow_blank=False, id="drill-difficulty")
        with VerticalScroll(id="drill-body", can_focus=False):
            # The verdict goes above the question once answered, where it is seen first.
            yield PhraseStatic(id="drill-answer")
            yield PhraseStatic(id="drill-question")
        yield OrderedInput(placeholder="", id="drill-input")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = "Defense drills"
        self.query_one("#drill-input", Input).focus()
        self.action_next_drill()

    def on_select_changed(self, event: Select.Changed) -> None:
        """A new kind or level applies at once: the next drill is made with it."""
        event.stop()
        if self.is_mounted and self._choice() != self._made_with:
            self.action_next_drill()

    def _choice(self) -> tuple[str, str]:
        return (str(self.query_one("#drill-kind", Select).value),
                str(self.query_one("#drill-difficulty", Select).value))

    # -- making a drill ----------------------------------------------------------------------

    def _next_seed(self) -> str:
        self._count += 1
        if self._seed is None:
            return f"{secrets.randbits(128):032x}"
        return derive_seed(self._seed, "drill screen", self._count)

    def action_next_drill(self) -> None:
        """A new drill of the chosen kind and difficulty (or the one due)."""
        kind, difficulty = self._made_with = self._choice()
        seed = self._next_seed()
        self.drill = None
        self.result = None
        self._answer_text = None
        self.query_one("#drill-question", Static).update("Making a drill…")
        self.query_one("#drill-answer", Static).update("")
        self.query_one("#drill-answer").remove_class("-shown")
        self.query_one("#drill-input", Input).value = ""
        self.workers.cancel_group(self, "drill")
        self.run_worker(lambda: self._make(kind, difficulty, seed), thread=True,
                        group="drill", exit_on_error=False)

    def _make(self, kind: str, difficulty: str, seed: str) -> Drill | GameDrill:
        if kind == FROM_GAMES:  # the player's own positions, whatever the level
            return next_game_drill(self._history())
        if kind == DUE:
            return Scheduler(self._history(), seed).next_drill(difficulty)
        return make_drill(kind, seed, difficulty)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "drill":
            return
        if event.state == WorkerState.SUCCESS and isinstance(event.worker.result,
                                                             Drill | GameDrill):
            self._show_drill(event.worker.result)
        elif event.state == WorkerState.ERROR:
            error = event.worker.error
            if isinstance(error, NoGameDrills):  # said in one line, as it is
                self.query_one("#drill-question", Static).update(escape(str(error)))
                return
            reason = str(error) if isinstance(error, DrillError) else type(error).__name__
            self.query_one("#drill-question", Static).update(
                f"No drill could be made ({escape(reason)}). Ctrl+N tries another.")

    def _show_drill(self, drill: Drill | GameDrill) -> None:
        self.drill = drill
        self.query_one("#drill-question", Static).update(
            named(self, "\n".join(drill_lines(_shown(drill)))))
        field = self.query_one("#drill-input", Input)
        field.placeholder = (drill.placeholder if isinstance(drill, GameDrill)
                             else PLACEHOLDERS[drill.kind])
        field.focus()

    # -- answering ---------------------------------------------------------------------------

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if self.result is not None or (self.drill is None and not text):
            self.action_next_drill()  # Enter after an answer: the next drill
            return
        if self.drill is None:
            return
        try:
            # E, Wh or 東 are tiles as 1z is
            result = (answer_game_drill(self.drill, text) if isinstance(self.drill, GameDrill)
                      else answer_text(self.drill, text))
        except DrillError as error:
            self._say(escape(str(error)))
            return
        self.result = result
        lines = answer_lines(result)
        problem = self._record(result.record())
        if problem:
            lines.append(f"[$text-warning]{escape(problem)}[/]")
        lines.append("[dim]Enter or Ctrl+N: the next drill[/]")
        self._answer_text = "\n".join(lines)
        self.query_one("#drill-answer", Static).update(named(self, self._answer_text))
        event.input.value = ""
        self.query_one("#drill-answer").add_class("-shown")
        self.query_one("#drill-body", VerticalScroll).scroll_home(animate=False)

    def honors_renamed(self) -> None:
        """The Honor names setting changed: the question and the answer name them anew."""
        if not self.is_mounted:
            return
        if self.drill is not None:
            self.query_one("#drill-question", Static).update(
                named(self, "\n".join(drill_lines(_shown(self.drill)))))
        if self._answer_text is not None:
            self.query_one("#drill-answer", Static).update(named(self, self._answer_text))

    def _say(self, text: str) -> None:
        answer_area = self.query_one("#drill-answer", Static)
        answer_area.update(named(self, text))
        answer_area.add_class("-shown")

    def action_scroll_body(self, pages: int) -> None:
        """Scroll the question and the answer (the answer line keeps the keys)."""
        body = self.query_one("#drill-body", VerticalScroll)
        if pages > 0:
            body.scroll_page_down(animate=False)
        else:
            body.scroll_page_up(animate=False)

    def action_close(self) -> None:
        """Back to the menu."""
        self.workers.cancel_group(self, "drill")
        self.dismiss()


def _shown(drill: Drill | GameDrill) -> Drill:
    """What the trainee sees of a drill (a drill of their games shows its position)."""
    return drill.drill if isinstance(drill, GameDrill) else drill


def store_recorder(record_drill: Callable[[DrillRecord], int]) -> Recorder:
    """A recorder that saves with ``record_drill`` and turns its failure into a message."""
    def record(drill: DrillRecord) -> str | None:
        try:
            record_drill(drill)
        except ProgressError as error:
            return f"This answer is not saved: {error}"
        return None
    return record


__all__ = ["DUE", "DrillsScreen", "answer_lines", "drill_lines", "store_recorder",
           "truth_lines"]
