"""The menu: practice, hot-seat, rules and keys, settings, quit. Practice and hot-seat open the
form that sets up a new game (:mod:`minefield.tui.screens.new_game`), loaded when first
opened: the menu's first frame does without the rule settings and pydantic."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from minefield.tui.command_palette import trainer_commands
from minefield.tui.screens.rooms import ROOM_ENTRIES
from minefield.tui.textual_private import SteadyHeader
from minefield.tui.widgets.footer import FitFooter

if TYPE_CHECKING:
    from minefield.tui.games import GameMode
    from minefield.tui.menu_actions import MenuDoors
    from minefield.tui.messages import GameChosen
    from minefield.tui.trainer_actions import TrainerDoors

MENU = (
    ("practice", "Practice against a bot"),
    ("hotseat", "Hot-seat: two players at this keyboard"),
    ("games", "Saved games: replay and review"),
    ("watch", "Watch two bots play"),
    ("drills", "Defense drills"),
    ("stats", "Defense progress"),
    ("help", "Rules and keys"),
    ("settings", "Settings"),
    ("quit", "Quit"),
)


class MenuScreen(Screen[None]):
    """The first screen of ``minefield``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # With a game server (an SSH session's menu): rooms, first in the list (their keys
        # are not in the footer, which keeps "F1 Help" in view).
        Binding("o", "choose('host')", "Host", show=False),
        Binding("j", "choose('join')", "Join", show=False),
        Binding("r", "choose('resume')", "Resume", show=False),
        # The footer shows the games and "F1 Help" whole at 80 columns; the other keys are in
        # the list above it and in the help.
        Binding("p", "choose('practice')", "Practice"),
        Binding("h", "choose('hotseat')", "Hot-seat"),
        Binding("g", "choose('games')", "Games"),
        Binding("w", "choose('watch')", "Watch"),
        Binding("d", "choose('drills')", "Drills", show=False),
        Binding("t", "choose('stats')", "Progress", show=False),
        Binding("s", "choose('settings')", "Settings", show=False),
        Binding("q", "choose('quit')", "Quit"),
    ]

    def __init__(self, doors: MenuDoors, trainer: TrainerDoors, rooms: bool = False) -> None:
        """``doors`` open the saved games, the bots to watch and the rooms, ``trainer`` the
        defense drills and progress; ``rooms``: the app has a game server; the menu starts
        with host, join, resume."""
        super().__init__()
        self.doors = doors
        self.trainer = trainer
        self.rooms = rooms

    def compose(self) -> ComposeResult:
        entries = (*ROOM_ENTRIES, *MENU) if self.rooms else MENU
        yield SteadyHeader()
        with Vertical(id="menu-box"):
            yield Static("MINEFIELD", id="menu-title")
            yield Static("two-player riichi mahjong from Kaiji", id="menu-subtitle")
            yield OptionList(*(Option(label, id=key) for key, label in entries), id="menu")
        yield FitFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The room keys only with a game server."""
        if action == "choose" and parameters and parameters[0] in ("host", "join", "resume"):
            return self.rooms
        return True

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            await self.action_choose(event.option.id)

    async def action_choose(self, choice: str) -> None:
        """Run one menu entry; a game first asks how it should be played."""
        if choice in ("practice", "hotseat"):
            from minefield.tui.screens.new_game import NewGameScreen

            mode: GameMode = "practice" if choice == "practice" else "hotseat"
            await self.app.push_screen(NewGameScreen(mode, self.doors),
                                       self._chosen)
        elif choice == "help":
            await self.app.run_action("app.help")
        elif choice == "settings":
            await self.app.run_action("app.settings")
        elif choice == "stats":
            await self.trainer.stats()
        elif choice == "drills":
            await self.trainer.drills()
        elif choice == "games":
            await self.doors.games()
        elif choice == "watch":
            await self.doors.watch()
        elif choice in ("host", "join", "resume") and self.rooms:
            await self.doors.room(choice)
        elif choice == "quit":
            self.app.exit(0)

    def palette_commands(self) -> Iterator[SystemCommand]:
        """The palette's trainer commands (the menu's entries, whose keys the footer leaves
        out)."""
        return trainer_commands(partial(self.action_choose, "stats"),
                                partial(self.action_choose, "drills"))

    def _chosen(self, choice: GameChosen | None) -> None:
        if choice is not None:
            self.post_message(choice)
