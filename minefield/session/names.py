"""Players' names as given at this terminal (the new-game form, ``--east``/``--west``,
``--name``): checked here, so that a bad name is one clear line and never a broken table."""

from __future__ import annotations

from minefield.errors import MinefieldError

#: The longest name a player may give at this terminal (it must fit the discard rows' titles).
MAX_PLAYER_NAME = 20


class PlayerNameError(MinefieldError, ValueError):
    """A player's name that cannot be used; the message says why."""


def player_name(text: str) -> str:
    """``text`` as a player's name: trimmed, 1 to ``MAX_PLAYER_NAME`` printable characters,
    not a bot's name (``Bot (...)``). Anything else raises :class:`PlayerNameError` saying why.

    >>> player_name("  Ann ")
    'Ann'
    >>> player_name("Bot (easy)")
    Traceback (most recent call last):
    ...
    minefield.session.names.PlayerNameError: 'Bot (easy)' is a bot's name: choose another
    """
    name = " ".join(text.split())
    if not name:
        raise PlayerNameError("a player's name cannot be empty")
    if len(name) > MAX_PLAYER_NAME:
        raise PlayerNameError(f"{name[:MAX_PLAYER_NAME]!r}…: a name has at most {MAX_PLAYER_NAME} "
                         "characters")
    if not name.isprintable():
        raise PlayerNameError(f"{name!r} holds a control character")
    if name.lower().startswith("bot ("):
        raise PlayerNameError(f"{name!r} is a bot's name: choose another")
    return name


def two_names(east: str, west: str) -> tuple[str, str]:
    """Both players' names (:func:`player_name`), which must differ (scores are kept by name).

    >>> two_names("Ann", " ann")
    Traceback (most recent call last):
    ...
    minefield.session.names.PlayerNameError: both players are called 'ann': give two different names
    """
    first, second = player_name(east), player_name(west)
    if first.casefold() == second.casefold():
        raise PlayerNameError(f"both players are called {second!r}: give two different names")
    return first, second


__all__ = ["MAX_PLAYER_NAME", "PlayerNameError", "player_name", "two_names"]
