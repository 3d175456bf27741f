"""``minefield watch GAME``: a game on the game server, watched without a seat.

The screen shows only what the server sends a watcher (protocol 11): what both players see
(R26). Both discard rows, the dead wall with its dora indicator, whose turn it is and the
clocks, the players and their presence, a match's scoreboard; each hand face down until the
end, then both hands and pools and the result (the result screen's). It is drawn with the
table's own widgets, read-only: there is nothing to play, only ``q`` to stop watching.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import Static

from minefield.protocol.watching import WatchTable
from minefield.rules.game import DISCARDS_PER_SEAT, TOTAL_DISCARDS, Seat
from minefield.rules.tiles import Tile
from minefield.tui.screens.replay import end_text
from minefield.tui.textual_private import SteadyHeader
from minefield.tui.viewer_app import ViewerApp
from minefield.tui.widgets.footer import KeysFooter
from minefield.tui.widgets.log import GameLog
from minefield.tui.widgets.panels import DeadWall, DiscardRow
from minefield.tui.widgets.replay import SeatTiles
from minefield.tui.widgets.scoreboard import Scoreboard
from minefield.tui.widgets.tiles import named

Tables = Callable[[], AsyncIterator[WatchTable]]


def discard_order(discards: dict[Seat, list[str]]) -> list[tuple[Seat, str]]:
    """Both rows as the discards were made: East first, then in turn (R10).

    >>> discard_order({Seat.EAST: ["1m", "2m"], Seat.WEST: ["9p"]})
    [(<Seat.EAST: 'east'>, '1m'), (<Seat.WEST: 'west'>, '9p'), (<Seat.EAST: 'east'>, '2m')]
    """
    order = []
    for index in range(max(len(row) for row in discards.values())):
        for seat in (Seat.EAST, Seat.WEST):
            if index < len(discards[seat]):
                order.append((seat, discards[seat][index]))
    return order


def clock_text(table: WatchTable, elapsed: float) -> str:
    """The running clock, counted down ``elapsed`` seconds since the table came, or ''."""
    for seat, clock in table.clocks.items():
        if clock.running and clock.remaining is not None:
            left = max(0, round(clock.remaining - elapsed))
            return f"{seat.value.title()} has {left} s"
    return ""


class WatchTableScreen(Screen[None]):
    """A game on the server as a watcher sees it (the app's one screen); ``washizu``: the
    scoreboard shows Washizu's stakes (cc of blood) beside points, as the preferences ask."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("pagedown", "scroll_body(1)", "Scroll down", show=False),
        Binding("pageup", "scroll_body(-1)", "Scroll up", show=False),
        Binding("escape,q", "stop", "Stop watching"),
    ]

    def __init__(self, tables: Tables, closed: Callable[[], str | None], *,
                 washizu: bool = False) -> None:
        super().__init__()
        self.tables = tables
        self.washizu = washizu
        self.closed_reason = closed
        self.table: WatchTable | None = None
        self.received = 0.0
        self.status = ""

    def compose(self) -> ComposeResult:
        yield SteadyHeader()
        with Horizontal(id="topbar"):
            yield Static("Connecting to the game server...", id="watch-info")
            yield DeadWall(Tile.parse("1z"), id="watch-wall")
        yield Scoreboard(id="scoreboard")
        yield DiscardRow("", id="far-discards")
        yield DiscardRow("", id="near-discards")
        with Horizontal(id="watch-middle"):
            with VerticalScroll(id="watch-body", can_focus=False):
                yield Static(id="watch-end")
                yield SeatTiles(id="watch-east")
                yield SeatTiles(id="watch-west")
            yield GameLog(id="watch-log")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.title = "Minefield"
        self.sub_title = "Watching"
        self.set_interval(1.0, self._tick)
        self.follow()

    @work(exclusive=True, group="session")  # the connection's reader, as a game's is
    async def follow(self) -> None:
        """Show every table as it comes, then why it stopped."""
        try:
            async for table in self.tables():
                self.show(table)
        except Exception as error:  # the server refused or went: one line, the screen stays
            self.status = f"The game server: {error}"
        else:
            reason = self.closed_reason()
            self.status = (f"{reason} q to quit." if reason else
                           "The game server closed the connection: q to quit.")
        self._info()

    def show(self, table: WatchTable) -> None:
        """Put ``table`` on the screen."""
        self.table, self.received = table, time.monotonic()
        names = {seat: info.name for seat, info in table.players.items()}
        self.sub_title = (f"watching {names[Seat.EAST]}, East v {names[Seat.WEST]}, West")
        for seat, row_id in ((Seat.WEST, "#far-discards"), (Seat.EAST, "#near-discards")):
            tiles = [Tile.parse(t) for t in table.discards[seat]]
            info = table.players[seat]
            away = "" if info.present else " · away"
            self.query_one(row_id, DiscardRow).show(
                tiles, f"{escape(info.name)}\n{seat.value.title()} "
                f"{len(tiles)}/{DISCARDS_PER_SEAT}{away}")
        end = table.end
        wall = self.query_one("#watch-wall", DeadWall)
        wall.set_indicators(Tile.parse(table.dora_indicator),
                            Tile.parse(end.ura_indicator) if end is not None else None)
        made = sum(len(row) for row in table.discards.values())
        for seat in Seat:
            self.query_one(f"#watch-{seat.value}", SeatTiles).show(
                table.seat_view(seat), seat, names[seat], made)
        self.set_class(end is not None, "-ended")
        self.query_one("#watch-end", Static).update(
            named(self, end_text(end, names)) if end is not None else "")
        if table.match is not None:
            self.query_one(Scoreboard).show(table.match, self.washizu)
        self.query_one(GameLog).show([
            f"{number:>2} {seat.value.title()} [b]{tile}[/]"
            for number, (seat, tile) in enumerate(discard_order(table.discards), start=1)])
        self._info()

    def _tick(self) -> None:
        if self.table is not None and self.table.end is None:
            self._info()

    def _info(self) -> None:
        table = self.table
        lines = []
        if table is not None:
            if table.phase == "choosing":
                chosen = [s.value.title() for s in Seat if table.ready[s]]
                where = "the players are choosing their hands" + (
                    f" ({' and '.join(chosen)} has chosen)" if chosen else "")
            elif table.phase == "discarding" and table.turn is not None:
                made = sum(len(row) for row in table.discards.values())
                where = (f"{table.turn.value.title()} to discard · discard {made + 1} of "
                         f"{TOTAL_DISCARDS}")
            else:
                where = "the game has ended"
            clock = clock_text(table, time.monotonic() - self.received)
            watchers = f"{table.watchers} watching" if table.watchers else ""
            lines.append(f"[b]{where}[/]")
            lines.append(" · ".join(part for part in (clock, watchers) if part) or " ")
        ended = table is not None and table.end is not None
        lines.append(escape(self.status) if self.status else
                     "[dim]the end shows both hands and pools (R26)[/]" if ended else
                     "[dim]watching: hands stay face down until the end (R26)[/]")
        self.query_one("#watch-info", Static).update("\n".join(lines))

    def action_scroll_body(self, pages: int) -> None:
        """Scroll the seats and the end when they do not fit."""
        body = self.query_one("#watch-body", VerticalScroll)
        if pages > 0:
            body.scroll_page_down(animate=False)
        else:
            body.scroll_page_up(animate=False)

    def action_stop(self) -> None:
        """Stop watching."""
        self.app.exit()


class WatchApp(ViewerApp):
    """A game on the server, watched (``minefield watch GAME``)."""

    HELP_TITLE = "Watching a game"
    SCREEN_BINDINGS = WatchTableScreen.BINDINGS

    def __init__(self, tables: Tables, closed: Callable[[], str | None] = lambda: None
                 ) -> None:
        super().__init__()
        self.tables = tables
        self.closed = closed

    def get_default_screen(self) -> WatchTableScreen:
        return WatchTableScreen(self.tables, self.closed, washizu=self.preferences.washizu)


__all__ = ["WatchApp", "WatchTableScreen", "clock_text", "discard_order"]
