"""The replay viewer: a record stepped through discard by discard (``minefield replay FILE``).

Each step is the game replayed up to a discard, kept as both seats' views
(:func:`replay_steps`). What shows is built from those views alone: from one seat, the other
seat's hand and pool stay face down until the end (R26) and only that seat's furiten shows
(R27); "both" shows each seat from its own view. The end adds the ura indicator and the
score breakdown of the result screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.markup import escape
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Static

from minefield.bots.base import player_seat
from minefield.records.format import CommandLine
from minefield.records.header import RecordHeader
from minefield.records.reader import ReadRecord
from minefield.records.replay import Replay
from minefield.records.scoreboard import match_line, settlement_line
from minefield.rules.game import (
    DISCARDS_PER_SEAT,
    TOTAL_DISCARDS,
    Discard,
    Game,
    GameEnded,
    GameTerms,
    PlayerView,
    Seat,
)
from minefield.rules.settings import RuleSettings, chosen_rules, rule_value_words
from minefield.rules.tiles import Tile
from minefield.tui.screens.result import value_lines
from minefield.tui.textual_private import SteadyHeader
from minefield.tui.widgets.footer import KeysFooter
from minefield.tui.widgets.panels import DeadWall, DiscardRow
from minefield.tui.widgets.replay import SeatTiles
from minefield.tui.widgets.tiles import TileRow, named

Perspective = Literal["east", "west", "both"]
#: The order Tab goes through.
PERSPECTIVES: tuple[Perspective, ...] = ("east", "west", "both")


@dataclass(frozen=True, slots=True)
class Step:
    """The game after ``discards`` discards, as each seat sees it."""

    discards: int
    views: dict[Seat, PlayerView]

    def __repr__(self) -> str:
        return f"Step(discards={self.discards}, <tiles hidden>)"


def replay_steps(header: RecordHeader, commands: Sequence[CommandLine]) -> list[Step]:
    """Replay ``commands`` one by one: a step before the first discard (the hands chosen so
    far), then one after each discard. The commands must all be accepted (a consistent
    record's, or the ``applied`` first ones of any)."""
    game = Game(header.seed, header.rules,
                terms=header.match.terms if header.match is not None else GameTerms())
    steps: list[Step] = []

    def keep() -> None:
        views = {seat: game.view(seat) for seat in Seat}
        steps.append(Step(game.discard_count, views))

    for line in commands:
        if isinstance(line.command, Discard) and not steps:
            keep()
        game.apply(line.seat, line.command)
        if isinstance(line.command, Discard):
            keep()
    if not steps:
        keep()
    return steps


def rules_text(settings: RuleSettings, preset: str | None = None) -> str:
    """A preset's name (``standard rules``), or the settings that differ from the standard.
    ``preset`` is the one the players chose (a record's header says it; older records do
    not, and the preset is guessed): rules that equal another preset are still custom, and
    a preset changed back to the standard's settings says what was changed over it.

    >>> rules_text(RuleSettings()), rules_text(RuleSettings(red_fives=True, hand_seconds=60))
    ('standard rules', 'custom rules: red fives on, hand clock 60 s')
    >>> rules_text(RuleSettings(), "beginner")
    'custom rules: beginner with minimum value mangan'
    """
    chosen = chosen_rules(settings, preset)
    if chosen.exact:
        return f"{chosen.preset} rules"
    changed = _changed_words(settings, "standard") or (
        f"{chosen.preset} with {_changed_words(settings, chosen.preset)}")
    return f"custom rules: {changed}"


def _changed_words(settings: RuleSettings, preset: str) -> str:
    """The settings that differ from ``preset``, in words (empty when none do)."""
    base = RuleSettings.preset(preset).model_dump(mode="json")
    return ", ".join(rule_value_words(name, value) for name, value in
                     settings.model_dump(mode="json").items() if value != base[name])


#: A record's mode in words (the record keeps its own word: ``hotseat``).
MODE_WORDS = {"hotseat": "hot-seat"}


def mode_words(mode: str) -> str:
    """``hot-seat`` for a record's ``hotseat``; other modes are words already."""
    return MODE_WORDS.get(mode, mode)


def who(seat: Seat, names: dict[Seat, str]) -> str:
    """``Ann (East)``, or just ``East`` when that is the player's name (plain text)."""
    name, wind = names[seat], seat.value.title()
    return wind if name == wind else f"{name} ({wind})"


def end_text(end: GameEnded, names: dict[Seat, str]) -> str:
    """How the game ended, with the score breakdown of a ron (the result screen's)."""
    if end.result == "ron" and end.winner is not None and end.value is not None:
        loser = end.winner.other
        lines = [f"[b]Ron![/] {escape(who(end.winner, names))} wins on "
                 f"{escape(who(loser, names))}'s "
                 f"{end.win_tile}, discard {end.discard_number} of {TOTAL_DISCARDS}",
                 *value_lines(end.value)]
        return "\n".join(lines)
    return f"[b]Draw[/]: {TOTAL_DISCARDS} discards without a win (R11)"


class ReplayScreen(Screen[None]):
    """A record, step by step, from East's seat, West's seat or with both hands open.

    It opens at the start of a finished game and at the last step of an unfinished one (a
    shared position). The reader's and the replay's problems show as a notice.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # Priority: the scrolling body would take the arrows, Home and End for itself.
        Binding("right,n,space", "step(1)", "Next discard", priority=True),
        Binding("left,p", "step(-1)", "Back", priority=True),
        Binding("home", "jump(False)", "Start", show=False, priority=True),
        Binding("end", "jump(True)", "End", show=False, priority=True),
        Binding("tab", "cycle", "East/West/both", priority=True),
        Binding("e", "see('east')", "From East's seat", show=False),
        Binding("w", "see('west')", "From West's seat", show=False),
        Binding("b", "see('both')", "Both hands open", show=False),
        Binding("enter", "go_to", "Go to the step typed", show=False),
        Binding("q,escape", "close", "Quit"),
    ]

    step: reactive[int] = reactive(0, init=False)
    perspective: reactive[Perspective] = reactive[Perspective]("east", init=False)

    def __init__(self, record: ReadRecord, replay: Replay,
                 perspective: Perspective | None = None, quits: bool = True) -> None:
        super().__init__()
        self._quits = quits  # the viewer of ``minefield replay``: leaving quits the app
        self._typed_step = ""  # digits of a step number to jump to (then Enter)
        self._jump_problem = ""  # why the last number typed was no step (shown once)
        self.header = record.header
        self.record_result = record.result.result if record.result is not None else None
        self.names = record.header.shown_names()
        self.steps = replay_steps(record.header, record.commands[:replay.applied])
        self.notices = [str(problem) for problem in record.problems] + list(replay.problems)
        self.finished = self.steps[-1].views[Seat.EAST].end is not None
        self.set_reactive(ReplayScreen.step, 0 if self.finished else len(self.steps) - 1)
        # By default from the player's seat (a practice game's human, not the bot's), else East.
        self.set_reactive(ReplayScreen.perspective,
                          perspective or ("west" if player_seat(record.header) is Seat.WEST
                                          else "east"))
        self._ura_shown = False
        self._wall = DeadWall(self._dora_indicator())  # replaced when the ura shows or goes
        self.sub_title = f"{who(Seat.EAST, self.names)} vs {who(Seat.WEST, self.names)}"

    def compose(self) -> ComposeResult:
        yield SteadyHeader()
        with Horizontal(id="topbar"):
            yield Static(id="replay-info")
            yield self._wall
        yield DiscardRow("", id="far-discards")
        yield DiscardRow("", id="near-discards")
        with VerticalScroll(id="replay-body"):
            yield Static(self._notice_text(), id="replay-notice",
                         classes="-shown" if self.notices else None)
            yield Static(id="replay-end")
            yield SeatTiles(id="near-seat")
            yield SeatTiles(id="far-seat")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#replay-body").focus()
        self._show()

    # -- what shows ------------------------------------------------------------------------------

    def _dora_indicator(self) -> Tile:
        return Tile.parse(self.steps[0].views[Seat.EAST].dora_indicator)

    def _notice_text(self) -> Content:
        if not self.notices:
            return Content()
        count = len(self.notices)
        # Not markup: a problem may quote the file, brackets and all.
        return Content.assemble(("Notice", "bold"), f": {count} problem"
                                f"{'s' if count != 1 else ''} in this record: ",
                                "; ".join(self.notices))

    def _seats(self) -> tuple[Seat, Seat]:
        """The seat nearest the hands (its discards below the other's), then the other."""
        near = Seat.WEST if self.perspective == "west" else Seat.EAST
        return near, near.other

    def _view_of(self, seat: Seat) -> PlayerView:
        """What shows of ``seat``: its own view with both hands open, else the chosen one's."""
        views = self.steps[self.step].views
        return views[seat] if self.perspective == "both" else views[Seat(self.perspective)]

    def _show(self) -> None:
        step = self.steps[self.step]
        near, far = self._seats()
        view = self._view_of(near)
        latest = Seat.EAST if step.discards % 2 else Seat.WEST  # East discards first (R10)
        for seat, row_id in ((near, "#near-discards"), (far, "#far-discards")):
            tiles = [Tile.parse(text) for text in view.discards[seat]]
            row = self.query_one(row_id, DiscardRow)
            row.show(tiles, f"{escape(self.names[seat])}\n{seat.value.title()} "
                     f"{len(tiles)}/{DISCARDS_PER_SEAT}")
            if tiles and seat is not latest:  # only the game's latest discard is marked
                row.query_one(TileRow).mark(len(tiles) - 1, "-latest", False)
        for seat, panel_id in ((near, "#near-seat"), (far, "#far-seat")):
            self.query_one(panel_id, SeatTiles).show(self._view_of(seat), seat,
                                                     self.names[seat], step.discards)
        end = view.end
        self.set_class(end is not None, "-ended")
        self.query_one("#replay-end", Static).update(
            named(self, self._end_text(end)) if end is not None else "")
        self._show_wall(end)
        self.query_one("#replay-info", Static).update(self._info_text(step, view))
        self.refresh_bindings()

    def _show_wall(self, end: GameEnded | None) -> None:
        """The ura indicator shows only at the end (R18): a wall that showed it is replaced."""
        if (end is not None) == self._ura_shown:
            return
        wall = DeadWall(self._dora_indicator())
        if end is not None:
            wall.reveal_ura(Tile.parse(end.ura_indicator))
        # By reference: a wall removed a moment ago may still be in the DOM when keys come fast.
        self._wall.remove()
        self.query_one("#topbar").mount(wall)
        self._wall, self._ura_shown = wall, end is not None

    def _end_text(self, end: GameEnded) -> str:
        """The end, and for a game of a match what it paid and the points after it."""
        text = end_text(end, self.names)
        stored = self.record_result
        if self.header.match is not None and stored is not None:
            text += "\n" + escape(settlement_line(self.header.match, stored))
        return text

    def caption(self) -> str:
        """What the step shown is, in words (plain text): ``West discards 5p · step 23/34``,
        or the hands being chosen at step 0."""
        step = self.steps[self.step]
        total = len(self.steps) - 1
        if step.discards == 0:
            return f"The hands are chosen · step 0/{total}"
        seat = Seat.EAST if step.discards % 2 else Seat.WEST  # East discards first (R10)
        tile = step.views[seat].discards[seat][-1]
        return f"{who(seat, self.names)} discards {tile} · step {self.step}/{total}"

    def _info_text(self, step: Step, view: PlayerView) -> str:
        where = (f"[b]{named(self, escape(self.caption()))}[/]" if view.phase != "choosing"
                 else "[b]choosing the hands[/]")
        if self.step == len(self.steps) - 1:
            where += " · the end" if self.finished else " · unfinished"
        seen = ("both hands open" if self.perspective == "both"
                else f"seen from {self.perspective.title()}")
        if self._typed_step:
            seen = f"go to step [reverse]{self._typed_step}[/]: Enter (Esc forgets)"
        elif self._jump_problem:
            seen = f"[$text-warning]{self._jump_problem}[/]"
            self._jump_problem = ""
        header = self.header
        match = ("" if header.match is None
                 else "\n" + escape(match_line(header.match, header.rules)))
        return (f"{where}\n{seen} · {mode_words(header.mode)} · "
                f"{header.started:%Y-%m-%d %H:%M} UTC\n"
                f"{rules_text(header.rules, header.preset)} · seed {header.seed}{match}")

    def watch_step(self) -> None:
        self._show()

    def watch_perspective(self) -> None:
        self._show()

    # -- actions ---------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Stepping back at the start or on at the end shows the key greyed out."""
        if action == "step" and parameters and isinstance(parameters[0], int):
            return True if 0 <= self.step + parameters[0] < len(self.steps) else None
        return True

    def on_key(self, event: events.Key) -> None:
        """Digits type a step number to jump to (Enter goes there, Escape forgets it)."""
        if event.character is not None and len(event.character) == 1 and (
                event.character in "0123456789"):
            event.stop()
            self._typed_step = (self._typed_step + event.character)[-3:]
            self._show()
        elif event.key == "escape" and self._typed_step:
            event.stop()
            self._typed_step = ""
            self._show()

    def action_go_to(self) -> None:
        """To the step typed: 0 is the hands chosen, 1 the first discard, up to the last."""
        typed, self._typed_step = self._typed_step, ""
        if not typed:
            return
        last = len(self.steps) - 1
        number = int(typed)
        if number > last:
            self._jump_problem = f"There is no step {number}: the steps are 0 to {last}."
            self._show()
            return
        if number == self.step:
            self._show()
        self.step = number

    def action_close(self) -> None:
        """Back to the list of games, or quit the viewer of ``minefield replay``."""
        if self._quits:
            self.app.exit()
        else:
            self.dismiss()

    def action_step(self, delta: int) -> None:
        """One discard on (1) or back (-1)."""
        self.step = max(0, min(len(self.steps) - 1, self.step + delta))

    def action_jump(self, to_end: bool) -> None:
        """To the first step or the last."""
        self.step = len(self.steps) - 1 if to_end else 0

    def action_see(self, perspective: Perspective) -> None:
        """Show the game from East's seat, West's seat, or with both hands open."""
        self.perspective = perspective

    def action_cycle(self) -> None:
        """The next perspective: East, West, both."""
        self.perspective = PERSPECTIVES[(PERSPECTIVES.index(self.perspective) + 1)
                                        % len(PERSPECTIVES)]

    def __repr__(self) -> str:
        return (f"ReplayScreen(step={self.step}, perspective={self.perspective}, "
                "<tiles hidden>)")


__all__ = ["PERSPECTIVES", "Perspective", "ReplayScreen", "Step", "end_text", "mode_words",
           "replay_steps", "rules_text", "who"]
