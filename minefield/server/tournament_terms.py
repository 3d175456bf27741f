"""What a tournament may be (R37), before it is kept: its name, format, rounds, rules and size,
as ``tournament new`` asks for them (:class:`NewTournament`), and the one-line refusal of a
tournament command (:class:`TournamentError`).

Pure checks: no SQLite, no daemon (:mod:`minefield.server.tournaments` keeps and plays them).

>>> check_terms(NewTournament("spring", "swiss", rounds=3, rule=(("kiriage", False),)))
{'kiriage': False}
>>> check_terms(NewTournament("spring", "round-robin", rounds=3))
Traceback (most recent call last):
...
minefield.server.tournament_terms.TournamentError: a round robin has as many rounds as it \
needs (every pair meets once): leave --rounds out
"""

from __future__ import annotations

from dataclasses import dataclass

from minefield.errors import MinefieldError
from minefield.rules.settings import CLOCK_SETTINGS, RuleSettings, SettingsError
from minefield.server.tournament_pairing import Format

#: A tournament's name: what a player types after ``tournament show``.
NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
MAX_NAME = 40
#: The most players a tournament may have (``--max-players`` is at most this).
MAX_PLAYERS = 256
#: A ``--rule NAME=VALUE`` setting's value, typed (:func:`~minefield.rules.settings.parse_rule`).
RuleValue = bool | int | str | None


class TournamentError(MinefieldError):
    """A tournament command that cannot be done (one line, saying why)."""


@dataclass(frozen=True, slots=True)
class NewTournament:
    """What ``tournament new`` asks for."""

    name: str
    format: Format
    rounds: int | None = None
    rules: str = "standard"
    rule: tuple[tuple[str, RuleValue], ...] = ()
    match: bool = False
    casual: bool = False
    max_players: int | None = None


def check_name(name: str) -> None:
    """A tournament's name: 1-40 letters, digits, ``-``, ``_`` or ``.``."""
    if not name or len(name) > MAX_NAME or not set(name) <= NAME_CHARS:
        raise TournamentError("a tournament's name is 1 to 40 letters, digits, '-', '_' or "
                              "'.'")


def check_terms(asked: NewTournament) -> dict[str, RuleValue]:
    """The ``--rule`` settings of ``asked`` when its rules, rounds and size may be a
    tournament's, else :class:`TournamentError` (its name is :func:`check_name`'s)."""
    rule = dict(asked.rule)
    try:
        if CLOCK_SETTINGS & rule.keys():
            raise SettingsError("the clocks of a network game are the server's (R25): "
                                "leave hand_seconds and discard_seconds out")
        RuleSettings.preset(asked.rules, **rule)
    except SettingsError as error:
        raise TournamentError(str(error)) from None
    if asked.rounds is not None and not 1 <= asked.rounds <= 50:
        raise TournamentError("--rounds is a number from 1 to 50")
    if asked.rounds is not None and asked.format == "round-robin":
        raise TournamentError("a round robin has as many rounds as it needs (every pair "
                              "meets once): leave --rounds out")
    if asked.max_players is not None and not 2 <= asked.max_players <= MAX_PLAYERS:
        raise TournamentError(f"--max-players is a number from 2 to {MAX_PLAYERS}")
    return rule


def rule_word(value: RuleValue) -> str:
    """A setting's value as ``--rule`` takes it (``on``, ``off``, ``none``, a number)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return "none" if value is None else str(value)


__all__ = ["MAX_NAME", "MAX_PLAYERS", "NAME_CHARS", "NewTournament", "RuleValue",
           "TournamentError", "check_name", "check_terms", "rule_word"]
