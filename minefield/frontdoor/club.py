"""The club's memory over SSH: ``games``, ``record``, ``stats`` and ``history``.

The daemon keeps every finished network game by its id (:mod:`~minefield.server.kept_games`);
the front door knows who its players are (:mod:`.accounts`). A player's games are those whose
record names one of the player's names (the name now or a reserved former one, which nobody
else can hold) as ``NAME@ACCOUNT``, ``ACCOUNT`` being the server's shared account. A game is
visible to every player when it was played at a public table, a quick match or a tournament,
otherwise to its two players only.

Pure over what they are given (the accounts, the index): each answer is one text, or a
:class:`ClubRefused` with its one-line reason (exit status 2).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from minefield.errors import MinefieldError
from minefield.frontdoor.accounts import Account, Accounts
from minefield.frontdoor.programs import is_program
from minefield.protocol.profiles import (
    MAX_HISTORY,
    PROFILE_GAMES,
    Profile,
    ProfileFigures,
    ProfileGame,
)
from minefield.records.reader import RecordError
from minefield.rules.game import Seat
from minefield.server.identity import display_name
from minefield.server.kept_games import MAX_LIMIT, KeptGame, KeptGames
from minefield.server.profiles import describe, profile

#: How many games ``games`` and ``history`` list without ``--limit``.
DEFAULT_LIMIT = 20


class ClubRefused(MinefieldError):
    """A question that cannot be answered: its one-line reason (exit status 2)."""


class Club:
    """The club's answers for the players of ``accounts`` (whose record names end in
    ``@shared_account``) over the kept games ``kept``; ``web``: the browser door's public
    URL, whose ``/game/GAME`` shows a game (None: no browser door, no links)."""

    def __init__(self, accounts: Accounts, kept: KeptGames, shared_account: str,
                 web: str | None = None) -> None:
        self.accounts = accounts
        self.kept = kept
        self.suffix = f"@{shared_account}".casefold()
        self.web = web

    def link(self, game: KeptGame) -> str | None:
        """The game's link at the browser door (who may open it: as ``games`` shows it), or
        None without a browser door."""
        return f"{self.web}/game/{game.game}" if self.web is not None else None

    def _json(self, games: Sequence[KeptGame]) -> str:
        """``games --json``: each game's entry and its link."""
        return json.dumps([{**game.to_json(), "link": self.link(game)} for game in games])

    def keys_of(self, account: Account) -> set[str]:
        """The folded record names of ``account``: its name and its reserved former names."""
        names = [account.name.casefold(), *self.accounts.former_names(account.id)]
        return {f"{name}{self.suffix}" for name in names}

    def _player(self, name: str) -> Account:
        account = self.accounts.by_name(name)
        if account is None:
            raise ClubRefused(f"no player is called {name[:40]!r} here")
        return account

    def games(self, viewer: Account, name: str | None, limit: int | None,
              as_json: bool) -> str:
        """``games [NAME] [--limit N] [--json]``: the finished games ``viewer`` may see,
        newest first (NAME: that player's)."""
        player = self.keys_of(self._player(name)) if name is not None else None
        listed = self.kept.listed(self.keys_of(viewer), player, limit or DEFAULT_LIMIT)
        if as_json:
            return self._json(listed)
        if not listed:
            return (f"No finished games of {name} that you may see." if name is not None
                    else "No finished games yet.")
        return games_table(listed)

    def history(self, viewer: Account, as_json: bool) -> str:
        """``history``: the player's own network games, newest first."""
        mine = self.keys_of(viewer)
        listed = self.kept.listed(mine, mine, DEFAULT_LIMIT)
        if as_json:
            return self._json(listed)
        if not listed:
            return ("No network games yet: a game you finish on this server is kept here "
                    "(games lists everyone's).")
        return (games_table(listed, self.keys_of(viewer))
                + "\nrecord GAME gives one as JSON lines.")

    def record(self, viewer: Account, game: str) -> str:
        """``record GAME``: the game's record, as the app writes it (JSON lines)."""
        kept = self.kept.find(game)
        if kept is None or not kept.visible_to(self.keys_of(viewer)):
            raise ClubRefused(f"no finished game {game[:80]} that you may see")
        try:
            return self.kept.read_text(game).rstrip("\n")
        except RecordError:
            raise ClubRefused(f"the record of game {game[:80]} cannot be read") from None

    def review_source(self, viewer: Account, game: str) -> tuple[Path, Seat]:
        """What a review of ``game`` for ``viewer`` is made from: the record's path, once
        ``viewer`` may see the game, and the seat reviewed (the viewer's, East's for a game
        they did not play)."""
        kept = self.kept.find(game)
        mine = self.keys_of(viewer)
        path = self.kept.record_path(game) if kept is not None else None
        if kept is None or path is None or not kept.visible_to(mine):
            raise ClubRefused(f"no finished game {game[:80]} that you may see")
        return path, kept.seat_of(mine) or Seat.EAST

    def client_argv(self, viewer: Account, action: str, game: str) -> list[str]:
        """The client's arguments for ``replay GAME`` or ``review GAME`` (``action``): the
        game's record, once ``viewer`` may see it; a review from the viewer's seat (East's
        for a game they did not play)."""
        path, seat = self.review_source(viewer, game)
        if action == "replay":
            return ["replay", str(path)]
        return ["review", "--seat", seat.value, str(path)]

    def stats(self, viewer: Account, name: str | None, as_json: bool) -> str:
        """``stats [NAME] [--json]``: a player's profile (NAME's, else the asking player's)
        over all their games, as everyone sees it: figures summed over games never show one
        game, as the rating, which private rated games change too, does not."""
        figures = self.figures(self._player(name) if name is not None else viewer)
        return json.dumps(figures) if as_json else describe(figures)

    def figures(self, account: Account) -> dict[str, Any]:
        """The figures of ``stats --json`` for ``account``."""
        keys = self.keys_of(account)
        figures = profile(account.name, self.kept.of_player(keys), keys, account.rating,
                          account.deviation, self.accounts.rating_history(account.id))
        figures["program"] = is_program(self.accounts, account.id)  # connected over wire
        return figures

    # -- the lobby's profile screen (asked by the game server, protocol/profiles.py) ----------

    def viewer_keys(self, identity_key: str, admin: Callable[[int], bool] | None = None
                    ) -> set[str] | None:
        """The folded record names of the player connected as ``identity_key`` (their name
        and reserved former ones when they are a player here, else that key alone); None
        when ``admin`` says the player is an admin (they see every game, as for a private
        room's game its two players do)."""
        folded = identity_key.casefold()
        if not folded.endswith(self.suffix):
            return {folded}
        account = self.accounts.by_name(display_name(identity_key))
        if account is None:
            return {folded}
        if admin is not None and admin(account.id):
            return None
        return self.keys_of(account) | {folded}

    def lobby_profile(self, viewer: set[str] | None, name: str) -> Profile:
        """The profile screen's answer for ``name``, to the player whose folded record names
        are ``viewer`` (None: an admin): the figures of ``stats --json`` and the last games
        they may see, newest first (the rule of ``games``); an unknown name is refused."""
        account = self.accounts.by_name(name)
        if account is None:
            return Profile(player=name, refused=f"no player is called {name[:40]!r} here")
        figures = self.figures(account)
        figures["rating_history"] = figures["rating_history"][-MAX_HISTORY:]
        games = self.kept.listed(viewer, self.keys_of(account), PROFILE_GAMES)
        return Profile(player=name, figures=ProfileFigures.model_validate(figures),
                       games=[ProfileGame.model_validate(game.to_json()) for game in games])

    def lobby_record(self, viewer: set[str] | None, game: str) -> str:
        """The record of ``game`` for the profile screen's replay, to the player whose folded
        record names are ``viewer`` (None: an admin); :class:`ClubRefused` when it is not
        kept or not theirs to see (the rule of ``record``)."""
        kept = self.kept.find(game)
        if kept is None or (viewer is not None and not kept.visible_to(viewer)):
            raise ClubRefused(f"no finished game {game[:80]} that you may see")
        try:
            return self.kept.read_text(game)
        except RecordError:
            raise ClubRefused(f"the record of game {game[:80]} cannot be read") from None


