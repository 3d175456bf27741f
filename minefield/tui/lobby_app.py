"""``minefield lobby``: the daemon's lobby, the first screen over ``minefield ssh-server``.

Who is connected and what they do, the public tables (Enter joins one) and the games being
played; ``h`` opens a public table, ``b`` plays a bot, ``m`` opens the menu (practice,
settings). The app only chooses: it leaves a :class:`LobbyChoice` in ``choice``, which the
command line then runs (:mod:`minefield.cli.lobby`), coming back to the lobby afterwards.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import ClassVar, Literal

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from minefield.session.wire import LobbyState, LobbyTable
from minefield.tui.textual_private import SteadyHeader
from minefield.tui.viewer_app import ViewerApp

States = Callable[[], AsyncIterator[LobbyState]]


@dataclass(frozen=True, slots=True)
class LobbyChoice:
    """What the player chose: join the table ``code``, host (a public table, or a bot game
    with ``bot``), the menu, or quit (the app returns None)."""

    action: Literal["join", "host", "menu"]
    code: str | None = None
    bot: str | None = None


class LobbyScreen(Screen[None]):
    """The lobby's one screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "join", "Join the table"),
        Binding("h", "host", "Open a public table"),
        Binding("b", "bot", "Play a bot"),
        Binding("m", "menu", "Menu"),
        Binding("q", "quit_lobby", "Quit"),
    ]

    def __init__(self, states: States, choose: Callable[[LobbyChoice | None], None]) -> None:
        super().__init__()
        self.lobby_states = states
        self.choose = choose
        self.tables: list[LobbyTable] = []

    def compose(self) -> ComposeResult:
        yield SteadyHeader()
        yield Static("Connecting to the game server...", id="lobby-online")
        table: DataTable[str] = DataTable(id="lobby-tables", cursor_type="row", zebra_stripes=True)
        table.add_columns("Table", "Host", "Rules", "Players")
        yield table
        yield Static("", id="lobby-hint")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Minefield"
        self.sub_title = "Lobby"
        self.follow()

    @work(exclusive=True, group="session")  # the connection's reader, as a game's is
    async def follow(self) -> None:
        """Show every state of the lobby as it comes."""
        try:
            async for state in self.lobby_states():
                self.show(state)
        except Exception as error:  # the server refused or went: one line, the lobby stays
            self.query_one("#lobby-online", Static).update(f"The game server: {error}")
            return
        self.query_one("#lobby-online", Static).update(
            "The game server closed the lobby: q to quit, m for the menu.")

    def show(self, state: LobbyState) -> None:
        """Put ``state`` on the screen (the cursor stays on the same table if it is there)."""
        online = ", ".join(f"{p.name} ({p.status})" for p in state.online) or "nobody"
        self.query_one("#lobby-online", Static).update(
            f"Online ({len(state.online)}): {online}")
        table: DataTable[str] = self.query_one("#lobby-tables", DataTable)
        chosen = self._key(self.tables[table.cursor_row]) if (
            self.tables and 0 <= table.cursor_row < len(self.tables)) else None
        self.tables = list(state.tables)
        table.clear()
        for entry in self.tables:
            where = f"join {entry.code}" if entry.code else "playing"
            table.add_row(where, entry.host, entry.rules, " vs ".join(entry.players))
        keys = [self._key(entry) for entry in self.tables]
        if chosen in keys:
            table.move_cursor(row=keys.index(chosen))
        self.query_one("#lobby-hint", Static).update(
            "No open tables yet: h opens a public one, b plays a bot." if not self.tables else
            "Enter joins a table waiting for a player.")

    @staticmethod
    def _key(entry: LobbyTable) -> str:
        return entry.code or entry.game or ""

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter (or a click) on a table's row: join it."""
        event.stop()
        self.action_join()

    def action_join(self) -> None:
        """Join the table under the cursor."""
        table: DataTable[str] = self.query_one("#lobby-tables", DataTable)
        if not self.tables or not 0 <= table.cursor_row < len(self.tables):
            self.notify("No table to join: h opens one.", severity="warning")
            return
        entry = self.tables[table.cursor_row]
        if entry.code is None:
            self.notify("That game is being played (watching is not offered yet).",
                        severity="warning")
            return
        self.choose(LobbyChoice("join", code=entry.code))

    def action_host(self) -> None:
        """Open a public table (listed here for anyone to join)."""
        self.choose(LobbyChoice("host"))

    def action_bot(self) -> None:
        """Play a bot on the server."""
        self.choose(LobbyChoice("host", bot="normal"))

    def action_menu(self) -> None:
        """The menu: practice, hot-seat, drills, settings."""
        self.choose(LobbyChoice("menu"))

    def action_quit_lobby(self) -> None:
        """Leave."""
        self.choose(None)


class LobbyApp(ViewerApp):
    """The lobby; after ``run()``, :attr:`choice` is the player's :class:`LobbyChoice` (None:
    quit)."""

    HELP_TITLE = "Lobby"
    SCREEN_BINDINGS = LobbyScreen.BINDINGS

    def __init__(self, states: States) -> None:
        super().__init__()
        self.lobby_states = states
        self.choice: LobbyChoice | None = None

    def get_default_screen(self) -> LobbyScreen:
        return LobbyScreen(self.lobby_states, self._choose)

    def _choose(self, choice: LobbyChoice | None) -> None:
        self.choice = choice
        self.exit()


__all__ = ["LobbyApp", "LobbyChoice", "LobbyScreen"]
