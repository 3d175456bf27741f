"""The menu's other doors in the game app: help, settings, the saved games, watching two bots,
and (over SSH) the game server's rooms with their running score kept across a resume. Key
bindings, the menu and the palette run these actions."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App

from minefield.tui.scores import RunningScore

# The screens, the session and the bots load when first asked for, not with the menu.
if TYPE_CHECKING:
    from minefield.session import Session
    from minefield.tui.config import Preferences
    from minefield.tui.games import BotFactory
    from minefield.tui.screens.bot_watch import WatchChoice
    from minefield.tui.screens.rooms import ServerAddress
    from minefield.tui.table_controller import TableController
    from minefield.tui.trainer import Trainer


class MenuActions(App[int]):
    """The saved games, the bots to watch and the rooms of an app that has ``preferences``, a
    ``trainer``, a bot factory, a record folder, a running score and (over SSH) a ``server``;
    :meth:`play` plays a session."""

    preferences: Preferences
    trainer: Trainer
    scores: RunningScore
    server: ServerAddress | None
    tally_game: str | None
    _bot_factory: BotFactory
    _record_folder: Path | None

    async def play(self, session: Session) -> None:
        """Play ``session`` here."""
        raise NotImplementedError

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

    async def action_games(self) -> None:
        """The saved games and matches: replay one, review its defense, filter by mode."""
        from minefield.paths import records_dir
        from minefield.tui.screens.games import GamesScreen

        if not isinstance(self.screen, GamesScreen):
            await self.push_screen(GamesScreen(self._record_folder or records_dir()))

    async def action_watch(self) -> None:
        """Two bots of chosen levels play on the table at a chosen pace."""
        from minefield.tui.screens.bot_watch import WatchScreen, WatchSetupScreen

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
        from minefield.tui.screens.bot_watch import WatchScreen, make_bots

        seed = seed if seed is not None else random_seed()
        await self.push_screen(WatchScreen(choice, make_bots(choice, seed, self._bot_factory),
                                           seed))

    async def action_watch_again(self) -> None:
        """Another game between the bots being watched, at the pace and with the hands as
        they are now."""
        from minefield.tui.screens.bot_watch import WatchScreen

        screen = self.screen
        if isinstance(screen, WatchScreen):
            choice = replace(screen.choice, pace=screen.pace, shown=screen.shown)
            await self.pop_screen()
            await self._watch(choice)

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
        from minefield.session.daemon_socket import RemoteError
        from minefield.session.remote_start import host, join, resume

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

    def room_tally(self, table: TableController, before: bool) -> None:
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
            if game_id == self.tally_game:
                return
            if self.tally_game is None and (kept := room_scores.load(game_id)) is not None:
                self.scores = RunningScore.from_dict(kept)
            self.tally_game = game_id
        room_scores.save(game_id, self.scores.to_dict())


__all__ = ["MenuActions"]
