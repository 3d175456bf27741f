"""Watching two bots play (the menu's "Watch"): a way to see defense done and to learn what the
danger numbers mean.

The form (:class:`WatchSetupScreen`) chooses each seat's bot level, the pace, whether the hands
are shown and the rules. The table (:class:`WatchScreen`) plays the game at that pace (Space
pauses, ``n`` or Right plays one move, ``+`` and ``-`` change the pace, ``h`` shows or hides the
hands, ``d`` the danger). The bots play through :class:`~minefield.bots.bot_match.WatchedGame`,
each with its own view only. What shows:

* always: both discard rows, the dead wall, each discard with the chance the discarder's own
  estimate gave it, and at the end the result, both hands (R26) and, when a discard dealt in,
  what the estimate said of it;
* with the hands shown: both hands and pools as their seats see them, and the danger overlay of
  the seat about to discard (its pool shaded, the safest tiles named);
* with the hands hidden: nothing of a hand or a pool until the end, so no tile of a pool is
  named before it is discarded (the overlay then says only which seat is to discard).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.markup import escape
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Button, Label, Select, Static
from textual.worker import Worker, WorkerState

from minefield.bots.base import LEVELS, Bot, Level, bot_name
from minefield.bots.bot_match import WatchedGame, deal_in_text
from minefield.defense.estimate import percent
from minefield.rules.game import DISCARDS_PER_SEAT, TOTAL_DISCARDS, ChooseHand, Discard, Seat
from minefield.rules.presets import PRESETS
from minefield.rules.seed import derive_int, parse_seed, random_seed
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import Tile
from minefield.tui.screens.dialogs import FORM_FOCUS_KEYS
from minefield.tui.screens.replay import end_text
from minefield.tui.textual_private import SteadyHeader
from minefield.tui.widgets.danger import SAFEST_SHOWN, shade
from minefield.tui.widgets.footer import KeysFooter
from minefield.tui.widgets.log import GameLog
from minefield.tui.widgets.panels import DeadWall, DiscardRow
from minefield.tui.widgets.replay import SeatTiles
from minefield.tui.widgets.tiles import TileRow, named

#: Seconds between two moves (then the bot thinks), slowest last.
PACES = (0.25, 0.5, 1.0, 2.0, 4.0)
DEFAULT_PACE = 1.0
#: The ``(label, value)`` choices of the hands on the form.
HANDS = (("hidden until the end (as a spectator)", False),
         ("shown (both hands and pools, and the danger overlay)", True))


@dataclass(frozen=True, slots=True)
class WatchChoice:
    """What the form chose: each seat's bot level, seconds per move, hands shown, rules."""

    east: Level
    west: Level
    pace: float = DEFAULT_PACE
    shown: bool = False
    rules: str = "standard"


def pace_text(seconds: float) -> str:
    """``1 s per move``, ``0.25 s per move``.

    >>> pace_text(1.0), pace_text(0.25)
    ('1 s per move', '0.25 s per move')
    """
    return f"{seconds:g} s per move"


