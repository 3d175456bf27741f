"""The Textual app: it wires the screens, the key bindings and the preferences.

A game on this terminal is a :class:`~minefield.tui.table_controller.TableController` (the
session, its updates, which screen shows which seat), opened from a :class:`~minefield.tui.games.
GameRequest`. The app is one :class:`~textual.app.App` that holds its parts: the preferences and
their look (:class:`~minefield.tui.app_preferences.AppPreferences`), the crash recovery
(:class:`~minefield.tui.crash.CrashRecovery`), the watch on an SSH terminal
(:class:`~minefield.tui.link_watch.TerminalWatch`), the running score
(:class:`~minefield.tui.scores.ScoreKeeper`), the trainer's screens
(:class:`~minefield.tui.trainer_actions.TrainerDoors`, given to the menu, play and result
screens, whose keys and palette commands open them) and the menu's
(:class:`~minefield.tui.menu_actions.MenuDoors`, given to the menu screen). Screens get what
they need passed in (the doors, the preferences), post intents (:mod:`minefield.tui.messages`)
and never touch a game; the app keeps only the app-wide keys (help, settings, menu, quit).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, on
from textual.actions import ActionParseResult
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.screen import Screen

from minefield.tui.app_preferences import AppPreferences
from minefield.tui.command_palette import ScreenActions, app_commands
from minefield.tui.crash import CrashRecovery
from minefield.tui.games import (
    BotFactory,
    GameRequest,
    default_bot_factory,
    hint_source,
    open_session,
)
from minefield.tui.link_watch import LinkWatch, TerminalWatch
from minefield.tui.look import STYLESHEET
from minefield.tui.menu_actions import MenuDoors
from minefield.tui.messages import (
    GameChosen,
    MenuRequested,
    NewGameRequested,
    SessionUpdate,
    TableIntent,
)
from minefield.tui.render import TileStyle
from minefield.tui.scores import RunningScore, ScoreKeeper
from minefield.tui.screens.dialogs import ConfirmScreen, cover_if_too_small
from minefield.tui.screens.menu import MenuScreen
from minefield.tui.textual_private import forget_gone_widgets
from minefield.tui.trainer import Trainer
from minefield.tui.trainer_actions import TrainerDoors

# What only a game, a key or a menu entry needs is imported there, not here: the menu's first
# frame waits for every import of this module (the bots, the session and its wire
# models, the help's Markdown, the drills' SQLite and the other screens come later).
if TYPE_CHECKING:
    from minefield.session import Session
    from minefield.tui.config import Preferences
    from minefield.tui.screens.rooms import ServerAddress
    from minefield.tui.screens.settings import SettingsScreen
    from minefield.tui.table_controller import TableController

__all__ = ["MinefieldApp"]


class MinefieldApp(App[int]):
    """Minefield in the terminal.

    ``request`` starts a game at once (else the menu shows). ``think_seconds`` is the bot's
    pause before each discard (None: the session's default), ``bot_factory`` builds bots (tests
    pass stand-ins), and ``catch_errors`` keeps the app and the game alive after an unexpected
    error. Games are recorded in ``record_folder`` (default: the user data folder's
    ``records/``) unless the preferences turn it off. ``session`` plays a game already
    connected (a network game); ``server`` is the game server of the menu's rooms (over SSH).
    ``lobby``: the game was chosen in the server's lobby (``minefield lobby``), which comes
    back when the app ends: every way out of the game ends the app, never shows the menu.
    """

    CSS_PATH = STYLESHEET
    TITLE = "Minefield"
    COMMANDS = App.COMMANDS | {ScreenActions}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "help", "Help", key_display="F1"),
        Binding("f2", "settings", "Settings", show=False),
        # Replaces Textual's own ctrl+q, which quits at once even in the middle of a game.
        Binding("ctrl+q", "quit", "Quit (asks first during a game)", show=False, priority=True),
        # As in other terminal programs (Textual binds nothing to it); even in a text field.
        Binding("ctrl+z", "suspend_process", "Suspend (fg resumes)", show=False, priority=True),
    ]

    def __init__(self, request: GameRequest | None = None, *,
                 think_seconds: float | None = None,
                 bot_factory: BotFactory | None = None,
                 preferences: Preferences | None = None,
                 catch_errors: bool = True, record_folder: Path | None = None,
                 session: Session | None = None, link_watch: LinkWatch | None = None,
                 server: ServerAddress | None = None, lobby: bool = False) -> None:
        super().__init__()
        self.crash = CrashRecovery(self, self, catch_errors)  # keeps the game through a bug
        self._link_watch_given = link_watch
        #: Over SSH: is the terminal there? (link_watch.py)
        self.terminal_watch = TerminalWatch(self, self.close_for_lost_link)
        self.server = server
        self.lobby = lobby
        #: The saved preferences unless given, and their look (app_preferences.py).
        self.prefs = AppPreferences(self, preferences)
        self.request = request
        self._first_session = session
        self.think_seconds = think_seconds
        self._bot_factory: BotFactory = bot_factory or default_bot_factory
        self._record_folder = record_folder
        self.table: TableController | None = None
        self._last_request: GameRequest | None = None
        #: The running score over "play again" (a room's kept on disk: scores.py).
        self.score_keeper = ScoreKeeper()
        self._base_depth = 0
        self._quit_question: ConfirmScreen | None = None
        self.trainer = Trainer()  # the defense trainer: overlay, feedback, progress
        #: The trainer's screens: review, progress, drills (trainer_actions.py).
        self.trainer_doors = TrainerDoors(self, self.trainer, self.prefs)
        #: The menu's saved games, bots to watch and rooms (menu_actions.py).
        self.menu_doors = MenuDoors(self, self.prefs, self._bot_factory, record_folder, server,
                                    self._play_room)

    async def on_mount(self) -> None:
        try:
            self.prefs.show_first_look()
            await self.push_screen(MenuScreen(self.menu_doors, self.trainer_doors,
                                              rooms=self.server is not None))
            self._base_depth = len(self.screen_stack)
            if self.prefs.startup_problem:
                self._warn(self.prefs.startup_problem, "Settings")
            if self._first_session is not None:
                await self.play(self._first_session)
            elif self.request is not None:
                await self.start_game(self.request)
            cover_if_too_small(self)
            self.terminal_watch.start(self._link_watch_given)
        finally:  # even after an error here: the collector must come back on
            self.call_after_refresh(lambda: self.prefs.after_first_frame(self.table is not None))

    async def close_for_lost_link(self) -> None:
        """The terminal is gone: close the game's connection (not a leave: the seat waits for
        its player, the grace period runs)."""
        table, self.table = self.table, None
        if table is not None:
            await table.close()

    def on_cursor_position(self, event: events.CursorPosition) -> None:
        """The terminal answered the link watch's question."""
        self.terminal_watch.answered()

    def _warn(self, text: str, title: str) -> None:
        # Not markup: reports quote files and errors, brackets and all.
        self.notify(text, title=title, severity="warning", timeout=10, markup=False)

    @property
    def preferences(self) -> Preferences:
        """The player's preferences (:class:`~minefield.tui.app_preferences.AppPreferences`)."""
        return self.prefs.preferences

    @property
    def tile_style(self) -> TileStyle:
        """How tiles are drawn now."""
        return self.prefs.tile_style

    # -- games -----------------------------------------------------------------------------------

    @property
    def session(self) -> Session | None:
        """The session of the game on this terminal, if any."""
        return self.table.session if self.table is not None else None

    async def start_game(self, request: GameRequest, form: Screen[Any] | None = None
                         ) -> None:
        """Start a new local game as ``request`` asks (preferences fill the gaps). The ``form``
        it was chosen in stays until the game's first screen replaces it (never the menu in
        between)."""
        from minefield.paths import records_dir

        prefs = self.preferences
        self._last_request = request
        session, problem = open_session(
            request, prefs, bot_factory=self._bot_factory, think_seconds=self.think_seconds,
            record_to=(self._record_folder or records_dir()) if prefs.save_records else None,
            on_failure=self.crash.seat_failed)
        if problem:
            self.notify(problem, title="Rules", severity="error", markup=False)
        await self.play(session, form)

    async def play(self, session: Session, form: Screen[Any] | None = None) -> None:
        """Play ``session`` here (a local game, or a network game with the same screens);
        ``form`` (the new game form, over the menu) stays until the first screen replaces it."""
        from minefield.tui.table_controller import TableController

        await self._leave_game(another=True, keep=form)
        forget_gone_widgets(self)  # the game before's screens (or the app before's)
        self.score_keeper.new_session()
        self.crash.new_game()
        self.trainer.new_game(session.traits, session.local_seats)
        self.table = TableController(self, session, self, lambda: hint_source(
            self.preferences, session, self._bot_factory), trainer=self.trainer_doors,
            prefs=self.prefs)
        await self.table.start()

    async def show_game_screen(self, screen: Screen[None]) -> None:
        """Show ``screen`` in place of the game's screen, straight: the screen it replaces goes
        in the same step (nothing else shows in between), and dialogs over it close."""
        while len(self.screen_stack) > self._base_depth + 1:
            await self.pop_screen()
        if len(self.screen_stack) > self._base_depth:
            await self.switch_screen(screen)
        else:
            await self.push_screen(screen)
        cover_if_too_small(self)

    async def _leave_game(self, on_purpose: bool = False, another: bool = False,
                          keep: Screen[Any] | None = None) -> None:
        table, self.table = self.table, None
        self.sub_title = ""
        ending = self.lobby and table is not None and not another  # the lobby comes back
        while len(self.screen_stack) > self._base_depth and not ending:  # (no menu shown)
            if self.screen is keep and len(self.screen_stack) == self._base_depth + 1:
                break  # the form over the menu: the game's first screen replaces it
            await self.pop_screen()
        forget_gone_widgets(self)
        if table is not None:
            await table.close(on_purpose)
        if ending:
            self.exit()

    async def _play_room(self, session: Session) -> None:
        """Play a room of the game server (another room: its own tally; a resume finds its
        own: :meth:`~minefield.tui.scores.ScoreKeeper.room_tally`)."""
        self.score_keeper.start_afresh()
        await self.play(session)

    @property
    def scores(self) -> RunningScore:
        """The running score the next result joins (a resumed room's is read from disk)."""
        return self.score_keeper.scores

    def has_game(self) -> bool:
        """A game is kept here (an unexpected error does not end the app)."""
        return self.table is not None

    async def rebuild_game(self) -> None:
        """After an error: the game's screen again from its session (hot-seat: the curtain)."""
        if self.table is not None:
            self.table.forget_screen()
            await self.table.show()

    async def leave_broken_screen(self) -> None:
        """After an error without a game (the drills, a form): back to the menu."""
        while len(self.screen_stack) > self._base_depth:
            await self.pop_screen()

    # -- unexpected errors: Textual's hooks hand them to the crash recovery (crash.py) -----------

    async def run_action(self, action: str | ActionParseResult,
                         default_namespace: DOMNode | None = None,
                         namespaces: Mapping[str, DOMNode] | None = None) -> bool:
        """Run an action; a bug in a screen's action becomes a message, not a dead app."""
        return await self.crash.guard(super().run_action(action, default_namespace, namespaces))

    def _handle_exception(self, error: Exception) -> None:
        """Textual's hook for an error nothing caught (a handler, a worker)."""
        self.crash.recover_from(error)

    def recover_from(self, error: Exception) -> None:
        """An unexpected error at the table: log it, tell the player, keep the game."""
        self.crash.recover_from(error)

    def _fatal_error(self) -> None:
        """Exit after an error, with a traceback that shows no local variables (hidden tiles)."""
        self.crash.exit_with_report()

    # -- messages from the session and the screens (the table turns them into commands) ----------

    async def on_session_update(self, message: SessionUpdate) -> None:
        table = self.table
        if message.table is table and table is not None:
            self.score_keeper.room_tally(table.session, before=True)
            await table.update(message.update)
            # The table read before the update: leaving the game may clear self.table meanwhile.
            if table.ready and (end := table.first_view().end) is not None:
                self.trainer.game_ended(end, self.trainer_doors.tell_progress_problem)
                self.score_keeper.room_tally(table.session, before=False)

    @on(TableIntent)
    async def _table_intent(self, message: TableIntent) -> None:
        if self.table is not None:
            await self.table.intent(message)

    async def on_new_game_requested(self, message: NewGameRequested) -> None:
        if message.again and self.table is not None and await self.table.rematch():
            return  # a network room plays again in place, when the other player agrees
        if message.again and self._last_request is not None:
            await self.start_game(replace(self._last_request, seed=None))
            return
        self.score_keeper.start_afresh()
        if message.mode in ("practice", "hotseat"):
            await self.start_game(GameRequest("practice" if message.mode == "practice"
                                              else "hotseat"))

    async def on_game_chosen(self, message: GameChosen) -> None:
        from minefield.tui.screens.new_game import NewGameScreen  # loaded: the form sent it

        self.score_keeper.start_afresh()
        form = self.screen if isinstance(self.screen, NewGameScreen) else None
        await self.start_game(message.request, form)

    async def on_menu_requested(self, message: MenuRequested) -> None:
        await self.action_menu()  # asks first while a match goes on

    def on_settings_screen_changed(self, message: SettingsScreen.Changed) -> None:
        self.prefs.apply(message.preferences)

    async def action_menu(self) -> None:
        """Back to the menu (asks first while a game is on)."""
        if self.table is None:
            return
        if not self.table.game_on:
            await self._leave_game()
            return

        async def answered(leave: bool | None) -> None:
            if leave:
                await self._leave_game(on_purpose=True)

        question = self.table.leaving_question(
            "Leave this match?" if self.table.match is not None else "Leave this game?")
        await self.push_screen(ConfirmScreen(question, yes="Leave the game", no="Keep playing"),
                               answered)

    async def action_quit(self) -> None:
        """Quit; while a game is on, ask first as leaving it for the menu does (a stray
        ctrl+q must not end a hot-seat game). Ctrl+q on that question quits."""
        if self.table is None or not self.table.game_on or self.screen is self._quit_question:
            self.exit()
            return

        async def answered(leave: bool | None) -> None:
            self._quit_question = None
            if leave:
                if self.table is not None and self.table.against_bot:
                    await self._leave_game(on_purpose=True)  # the server closes it
                self.exit()

        question = "Back to the lobby?" if self.lobby else "Quit Minefield?"
        self._quit_question = ConfirmScreen(self.table.leaving_question(question),
                                            yes=question.removesuffix("?").replace(
                                                "Quit Minefield", "Quit"), no="Keep playing")
        await self.push_screen(self._quit_question, answered)

    # -- the app-wide doors (keys, the menu, the palette): the screens come from their holders ----

    def action_help(self) -> None:
        """The rules in brief and every key."""
        from minefield.tui.command_palette import game_key_sections
        from minefield.tui.screens.help import HelpScreen, keys_markdown

        if not isinstance(self.screen, HelpScreen):
            sections = game_key_sections(list(self.BINDINGS))
            self.push_screen(HelpScreen(keys_markdown(self, sections)))

    def action_settings(self) -> None:
        """Tile style, theme, hint, bot level and rules."""
        from minefield.tui.screens.settings import SettingsScreen

        if not isinstance(self.screen, SettingsScreen):
            self.push_screen(SettingsScreen(self.preferences, sorted(self.available_themes)))

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """The palette's app commands (:func:`~minefield.tui.command_palette.app_commands`)."""
        return app_commands(self, screen, super().get_system_commands(screen))

    def on_resize(self, event: events.Resize) -> None:
        cover_if_too_small(self, event.size.width, event.size.height)

    def __repr__(self) -> str:
        return f"MinefieldApp(table={getattr(self, 'table', None)!r})"