class ListedGame(Protocol):
    """What :func:`games_table` reads of a game: a :class:`KeptGame` (the players by record
    name), or a :class:`~minefield.protocol.profiles.ProfileGame` (by the name shown)."""

    @property
    def game(self) -> str: ...
    @property
    def ended(self) -> str: ...
    @property
    def east(self) -> str: ...
    @property
    def west(self) -> str: ...
    @property
    def result(self) -> str: ...
    @property
    def points(self) -> int: ...
    @property
    def rated(self) -> bool: ...


def games_table(games: Sequence[ListedGame], mine: set[str] | None = None) -> str:
    """Games as lines a person reads: when, who, the result, rated or casual, the id;
    ``mine``: the reader's folded names as the games name the players (their result is
    "you won" or "you lost")."""
    lines = [f"{'ended (UTC)':<16}  {'east':<16} {'west':<16} {'result':<13} "
             f"{'points':>6}  {'table':<7} game"]
    for game in games:
        if game.result == "draw":
            result = "draw"
        else:
            winner = game.east if game.result == "east" else game.west
            result = ("you won" if mine is not None and winner.casefold() in mine
                      else "you lost" if mine is not None
                      else f"{display_name(winner)[:9]} won")
        table = "rated" if game.rated else "casual"
        lines.append(f"{game.ended[:16].replace('T', ' '):<16}  "
                     f"{display_name(game.east)[:16]:<16} {display_name(game.west)[:16]:<16} "
                     f"{result:<13} {game.points:>6}  {table:<7} {game.game}")
    return "\n".join(lines)


__all__ = ["DEFAULT_LIMIT", "MAX_LIMIT", "Club", "ClubRefused", "ListedGame", "games_table"]
