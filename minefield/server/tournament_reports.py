"""What is shown of a tournament (R37): ``tournament show NAME --json`` with its pairings and
standings, a line of ``tournaments --json``, and its rules in the words ``tournament new``
takes.

Pure functions of the tournament as kept (:mod:`~minefield.server.tournament_store`'s rows);
the standings are :func:`~minefield.server.tournament_pairing.standings`'. The front door
prints them as text (:mod:`minefield.frontdoor.tournament_commands`).
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from minefield.server.tournament_pairing import standings
from minefield.server.tournament_store import Board
from minefield.server.tournament_terms import rule_word


def shown(row: sqlite3.Row, players: list[sqlite3.Row], pairings: list[Board]
          ) -> dict[str, Any]:
    """``tournament show NAME --json`` of the tournament ``row``, its ``players`` and its
    ``pairings``."""
    names = {p["key"]: p["name"] for p in players}
    table = standings([p["key"] for p in players], [p.as_game() for p in pairings],
                      row["format"], {p["key"]: p["rating"] or 0.0 for p in players})
    return {
        "name": row["name"], "format": row["format"], "rules": rules_words(row),
        "status": row["status"], "round": row["round"], "rounds": row["rounds"],
        "players": [p["name"] for p in players],
        "pairings": [{"round": p.round, "east": names.get(p.east, p.east),
                      "west": names.get(p.west) if p.west is not None else None,
                      "game": p.game, "result": p.result if p.result != "none" else None,
                      "forfeit": p.forfeit} for p in pairings],
        "standings": [{"rank": s.rank, "name": names.get(s.name, s.name), "score": s.score,
                       "tiebreak": s.tiebreak, "points": s.points} for s in table],
    }


def listed(row: sqlite3.Row, players: int) -> dict[str, Any]:
    """The tournament ``row`` (of ``players`` players) in ``tournaments --json``."""
    return {"name": row["name"], "format": row["format"], "rules": rules_words(row),
            "status": row["status"], "round": row["round"], "rounds": row["rounds"],
            "players": players}


def rules_words(row: sqlite3.Row) -> str:
    """The tournament's rules as ``tournament new`` took them (a preset, ``--rule`` settings,
    ``match``, ``casual``)."""
    rule = json.loads(row["rule"])
    words = [row["rules"], *(f"{k}={rule_word(v)}" for k, v in sorted(rule.items()))]
    if row["match"]:
        words.append("match")
    if row["casual"]:
        words.append("casual")
    return " ".join(words)


__all__ = ["listed", "rules_words", "shown"]
