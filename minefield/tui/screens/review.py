"""The defense review of a finished game: step through a seat's discards with the danger each
carried then, the opponent's hand revealed, where the seat dealt in and what was safer, and the
danger taken in total against the least that could have been taken.

The estimates (the fast one, for the opponent the seat played against) are computed in a worker
thread, step by step, so the screen answers the keys from the start and fills in as they come.
Everything shown is known at the end of the game (R26): both hands are revealed then. A seat
that made no discard (the game ended on discard 1) has nothing to estimate: the screen says so
and shows the pool it kept.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import Label, Static
from textual.worker import get_current_worker

from minefield.defense.calibration import DEFAULT_OPPONENT, Opponent
from minefield.defense.estimate import estimate_name, feedback, percent
from minefield.rules.game import POOL_SIZE, Seat
from minefield.rules.hand import HAND_SIZE
from minefield.rules.tiles import Tile, kind_str, parse_tiles
from minefield.trainer.build import build_part
from minefield.trainer.defense_review import (
    AssessedStep,
    GameReview,
    ReviewStep,
    assess,
    opponent_of,
    totals,
)
from minefield.trainer.readable import readability, readability_section
from minefield.trainer.regrets import (
    TOP_REGRETS,
    luck_note,
    luck_section,
    regrets,
    regrets_section,
)
from minefield.trainer.sections import Section
from minefield.tui.textual_private import SteadyHeader
from minefield.tui.widgets.danger import shade
from minefield.tui.widgets.footer import KeysFooter
from minefield.tui.widgets.phrases import PhraseStatic, leading_indent
from minefield.tui.widgets.tiles import TileRow, named

#: The review's parts, in the order Tab shows them, and their names on screen.
PARTS = ("discards", "regrets", "luck", "readable", "build")
PART_NAMES = {"discards": "Discards", "regrets": "Your regrets", "luck": "Luck and skill",
              "readable": "Your wait", "build": "The build"}


_BULLET = re.compile(r" *(?:•|\d+\.) ")


def bullet_indent(paragraph: str) -> int:
    """The hanging indent of a review line: a bullet's (``• ``, ``1. ``, after any spaces)
    wrapped lines go on under its text, other lines under their first word.

    >>> bullet_indent("  1. Discard 12, 6s"), bullet_indent("• genbutsu"), bullet_indent("Ron")
    (5, 2, 0)
    """
    bullet = _BULLET.match(paragraph)
    return bullet.end() if bullet is not None else leading_indent(paragraph)


def pool_tiles(step: ReviewStep) -> list[Tile]:
    """The pool the seat chose from at this step, in tile order."""
    counts = step.position.pool_counts
    return [tile for kind, n in enumerate(counts) for tile in [Tile.parse(kind_str(kind))] * n]


def truth_lines(step: ReviewStep, opponent: str) -> list[str]:
    """What really happened at this step (markup): did the discard deal in, which tiles would
    have, or why nothing could."""
    if step.dealt_in:
        lines = [f"[$text-error][b]{step.tile} dealt in here[/b] (R13).[/]"]
    elif step.opponent_furiten:
        return [f"{escape(opponent)} was already furiten: nothing could deal in (R15)."]
    else:
        lines = [f"In truth {step.tile} was safe."]
    safe = [t for t in _kinds(step) if t not in step.deal_ins]
    if step.deal_ins:
        lines.append(f"Would have dealt in: {' '.join(step.deal_ins)}; safe were: "
                     f"{' '.join(safe) or 'none'}.")
    else:
        lines.append("Nothing in the pool would have dealt in.")
    return lines


def section_markup(section: Section, marked: str | None = None) -> str:
    """A part of the review as markup: its title in bold, then its lines after their bullets;
    the line whose bullet is ``marked`` (``"2."``: the regret shown) stands out."""
    lines = [f"[b]{escape(section.title)}[/]"]
    for line in section.lines:
        text = escape(line.prefix + line.text)
        lines.append(f"[reverse]{text}[/]" if marked and line.marker == marked else text)
    return "\n".join(lines)


def _kinds(step: ReviewStep) -> list[str]:
    return [kind_str(k) for k in step.position.pool_kinds]


class ReviewScreen(Screen[None]):
    """The review of one finished game, for each seat in ``reviews`` (hot-seat: both; w
    switches). ``opponent`` is whom the estimate is for (the bot's level in practice, else a
    person); ``names`` says how to call each seat. ``quits`` (the review of a record,
    ``minefield review``): leaving it quits the app."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Earlier discard"),
        Binding("right", "step(1)", "Later discard"),
        Binding("h", "step(-1)", "Earlier discard", show=False),
        Binding("l", "step(1)", "Later discard", show=False),
        Binding("home", "jump(0)", "First", show=False),
        Binding("end", "jump(-1)", "Last", show=False),
        Binding("pagedown", "scroll_detail(1)", "Scroll down", show=False),
        Binding("pageup", "scroll_detail(-1)", "Scroll up", show=False),
        Binding("tab", "part(1)", "Parts", priority=True),
        Binding("shift+tab", "part(-1)", "Previous part", show=False, priority=True),
        Binding("w", "switch_seat", "Other seat"),
        Binding("escape,q", "close", "Back"),
    ]

    def __init__(self, reviews: Mapping[Seat, GameReview], opponent: Opponent = DEFAULT_OPPONENT,
                 names: Mapping[Seat, str] | None = None, seat: Seat | None = None,
                 quits: bool = False) -> None:
        super().__init__()
        if not reviews:
            raise ValueError("a review needs at least one seat")
        self.reviews = dict(reviews)
        self.opponent: Opponent = opponent
        self.names = dict(names) if names else {s: s.value.title() for s in Seat}
        self.seat = seat if seat in self.reviews else next(iter(self.reviews))
        self.index = 0
        self.assessed: dict[Seat, list[AssessedStep]] = {s: [] for s in self.reviews}
        self.sections: dict[Seat, dict[str, Section]] = {s: {} for s in self.reviews}
        #: The steps of the regrets named, most expensive first, and the one shown (the
        #: arrows go from one to the next in the regrets part).
        self.regret_steps: dict[Seat, list[int]] = {s: [] for s in self.reviews}
        self.regret = 0
        self.part = PARTS[0]
        self.done = False
        self._quits = quits

    def compose(self) -> ComposeResult:
        yield SteadyHeader()
        yield PhraseStatic(id="review-info")
        with Horizontal(classes="tile-bar"):
            yield Label("Their hand", classes="row-title", id="review-their-label")
            yield TileRow(HAND_SIZE, id="review-their-hand")
        with Horizontal(classes="tile-bar"):
            yield Label("Your pool", classes="row-title", id="review-pool-label")
            yield TileRow(POOL_SIZE, id="review-pool")
        # Never focused: the arrows step through the discards (PgUp/PgDn scroll this).
        with VerticalScroll(id="review-body", can_focus=False):
            detail = PhraseStatic(id="review-detail")
            detail.hanging = bullet_indent  # a wrapped bullet goes on under its text
            yield detail
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = "Defense review"
        self.run_worker(self._assess_all, thread=True, group="review", exit_on_error=False)
        self.show_step()

    # -- the estimates, in a thread ----------------------------------------------------------

    def _assess_all(self) -> None:
        worker = get_current_worker()
        order = [self.seat, *(s for s in self.reviews if s is not self.seat)]
        for seat in order:
            done = []
            for step in assess(self.reviews[seat], self.opponent,
                               stop=lambda: worker.is_cancelled):
                done.append(step)
                self.app.call_from_thread(self._assessed, seat, step)
            if worker.is_cancelled:
                return
            review = self.reviews[seat]
            read = readability(review, opponent_of(self.names[seat]))
            named = [r.index for r in regrets(done)[:TOP_REGRETS]]
            self.app.call_from_thread(self._regrets, seat, named)
            sections = {"regrets": regrets_section(done),
                        "luck": luck_section(done, review.ron_points),
                        "readable": readability_section(read, self.names[seat.other])}
            self.app.call_from_thread(self._sections, seat, sections)
        for seat in order:  # the hand search is the slow part: every seat's estimates first
            if worker.is_cancelled:
                return
            review = self.reviews[seat]
            sections = {"build": build_part(review)}
            self.app.call_from_thread(self._sections, seat, sections)
        if not worker.is_cancelled:
            self.app.call_from_thread(self._finished)

    def _assessed(self, seat: Seat, step: AssessedStep) -> None:
        if not self.is_attached:
            return  # closed while the estimate was being computed
        self.assessed[seat].append(step)
        if seat is self.seat:
            self.show_step()

    def _regrets(self, seat: Seat, steps: list[int]) -> None:
        if self.is_attached:
            self.regret_steps[seat] = steps

    def _sections(self, seat: Seat, sections: dict[str, Section]) -> None:
        if not self.is_attached:
            return
        self.sections[seat].update(sections)
        if seat is self.seat:
            self.show_step()

    def _finished(self) -> None:
        if not self.is_attached:
            return
        self.done = True
        self.show_step()

    # -- showing a step ----------------------------------------------------------------------

    @property
    def review(self) -> GameReview:
        """The review of the seat shown."""
        return self.reviews[self.seat]

    def current(self) -> AssessedStep | None:
        """The shown step's estimate, once computed."""
        found = self.assessed[self.seat]
        return found[self.index] if self.index < len(found) else None

    def show_step(self) -> None:
        """Show the current step of the current seat."""
        review = self.review
        opponent = self.names[self.seat.other]
        self.query_one("#review-info", Static).update(named(self, self._info()))
        self.query_one("#review-their-label", Label).update(
            f"{escape(opponent)}\nhand" if len(opponent) <= 10 else "Their\nhand")
        self.query_one("#review-their-hand", TileRow).set_tiles(
            parse_tiles(review.opponent_hand or ""))
        pool = self.query_one("#review-pool", TileRow)
        detail = self.query_one("#review-detail", Static)
        if not review.steps:
            pool.set_tiles(parse_tiles(review.end.pools.get(self.seat, "")))
            pool.cursor = None
            if self.part != "discards":
                detail.update(named(self, self.part_text()))
                return
            detail.update(f"{escape(self.names[self.seat])} made no discard: the game ended on "
                          f"discard {review.end.discard_number}, before this seat's first. "
                          "There is no danger to review.")
            return
        step = review.steps[self.index]
        tiles = pool_tiles(step)
        pool.set_tiles(tiles)
        chosen = kind_str(Tile.parse(step.tile).kind)
        names = [kind_str(t.kind) for t in tiles]
        pool.cursor = names.index(chosen) if chosen in names else None
        for index, name in enumerate(names):
            pool.mark(index, "-deals-in", name in step.deal_ins)
        assessed = self.current()
        shade(pool, tiles, assessed.report if assessed else None)
        if self.part == "discards":
            detail.update(named(self, "\n".join(self._detail(step, assessed, opponent))))
        else:
            detail.update(named(self, self.part_text()))

    def part_text(self) -> str:
        """The shown part (not the discards) as markup, or a word that it is coming."""
        section = self.sections[self.seat].get(self.part)
        if section is None:
            return f"[b]{PART_NAMES[self.part]}[/]\nWorking it out…"
        marked = None
        if self.part == "regrets" and self.regret_steps[self.seat]:
            marked = f"{self.regret + 1}."
        return section_markup(section, marked)

    def _info(self) -> str:
        review, seat = self.review, self.seat
        count = len(review.steps)
        me = self.names[seat]
        where = (f"discard {self.index + 1} of {count} · game discard "
                 f"{review.steps[self.index].number}") if count else "no discards"
        waits = " ".join(review.opponent_waits) or "none (not tenpai)"
        done = self.assessed[seat]
        if not count:
            total = "Nothing to estimate: no discards"
        elif len(done) == count:
            taken, least = totals(done)
            total = (f"Danger taken in total [b]{taken:.2f}[/] expected deal-ins, the least "
                     f"possible {least:.2f}")
        else:
            total = f"Estimating the danger… {len(done)}/{count}"
        parts = " · ".join(f"[b]{PART_NAMES[p]}[/]" if p == self.part else PART_NAMES[p]
                           for p in PARTS)
        return (f"[b]{escape(me)}[/] ({seat.value.title()}) · {where} · their waits: {waits}\n"
                f"{total}\n{parts}")

    def _detail(self, step: ReviewStep, assessed: AssessedStep | None,
                opponent: str) -> list[str]:
        lines = []
        if assessed is None:
            lines.append(f"You discarded [b]{step.tile}[/]: estimating its danger…")
        else:
            report = assessed.report
            line = feedback(report, kind_str(Tile.parse(step.tile).kind))
            lines.append(f"[b]{escape(line)}[/]")
            chosen = report.of(kind_str(Tile.parse(step.tile).kind))
            # (a bullet, not the phrase separator ·, which a line may break after)
            lines.extend(f"• {escape(reason)}" for reason in chosen.reasons)
            lines.append(f"[dim]{estimate_name(report.opponent)} · opponent furiten "
                         f"{percent(report.opponent_furiten)}[/]")
        lines.extend(truth_lines(step, opponent))
        note = luck_note(assessed) if assessed is not None else None
        if note is not None:
            lines.append(f"[i]{escape(note)}[/]")
        return lines

    # -- keys --------------------------------------------------------------------------------

    def action_step(self, delta: int) -> None:
        """An earlier or later discard; in the regrets part, the next or the previous regret
        (the pool shows its discard)."""
        steps = self.regret_steps[self.seat]
        if self.part == "regrets" and steps:
            self.regret = max(0, min(len(steps) - 1, self.regret + delta))
            self.index = steps[self.regret]
            self.show_step()
            return
        count = len(self.review.steps)
        if count:
            self.index = max(0, min(count - 1, self.index + delta))
            self.show_step()

    def action_jump(self, index: int) -> None:
        """The first or the last discard."""
        count = len(self.review.steps)
        if count:
            self.index = index % count
            self.show_step()

    def action_part(self, delta: int) -> None:
        """The next or the previous part of the review (the discards, the regrets, ...)."""
        self.part = PARTS[(PARTS.index(self.part) + delta) % len(PARTS)]
        steps = self.regret_steps[self.seat]
        if self.part == "regrets" and steps:
            self.regret = min(self.regret, len(steps) - 1)
            self.index = steps[self.regret]  # the pool shows the regret's discard
        self.query_one("#review-body", VerticalScroll).scroll_home(animate=False)
        self.show_step()

    def action_scroll_detail(self, pages: int) -> None:
        """Scroll the explanation when it does not fit."""
        body = self.query_one("#review-body", VerticalScroll)
        if pages > 0:
            body.scroll_page_down(animate=False)
        else:
            body.scroll_page_up(animate=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The other seat only when both are reviewed (hot-seat)."""
        if action == "switch_seat":
            return len(self.reviews) > 1
        return True

    def action_switch_seat(self) -> None:
        """Review the other seat's discards (hot-seat: both are revealed at the end)."""
        if len(self.reviews) > 1:
            self.seat = self.seat.other
            self.index = self.regret = 0
            steps = self.regret_steps[self.seat]
            if self.part == "regrets" and steps:
                self.index = steps[0]
            self.show_step()

    def action_close(self) -> None:
        """Back to the result (or quit the review of a record)."""
        self.workers.cancel_group(self, "review")
        if self._quits:
            self.app.exit()
        else:
            self.dismiss()

    def __repr__(self) -> str:
        return f"ReviewScreen(seat={self.seat.value}, <shown only after the end>)"


__all__ = ["PARTS", "PART_NAMES", "ReviewScreen", "bullet_indent", "pool_tiles", "section_markup",
           "truth_lines"]
