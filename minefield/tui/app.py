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
from typing import TYPE_CHECKING, ClassVar, Literal

from textual import events
from textual.actions import ActionParseResult
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.screen import Screen
from textual.worker import WorkerFailed

from minefield.bots.base import Bot, Level
from minefield.rules.game import Discard, Seat
from minefield.tui.commands import ScreenActions
from minefield.tui.config import Preferences, given_or_saved, save_preferences
from minefield.tui.crash import RecoveryCounter, exit_with_report, log_error, log_failure
from minefield.tui.link_watch import CURSOR_POSITION_REQUEST, LinkWatch, over_ssh
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
from minefield.tui.screens.dialogs import ConfirmScreen, MessageScreen, TooSmallScreen
from minefield.tui.screens.menu import MenuScreen, NewGameScreen
from minefield.tui.screens.result import RunningScore
from minefield.tui.textual_private import default_exception_handler
from minefield.tui.trainer import Trainer
from minefield.tui.widgets.tiles import TileWidget

# What only a game, a key or a menu entry needs is imported there, not here: the menu's first
# frame waits for every import of this module (issue 18: the bots, the session and its wire
# models, the help's Markdown, the drills' SQLite and the other screens come later).
if TYPE_CHECKING:
    from minefield.session import SeatFailed, Session
    from minefield.tui.screens.builder import HintSource
    from minefield.tui.screens.rooms import ServerAddress
    from minefield.tui.screens.settings import SettingsScreen
    from minefield.tui.screens.watch import WatchChoice
    from minefield.tui.table import TableController

MIN_WIDTH, MIN_HEIGHT = 80, 24
HINT_LEVEL: Level = "strong"

BotFactory = Callable[[str, int], Bot]


def _make_bot(level: str, seed: int) -> Bot:
    """:func:`minefield.bots.make_bot`, imported with the first game."""
    from minefield.bots import make_bot

    return make_bot(level, seed)
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
    rule: tuple[str, ...] = ()  # NAME=VALUE settings over the preset (``--rule``, ``--clock``)


