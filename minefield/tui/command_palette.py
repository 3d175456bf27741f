"""The command palette lists what the footer lists (the current screen's enabled bindings), the
app's commands and the commands of the screen it was opened on (:class:`ScreenCommands`), and
the help lists every screen's keys from the same bindings."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Iterator
from functools import partial
from typing import Any, Protocol, runtime_checkable

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import DiscoveryHit, Hit, Hits, Provider


class ScreenActions(Provider):
    """Every described, enabled binding of the screen the palette was opened on."""

    def _actions(self) -> Iterator[tuple[str, str, Callable[[], Any]]]:
        seen: set[tuple[str, int]] = set()
        for active in self.screen.active_bindings.values():
            binding = active.binding
            if not active.enabled or not binding.show or not binding.description:
                continue
            marker = (binding.action, id(active.node))
            if marker in seen:
                continue
            seen.add(marker)
            help_text = f"key: {self.app.get_key_display(binding)}"
            yield (binding.description, help_text,
                   partial(self.app.run_action, binding.action, active.node))

    async def discover(self) -> Hits:
        """Everything, before the player types."""
        for name, help_text, command in self._actions():
            yield DiscoveryHit(name, command, help=help_text)

    async def search(self, query: str) -> Hits:
        """The actions whose description matches what the player typed."""
        matcher = self.matcher(query)
        for name, help_text, command in self._actions():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), command, help=help_text)


def game_key_sections(everywhere: list[BindingType]) -> list[tuple[str, list[BindingType]]]:
    """The help's key tables of the game app, screen by screen (``everywhere``: the app's own
    bindings), read from the screens' ``BINDINGS`` (imported here: the help loads them)."""
    from minefield.tui.screens.bot_watch import WatchScreen
    from minefield.tui.screens.builder import HandBuilderScreen
    from minefield.tui.screens.dialogs import CurtainScreen
    from minefield.tui.screens.drills import DrillsScreen
    from minefield.tui.screens.games import GameReplayScreen, GamesScreen
    from minefield.tui.screens.menu import MenuScreen
    from minefield.tui.screens.new_game import NewGameScreen
    from minefield.tui.screens.play import PlayScreen
    from minefield.tui.screens.replay import ReplayScreen
    from minefield.tui.screens.result import ResultScreen
    from minefield.tui.screens.review import ReviewScreen
    from minefield.tui.screens.standings import StandingsScreen

    return [
        ("Building the hand (type a tile such as 5p, E or Wh to toggle it, a group such as "
         "234p to add it)", HandBuilderScreen.BINDINGS),
        ("Playing (type a tile such as 5p, E or Wh to select it)", PlayScreen.BINDINGS),
        ("Hot-seat curtain", CurtainScreen.BINDINGS),
        ("Result", ResultScreen.BINDINGS),
        ("Final standings (after a match)", StandingsScreen.BINDINGS),
        ("Saved games (g on the menu; Enter on a match lists its games)", GamesScreen.BINDINGS),
        ("Replay (type a step number, then Enter, to go there)",
         [b for b in ReplayScreen.BINDINGS if getattr(b, "action", "") != "close"]
         + GameReplayScreen.BINDINGS),
        ("Watching two bots (w on the menu)", WatchScreen.BINDINGS),
        ("Defense review", ReviewScreen.BINDINGS),
        ("Defense drills (type the answer, Enter)", DrillsScreen.BINDINGS),
        ("Menu", MenuScreen.BINDINGS),
        ("New game (the menu's form)", NewGameScreen.BINDINGS),
        ("Everywhere", [*everywhere, Binding("ctrl+p", "command_palette",
                                             "Command palette (every action, themes)")]),
    ]


#: The app's own palette commands, on every screen: title, help, action (Help comes from its
#: key binding).
APP_COMMANDS = (
    ("Settings", "Tile style, theme, hint, bot level, rules", "settings"),
)


@runtime_checkable
class ScreenCommands(Protocol):
    """A screen with palette commands of its own (the trainer's doors on the menu and after a
    game), offered only while it is the screen the palette was opened on."""

    def palette_commands(self) -> Iterable[SystemCommand]:
        """This screen's commands, each run by the screen (or what it was given)."""
        ...


def trainer_commands(stats: Callable[[], Awaitable[None]],
                     drills: Callable[[], Awaitable[None]]) -> Iterator[SystemCommand]:
    """The defense trainer's palette commands: its progress (``stats``) and its drills."""
    yield SystemCommand("Defense stats", "Your progress as a defender: games, deal-ins, danger "
                        "taken against the least possible, drills", stats)
    yield SystemCommand("Defense drills", "Safest tile, read the wait, is it mangan, build a "
                        "safe hand", drills)


def app_commands(app: App[Any], screen: object, textual_commands: Iterable[SystemCommand]
                 ) -> Iterator[SystemCommand]:
    """The palette's commands on ``screen``: the app's, the screen's own, then Textual's
    without Screenshot (it would write the screen to disk, hidden tiles included)."""
    for title, help_text, action in APP_COMMANDS:
        yield SystemCommand(title, help_text, partial(app.run_action, action))
    if isinstance(screen, ScreenCommands):
        yield from screen.palette_commands()
    for command in textual_commands:
        if command.title != "Screenshot":
            yield command
