"""Tournaments over SSH (R37): ``tournament new|join|leave|start|show`` and ``tournaments``.

The forms (each bad one gets one line and exit status 2, nothing changed)::

    tournament new NAME --format round-robin|swiss [--rounds N] [--rules PRESET]
                        [--rule NAME=VALUE]... [--match] [--casual] [--max-players N]
    tournament join NAME | leave NAME | start NAME
    tournament show NAME [--json]
    tournaments [--json]

The tournaments are the daemon's (:mod:`~minefield.server.tournaments`): each command is a
question asked in the embedded daemon's loop (:meth:`~minefield.frontdoor.embedded_daemon.
DaemonHandle.tournaments`); a front door given another daemon's socket has none to ask.

>>> parse_tournament(["new", "spring", "--format", "swiss", "--rounds", "3"]).new
NewTournament(name='spring', format='swiss', rounds=3, rules='standard', rule=(), \
match=False, casual=False, max_players=None)
>>> parse_tournament(["show", "spring", "--json"])
TournamentCommand(verb='show', name='spring', new=None, json=True)
>>> parse_tournament(["new", "x", "--format", "knockout"])
Traceback (most recent call last):
...
minefield.frontdoor.grammar.Refused: --format 'knockout': choose round-robin or swiss
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal, cast

from minefield.frontdoor.grammar import Refused, _rule_setting, _shown
from minefield.rules.settings import PRESETS, parse_rule
from minefield.server.tournament_pairing import Format
from minefield.server.tournament_terms import (
    MAX_PLAYERS,
    NewTournament,
    RuleValue,
    TournamentError,
    check_name,
)

Verb = Literal["new", "join", "leave", "start", "show", "list"]
FORMATS: tuple[Format, ...] = ("round-robin", "swiss")
USAGE = ("tournament takes new NAME --format round-robin|swiss [options], join NAME, "
         "leave NAME, start NAME or show NAME [--json]")


@dataclass(frozen=True, slots=True)
class TournamentCommand:
    """An accepted tournament command (``list``: ``tournaments``)."""

    verb: Verb
    name: str | None = None
    new: NewTournament | None = None
    json: bool = False


def _name(word: str | None) -> str:
    if word is None or word.startswith("-"):
        raise Refused("the tournament's name is missing: " + USAGE)
    try:
        check_name(word)
    except TournamentError as error:
        raise Refused(str(error)) from None
    return word


def _number(option: str, value: str, low: int, high: int) -> int:
    if not value.isdigit() or not low <= int(value) <= high:
        raise Refused(f"{option} takes a number from {low} to {high}")
    return int(value)


def _new(name: str, words: Iterator[str]) -> NewTournament:
    """The options of ``tournament new NAME``, in any order."""
    values: dict[str, str] = {}
    flags = {"--match": False, "--casual": False}
    rule: list[tuple[str, RuleValue]] = []
    for word in words:
        if word in flags:
            if flags[word]:
                raise Refused(f"{word} is given twice")
            flags[word] = True
            continue
        option, has_value, value = word.partition("=")
        if option in flags:
            raise Refused(f"{option} takes no value")
        if option not in ("--format", "--rounds", "--rules", "--rule", "--max-players"):
            raise Refused(f"tournament new takes no {_shown(word)}")
        value = value if has_value else next(words, "")
        if option == "--rule":
            rule.append(parse_rule(_rule_setting(value)))
            continue
        if option in values:
            raise Refused(f"{option} is given twice")
        if not value:
            raise Refused(f"{option} needs a value")
        values[option] = value
    fmt = values.get("--format")
    if fmt is None:
        raise Refused("tournament new needs --format round-robin or --format swiss")
    if fmt not in FORMATS:
        raise Refused(f"--format {_shown(fmt)}: choose round-robin or swiss")
    rules = values.get("--rules", "standard")
    if rules not in PRESETS:
        raise Refused(f"--rules {_shown(rules)}: choose one of {', '.join(PRESETS)}")
    rounds = values.get("--rounds")
    if rounds is not None and fmt == "round-robin":
        raise Refused("a round robin has as many rounds as it needs (every pair meets once): "
                      "leave --rounds out")
    players = values.get("--max-players")
    return NewTournament(
        name=name, format=fmt, rules=rules, rule=tuple(rule),
        rounds=_number("--rounds", rounds, 1, 50) if rounds is not None else None,
        match=flags["--match"], casual=flags["--casual"],
        max_players=(_number("--max-players", players, 2, MAX_PLAYERS)
                     if players is not None else None))


def parse_tournament(rest: list[str]) -> TournamentCommand:
    """The words after ``tournament``; :class:`Refused` (one line) if they are not a form."""
    verb = rest[0] if rest else ""
    if verb == "new":
        name = _name(rest[1] if len(rest) > 1 else None)
        return TournamentCommand("new", name, _new(name, iter(rest[2:])))
    if verb in ("join", "leave", "start", "show"):
        words = rest[1:]
        as_json = verb == "show" and "--json" in words
        if as_json:
            words = [w for w in words if w != "--json"]
            if len(words) != len(rest) - 2:
                raise Refused("--json is given twice")
        if len(words) != 1:
            extra = (words[1] if len(words) > 1 else "")
            raise Refused(f"tournament {verb} takes one tournament's name"
                          + (f", not {_shown(extra)}" if extra else "")
                          + (" (and --json)" if verb == "show" else ""))
        return TournamentCommand(cast(Verb, verb), _name(words[0]), json=as_json)
    raise Refused(USAGE)


def parse_tournaments(rest: list[str]) -> TournamentCommand:
    """The words after ``tournaments``: nothing or ``--json``."""
    if rest not in ([], ["--json"]):
        raise Refused("tournaments takes nothing but --json")
    return TournamentCommand("list", json=bool(rest))


# -- what is printed ----------------------------------------------------------------------------

def _score(value: float) -> str:
    return f"{value:g}"


def _result(pairing: dict[str, Any]) -> str:
    if pairing["west"] is None:
        return "bye"
    result = pairing["result"]
    if result is None:
        return "both lost by forfeit" if pairing["forfeit"] else "playing"
    if result == "draw":
        return "draw"
    won = pairing[result]
    return f"{won} won" + (" by forfeit" if pairing["forfeit"] else "")


def show_text(shown: dict[str, Any]) -> str:
    """``tournament show NAME``: what it is, its rounds' games and its standings."""
    tiebreak = "Buchholz" if shown["format"] == "swiss" else "Sonneborn-Berger"
    rounds = shown["rounds"]
    where = (f"round {shown['round']} of {rounds}" if shown["status"] == "running"
             else f"{rounds} rounds" if rounds else "open for players")
    lines = [f"{shown['name']}: {shown['format']}, {shown['rules']} rules, "
             f"{shown['status']}, {where}",
             f"Players ({len(shown['players'])}): {', '.join(shown['players']) or 'none yet'}"]
    for number in sorted({p["round"] for p in shown["pairings"]}):
        lines.append(f"Round {number}:")
        for p in (p for p in shown["pairings"] if p["round"] == number):
            table = (f"  {p['east']} (bye)" if p["west"] is None
                     else f"  {p['east']} (East) - {p['west']} (West): {_result(p)}")
            lines.append(table + (f"  game {p['game']}" if p["game"] else ""))
    if shown["pairings"]:
        lines.append(f"Standings (score, {tiebreak}, points):")
        for s in shown["standings"]:
            lines.append(f"  {s['rank']:>3}. {s['name']:<16} {_score(s['score']):>5} "
                         f"{_score(s['tiebreak']):>6} {s['points']:>7}")
    return "\n".join(lines)


def list_text(listed: list[dict[str, Any]]) -> str:
    """``tournaments``: one line each, newest first."""
    if not listed:
        return "No tournaments yet: tournament new NAME --format round-robin|swiss makes one."
    lines = []
    for t in listed:
        where = (f"round {t['round']} of {t['rounds']}" if t["status"] == "running"
                 else t["status"])
        lines.append(f"{t['name']:<20} {t['format']:<11} {t['rules']:<16} {where:<16} "
                     f"{t['players']} players")
    return "\n".join(lines)


def listing_json(listed: list[dict[str, Any]]) -> str:
    """``tournaments --json``."""
    return json.dumps(listed)


__all__ = ["FORMATS", "TournamentCommand", "list_text", "listing_json", "parse_tournament",
           "parse_tournaments", "show_text"]
