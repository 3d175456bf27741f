"""The Textual app: menu, hand building, play, result, hot-seat curtain, help and settings.

The app holds a :class:`~minefield.session.Session` and decides which screen shows which seat;
screens post intents (:mod:`minefield.tui.messages`) and the app turns them into commands.
"""

from __future__ import annotations

import math
import secrets
import traceback
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from importlib.resources import files
from time import monotonic
from typing import ClassVar, Literal

from rich.segment import Segments
from rich.traceback import Traceback
from textual import events
from textual.actions import ActionParseResult
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.screen import Screen
from textual.worker import WorkerFailed

from minefield.bots import make_bot
from minefield.bots.base import Bot, Level
from minefield.rules.game import Discard, IllegalCommand, Seat
from minefield.rules.seed import derive_int, parse_seed, random_seed
from minefield.rules.settings import RuleSettings, SettingsError
from minefield.session import LocalSession, Session
from minefield.session.local import DEFAULT_THINK_SECONDS, SeatFailed
from minefield.tui.commands import ScreenActions
from minefield.tui.config import Preferences, config_dir, load_preferences, save_preferences
from minefield.tui.messages import (
    CommandChosen,
    CurtainLifted,
    MenuRequested,
    NewGameRequested,
    TurnPassed,
)
from minefield.tui.render import TILE_STYLES, TileStyle
from minefield.tui.screens.base import SeatScreen
from minefield.tui.screens.builder import HandBuilderScreen, HintSource
from minefield.tui.screens.dialogs import (
    ConfirmScreen,
    CurtainScreen,
    MessageScreen,
    TooSmallScreen,
)
from minefield.tui.screens.help import HelpScreen, keys_markdown
from minefield.tui.screens.menu import MenuScreen
from minefield.tui.screens.play import PlayScreen
from minefield.tui.screens.result import ResultScreen
from minefield.tui.screens.settings import SettingsScreen
from minefield.tui.widgets.tiles import TileWidget

MIN_WIDTH, MIN_HEIGHT = 80, 24
HINT_LEVEL: Level = "strong"
#: A crash loop (a recovery that fails again, a bot that fails again at once, a new screen that
#: cannot mount) makes errors milliseconds apart; a player who meets a bug makes at most one per
#: key press or click, with a message to close in between. So an error counts towards
#: MAX_RECOVERIES only if it comes within RECOVERY_GAP seconds of the one before: a burst of
#: more than MAX_RECOVERIES such errors is a loop and ends the app, while errors spread over a
#: game start the count again each time and never end it.
MAX_RECOVERIES = 5
RECOVERY_GAP = 2.0

BotFactory = Callable[[str, int], Bot]
GameMode = Literal["practice", "hotseat"]
ScreenKey = tuple[str, Seat]


@dataclass(frozen=True)
class GameRequest:
    """A game to start: what ``minefield practice`` / ``hotseat`` or the menu asked for.
    None fields fall back to the saved preferences (a random seed for ``seed``)."""

    mode: GameMode
    seed: int | str | None = None
    level: Level | None = None
    seat: Seat | None = None
    rules: str | None = None


