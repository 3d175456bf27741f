"""Phase 1: choose 13 of the 34 dealt tiles (R7), with a live analysis of the choice."""

from __future__ import annotations

from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.markup import escape
from textual.widgets import Label, Static

from minefield.protocol.messages import TableView
from minefield.rules.game import ChooseHand, PlayerView, Seat
from minefield.rules.hand import HAND_SIZE
from minefield.rules.tiles import Tile, parse_tiles, tiles_to_str
from minefield.tui.analysis import HandAnalysis, analyze_choice
from minefield.tui.games import HintSource
from minefield.tui.host import PreferencesSource
from minefield.tui.messages import CommandChosen, DraftChanged
from minefield.tui.render import HEIGHT_BREAKPOINTS
from minefield.tui.screens.base import SeatScreen
from minefield.tui.screens.dialogs import ConfirmScreen
from minefield.tui.textual_private import SteadyHeader
from minefield.tui.widgets.footer import FitFooter
from minefield.tui.widgets.panels import AnalysisPanel, DeadWall
from minefield.tui.widgets.scoreboard import Scoreboard
from minefield.tui.widgets.tiles import TileRow, named


class HandBuilderScreen(SeatScreen):
    """Pick 13 tiles by keyboard (move and toggle, or type ``5p``) or by clicking."""

    VERTICAL_BREAKPOINTS = HEIGHT_BREAKPOINTS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Left", show=False),
        Binding("right", "move(1)", "Right", show=False),
        Binding("up", "move_row(-1)", "Up", show=False),
        Binding("down", "move_row(1)", "Down", show=False),
        Binding("space", "toggle_tile", "Toggle"),
        Binding("backspace", "undo", "Undo"),
        Binding("x", "clear", "Clear"),
        Binding("i", "use_hint", "Hint"),
        Binding("enter", "confirm", "Confirm"),
        Binding("escape", "app.menu", "Menu"),
        Binding("pagedown", "scroll_analysis(1)", "More below"),
        Binding("pageup", "scroll_analysis(-1)", "Back up (analysis)", show=False),
    ]

    def __init__(self, view: PlayerView, names: dict[Seat, str],
                 hint_source: HintSource | None = None, table: TableView | None = None, *,
                 prefs: PreferencesSource) -> None:
        super().__init__(view, names, table, prefs=prefs)
        self.own_tiles: list[Tile] = parse_tiles(view.own_tiles)
        self.chosen: list[int] = []
        self.cursor = 0
        self.analysis: HandAnalysis = analyze_choice(self.own_tiles, [], self.seat,
                                                     Tile.parse(view.dora_indicator))
        self.hint: list[int] | None = None
        self._hint_tiles: list[Tile] | None = None  # the hint's tiles, to name them anew
        self._hint_source = hint_source
        self._had_choice = False
        self._had_more = False
        self._last_typed: tuple[Tile, int] | None = None  # the tile typed last, where it was

    def compose(self) -> ComposeResult:
        yield SteadyHeader()
        yield Scoreboard(id="scoreboard")  # shown in a match (R30)
        with Horizontal(id="topbar"):
            yield Static(id="info")
            yield DeadWall(Tile.parse(self.view.dora_indicator))
        yield TileRow(len(self.own_tiles), self.own_tiles, id="rack")
        with Horizontal(id="hand-bar"):
            yield Label("Hand", id="hand-label", classes="row-title")
            yield TileRow(HAND_SIZE, id="hand")
        with Vertical(id="lower"):
            # Never focused: the arrow keys move over the rack (PgDn/PgUp scroll this part).
            with VerticalScroll(id="analysis-box", can_focus=False):
                yield AnalysisPanel(id="analysis")
            yield Static(id="hint")
            yield Static(id="status")
        yield FitFooter()

    def on_mount(self) -> None:
        self.names_changed()
        self.query_one("#rack", TileRow).cursor = self.cursor
        self._refresh_choice()
        if self._hint_source is not None:
            self.query_one("#hint", Static).update("Hint: the bot is looking for a hand…")
            # The search starts once the screen is drawn: its thread would slow the first frame.
            self.call_after_refresh(self._compute_hint, self._hint_source)

    def names_changed(self) -> None:
        """The seat, its order and the opponent's name (the waiting seat's, then the name of
        whoever joins)."""
        me, other = self.seat, self.seat.other
        order = "discards first" if me is Seat.EAST else "discards second"
        name = "" if self.names[me] == me.value.title() else f"{escape(self.names[me])}: "
        self.query_one("#info", Static).update(
            f"[b]{name}{me.value.title()}[/] ({order}) · opponent {escape(self.names[other])}\n"
            "Keep 13 of your 34 tiles as your hand; the other 21 become your discard pool.")

    # -- the choice ------------------------------------------------------------------------------

    @property
    def chosen_tiles(self) -> list[Tile]:
        """The chosen tiles, in the rack's order."""
        return [self.own_tiles[i] for i in sorted(self.chosen)]

    def _refresh_choice(self) -> None:
        rack = self.query_one("#rack", TileRow)
        chosen = set(self.chosen)
        for index in range(len(self.own_tiles)):
            rack.mark(index, "-chosen", index in chosen)
        self.query_one("#hand", TileRow).set_tiles(self.chosen_tiles)
        self.query_one("#hand-label", Label).update(f"Hand {len(self.chosen)}/{HAND_SIZE}",
                                                    layout=False)  # fixed width: no reflow
        self.analysis = analyze_choice(self.own_tiles, self.chosen_tiles, self.seat,
                                       Tile.parse(self.view.dora_indicator),
                                       settings=self.view.settings, terms=self.view.terms)
        self.query_one(AnalysisPanel).show(self.analysis)
        # R25: if the clock runs out, the automatic hand keeps the tiles chosen so far.
        self.post_message(DraftChanged(self.seat, tiles_to_str(self.chosen_tiles)))
        if bool(self.chosen) != self._had_choice:  # undo/clear enabled: redraw the footer
            self._had_choice = bool(self.chosen)
            self.refresh_bindings()
        if len(self.chosen) == HAND_SIZE or self._had_more:  # "More below" once laid out
            self.call_after_refresh(self._check_more)

    def toggle(self, index: int) -> None:
        """Choose or unchoose the tile at ``index`` of the rack."""
        if index in self.chosen:
            self.chosen.remove(index)
            self.typing_status(f"Removed {self.own_tiles[index]}.")
        elif len(self.chosen) >= HAND_SIZE:
            self.typing_status("13 tiles are chosen: remove one first (space on a chosen tile, "
                               "backspace to undo).")
            return
        else:
            self.chosen.append(index)
            self.typing_status(f"Added {self.own_tiles[index]}.")
        self._refresh_choice()

    def _set_cursor(self, index: int) -> None:
        self.cursor = max(0, min(len(self.own_tiles) - 1, index))
        self.query_one("#rack", TileRow).cursor = self.cursor

    def tile_typed(self, tile: Tile) -> None:
        """Typing ``5p`` adds an unchosen 5p, or removes a chosen one when all are chosen."""
        same = [i for i, t in enumerate(self.own_tiles) if t == tile]
        if not same:
            self.typing_status(f"You have no {tile}.")
            return
        free = [i for i in same if i not in self.chosen]
        index = free[0] if free and len(self.chosen) < HAND_SIZE else (
            max((i for i in same if i in self.chosen), default=same[0]))
        self._set_cursor(index)
        self.toggle(index)
        self._last_typed = (tile, index)

    def tile_retyped(self, typed: Tile, tile: Tile) -> None:
        """``W`` then ``h``: the West just toggled is toggled back, and White is typed."""
        last, self._last_typed = self._last_typed, None
        if last is not None and last[0] == typed:
            self.toggle(last[1])
        self.tile_typed(tile)

    def tiles_typed(self, tiles: list[Tile], text: str) -> None:
        """Typing a group such as ``234p`` adds each of its tiles (a free copy of each), or
        nothing when one cannot be added: the message says which and why."""
        if len(tiles) == 1:
            self.tile_typed(tiles[0])
            return
        free = [i for i in range(len(self.own_tiles)) if i not in self.chosen]
        picked: list[int] = []
        for tile in tiles:
            index = next((i for i in free if self.own_tiles[i] == tile and i not in picked), None)
            if index is None:
                have = sum(t == tile for t in self.own_tiles)
                if not have:
                    why = f"you have no {tile}"
                elif tiles.count(tile) > have:
                    why = f"you have {have} {tile}, not {tiles.count(tile)}"
                else:
                    why = f"your {tile} {'is' if have == 1 else 'are'} already in the hand"
                self.typing_status(f"{text}: nothing added, {why}.")
                return
            picked.append(index)
        if len(self.chosen) + len(picked) > HAND_SIZE:
            self.typing_status(f"{text}: nothing added, {len(picked)} tiles do not fit: "
                               f"{HAND_SIZE - len(self.chosen)} places are left.")
            return
        self.chosen.extend(picked)
        self._set_cursor(picked[-1])
        self.typing_status(f"Added {' '.join(str(self.own_tiles[i]) for i in picked)}.")
        self._refresh_choice()

    def typing_status(self, text: str) -> None:
        """Show a short message under the hint (one line: no new layout)."""
        self.query_one("#status", Static).update(named(self, text), layout=False)

    # -- actions ---------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Disable what cannot be done now (the footer shows it dimmed)."""
        if action == "use_hint":
            return self.hint is not None or None if self._hint_source is not None else False
        if action in ("undo", "clear"):
            return bool(self.chosen) or None
        if action == "scroll_analysis":
            box = self.query_one("#analysis-box", VerticalScroll)
            return box.scroll_y < box.max_scroll_y if parameters == (1,) else box.scroll_y > 0
        return True

    def _check_more(self) -> None:
        """Show "More below" in the footer exactly while the analysis does not all fit."""
        box = self.query_one("#analysis-box", VerticalScroll)
        more = box.max_scroll_y > 0
        if more != self._had_more:
            self._had_more = more
            self.refresh_bindings()

    def action_scroll_analysis(self, pages: int) -> None:
        """Scroll the analysis when it does not all fit."""
        box = self.query_one("#analysis-box", VerticalScroll)
        if pages > 0:
            box.scroll_page_down(animate=False)
        else:
            box.scroll_page_up(animate=False)
        self.call_after_refresh(self.refresh_bindings)

    def action_move(self, delta: int) -> None:
        """Move the cursor over the rack."""
        self._set_cursor(self.cursor + delta)

    def action_move_row(self, rows: int) -> None:
        """Move the cursor to the tile above or below, as the rack is laid out now."""
        self._set_cursor(self.cursor + rows * self.query_one("#rack", TileRow).columns)

    def action_toggle_tile(self) -> None:
        """Choose or unchoose the tile under the cursor."""
        self.toggle(self.cursor)

    def action_undo(self) -> None:
        """Take back the last tile chosen."""
        if self.chosen:
            index = self.chosen.pop()
            self.typing_status(f"Undid {self.own_tiles[index]}.")
            self._refresh_choice()

    def action_clear(self) -> None:
        """Unchoose every tile."""
        self.chosen.clear()
        self.typing_status("Cleared.")
        self._refresh_choice()

    def action_use_hint(self) -> None:
        """Choose the bot's hand for these tiles."""
        if self.hint is not None:
            self.chosen = list(self.hint)
            self.typing_status("The bot's hand is chosen; change it as you like.")
            self._refresh_choice()

    def action_confirm(self) -> None:
        """Fix the hand; a noten hand, or one with no eligible wait, asks once more."""
        if len(self.chosen) != HAND_SIZE:
            self.typing_status(f"Choose exactly 13 tiles (you have {len(self.chosen)}).")
            return
        command = ChooseHand(tiles=tiles_to_str(self.chosen_tiles))
        problem = None
        if not self.analysis.tenpai:
            problem = "This hand is not tenpai: it can never win."
        elif not self.analysis.can_win:
            problem = "No wait of this hand reaches mangan: it can never win (R14)."
        if problem is None:
            self.post_message(CommandChosen(self.seat, command))
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.post_message(CommandChosen(self.seat, command))

        self.app.push_screen(ConfirmScreen(f"{problem}\nKeep it anyway? Hands never change."),
                             confirmed)

    def on_tile_row_selected(self, event: TileRow.Selected) -> None:
        """A click on the rack toggles that tile; a click on the hand removes it."""
        if event.row.id == "rack":
            self._set_cursor(event.index)
            self.toggle(event.index)
        elif event.row.id == "hand":
            self.toggle(sorted(self.chosen)[event.index])

    # -- the hint --------------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="hint", exit_on_error=False)
    def _compute_hint(self, source: HintSource) -> None:
        # The hint is a nicety: a bot that fails, or a screen gone meanwhile (the hot-seat
        # curtain), must never disturb the game.
        try:
            command = source(self.view)
        except Exception:
            command = None
        if self.is_attached and self.app.is_running:
            tiles = parse_tiles(command.tiles) if isinstance(command, ChooseHand) else None
            self.app.call_from_thread(self._show_hint, tiles)

    def _show_hint(self, tiles: list[Tile] | None) -> None:
        if not self.is_attached or not self.own_tiles:
            return
        if tiles is None:
            self.query_one("#hint", Static).update("Hint: the bot found no hand to suggest.")
            return
        remaining = list(enumerate(self.own_tiles))
        indices: list[int] = []
        for tile in tiles:
            match = next((i for i, t in remaining if t == tile), None)
            if match is None:
                return
            indices.append(match)
            remaining = [(i, t) for i, t in remaining if i != match]
        self.hint = indices
        self._hint_tiles = tiles
        self._show_hint_text()
        self.refresh_bindings()

    def _show_hint_text(self) -> None:
        if self._hint_tiles is not None:
            self.query_one("#hint", Static).update(named(
                self, f"Hint: the bot would keep {tiles_to_str(self._hint_tiles)} "
                "(press i to use it)."))

    def honors_renamed(self) -> None:
        """The Honor names setting changed: the hint names its tiles anew."""
        if self.is_mounted and self.own_tiles:
            self._show_hint_text()

    def clear_private(self) -> None:
        """Empty the rack, the hand, the analysis and the hint."""
        self.query_one("#rack", TileRow).clear()
        self.query_one("#hand", TileRow).clear()
        self.query_one(AnalysisPanel).show(None)
        self.query_one("#hint", Static).update("")
        self._hint_tiles = None
        self.chosen.clear()
        self.own_tiles = []