class MinefieldApp(App[int]):
    """Minefield in the terminal.

    ``request`` starts a game at once (else the menu shows). ``think_seconds`` is the bot's
    pause before each discard (None: the session's default), ``bot_factory`` builds bots
    (tests pass stand-ins), and
    ``catch_errors`` keeps the app and the game alive after an unexpected error. Games are
    recorded in ``record_folder`` (default: the user data folder's ``records/``) unless the
    preferences turn it off. ``session`` plays a game already connected (a network game).
    """

    CSS_PATH = str(files("minefield.assets") / "minefield.tcss")
    TITLE = "Minefield"
    COMMANDS = App.COMMANDS | {ScreenActions}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "help", "Help", key_display="F1"),
        Binding("f2", "settings", "Settings", show=False),
        # Replaces Textual's own ctrl+q, which quits at once even in the middle of a game.
        Binding("ctrl+q", "quit", "Quit (asks first during a game)", show=False, priority=True),
    ]

    def __init__(self, request: GameRequest | None = None, *,
                 think_seconds: float | None = None,
                 bot_factory: BotFactory | None = None,
                 preferences: Preferences | None = None,
                 catch_errors: bool = True, record_folder: Path | None = None,
                 session: Session | None = None, link_watch: LinkWatch | None = None,
                 server: ServerAddress | None = None) -> None:
        super().__init__()
        #: The game server the menu's room entries use (an SSH session's menu), if any.
        self.server = server
        #: Over SSH, the terminal is asked every few seconds whether it is still there
        #: (:mod:`minefield.tui.link_watch`): a dead link ends the app, and with it the seat's
        #: connection, so that the other player is told.
        self._link_watch = link_watch if link_watch is not None else (
            LinkWatch() if over_ssh() else None)
        self.preferences, self._startup_problem = given_or_saved(preferences)
        preferences = self.preferences
        self.tile_style: TileStyle = preferences.tile_style
        self.request = request
        self._first_session = session
        self.think_seconds = think_seconds
        self._bot_factory: BotFactory = bot_factory or _make_bot
        self._catch_errors = catch_errors
        self._record_folder = record_folder
        self.table: TableController | None = None
        self._last_request: GameRequest | None = None
        self.scores = RunningScore()  # over "play again"; a game chosen anew starts afresh
        self._tally_game: str | None = None  # the network game whose tally is kept on disk
        self._base_depth = 0
        self._recovery = RecoveryCounter()
        self._quit_question: ConfirmScreen | None = None
        self.errors: list[str] = []
        self.trainer = Trainer()  # the defense trainer: overlay, feedback, progress

    # -- start-up --------------------------------------------------------------------------------

    async def on_mount(self) -> None:
        self._apply_preferences(self.preferences, save=False)
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        await self.push_screen(MenuScreen(rooms=self.server is not None))
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
        if self._link_watch is not None:
            self.set_interval(self._link_watch.probe, self._probe_link)
            self._probe_link()

    async def action_room(self, kind: str) -> None:
        """The menu's room entries: host a room, join one (its code asked first), resume."""
        server = self.server
        if server is None or kind not in ("host", "join", "resume"):
            return
        if kind == "join":
            async def chosen(code: str | None) -> None:
                if code is not None:
                    await self._connect(server, "join", code)

            from minefield.tui.screens.rooms import CodeScreen

            await self.push_screen(CodeScreen(), chosen)
            return
        await self._connect(server, kind)

    async def _connect(self, server: ServerAddress, kind: str, code: str = "") -> None:
        """Connect to the game server and play; a refusal is one line on the menu."""
        from minefield.session.remote import RemoteError, host, join, resume

        try:
            if kind == "host":
                session = await host(socket=server.socket, player=server.player)
            elif kind == "join":
                session = await join(code, socket=server.socket, player=server.player)
            else:
                session = await resume(socket=server.socket, player=server.player)
        except RemoteError as error:
            self.notify(str(error), title="Game server", severity="error", timeout=10,
                        markup=False)
            return
        self.scores = RunningScore()  # another room: its own tally (a resume finds its own)
        await self.play(session)

    def _probe_link(self) -> None:
        """Ask the terminal where its cursor is; leave if it has stopped answering."""
        watch = self._link_watch
        if watch is None:
            return
        if watch.tick():
            if self._driver is not None:
                self._driver.write(CURSOR_POSITION_REQUEST)
            return
        self._link_watch = None
        self.run_worker(self._link_lost(), group="link")

    async def _link_lost(self) -> None:
        """The terminal is gone: close the game's connection (not a leave: the seat waits for
        its player, the grace period runs) and exit."""
        table, self.table = self.table, None
        if table is not None:
            await table.close()
        self.exit(return_code=3, message="minefield: the terminal stopped answering (the link "
                  "is down): the game waits for you; come back with `ssh -t HOST resume`.")

    def on_cursor_position(self, event: events.CursorPosition) -> None:
        """The terminal answered the link watch's question."""
        if self._link_watch is not None:
            self._link_watch.answered()

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
        from minefield.paths import records_dir
        from minefield.rules.seed import derive_int, parse_seed, random_seed
        from minefield.rules.settings import RuleSettings, SettingsError
        from minefield.session import LocalSession
        from minefield.session.local import DEFAULT_THINK_SECONDS

        prefs = self.preferences
        seed = parse_seed(request.seed) if request.seed is not None else random_seed()
        try:
            settings = RuleSettings.chosen(
                request.rules or ("match" if request.match else prefs.rules), request.rule)
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
                human=request.seat, settings=settings,
                think_seconds=DEFAULT_THINK_SECONDS if self.think_seconds is None
                else self.think_seconds,
                record_to=folder, on_failure=self._seat_failed, match=request.match)
        else:
            session = LocalSession.hotseat(seed, settings, record_to=folder,
                                           trainer_aids=request.aids, match=request.match)
        await self.play(session)

    async def play(self, session: Session) -> None:
        """Play ``session`` here (a local game, or a network game with the same screens)."""
        from minefield.tui.table import TableController

        await self._leave_game()
        self._tally_game = None
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

    async def _leave_game(self, on_purpose: bool = False) -> None:
        table, self.table = self.table, None
        if table is not None:
            await table.close(on_purpose)
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
            self._room_tally(table, before=True)
            await table.update(message.update)
            # The table read before the update: leaving the game may clear self.table meanwhile.
            if table.ready and (end := table.first_view().end) is not None:
                self.trainer.game_ended(end, self._tell_progress_problem)
                self._room_tally(table, before=False)

    def _room_tally(self, table: TableController, before: bool) -> None:
        """A network room's running score survives a resume: it is kept on disk under each
        of the room's game ids (:mod:`minefield.tui.room_scores`). ``before`` an update: a
        game id seen for the first time takes the tally kept for it (a resume), or keeps the
        tally so far under it (a new room starts at nothing, a rematch carries it on); after
        a game's end: the tally with that game is kept."""
        game_id = getattr(table.session, "game_id", None)
        if table.session.traits.mode != "network" or not isinstance(game_id, str):
            return
        from minefield.tui import room_scores

        if before:
            if game_id == self._tally_game:
                return
            if self._tally_game is None and (kept := room_scores.load(game_id)) is not None:
                self.scores = RunningScore.from_dict(kept)
            self._tally_game = game_id
        room_scores.save(game_id, self.scores.to_dict())

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
                                          match=message.match, rule=message.rule))

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
        from minefield.tui.screens.builder import HandBuilderScreen
        from minefield.tui.screens.dialogs import CurtainScreen
        from minefield.tui.screens.drills import DrillsScreen
        from minefield.tui.screens.games import GameReplayScreen, GamesScreen
        from minefield.tui.screens.help import HelpScreen, keys_markdown
        from minefield.tui.screens.play import PlayScreen
        from minefield.tui.screens.replay import ReplayScreen
        from minefield.tui.screens.result import ResultScreen
        from minefield.tui.screens.review import ReviewScreen
        from minefield.tui.screens.standings import StandingsScreen
        from minefield.tui.screens.watch import WatchScreen

        if isinstance(self.screen, HelpScreen):
            return
        sections: list[tuple[str, list[BindingType]]] = [
            ("Building the hand (type a tile such as 5p, E or Wh to toggle it)",
             HandBuilderScreen.BINDINGS),
            ("Playing (type a tile such as 5p, E or Wh to select it)", PlayScreen.BINDINGS),
            ("Hot-seat curtain", CurtainScreen.BINDINGS),
            ("Result", ResultScreen.BINDINGS),
            ("Final standings (after a match)", StandingsScreen.BINDINGS),
            ("Saved games (g on the menu; Enter on a match lists its games)",
             GamesScreen.BINDINGS),
            ("Replay (type a step number, then Enter, to go there)",
             [b for b in ReplayScreen.BINDINGS if getattr(b, "action", "") != "close"]
             + GameReplayScreen.BINDINGS),
            ("Watching two bots (w on the menu)", WatchScreen.BINDINGS),
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
        from minefield.tui.screens.settings import SettingsScreen

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
        from minefield.trainer.review import ReviewError, review_game
        from minefield.tui.screens.review import ReviewScreen

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
        from minefield.tui.screens.stats import StatsScreen

        if not isinstance(self.screen, StatsScreen):
            store = self.trainer.progress(self._tell_progress_problem)
            await self.push_screen(StatsScreen(store.summary()))

    async def action_games(self) -> None:
        """The saved games and matches: replay one, review its defense, filter by mode."""
        from minefield.paths import records_dir
        from minefield.tui.screens.games import GamesScreen

        if not isinstance(self.screen, GamesScreen):
            await self.push_screen(GamesScreen(self._record_folder or records_dir()))

    async def action_watch(self) -> None:
        """Two bots of chosen levels play on the table at a chosen pace."""
        from minefield.tui.screens.watch import WatchScreen, WatchSetupScreen

        if isinstance(self.screen, WatchScreen | WatchSetupScreen):
            return
        prefs = self.preferences
        await self.push_screen(WatchSetupScreen(prefs.bot_level, prefs.rules),
                               self._watch_chosen)

    async def _watch_chosen(self, choice: WatchChoice | None) -> None:
        if choice is not None:
            await self._watch(choice)

    async def _watch(self, choice: WatchChoice, seed: int | str | None = None) -> None:
        from minefield.rules.seed import random_seed
        from minefield.tui.screens.watch import WatchScreen, make_bots

        seed = seed if seed is not None else random_seed()
        await self.push_screen(WatchScreen(choice, make_bots(choice, seed, self._bot_factory),
                                           seed))

    async def action_watch_again(self) -> None:
        """Another game between the bots being watched, at the pace and with the hands as
        they are now."""
        from minefield.tui.screens.watch import WatchScreen

        screen = self.screen
        if isinstance(screen, WatchScreen):
            choice = replace(screen.choice, pace=screen.pace, shown=screen.shown)
            await self.pop_screen()
            await self._watch(choice)

    async def action_drills(self) -> None:
        """Defense drills: questions from seeded games, each answer saved in your progress."""
        from minefield.tui.screens.drills import DrillsScreen, store_recorder

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
                await self._leave_game(on_purpose=True)

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

        async def answered(leave: bool | None) -> None:
            self._quit_question = None
            if leave:
                if self.table is not None and self.table.against_bot:
                    await self._leave_game(on_purpose=True)  # the server closes it
                self.exit()

        self._quit_question = ConfirmScreen(
            self._leaving_question("Quit Minefield?"), yes="Quit", no="Keep playing")
        await self.push_screen(self._quit_question, answered)

    def _leaving_question(self, question: str) -> str:
        session = self.session
        if self.table is not None and self.table.against_bot:
            return f"{question} A game against a bot is closed when you leave it."
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