class WatchSetupScreen(ModalScreen[WatchChoice | None]):
    """Before the bots play: their levels, the pace, the hands and the rules."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "start", "Start"),
        Binding("escape", "cancel", "Back"),
        *FORM_FOCUS_KEYS,
    ]

    def __init__(self, level: Level = "normal", rules: str = "standard") -> None:
        super().__init__()
        self._level: Level = level
        self._rules = rules

    def compose(self) -> ComposeResult:
        with Vertical(id="new-game-box"):
            yield Static("Watch two bots play", classes="dialog-title")
            with Grid(id="new-game-grid"):
                yield Label("East bot")
                # Compact, as the new game form's: a form row is one line (a full Select is
                # three, and the grid's one-line rows hid every value).
                yield Select([(lv, lv) for lv in LEVELS], value="strong", allow_blank=False,
                             id="east", compact=True)
                yield Label("West bot")
                yield Select([(lv, lv) for lv in LEVELS], value=self._level,
                             allow_blank=False, id="west", compact=True)
                yield Label("Pace")
                yield Select([(pace_text(p), p) for p in PACES], value=DEFAULT_PACE,
                             allow_blank=False, id="pace", compact=True)
                yield Label("Hands")
                yield Select(HANDS, value=False, allow_blank=False, id="shown", compact=True)
                yield Label("Rules")
                yield Select([(name, name) for name in PRESETS], value=self._rules,
                             allow_blank=False, id="rules", compact=True)
            with Horizontal(classes="buttons"):
                yield Button("Start", id="start", variant="primary", compact=True)
                yield Button("Back", id="back", compact=True)
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#east", Select).focus()  # the first field; s or Start starts

    def choice(self) -> WatchChoice:
        """The choice the form shows now."""
        def level(select_id: str) -> Level:
            value = self.query_one(select_id, Select).value
            return next((lv for lv in LEVELS if lv == value), self._level)

        pace = self.query_one("#pace", Select).value
        return WatchChoice(east=level("#east"), west=level("#west"),
                           pace=pace if isinstance(pace, float) else DEFAULT_PACE,
                           shown=self.query_one("#shown", Select).value is True,
                           rules=str(self.query_one("#rules", Select).value))

    def action_start(self) -> None:
        """Watch the game chosen."""
        self.dismiss(self.choice())

    def action_cancel(self) -> None:
        """Back to the menu."""
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_cancel()


class WatchScreen(Screen[None]):
    """Two bots playing one game on the table, at the chosen pace.

    ``bots`` are the two seats' bots (built by the app from the levels chosen, each with a
    seed derived from the game's). ``seed`` is the game's (random when None); ``paused``
    starts it paused.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "pause", "Pause"),
        Binding("n,right", "step", "Step"),
        Binding("plus,equals_sign", "pace(-1)", "Faster"),
        Binding("minus", "pace(1)", "Slower"),
        Binding("h", "toggle_hands", "Hands"),
        Binding("d", "toggle_danger", "Danger", show=False),
        Binding("a", "again", "Another game"),
        Binding("pagedown", "scroll_body(1)", "Scroll down", show=False),
        Binding("pageup", "scroll_body(-1)", "Scroll up", show=False),
        Binding("escape,q", "close", "Back"),
    ]

    def __init__(self, choice: WatchChoice, bots: dict[Seat, Bot],
                 seed: int | str | None = None, paused: bool = False,
                 again: Callable[[WatchChoice], Awaitable[None]] | None = None) -> None:
        super().__init__()
        self._again = again  # another game of the choice as it is now (the menu's doors)
        self.choice = choice
        self.seed = parse_seed(seed) if seed is not None else random_seed()
        self.watched = WatchedGame(self.seed, bots, RuleSettings.preset(choice.rules))
        self.names = {Seat.EAST: bot_name(choice.east), Seat.WEST: bot_name(choice.west)}
        self.pace = choice.pace
        self.shown = choice.shown
        self.danger = True
        self.paused = paused  # paused from the start: n plays the first move
        self._thinking = False
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield SteadyHeader()
        with Horizontal(id="topbar"):
            yield Static(id="watch-info")
            yield DeadWall(Tile.parse(self.watched.view(Seat.EAST).dora_indicator))
        yield DiscardRow("", id="far-discards")
        yield DiscardRow("", id="near-discards")
        with Horizontal(id="watch-middle"):
            with VerticalScroll(id="watch-body", can_focus=False):
                yield Static(id="watch-danger")
                yield Static(id="watch-end")
                yield SeatTiles(id="watch-mover")
                yield SeatTiles(id="watch-other")
            yield GameLog(id="watch-log")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = (f"watching {self.names[Seat.EAST]}, East v "
                          f"{self.names[Seat.WEST]}, West")
        self.show()
        self._schedule()

    # -- the game, move by move ------------------------------------------------------------------

    def _schedule(self, delay: float | None = None) -> None:
        """The next move after the pace (or ``delay``), unless paused or over."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.paused or self.watched.over:
            return
        self._timer = self.set_timer(self.pace if delay is None else delay, self._move)

    def _move(self) -> None:
        """Ask the bot to act, in a thread (a strong bot thinks a while)."""
        self._timer = None
        if self._thinking or self.watched.over:
            return
        self._thinking = True
        self.run_worker(self.watched.decide, thread=True, group="watch", exit_on_error=False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "watch" or event.state not in (WorkerState.SUCCESS,
                                                                  WorkerState.ERROR):
            return
        self._thinking = False
        if not self.is_attached:
            return
        if event.state == WorkerState.ERROR:
            # The bot failed: its error's text may name its tiles, so only its type is told.
            name = type(event.worker.error).__name__
            self.paused = True
            self.query_one("#watch-danger", Static).update(
                f"[$text-error]The bot failed ({name}); the game is paused.[/]")
            return
        result = event.worker.result
        if isinstance(result, tuple) and len(result) == 2:
            seat, command = result
            if isinstance(seat, Seat) and isinstance(command, ChooseHand | Discard):
                self.watched.play(seat, command)
        self.show()
        self._schedule()

    # -- what shows ------------------------------------------------------------------------------

    def show(self) -> None:
        """Draw the table from the game's public state and, when shown, the seats' views."""
        watched, game = self.watched, self.watched.game
        view = watched.view(Seat.EAST)  # the discard rows are public
        for seat, row_id in ((Seat.WEST, "#far-discards"), (Seat.EAST, "#near-discards")):
            tiles = [Tile.parse(t) for t in view.discards[seat]]
            self.query_one(row_id, DiscardRow).show(
                tiles, f"{escape(self.names[seat])}\n{seat.value.title()} "
                f"{len(tiles)}/{DISCARDS_PER_SEAT}")
        end = game.result
        mover = watched.to_act()
        near = mover or Seat.EAST
        for seat, panel_id in ((near, "#watch-mover"), (near.other, "#watch-other")):
            # Shown: each seat as it sees itself. Hidden: as the other seat sees it (face
            # down until the end, R26), so nothing private is ever on screen.
            seen_by = seat if self.shown else seat.other
            self.query_one(panel_id, SeatTiles).show(watched.view(seen_by), seat,
                                                     self.names[seat], game.discard_count)
        report = watched.report() if self.danger else None
        if self.shown and mover is not None:
            pool_row = self.query_one("#watch-mover", SeatTiles).query_one(".replay-pool",
                                                                          TileRow)
            shade(pool_row, pool_row.tiles, report)
        for seat_id in ("#watch-other",) if self.shown else ("#watch-mover", "#watch-other"):
            row = self.query_one(seat_id, SeatTiles).query_one(".replay-pool", TileRow)
            shade(row, [], None)
        self.query_one("#watch-danger", Static).update(named(self, self._danger_text(mover)))
        self.set_class(end is not None, "-ended")
        self.query_one("#watch-end", Static).update(
            named(self, self._end_text()) if end is not None else "")
        self.query_one(GameLog).show(self._log_lines())
        self.query_one("#watch-info", Static).update(self._info_text(mover))
        self.refresh_bindings()

    def _info_text(self, mover: Seat | None) -> str:
        game = self.watched.game
        if game.phase == "choosing":
            where = "the bots are choosing their hands"
        elif mover is not None:
            where = (f"{mover.value.title()} to discard · discard {game.discard_count + 1} "
                     f"of {TOTAL_DISCARDS}")
        else:
            where = f"the game has ended · {game.discard_count} discards"
        state = "paused" if self.paused and not self.watched.over else pace_text(self.pace)
        hands = "hands shown" if self.shown else "hands hidden"
        return (f"[b]{where}[/]\n{state} · {hands} · "
                f"{self.choice.rules} rules\nseed {self.seed}")

    def _danger_text(self, mover: Seat | None) -> str:
        """The overlay's words: the seat to discard and, when its hands are shown, its
        safest tiles; else how the last discard looked to its discarder."""
        if not self.danger or self.watched.over:
            return ""
        lines = []
        if mover is not None and self.watched.game.phase == "discarding":
            who = f"{mover.value.title()} ({escape(self.names[mover])})"
            report = self.watched.report()
            if self.shown and report is not None:
                ranked = sorted(report.tiles, key=lambda t: (t.danger, t.loss))[:SAFEST_SHOWN]
                lines.append(f"[b]{who} to discard[/]: its pool shaded by danger; safest "
                             + " · ".join(f"{t.tile} {percent(t.danger)}" for t in ranked))
            else:
                lines.append(f"[b]{who} to discard[/] (its pool is hidden: show the hands "
                             "with h to see its danger overlay)")
        last = next((m for m in reversed(self.watched.moves)
                     if isinstance(m.command, Discard)), None)
        if last is not None and last.danger is not None:
            assert isinstance(last.command, Discard)
            lines.append(f"{last.seat.value.title()} discarded {last.command.tile}: "
                         f"{percent(last.danger)} by its own estimate")
        return "\n".join(lines)

    def _end_text(self) -> str:
        end = self.watched.game.result
        assert end is not None
        text = end_text(end, self.names)
        dealt = next((m for m in reversed(self.watched.moves) if m.dealt_in), None)
        if dealt is not None:
            said = deal_in_text(dealt, f"{dealt.seat.value.title()} ({self.names[dealt.seat]})")
            if said:
                text += "\n" + escape(said)
        return text + "\n[dim]a: another game with the same bots · Escape: the menu[/]"

    def _log_lines(self) -> list[str]:
        lines = []
        number = 0
        for move in self.watched.moves:
            if not isinstance(move.command, Discard):
                continue
            number += 1
            danger = f" [dim]{percent(move.danger)}[/]" if move.danger is not None else ""
            lines.append(f"{number:>2} {move.seat.value.title()} [b]{move.command.tile}[/]"
                         f"{danger}")
            if move.dealt_in:
                lines.append("   [$text-error][b]ron![/b][/]")
        return lines

    # -- keys ------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Grey out what cannot be done now (one move while playing, the pace at its ends);
        once the game has ended, pause, step and pace go and another game (``a``) comes."""
        if action in ("pause", "step", "pace") and self.watched.over:
            return False
        if action == "step":
            return self.paused or None
        if action == "pace" and parameters and isinstance(parameters[0], int):
            index = PACES.index(self.pace) + parameters[0]
            return (0 <= index < len(PACES)) or None
        if action == "again":
            return self.watched.over
        return True

    def action_scroll_body(self, pages: int) -> None:
        """Scroll the seats and the end when they do not fit."""
        body = self.query_one("#watch-body", VerticalScroll)
        if pages > 0:
            body.scroll_page_down(animate=False)
        else:
            body.scroll_page_up(animate=False)

    def action_pause(self) -> None:
        """Pause, or play on at the pace."""
        self.paused = not self.paused
        self._schedule()
        self.show()

    def action_step(self) -> None:
        """While paused: the next move now."""
        if self.paused:
            self._move()

    def action_pace(self, change: int) -> None:
        """Faster (-1) or slower (+1)."""
        index = max(0, min(len(PACES) - 1, PACES.index(self.pace) + change))
        self.pace = PACES[index]
        self._schedule()
        self.show()

    def action_toggle_hands(self) -> None:
        """Show both hands and pools (and the danger overlay on them), or hide them."""
        self.shown = not self.shown
        self.show()

    def action_toggle_danger(self) -> None:
        """The danger overlay on or off."""
        self.danger = not self.danger
        self.show()

    async def action_again(self) -> None:
        """Another game between the same levels (a new seed)."""
        if self.watched.over and self._again is not None:
            await self._again(replace(self.choice, pace=self.pace, shown=self.shown))

    def action_close(self) -> None:
        """Back to the menu (the bots stop)."""
        if self._timer is not None:
            self._timer.stop()
        self.workers.cancel_group(self, "watch")
        self.dismiss()

    def __repr__(self) -> str:
        return f"WatchScreen({self.watched!r})"


def make_bots(choice: WatchChoice, seed: int | str,
              factory: Callable[[str, int], Bot]) -> dict[Seat, Bot]:
    """The two bots of ``choice``, each with a seed derived from the game's (so a game and
    its bots are the same for the same seed, and neither bot's seed reveals the deal)."""
    canonical = parse_seed(seed)
    return {Seat.EAST: factory(choice.east, derive_int(canonical, "watch east")),
            Seat.WEST: factory(choice.west, derive_int(canonical, "watch west"))}


__all__ = ["PACES", "WatchChoice", "WatchScreen", "WatchSetupScreen", "make_bots", "pace_text"]
