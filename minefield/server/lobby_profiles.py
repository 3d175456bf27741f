"""The lobby's profile questions (:mod:`~minefield.protocol.profiles`): a player's profile
and a kept game's record, for the profile screen of the lobby; and the asking player's own
games, for ``history`` over the OpenSSH route (answered by the game server itself, from the
games it keeps: :func:`own_games`).

The daemon keeps no accounts and no ratings: whoever keeps them (the SSH front door) gives
the lobby a :data:`ProfileOf` and a :data:`RecordOf`, asked in a record thread with the asking
connection's identity key (whose games a private room's game may be shown to is theirs to
say, as for ``games`` and ``record``). Without them (a daemon of the OpenSSH route, or one
started apart from ``ssh-server``) every question is answered with one line saying so.

One question at a time per connection: another asked while one is being answered is refused
with one line (a profile reads every game of a player; a client asks one at a time).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from minefield.errors import MinefieldError
from minefield.protocol.profiles import (
    AskGames,
    AskProfile,
    AskRecord,
    Games,
    Profile,
    ProfileGame,
    RecordPart,
    RecordTooLong,
    record_parts,
)
from minefield.server.connection import Connection
from minefield.server.kept_games import KeptGames

log = logging.getLogger("minefield.server")

#: ``(identity key of the asking player, name) -> Profile``: the profile of ``name`` as the
#: asking player may see it (a refusal in its ``refused``).
ProfileOf = Callable[[str, str], Profile]
#: ``(identity key of the asking player, game) -> record text``: the kept game's record
#: (JSON lines); :class:`ProfileRefused` when it is unknown or not theirs to see.
RecordOf = Callable[[str, str], str]
#: ``(identity key of the asking player, limit) -> games``: the player's own finished games,
#: newest first (:func:`own_games`, over the game server's kept games).
GamesOf = Callable[[str, int], list[ProfileGame]]
#: Runs a function in a record thread.
RunIO = Callable[..., Awaitable[Any]]

#: The answer of a daemon that keeps no profiles.
NO_PROFILES = ("this server keeps no profiles: its players have no accounts or ratings "
               "(minefield ssh-server keeps them)")
#: The answer of a game server that keeps no games (not started yet).
NO_GAMES = "this game server keeps no finished games yet: try again in a moment"
BUSY = "one question at a time: the last one is still being answered"


class ProfileRefused(MinefieldError):
    """A question about a player or a game that cannot be answered: its one line."""


class LobbyProfiles:
    """Answers the profile questions of lobby connections (see the module)."""

    def __init__(self, run_io: RunIO | None) -> None:
        self._run_io = run_io
        #: Given by whoever keeps the accounts (the SSH front door); None: no profiles.
        self.profile_of: ProfileOf | None = None
        self.record_of: RecordOf | None = None
        #: Given by the game server once it keeps games (:func:`own_games`); None: no games.
        self.games_of: GamesOf | None = None
        self._busy: set[Connection] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    def handle(self, conn: Connection, message: AskProfile | AskRecord | AskGames) -> None:
        """Answer ``message`` (in a task: the connection's other lines go on meanwhile)."""
        if conn in self._busy:
            conn.send(_refusal(message, BUSY))
            return
        self._busy.add(conn)
        task = asyncio.create_task(self._answer(conn, message))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(lambda _task: self._busy.discard(conn))

    async def _answer(self, conn: Connection,
                      message: AskProfile | AskRecord | AskGames) -> None:
        key = conn.identity.key if conn.identity is not None else ""
        run_io = self._run_io
        try:
            if isinstance(message, AskGames):
                if self.games_of is None or run_io is None:
                    conn.send(_refusal(message, NO_GAMES))
                    return
                games: list[ProfileGame] = await run_io(self.games_of, key, message.limit)
                conn.send(Games(games=games))
                return
            if isinstance(message, AskProfile):
                if self.profile_of is None or run_io is None:
                    conn.send(_refusal(message, NO_PROFILES))
                    return
                profile: Profile = await run_io(self.profile_of, key, message.player)
                conn.send(profile)
                return
            if self.record_of is None or run_io is None:
                conn.send(_refusal(message, NO_PROFILES))
                return
            text: str = await run_io(self.record_of, key, message.game)
            for part in record_parts(message.game, text):
                conn.send(part)
                # A record is up to 1 MiB: each part written out before the next is queued,
                # under the limit of what a client may leave unread.
                await asyncio.sleep(0)
                await conn.writer.drain()
        except ConnectionError:
            return  # the client went
        except (ProfileRefused, RecordTooLong) as refusal:
            conn.send(_refusal(message, str(refusal)))
        except Exception as error:  # never stops the lobby; the log holds no game
            log.error("lobby: %s failed (%s)", message.type, type(error).__name__)
            conn.send(_refusal(message, "the server could not answer: try again later"))


def own_games(kept: KeptGames) -> GamesOf:
    """The :data:`GamesOf` of the game server's kept games: the finished games of the player
    connected as ``key`` (their record name), newest first, at most ``limit``; every one of
    them is theirs to see."""

    def games_of(key: str, limit: int) -> list[ProfileGame]:
        mine = {key.casefold()}
        return [ProfileGame.model_validate(game.to_json())
                for game in kept.listed(mine, mine, limit)]

    return games_of


def _refusal(message: AskProfile | AskRecord | AskGames, line: str
             ) -> Profile | RecordPart | Games:
    if isinstance(message, AskGames):
        return Games(refused=line)
    if isinstance(message, AskProfile):
        return Profile(player=message.player, refused=line)
    return RecordPart(game=message.game, refused=line)


__all__ = ["BUSY", "NO_GAMES", "NO_PROFILES", "GamesOf", "LobbyProfiles", "ProfileOf",
           "ProfileRefused", "RecordOf", "own_games"]
