"""The menu's other doors in the game app: the saved games, watching two bots, and (over SSH)
the game server's rooms. :class:`MenuDoors` is made by the app with what they need and held by
the :class:`~minefield.tui.screens.menu.MenuScreen`, whose entries and keys open them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import App

# The screens, the session and the bots load when first asked for, not with the menu.
if TYPE_CHECKING:
    from minefield.session import Session
    from minefield.tui.app_preferences import AppPreferences
    from minefield.tui.config import Preferences
    from minefield.tui.games import BotFactory
    from minefield.tui.screens.bot_watch import WatchChoice
    from minefield.tui.screens.rooms import ServerAddress


class MenuDoors:
    """The saved games (in ``record_folder``, else the user's records folder), the bots to
    watch (built by ``bot_factory``, their levels and rules first from ``prefs``) and the rooms
    of ``server`` (None: no game server), shown by ``app``; a room's session is played by
    ``play_room``."""

    def __init__(self, app: App[Any], prefs: AppPreferences, bot_factory: BotFactory,
                 record_folder: Path | None, server: ServerAddress | None,
                 play_room: Callable[[Session], Awaitable[None]]) -> None:
        self._app = app
        self._prefs = prefs
        self._bot_factory = bot_factory
        self._record_folder = record_folder
        self.server = server
        self._play_room = play_room

    @property
    def preferences(self) -> Preferences:
        """The player's preferences (the new-game form starts from them)."""
        return self._prefs.preferences

    async def games(self) -> None:
        """The saved games and matches: replay one, review its defense, filter by mode."""
        from minefield.paths import records_dir
        from minefield.tui.screens.games import GamesScreen

        if not isinstance(self._app.screen, GamesScreen):
            await self._app.push_screen(GamesScreen(self._record_folder or records_dir()))

    async def watch(self) -> None:
        """Two bots of chosen levels play on the table at a chosen pace."""
        from minefield.tui.screens.bot_watch import WatchScreen, WatchSetupScreen

        if isinstance(self._app.screen, WatchScreen | WatchSetupScreen):
            return
        prefs = self._prefs.preferences
        await self._app.push_screen(WatchSetupScreen(prefs.bot_level, prefs.rules),
                                    self._watch_chosen)

    async def _watch_chosen(self, choice: WatchChoice | None) -> None:
        if choice is not None:
            await self._watch(choice)

    async def _watch(self, choice: WatchChoice, seed: int | str | None = None) -> None:
        from minefield.rules.seed import random_seed
        from minefield.tui.screens.bot_watch import WatchScreen, make_bots

        seed = seed if seed is not None else random_seed()
        await self._app.push_screen(WatchScreen(
            choice, make_bots(choice, seed, self._bot_factory), seed, again=self._watch_again))

    async def _watch_again(self, choice: WatchChoice) -> None:
        """Another game between the bots of the game just watched (its screen, on top, goes),
        at the pace and with the hands as they are now (``choice``)."""
        await self._app.pop_screen()
        await self._watch(choice)

    async def room(self, kind: str) -> None:
        """The menu's room entries: host a room, join one (its code asked first), resume."""
        server = self.server
        if server is None or kind not in ("host", "join", "resume"):
            return
        if kind == "join":
            async def chosen(code: str | None) -> None:
                if code is not None:
                    await self._connect(server, "join", code)

            from minefield.tui.screens.rooms import CodeScreen

            await self._app.push_screen(CodeScreen(), chosen)
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
            self._app.notify(str(error), title="Game server", severity="error", timeout=10,
                             markup=False)
            return
        await self._play_room(session)


__all__ = ["MenuDoors"]