class MinefieldApp(App[int]):
    """Minefield in the terminal.

    ``request`` starts a game at once (else the menu shows). ``think_seconds`` is the bot's
    pause before each discard, ``bot_factory`` builds bots (tests pass stand-ins), and
    ``catch_errors`` keeps the app and the game alive after an unexpected error.
    """

    CSS_PATH = str(files("minefield.assets") / "minefield.tcss")
    TITLE = "Minefield"
    COMMANDS = App.COMMANDS | {ScreenActions}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "help", "Help"),
        Binding("f2", "settings", "Settings", show=False),
        # Replaces Textual's own ctrl+q, which quits at once even in the middle of a game.
        Binding("ctrl+q", "quit", "Quit (asks first during a game)", show=False, priority=True),
    ]

    def __init__(self, request: GameRequest | None = None, *,
                 think_seconds: float = DEFAULT_THINK_SECONDS,
                 bot_factory: BotFactory | None = None,
                 preferences: Preferences | None = None,
                 catch_errors: bool = True) -> None:
        super().__init__()
        if preferences is None:
            preferences, self._startup_problem = load_preferences()
        else:
            self._startup_problem = None
        self.preferences = preferences
        self.tile_style: TileStyle = preferences.tile_style
        self.request = request
        self.think_seconds = think_seconds
        self._bot_factory: BotFactory = bot_factory or make_bot
        self._catch_errors = catch_errors
        self.session: Session | None = None
        self._last_request: GameRequest | None = None
        self._screen_key: ScreenKey | None = None
        self._game_screen: SeatScreen | None = None
        self._holding: Seat | None = None
        self._waiting = False
        self._base_depth = 0
        self._recoveries = 0
        self._last_error_at = -math.inf
        self._quit_question: ConfirmScreen | None = None
        self.errors: list[str] = []

    # -- start-up --------------------------------------------------------------------------------

    async def on_mount(self) -> None:
        self._apply_preferences(self.preferences, save=False)
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        await self.push_screen(MenuScreen())
        self._base_depth = len(self.screen_stack)
        if self._startup_problem:
            # Not markup: the report quotes the file, brackets and all.
            self.notify(self._startup_problem, title="Settings", severity="warning", timeout=10,
                        markup=False)
        if self.request is not None:
            await self.start_game(self.request)
        self._check_size()

    def _apply_preferences(self, preferences: Preferences, save: bool = True) -> None:
        self.preferences = preferences
        self.tile_style = preferences.tile_style
        for style in TILE_STYLES:
            self.set_class(style == preferences.tile_style, f"-tiles-{style}")
        if preferences.theme in self.available_themes and self.theme != preferences.theme:
            self.theme = preferences.theme
        for screen in self.screen_stack:
            for tile in screen.query(TileWidget):
                tile.refresh(layout=True)
        if save and (problem := save_preferences(preferences)):
            self.notify(problem, title="Settings", severity="error", markup=False)

    def _theme_changed(self, theme: object) -> None:
        if self.theme != self.preferences.theme:
            self._apply_preferences(self.preferences.model_copy(update={"theme": self.theme}))

    # -- games -----------------------------------------------------------------------------------

    async def start_game(self, request: GameRequest) -> None:
        """Start a new local game as ``request`` asks (preferences fill the gaps)."""
        prefs = self.preferences
        seed = parse_seed(request.seed) if request.seed is not None else random_seed()
        try:
            settings = RuleSettings.preset(request.rules or prefs.rules)
        except SettingsError as error:
            self.notify(str(error), title="Rules", severity="error")
            settings = RuleSettings()
        self._last_request = request
        if request.mode == "practice":
            level = request.level or prefs.bot_level
            session: Session = LocalSession.practice(
                # The bot's seed follows from the game's but does not reveal it (R2).
                seed, self._bot_factory(level, derive_int(seed, "practice bot")),
                human=request.seat, settings=settings,
                think_seconds=self.think_seconds)
        else:
            session = LocalSession.hotseat(seed, settings)
        await self.set_session(session)

    async def set_session(self, session: Session) -> None:
        """Play ``session`` (a local game now; a network game later, with the same screens)."""
        self.workers.cancel_group(self, "session")
        self._waiting = False
        self.session = session
        self.sub_title = ("Hot-seat" if session.mode == "hotseat" else
                          f"Playing against {session.seat_name(session.local_seats[0].other)}")
        self._screen_key = None
        self._game_screen = None
        self._holding = None
        self._recoveries = 0
        await self.show_game()
        self._let_others_move()

    def _names(self, session: Session) -> dict[Seat, str]:
        return {seat: session.seat_name(seat) for seat in Seat}

    def _target(self, session: Session) -> tuple[str, Seat]:
        """Which screen to show now, for which seat."""
        seat = session.local_seats[0]
        first = session.view(seat)
        if first.phase == "ended":
            return "result", seat
        if session.mode == "hotseat":
            if first.phase == "choosing":
                seat = next(s for s in session.local_seats if session.view(s).own_hand is None)
            else:
                seat = self._holding or first.turn or seat
        return ("build" if session.view(seat).own_hand is None else "play"), seat

    async def show_game(self) -> None:
        """Bring the screen up to date with the session (switching screens when needed).

        An error here is reported and recovered from, never left to stop the app's own loop.
        """
        try:
            await self._show_game()
        except Exception as error:
            self._handle_exception(error)

    async def _show_game(self) -> None:
        session = self.session
        if session is None:
            return
        kind, seat = self._target(session)
        view = session.view(seat)
        names = self._names(session)
        key = (kind, seat)
        if kind == "result":
            if self._screen_key != key and view.end is not None:
                await self._replace(ResultScreen(view.end, names, session.mode,
                                                 view.dora_indicator), key)
            return
        if key == self._screen_key and self._game_screen is not None:
            if isinstance(self._game_screen, PlayScreen):
                self._game_screen.hold = self._holding is not None
            self._game_screen.update_view(view)
            return
        previous = self._screen_key
        if session.mode == "hotseat" and (previous is None or previous[1] != seat):
            reason = ("Build your hand: choose 13 of your 34 tiles." if kind == "build"
                      else f"Discard {view.discards_made + 1} of 34.")
            await self._replace(CurtainScreen(seat, reason), ("curtain", seat))
            return
        screen: SeatScreen
        if kind == "build":
            screen = HandBuilderScreen(view, names, self._hint_source(session))
        else:
            screen = PlayScreen(view, names, hold=self._holding is not None,
                                announce_furiten=session.mode != "hotseat")
        await self._replace(screen, key)

    def _hint_source(self, session: Session) -> HintSource | None:
        hint = self.preferences.hint
        if hint == "off" or (hint == "practice" and session.mode != "practice"):
            return None
        seed = secrets.randbelow(2**31)
        factory = self._bot_factory
        return lambda view: factory(HINT_LEVEL, seed).act(view)

    async def _replace(self, screen: Screen[None], key: ScreenKey) -> None:
        """Show ``screen`` in place of whatever is above the menu."""
        if self._game_screen is not None:
            self._game_screen.clear_private()
        self._game_screen = None
        while len(self.screen_stack) > self._base_depth:
            await self.pop_screen()
        await self.push_screen(screen)
        self._screen_key = key
        self._game_screen = screen if isinstance(screen, SeatScreen) else None
        self._check_size()

    def _let_others_move(self) -> None:
        """Let a seat not played here (the bot) move, in a worker: the screen stays live."""
        session = self.session
        if session is None or self._waiting or not session.needs_others():
            return
        self._waiting = True
        self.run_worker(self._wait_for_others(session), group="session", exit_on_error=True)

    async def _wait_for_others(self, session: Session) -> None:
        try:
            await session.wait_for_others()
        finally:
            self._waiting = False
        if session is self.session:
            await self.show_game()
            self._let_others_move()

    async def _leave_game(self) -> None:
        self.workers.cancel_group(self, "session")
        self._waiting = False
        if self._game_screen is not None:
            self._game_screen.clear_private()
        self.session = None
        self._game_screen = None
        self._screen_key = None
        self.sub_title = ""
        while len(self.screen_stack) > self._base_depth:
            await self.pop_screen()

    # -- messages from the screens ---------------------------------------------------------------

    async def on_command_chosen(self, message: CommandChosen) -> None:
        session = self.session
        if session is None:
            return
        try:
            await session.send(message.seat, message.command)
        except IllegalCommand as error:
            if self._game_screen is not None:
                self._game_screen.typing_status(f"Not allowed: {error}")
            return
        except Exception as error:
            self._handle_exception(error)
            return
        if (session.mode == "hotseat" and isinstance(message.command, Discard)
                and session.view(message.seat).phase == "discarding"):
            self._holding = message.seat
        await self.show_game()
        self._let_others_move()

    async def on_turn_passed(self, message: TurnPassed) -> None:
        self._holding = None
        await self.show_game()

    async def on_curtain_lifted(self, message: CurtainLifted) -> None:
        await self.show_game()

    async def on_new_game_requested(self, message: NewGameRequested) -> None:
        last = self._last_request
        if message.again and last is not None:
            await self.start_game(replace(last, seed=None))
        elif message.mode in ("practice", "hotseat"):
            mode: GameMode = "practice" if message.mode == "practice" else "hotseat"
            await self.start_game(GameRequest(mode))

    async def on_menu_requested(self, message: MenuRequested) -> None:
        await self._leave_game()

    def on_settings_screen_changed(self, message: SettingsScreen.Changed) -> None:
        self._apply_preferences(message.preferences)

    # -- actions ---------------------------------------------------------------------------------

    def action_help(self) -> None:
        """The rules in brief and every key."""
        if isinstance(self.screen, HelpScreen):
            return
        sections: list[tuple[str, list[BindingType]]] = [
            ("Building the hand (type a tile such as 5p to toggle it)",
             HandBuilderScreen.BINDINGS),
            ("Playing (type a tile such as 5p to select it)", PlayScreen.BINDINGS),
            ("Hot-seat curtain", CurtainScreen.BINDINGS),
            ("Result", ResultScreen.BINDINGS),
            ("Menu", MenuScreen.BINDINGS),
            ("Everywhere", [*self.BINDINGS, Binding("ctrl+p", "command_palette",
                                                    "Command palette (every action, themes)")]),
        ]
        self.push_screen(HelpScreen(keys_markdown(self, sections)))

    def action_settings(self) -> None:
        """Tile style, theme, hint, bot level and rules."""
        if isinstance(self.screen, SettingsScreen):
            return
        self.push_screen(SettingsScreen(self.preferences, sorted(self.available_themes)))

    def _game_on(self) -> bool:
        """A game is being played here and has not ended (leaving it loses it)."""
        session = self.session
        return session is not None and session.view(session.local_seats[0]).phase != "ended"

    async def action_menu(self) -> None:
        """Back to the menu (asks first while a game is on)."""
        if self.session is None:
            return
        if not self._game_on():
            await self._leave_game()
            return

        async def answered(leave: bool | None) -> None:
            if leave:
                await self._leave_game()

        await self.push_screen(ConfirmScreen("Leave this game? It cannot be resumed.",
                                             yes="Leave the game", no="Keep playing"), answered)

    async def action_quit(self) -> None:
        """Quit; while a game is on, ask first as leaving it for the menu does (a stray
        ctrl+q must not end a hot-seat game). Ctrl+q on that question quits."""
        if not self._game_on() or self.screen is self._quit_question:
            self.exit()
            return

        def answered(leave: bool | None) -> None:
            self._quit_question = None
            if leave:
                self.exit()

        self._quit_question = ConfirmScreen(
            "Quit Minefield? This game cannot be resumed.", yes="Quit", no="Keep playing")
        await self.push_screen(self._quit_question, answered)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """The palette's app commands (Help comes from its key binding), without Screenshot:
        it would write the screen to disk, hidden tiles included."""
        yield SystemCommand("Settings", "Tile style, theme, hint, bot level, rules",
                            self.action_settings)
        for command in super().get_system_commands(screen):
            if command.title != "Screenshot":
                yield command

    # -- size ------------------------------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int | None = None, height: int | None = None) -> None:
        width = self.size.width if width is None else width
        height = self.size.height if height is None else height
        too_small = width < MIN_WIDTH or height < MIN_HEIGHT
        covering = [s for s in self.screen_stack if isinstance(s, TooSmallScreen)]
        if too_small and not covering:
            self.push_screen(TooSmallScreen(MIN_WIDTH, MIN_HEIGHT))
        elif not too_small and covering and self.screen is covering[-1]:
            self.pop_screen()

    # -- errors: keep the game, never show hidden tiles ------------------------------------------

    async def run_action(self, action: str | ActionParseResult,
                         default_namespace: DOMNode | None = None,
                         namespaces: Mapping[str, DOMNode] | None = None) -> bool:
        """Run an action; a bug in a screen's action becomes a message, not a dead app (key
        bindings run actions on the app's own message loop, which an error would stop)."""
        try:
            return await super().run_action(action, default_namespace, namespaces)
        except Exception as error:
            if not self._catch_errors or self.session is None:
                raise
            self._handle_exception(error)
            return True

    def _handle_exception(self, error: Exception) -> None:
        """An unexpected error: log it, tell the player, and rebuild the game's screen from the
        session, which still holds the game. Without a game, or in a crash loop (more than
        ``MAX_RECOVERIES`` errors, each within ``RECOVERY_GAP`` seconds of the last), exit."""
        now = monotonic()
        if now - self._last_error_at > RECOVERY_GAP:
            self._recoveries = 0  # a calm spell: not a loop
        self._last_error_at = now
        if not self._catch_errors or self.session is None or self._recoveries >= MAX_RECOVERIES:
            super()._handle_exception(error)
            return
        self._recoveries += 1
        if isinstance(error, WorkerFailed) and isinstance(error.error, Exception):
            error = error.error  # the session worker's own error, with its traceback
        where = self._log_error(error)
        self.errors.append(type(error).__name__)
        name = type(error).__name__
        if isinstance(error, SeatFailed):  # its type only: the text may hold hidden tiles
            name = f"{error.kind} from {self.session.seat_name(error.seat)}"
        self.call_later(self._recover, name, where)

    async def _recover(self, name: str, where: str) -> None:
        self._waiting = False
        self._screen_key = None
        self._game_screen = None
        try:
            await self.show_game()  # hot-seat starts again behind the curtain
            self._let_others_move()
        finally:
            await self.push_screen(MessageScreen(
                "Something went wrong",
                f"An unexpected error ({name}) happened. Your game is kept and goes on.\n"
                f"Details were written to {where}."))

    def _log_error(self, error: BaseException) -> str:
        """Append the traceback (without local variables: they may hold tiles) to a log."""
        path = config_dir() / "errors.log"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("a", encoding="utf-8") as log:
                log.write(f"--- {datetime.now().isoformat(timespec='seconds')}\n")
                log.write("".join(traceback.format_exception(error)))
        except OSError:
            return "nowhere (the log could not be written)"
        return str(path)

    def _fatal_error(self) -> None:
        """Exit after an error, with a traceback that shows no local variables (hidden tiles)."""
        self.bell()
        report = Traceback(show_locals=False, width=None)
        self._exit_renderables.append(Segments(self.console.render(report, self.console.options)))
        self._close_messages_no_wait()

    def __repr__(self) -> str:
        return f"MinefieldApp(session={getattr(self, 'session', None)!r})"
