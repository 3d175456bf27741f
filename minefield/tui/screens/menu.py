"""The menu: practice, hot-seat, rules and keys, settings, quit."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from minefield.tui.messages import NewGameRequested

MENU = (
    ("practice", "Practice against a bot"),
    ("hotseat", "Hot-seat: two players at this keyboard"),
    ("help", "Rules and keys"),
    ("settings", "Settings"),
    ("quit", "Quit"),
)


class MenuScreen(Screen[None]):
    """The first screen of ``minefield``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "choose('practice')", "Practice"),
        Binding("h", "choose('hotseat')", "Hot-seat"),
        Binding("s", "choose('settings')", "Settings"),
        Binding("q", "choose('quit')", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="menu-box"):
            yield Static("MINEFIELD", id="menu-title")
            yield Static("two-player riichi mahjong from Kaiji", id="menu-subtitle")
            yield OptionList(*(Option(label, id=key) for key, label in MENU), id="menu")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            await self.action_choose(event.option.id)

    async def action_choose(self, choice: str) -> None:
        """Run one menu entry."""
        if choice in ("practice", "hotseat"):
            self.post_message(NewGameRequested(choice))
        elif choice == "help":
            await self.app.run_action("app.help")
        elif choice == "settings":
            await self.app.run_action("app.settings")
        elif choice == "quit":
            self.app.exit(0)
