"""Phase 2: discard from the own pool, one tile a turn (R10), watching both discard rows."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.markup import escape
from textual.widgets import Label, Static

from minefield.protocol.messages import TableView
from minefield.rules.game import DISCARDS_PER_SEAT, POOL_SIZE, Discard, PlayerView, Seat
from minefield.rules.hand import HAND_SIZE
from minefield.rules.tiles import Tile, parse_tiles
from minefield.tui.analysis import analyze_choice, furiten_detail
from minefield.tui.messages import CommandChosen, TurnPassed
from minefield.tui.render import HEIGHT_BREAKPOINTS
from minefield.tui.screens.base import SeatScreen
from minefield.tui.textual_private import SteadyHeader
from minefield.tui.widgets.danger import DangerPanel, shade
from minefield.tui.widgets.footer import FitFooter
from minefield.tui.widgets.log import GameLog, log_lines, with_feedback
from minefield.tui.widgets.panels import (
    DeadWall,
    DiscardRow,
    FuritenPanel,
    WaitPanel,
    wait_entries,
)
from minefield.tui.widgets.phrases import PhraseStatic
from minefield.tui.widgets.scoreboard import Scoreboard
from minefield.tui.widgets.tiles import TileRow, current_honor_names, named

if TYPE_CHECKING:  # the trainer's doors load with the app, never with this module
    from minefield.tui.host import PreferencesSource
    from minefield.tui.trainer_actions import TrainerDoors


def _tiles(texts: list[str]) -> list[Tile]:
    return [Tile.parse(text) for text in texts]


def row_title(name: str, seat: Seat, discards: int) -> str:
    """A discard row's title: the name, then the seat (unless it is the name) and the count.

    >>> row_title("Bot (normal)", Seat.WEST, 3), row_title("West", Seat.WEST, 3)
    ('Bot (normal)\\nWest 3/17', 'West\\n3/17')
    """
    wind = seat.value.title()
    count = f"{discards}/{DISCARDS_PER_SEAT}"
    return f"{escape(name)}\n{count if name == wind else f'{wind} {count}'}"


def public_table(table: TableView) -> TableView:
    """``table`` without anything private of its seat: no tiles, hand, pool or furiten (what a
    play screen built behind the hot-seat curtain is given until its player is at the
    keyboard)."""
    view = table.view.model_copy(update={"own_tiles": "", "own_hand": None, "own_pool": "",
                                         "own_furiten": None})
    return table.model_copy(update={"view": view})


class PlayScreen(SeatScreen):
    """The table for one seat: both discard rows, the own hand and pool, furiten and waits.

    ``trainer``: the defense trainer's doors (its danger overlay, the feedback after each
    discard and its switch, ``d`` and ``f``); ``prefs``: the player's preferences as they are
    now (confirm discards, feedback on). ``hold`` (hot-seat) keeps the screen after the
    player's discard until they pass the keyboard, so they see what their discard did to them
    (R27) before the curtain.
    """

    VERTICAL_BREAKPOINTS = HEIGHT_BREAKPOINTS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Left", show=False),
        Binding("right", "move(1)", "Right", show=False),
        Binding("up", "move_row(-1)", "Up", show=False),
        Binding("down", "move_row(1)", "Down", show=False),
        Binding("space", "select", "Select"),
        Binding("enter", "discard", "Discard"),
        Binding("enter", "pass_turn", "Pass the keyboard"),
        Binding("escape", "app.menu", "Menu"),
        Binding("pagedown", "scroll_lower(1)", "More below"),
        Binding("pageup", "scroll_lower(-1)", "Back up (waits)", show=False),
        Binding("left_square_bracket", "scroll_log(-1)", "Log: earlier lines", show=False),
        Binding("right_square_bracket", "scroll_log(1)", "Log: later lines", show=False),
        Binding("left_curly_bracket", "scroll_reasons(-1)", "Danger reasons: earlier lines",
                show=False),
        Binding("right_curly_bracket", "scroll_reasons(1)", "Danger reasons: later lines",
                show=False),
        Binding("d", "toggle_danger", "Danger"),
        Binding("f", "toggle_feedback", "Feedback"),
    ]

    def __init__(self, view: PlayerView, names: dict[Seat, str], *, trainer: TrainerDoors,
                 prefs: PreferencesSource, hold: bool = False, announce_furiten: bool = True,
                 table: TableView | None = None) -> None:
        super().__init__(view, names, table, prefs=prefs)
        self._doors = trainer
        self.hold = hold
        #: While holding: the discard was made by the clock (R25), not by the player.
        self.clock_moved = False
        self._announce_furiten = announce_furiten
        self.cursor = 0
        #: Whether the pool tile at :attr:`cursor` is selected: not after a refused typed tile
        #: (nor while one is being typed), so that Enter never discards a tile not chosen.
        self.selected = True
        #: With "confirm discards": the pool place whose discard waits for a second press.
        self.armed: int | None = None
        self._pool: list[Tile] = []
        #: Furiten already shown (not new); None: taken from the first view with a hand (a
        #: screen built from :func:`public_table` behind the curtain).
        self._furiten_seen: bool | None = (view.own_furiten is not None
                                           if view.own_hand is not None else None)

    def compose(self) -> ComposeResult:
        yield SteadyHeader()
        yield Scoreboard(id="scoreboard")  # shown in a match (R30)
        with Horizontal(id="topbar"):
            yield PhraseStatic(id="info")
            yield DeadWall(Tile.parse(self.view.dora_indicator))
        view = self.view  # the rows start with their tiles: a screen appears in one styling
        for seat, row_id in ((self.seat.other, "their-discards"), (self.seat, "my-discards")):
            yield DiscardRow(row_title(self.names[seat], seat, len(view.discards[seat])),
                             _tiles(view.discards[seat]), id=row_id)
        with Horizontal(id="play-middle"):
            with Vertical(id="own-tiles"):
                with Horizontal(classes="tile-bar"):
                    yield Label("Hand", classes="row-title")
                    yield TileRow(HAND_SIZE, parse_tiles(view.own_hand or ""), id="hand")
                with Horizontal(classes="tile-bar"):
                    yield Label("Pool", classes="row-title", id="pool-label")
                    yield TileRow(POOL_SIZE, parse_tiles(view.own_pool), id="pool")
            yield GameLog(id="log")
        yield DangerPanel(id="danger")  # the overlay's reasons (its own scroll keys)
        # Never focused: the arrow keys move over the pool (PgDn/PgUp scroll this part).
        with VerticalScroll(id="play-lower", can_focus=False):
            yield PhraseStatic(id="status")
            yield FuritenPanel(id="furiten")
            yield WaitPanel(id="waits")
        yield FitFooter()

    def on_mount(self) -> None:
        self.update_view(self.view)
        self.watch(self.query_one("#pool", TileRow), "cursor", self._show_danger, init=False)

    # -- showing the view ------------------------------------------------------------------------

    def update_view(self, view: PlayerView) -> None:
        """Show a newer view of the same seat."""
        super().update_view(view)
        me, other = self.seat, self.seat.other
        pool = parse_tiles(view.own_pool)
        if pool != self._pool:
            if len(pool) < len(self._pool):  # a discard made: the next turn starts with a
                self.selected = True         # tile selected, as the first one does
            self._pool = pool
            self.cursor = min(self.cursor, max(0, len(pool) - 1))
            self.armed = None
        self.query_one("#pool", TileRow).set_tiles(pool)
        self.query_one("#pool", TileRow).cursor = self._highlighted(view)
        self.query_one("#pool-label", Label).update(f"Pool {len(pool)}")
        self.query_one("#hand", TileRow).set_tiles(parse_tiles(view.own_hand or ""))
        mine = [Tile.parse(t) for t in view.discards[me]]
        theirs = [Tile.parse(t) for t in view.discards[other]]
        self.query_one("#my-discards", DiscardRow).show(
            mine, row_title(self.names[me], me, len(mine)))
        self.query_one("#their-discards", DiscardRow).show(
            theirs, row_title(self.names[other], other, len(theirs)))
        self.query_one(GameLog).show(with_feedback(
            log_lines(view.discards, self.names, {me: view.own_furiten}, view.end),
            self._trainer_notes()))
        self.query_one("#info", Static).update(self._info_text(view))
        cause = view.own_furiten
        self.query_one(FuritenPanel).show(cause, detail=None if cause is None else furiten_detail(
            cause, view.own_hand, self.seat, Tile.parse(view.dora_indicator), view.settings,
            view.terms))
        if self._furiten_seen is None and view.own_hand is not None:
            self._furiten_seen = view.own_furiten is not None
        if view.own_furiten is not None and not self._furiten_seen:
            self._furiten_seen = True
            self.query_one(FuritenPanel).add_class("-new")
            if self._announce_furiten:
                # Practice only: in hot-seat a toast could be seen by the other player.
                # Short: at 80x24 the toast lies over the waits; the cause is on screen.
                self.notify(named(self, f"Your hand can no longer win "
                                        f"({view.own_furiten.tile}, R15)."),
                            title="You are furiten", severity="warning", timeout=10)
        self._show_waits(view, theirs)
        self._show_danger()
        self.set_status(self._status_text(view))
        self.refresh_bindings()
        self.call_after_refresh(self.refresh_bindings)  # "More below" once laid out

    def _highlighted(self, view: PlayerView) -> int | None:
        """The pool place shown selected: none out of turn or when nothing is selected."""
        return self.cursor if view.my_turn and self.selected else None

    def names_changed(self) -> None:
        """Show the new names on the info line."""
        self.query_one("#info", Static).update(self._info_text(self.view))

    def _info_text(self, view: PlayerView) -> str:
        """Two lines that never wrap at 80 columns (a wrapped one moved the table down): the
        players by seat (20 characters a name at most: they fit), then the discards made and
        whose turn it is."""
        me = self.seat
        count = f"discards {view.discards_made}/{2 * DISCARDS_PER_SEAT} · "
        if view.phase == "choosing":
            turn = f"Waiting for {escape(self.names[me.other])} to choose a hand…"
        elif view.my_turn and not self.hold:
            turn = f"{count}[b reverse] Your turn [/] choose a tile to discard"
        elif view.turn is not None:  # the seat is on the line above
            turn = f"{count}{escape(self.names[view.turn])}'s turn"
        else:
            turn = f"{count}the game has ended."

        def who(seat: Seat) -> str:
            name, wind = self.names[seat], seat.value.title()
            return wind if name == wind else f"{escape(name)}: {wind}"

        return f"[b]{who(me)}[/] · {who(me.other)}\n{turn}"

    def _status_text(self, view: PlayerView) -> str:
        if self.hold:
            discarded, other = view.discards[self.seat][-1], self.seat.other.value.title()
            if self.clock_moved:
                return (f"Time ran out: the clock discarded {discarded} for you (R25). Enter "
                        f"passes to {other}.")
            return f"You discarded {discarded}. Press Enter to pass the keyboard to {other}."
        if view.my_turn and self._pool and not self.selected:
            return ("No tile is selected: type one (such as 5p or Wh), or pick one with the "
                    "arrows or Space.")
        if view.my_turn and self._pool:
            tile = self._pool[self.cursor]
            if self.armed == self.cursor:
                return f"Discard {tile}? Enter (or a click on it) again discards it."
            return (f"Selected {tile}: Enter discards it (arrows move; or type a tile such "
                    "as 5p or Wh)")
        return ""

    def _show_waits(self, view: PlayerView, theirs: list[Tile]) -> None:
        panel = self.query_one("#waits", WaitPanel)
        if not view.own_hand:
            panel.set_parts([])
            return
        hand = parse_tiles(view.own_hand)
        analysis = analyze_choice(parse_tiles(view.own_tiles), hand, self.seat,
                                  Tile.parse(view.dora_indicator), theirs, view.settings,
                                  view.terms)
        if not analysis.waits:
            panel.set_parts(["Your hand is not tenpai."])
            return
        names = current_honor_names(self)
        if view.own_furiten is not None:  # R15: no wait can win any more
            panel.set_parts(["Your waits (furiten: none can win, R15):",
                             *wait_entries(analysis.waits, names, furiten=True)])
            return
        panel.set_parts(["Your waits (value without ura):", *wait_entries(analysis.waits, names)])

    def set_status(self, text: str) -> None:
        """Show a one-line message about the current action (honors called as chosen)."""
        self.query_one("#status", Static).update(named(self, text))

    def typing_status(self, text: str) -> None:
        """Show what is being typed (or why it is no tile): nothing stays selected, so the
        Enter that follows discards nothing the player did not choose."""
        self._unselect()
        self.set_status(text)

    def _unselect(self) -> None:
        self.selected = False
        self.armed = None
        self.query_one("#pool", TileRow).cursor = None

    # -- actions ---------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Discarding only on the own turn; passing only while holding (hot-seat)."""
        if action in ("discard", "select"):
            if self.hold:
                return False
            return (self.view.my_turn and bool(self._pool)) or None
        if action == "pass_turn":
            return self.hold
        if action in ("toggle_danger", "toggle_feedback"):
            return self._doors.trainer.aids
        if action == "scroll_lower":
            lower = self.query_one("#play-lower", VerticalScroll)
            more = lower.scroll_y < lower.max_scroll_y if parameters == (1,) else (
                lower.scroll_y > 0)
            return more
        return True

    def action_scroll_lower(self, pages: int) -> None:
        """Scroll the status, furiten and waits when they do not all fit."""
        lower = self.query_one("#play-lower", VerticalScroll)
        if pages > 0:
            lower.scroll_page_down(animate=False)
        else:
            lower.scroll_page_up(animate=False)
        self.call_after_refresh(self.refresh_bindings)

    def action_move(self, delta: int) -> None:
        """Move the selection over the pool."""
        if self._pool and self.view.my_turn:
            self._select(max(0, min(len(self._pool) - 1, self.cursor + delta)))

    def _select(self, index: int, note: str = "") -> None:
        self.cursor = index
        self.selected = True
        self.armed = None
        self.query_one("#pool", TileRow).cursor = index
        self.set_status(self._status_text(self.view) + note)

    def action_select(self) -> None:
        """Select the pool tile under the cursor (it is discarded by Enter, never by Space)."""
        if self._pool and self.view.my_turn:
            self._select(self.cursor)

    def action_scroll_log(self, lines: int) -> None:
        """Scroll the game log by a few lines."""
        self.query_one(GameLog).scroll_relative(y=3 * lines, animate=False)

    def action_scroll_reasons(self, lines: int) -> None:
        """Scroll the danger overlay's reasons by a few lines (the log keeps its place)."""
        self.query_one(DangerPanel).scroll_relative(y=3 * lines, animate=False)

    def action_move_row(self, rows: int) -> None:
        """Move the selection to the pool tile above or below, as the pool is laid out now."""
        self.action_move(rows * self.query_one("#pool", TileRow).columns)

    def action_discard(self) -> None:
        """Discard the selected pool tile (with "confirm discards": at the second press)."""
        if not self.view.my_turn or not self._pool:
            self.set_status("It is not your turn." if self.view.phase == "discarding"
                            else "You cannot discard now.")
            return
        if not self.selected:
            self.set_status(self._status_text(self.view))
            return
        if self.prefs.preferences.confirm_discards and self.armed != self.cursor:
            self.armed = self.cursor
            self.set_status(self._status_text(self.view))
            return
        self.armed = None
        tile = self._pool[self.cursor]
        self.post_message(CommandChosen(self.seat, Discard(tile=str(tile))))

    # -- the defense trainer (its state is the trainer's: screens come and go behind the curtain)

    def _trainer_notes(self) -> dict[int, str]:
        return self._doors.feedback_notes((self.seat,))  # none while feedback is off

    def _show_danger(self) -> None:
        """Shade the pool by danger and explain the highlighted tile (overlay on, own turn)."""
        report = self._doors.trainer.overlay_report(self.view) if not self.hold else None
        shade(self.query_one("#pool", TileRow), self._pool, report)
        tile = (self._pool[self.cursor] if report is not None and self._pool and self.selected
                else None)
        self.query_one(DangerPanel).show(report, tile)
        self.set_class(report is not None, "-danger")

    def action_toggle_danger(self) -> None:
        """Danger overlay on or off: each pool tile shaded, the reasons beside the pool."""
        trainer = self._doors.trainer
        if trainer.aids:
            trainer.overlay = not trainer.overlay
            self._show_danger()

    def action_toggle_feedback(self) -> None:
        """Feedback after each discard (in the game log) on or off; saved."""
        self._doors.toggle_feedback()
        self.query_one(GameLog).show(with_feedback(
            log_lines(self.view.discards, self.names, {self.seat: self.view.own_furiten},
                      self.view.end), self._trainer_notes()))

    def action_pass_turn(self) -> None:
        """Hot-seat: hand the keyboard to the other player."""
        self.post_message(TurnPassed(self.seat))

    def tile_typed(self, tile: Tile) -> None:
        """Typing ``5p`` selects a 5p of the pool."""
        if not self.view.my_turn:
            self.typing_status("It is not your turn.")
            return
        if tile not in self._pool:
            self.typing_status(f"There is no {tile} in your pool.")
            return
        self._select(self._pool.index(tile))

    def on_tile_row_selected(self, event: TileRow.Selected) -> None:
        """A click selects a pool tile; a click on the selected tile discards it."""
        if event.row.id != "pool" or not self.view.my_turn or self.hold:
            return
        if event.index == self.cursor and self.selected:
            self.action_discard()
        else:
            self._select(event.index, " (click again to discard)")

    def clear_private(self) -> None:
        """Empty the hand, pool, furiten, waits and log."""
        for row_id in ("#hand", "#pool"):
            self.query_one(row_id, TileRow).clear()
        self.query_one(FuritenPanel).show(None, hidden=True)
        self.query_one("#waits", WaitPanel).set_parts([])
        self.query_one(GameLog).clear_lines()
        self.query_one(DangerPanel).clear()
        shade(self.query_one("#pool", TileRow), [], None)
        self.set_status("")
        self._pool = []
