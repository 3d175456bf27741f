"""The Textual app: it wires the screens, the key bindings and the preferences.

A game on this terminal is a :class:`~minefield.tui.table.TableController` (the session, its
updates, which screen shows which seat); unexpected errors are handled as
:mod:`minefield.tui.crash` says. Screens post intents (:mod:`minefield.tui.messages`) and never
touch a game.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from importlib.resources import files
from pathlib import Path
from typing import ClassVar, Literal

from textual import events
from textual.actions import ActionParseResult
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.screen import Screen
from textual.worker import WorkerFailed

from minefield.bots import make_bot
from minefield.bots.base import Bot, Level
from minefield.records.paths import records_dir
from minefield.rules.game import Discard, Seat
from minefield.rules.seed import derive_int, parse_seed, random_seed
from minefield.rules.settings import RuleSettings, SettingsError
from minefield.session import LocalSession, SeatFailed, Session
from minefield.session.local import DEFAULT_THINK_SECONDS
from minefield.trainer.review import ReviewError, review_game
from minefield.tui.commands import ScreenActions
from minefield.tui.config import Preferences, given_or_saved, save_preferences
from minefield.tui.crash import RecoveryCounter, exit_with_report, log_error, log_failure
from minefield.tui.look import apply_look
from minefield.tui.messages import (
    CommandChosen,
    CurtainLifted,
    DraftChanged,
    GameChosen,
    MenuRequested,
    NewGameRequested,
    NextGameRequested,
    SessionUpdate,
    TurnPassed,
)
from minefield.tui.render import TileStyle
from minefield.tui.screens.builder import HandBuilderScreen, HintSource
from minefield.tui.screens.dialogs import (
    ConfirmScreen,
    CurtainScreen,
    MessageScreen,
    TooSmallScreen,
)
from minefield.tui.screens.drills import DrillsScreen, store_recorder
from minefield.tui.screens.help import HelpScreen, keys_markdown
from minefield.tui.screens.menu import MenuScreen, NewGameScreen
from minefield.tui.screens.play import PlayScreen
from minefield.tui.screens.result import ResultScreen, RunningScore
from minefield.tui.screens.review import ReviewScreen
from minefield.tui.screens.settings import SettingsScreen
from minefield.tui.screens.standings import StandingsScreen
from minefield.tui.screens.stats import StatsScreen
from minefield.tui.table import TableController
from minefield.tui.textual_private import default_exception_handler
from minefield.tui.trainer import Trainer
from minefield.tui.widgets.tiles import TileWidget

MIN_WIDTH, MIN_HEIGHT = 80, 24
HINT_LEVEL: Level = "strong"

BotFactory = Callable[[str, int], Bot]
GameMode = Literal["practice", "hotseat"]


@dataclass(frozen=True)
class GameRequest:
    """A game to start: what ``minefield practice`` / ``hotseat`` or the menu asked for.
    None fields fall back to the saved preferences (a random seed for ``seed``)."""

    mode: GameMode
    seed: int | str | None = None
    level: Level | None = None
    seat: Seat | None = None
    rules: str | None = None
    aids: bool = False  # hot-seat: both players agreed to the defense trainer's aids
    match: bool = False  # a whole match (R30), by default under the match preset


class MinefieldApp(App[int]):
    """Minefield in the terminal.

    ``request`` starts a game at once (else the menu shows). ``think_seconds`` is the bot's
    pause before each discard, ``bot_factory`` builds bots (tests pass stand-ins), and
    ``catch_errors`` keeps the app and the game alive after an unexpected error. Games are
    recorded in ``record_folder`` (default: the user data folder's ``records/``) unless the
    preferences turn it off. ``session`` plays a game already connected (a network game).
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
                 catch_errors: bool = True, record_folder: Path | None = None,
                 session: Session | None = None) -> None:
        super().__init__()
        self.preferences, self._startup_problem = given_or_saved(preferences)
        preferences = self.preferences
        self.tile_style: TileStyle = preferences.tile_style
        self.request = request
        self._first_session = session
        self.think_seconds = think_seconds
        self._bot_factory: BotFactory = bot_factory or make_bot
        self._catch_errors = catch_errors
        self._record_folder = record_folder
        self.table: TableController | None = None
        self._last_request: GameRequest | None = None
        self.scores = RunningScore()  # over "play again"; a game chosen anew starts afresh
        self._base_depth = 0
        self._recovery = RecoveryCounter()
        self._quit_question: ConfirmScreen | None = None
        self.errors: list[str] = []
        self.trainer = Trainer()  # the defense trainer: overlay, feedback, progress

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
        if self._first_session is not None:
            await self.play(self._first_session)
        elif self.request is not None:
            await self.start_game(self.request)
        self._check_size()

    def _apply_preferences(self, preferences: Preferences, save: bool = True) -> None:
        self.preferences = preferences
        self.tile_style = preferences.tile_style
        apply_look(self, preferences)
        for screen in self.screen_stack:
            for tile in screen.query(TileWidget):
                tile.refresh(layout=True)
        if save and (problem := save_preferences(preferences)):
            self.notify(problem, title="Settings", severity="error", markup=False)

    def _theme_changed(self, theme: object) -> None:
        if self.theme != self.preferences.theme:
            self._apply_preferences(self.preferences.model_copy(update={"theme": self.theme}))

    # -- games -----------------------------------------------------------------------------------

    @property
    def session(self) -> Session | None:
        """The session of the game on this terminal, if any."""
        return self.table.session if self.table is not None else None

    async def start_game(self, request: GameRequest) -> None:
        """Start a new local game as ``request`` asks (preferences fill the gaps)."""
        prefs = self.preferences
        seed = parse_seed(request.seed) if request.seed is not None else random_seed()
        try:
            settings = RuleSettings.preset(
                request.rules or ("match" if request.match else prefs.rules))
        except SettingsError as error:
            self.notify(str(error), title="Rules", severity="error", markup=False)
            settings = RuleSettings()
        self._last_request = request
        folder = (self._record_folder or records_dir()) if prefs.save_records else None
        if request.mode == "practice":
            level = request.level or prefs.bot_level
            session: Session = LocalSession.practice(
                # The bot's seed follows from the game's but does not reveal it (R2).
                seed, self._bot_factory(level, derive_int(seed, "practice bot")),
                human=request.seat, settings=settings, think_seconds=self.think_seconds,
                record_to=folder, on_failure=self._seat_failed, match=request.match)
        else:
            session = LocalSession.hotseat(seed, settings, record_to=folder,
                                           trainer_aids=request.aids, match=request.match)
        await self.play(session)

    async def play(self, session: Session) -> None:
        """Play ``session`` here (a local game, or a network game with the same screens)."""
        await self._leave_game()
        self._recovery.reset()
        self.trainer.new_game(session.traits, session.local_seats)
        self.table = TableController(self, session, lambda: self._hint_source(session))
        await self.table.start()

    def _hint_source(self, session: Session) -> HintSource | None:
        hint, traits = self.preferences.hint, session.traits
        if traits.mode == "network" or hint == "off" or (
                hint == "practice" and not traits.hints_allowed):
            return None
        seed = secrets.randbelow(2**31)
        factory = self._bot_factory
        return lambda view: factory(HINT_LEVEL, seed).act(view)

    def _seat_failed(self, failure: SeatFailed) -> None:
        """The bot failed (its session played the automatic move): log where, not its text."""
        log_failure(failure)
        self.errors.append(failure.kind)

    async def replace_game_screen(self, screen: Screen[None]) -> None:
        """Show ``screen`` in place of whatever is above the menu."""
        while len(self.screen_stack) > self._base_depth:
            await self.pop_screen()
        await self.push_screen(screen)
        self._check_size()

    async def _leave_game(self) -> None:
        table, self.table = self.table, None
        if table is not None:
            await table.close()
        self.sub_title = ""
        while len(self.screen_stack) > self._base_depth:
            await self.pop_screen()

    def _game_on(self) -> bool:
        """A game is being played here and has not ended (leaving it loses it)."""
        return self.table is not None and self.table.game_on

    # -- messages from the session and the screens -----------------------------------------------

    async def on_session_update(self, message: SessionUpdate) -> None:
        table = self.table
        if message.table is table and table is not None:
            await table.update(message.update)
            # The table read before the update: leaving the game may clear self.table meanwhile.
            if table.ready and (end := table.first_view().end) is not None:
                self.trainer.game_ended(end, self._tell_progress_problem)

    async def on_command_chosen(self, message: CommandChosen) -> None:
        if self.table is None:
            return
        table = self.table.tables.get(message.seat)
        if isinstance(message.command, Discard) and table is not None:
            self.trainer.discarding(table.view, message.command.tile)
        try:
            await self.table.session.send(message.seat, message.command)
        except Exception as error:
            self.recover_from(error)

    async def on_draft_changed(self, message: DraftChanged) -> None:
        if self.table is not None:
            await self.table.session.draft(message.seat, message.tiles)

    async def on_turn_passed(self, message: TurnPassed) -> None:
        if self.table is not None:
            await self.table.turn_passed()

    async def on_curtain_lifted(self, message: CurtainLifted) -> None:
        if self.table is not None:
            await self.table.curtain_lifted()

    async def on_new_game_requested(self, message: NewGameRequested) -> None:
        last, session = self._last_request, self.session
        rematch = getattr(session, "rematch", None)  # a network room plays again in place
        if message.again and session is not None and session.traits.mode == "network" and (
                rematch is not None):
            await rematch()
            self.notify("You asked for a rematch: it starts when the other player agrees.",
                        markup=False)
            return
        if message.again and last is not None:
            await self.start_game(replace(last, seed=None))
            return
        self.scores = RunningScore()
        if message.mode in ("practice", "hotseat"):
            mode: GameMode = "practice" if message.mode == "practice" else "hotseat"
            await self.start_game(GameRequest(mode))

    async def on_game_chosen(self, message: GameChosen) -> None:
        self.scores = RunningScore()
        await self.start_game(GameRequest(message.mode, level=message.level, seat=message.seat,
                                          rules=message.rules, aids=message.aids,
                                          match=message.match))

    async def on_next_game_requested(self, message: NextGameRequested) -> None:
        if self.table is None:
            return
        try:
            await self.table.next_game()
        except Exception as error:
            self.recover_from(error)
            return
        if self.table.session.traits.mode == "network":  # both players must be ready
            self.notify("You are ready for the next game: it starts when the other player is.",
                        markup=False)

    async def on_menu_requested(self, message: MenuRequested) -> None:
        await self.action_menu()  # asks first while a match goes on

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
            ("Final standings (after a match)", StandingsScreen.BINDINGS),
            ("Defense review", ReviewScreen.BINDINGS),
            ("Defense drills (type the answer, Enter)", DrillsScreen.BINDINGS),
            ("Menu", MenuScreen.BINDINGS),
            ("New game (the menu's form)", NewGameScreen.BINDINGS),
            ("Everywhere", [*self.BINDINGS, Binding("ctrl+p", "command_palette",
                                                    "Command palette (every action, themes)")]),
        ]
        self.push_screen(HelpScreen(keys_markdown(self, sections)))

    def action_settings(self) -> None:
        """Tile style, theme, hint, bot level and rules."""
        if isinstance(self.screen, SettingsScreen):
            return
        self.push_screen(SettingsScreen(self.preferences, sorted(self.available_themes)))

    # -- the defense trainer -------------------------------------------------------------------

    def _tell_progress_problem(self, problem: str) -> None:
        self.notify(problem, title="Progress", severity="warning", timeout=10, markup=False)

    def action_toggle_feedback(self) -> None:
        """Feedback after each of your discards (in the game log) on or off; saved."""
        on = not self.preferences.discard_feedback
        self._apply_preferences(self.preferences.model_copy(update={"discard_feedback": on}))
        self.notify(f"Feedback after each discard: {'on' if on else 'off'}.", markup=False)

    async def action_review_game(self) -> None:
        """Review the finished game's defense: each discard with its danger, the opponent's
        hand revealed (the local seats; hot-seat: both)."""
        table = self.table
        if table is None or not table.ready or table.first_view().end is None:
            return
        reviews = {}
        for seat in table.session.local_seats:
            view = table.tables[seat].view
            if view.end is not None:
                try:
                    reviews[seat] = review_game(view.end, view.discards, view.dora_indicator,
                                                table.session.settings, seat)
                except ReviewError as error:
                    self.notify(str(error), title="Review", severity="error", markup=False)
                    return
        if reviews and not isinstance(self.screen, ReviewScreen):
            await self.push_screen(ReviewScreen(reviews, self.trainer.opponent,
                                                 table.names()))

    async def action_stats(self) -> None:
        """The trainer's progress: games, deal-ins, danger over time, drills."""
        if not isinstance(self.screen, StatsScreen):
            store = self.trainer.progress(self._tell_progress_problem)
            await self.push_screen(StatsScreen(store.summary()))

    async def action_drills(self) -> None:
        """Defense drills: questions from seeded games, each answer saved in your progress."""
        if not isinstance(self.screen, DrillsScreen):
            store = self.trainer.progress(self._tell_progress_problem)
            await self.push_screen(DrillsScreen(store_recorder(store.record_drill),
                                                store.drill_history))

    async def action_menu(self) -> None:
        """Back to the menu (asks first while a game is on)."""
        if self.table is None:
            return
        if not self._game_on():
            await self._leave_game()
            return

        async def answered(leave: bool | None) -> None:
            if leave:
                await self._leave_game()

        match = self.table.match
        question = "Leave this match?" if match is not None else "Leave this game?"
        await self.push_screen(ConfirmScreen(self._leaving_question(question),
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
            self._leaving_question("Quit Minefield?"), yes="Quit", no="Keep playing")
        await self.push_screen(self._quit_question, answered)

    def _leaving_question(self, question: str) -> str:
        session = self.session
        if session is not None and session.traits.resumable:
            return (f"{question} The game goes on without you (the clocks play for you); come "
                    "back to it with `minefield resume`.")
        return f"{question} This game cannot be resumed."

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """The palette's app commands (Help comes from its key binding), without Screenshot:
        it would write the screen to disk, hidden tiles included."""
        yield SystemCommand("Settings", "Tile style, theme, hint, bot level, rules",
                            self.action_settings)
        yield SystemCommand("Defense stats", "Your progress as a defender: games, deal-ins, "
                            "danger taken against the least possible, drills", self.action_stats)
        yield SystemCommand("Defense drills", "Safest tile, read the wait, is it mangan, build "
                            "a safe hand", self.action_drills)
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
            if not self._catch_errors or self.table is None:
                raise
            self.recover_from(error)
            return True

    def _handle_exception(self, error: Exception) -> None:
        """Textual's hook for an error nothing caught (a handler, a worker)."""
        self.recover_from(error)

    def recover_from(self, error: Exception) -> None:
        """An unexpected error: log it, tell the player, and rebuild the game's screen from the
        session, which still holds the game. Without a game, or in a crash loop
        (:class:`~minefield.tui.crash.RecoveryCounter`), exit with a report."""
        if not self._catch_errors or self.table is None or not self._recovery.may_recover():
            default_exception_handler(self, error)
            return
        if isinstance(error, WorkerFailed) and isinstance(error.error, Exception):
            error = error.error  # the session worker's own error, with its traceback
        where = log_error(error)
        self.errors.append(type(error).__name__)
        self.call_later(self._recover, type(error).__name__, where)

    async def _recover(self, name: str, where: str) -> None:
        table = self.table
        try:
            if table is not None:
                table.forget_screen()
                await table.show()  # hot-seat starts again behind the curtain
        finally:
            await self.push_screen(MessageScreen(
                "Something went wrong",
                f"An unexpected error ({name}) happened. Your game is kept and goes on.\n"
                f"Details were written to {where}."))

    def _fatal_error(self) -> None:
        """Exit after an error, with a traceback that shows no local variables (hidden tiles)."""
        exit_with_report(self)

    def __repr__(self) -> str:
        return f"MinefieldApp(table={getattr(self, 'table', None)!r})"
