"""The profile screen's questions, answered for the embedded game server by the club.

The lobby's profile screen asks the game server (``ask_profile``, ``ask_record``:
:mod:`~minefield.protocol.profiles`); the daemon keeps no accounts, so the front door gives it
:class:`ThreadProfiles`, whose methods are its :data:`~minefield.server.lobby_profiles.
ProfileOf` and :data:`~minefield.server.lobby_profiles.RecordOf`. They run in the daemon's
record threads, each with a :class:`~minefield.frontdoor.club.Club` (and connections to the
players' SQLite file) of its own, and answer what ``stats``, ``games`` and ``record`` answer:
the same figures, the same rule of who may see a game (a private room's game: its two
players), admins seeing every game.
"""

from __future__ import annotations

import threading
from pathlib import Path

from minefield.frontdoor.accounts import Accounts
from minefield.frontdoor.club import Club, ClubRefused
from minefield.protocol.profiles import Profile
from minefield.server.kept_games import KeptGames
from minefield.server.lobby_profiles import ProfileRefused
from minefield.server.moderation_store import ModerationStore


class ThreadProfiles:
    """The club's answers to the lobby's profile questions, from any of the daemon's record
    threads (see the module): the players' file at ``accounts_path``, the records in
    ``games_dir``, the players' record names ending in ``@shared_account``."""

    def __init__(self, accounts_path: Path, games_dir: Path, shared_account: str) -> None:
        self.accounts_path = accounts_path
        self.games_dir = games_dir
        self.shared_account = shared_account
        self._local = threading.local()

    def _club(self) -> tuple[Club, ModerationStore]:
        found: tuple[Club, ModerationStore] | None = getattr(self._local, "club", None)
        if found is None:
            club = Club(Accounts(self.accounts_path),
                        KeptGames(self.accounts_path, self.games_dir), self.shared_account)
            found = self._local.club = (club, ModerationStore(self.accounts_path))
        return found

    def _viewer(self, identity_key: str) -> tuple[Club, set[str] | None]:
        club, store = self._club()
        return club, club.viewer_keys(identity_key, store.is_admin)

    def profile_of(self, identity_key: str, name: str) -> Profile:
        """The profile of ``name`` as the player connected as ``identity_key`` may see it."""
        club, viewer = self._viewer(identity_key)
        return club.lobby_profile(viewer, name)

    def record_of(self, identity_key: str, game: str) -> str:
        """The record of ``game`` for the player connected as ``identity_key``;
        :class:`~minefield.server.lobby_profiles.ProfileRefused` when it is not theirs to
        see."""
        club, viewer = self._viewer(identity_key)
        try:
            return club.lobby_record(viewer, game)
        except ClubRefused as refusal:
            raise ProfileRefused(str(refusal)) from None


__all__ = ["ThreadProfiles"]
