"""A match's scoreboard in words and JSON (``minefield replay``, ``replay --match``).

Built from a game's header and result (:func:`match_line`, :func:`settlement_line`: what the
record says) or from a match replayed from its records (:func:`scoreboard_rows`,
:func:`scoreboard_table`, :func:`match_json`: what the match reached, game by game). The
match seed is never shown: a match is named by its public id.

>>> from minefield.rules.match import Match
>>> from minefield.records.header import MatchHeader
>>> from minefield.rules.settings import RuleSettings
>>> match = Match(1, ("ann", "bob"))
>>> print(match_line(MatchHeader.of_match(match), RuleSettings.preset("match")))
match 3a55a4a8 · game 1 · hand 1 of 4 · dealer ann · no counter sticks · ann 25000 · bob 25000
"""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text

from minefield.records.header import MatchHeader
from minefield.records.replay import MatchGame, MatchReplay
from minefield.records.result import RecordResult
from minefield.rules.game import Seat
from minefield.rules.settings import RuleSettings

#: How many hex digits of a match id name it on screen (the JSON has it whole).
SHORT_ID = 8


def _plain(text: str) -> str:
    """A player name as plain text: no control characters."""
    return "".join(c if c.isprintable() else "?" for c in text)


def _sticks(count: int) -> str:
    if count == 0:
        return "no counter sticks"
    return f"{count} counter stick{'' if count == 1 else 's'}"


def _scores(scores: dict[str, int]) -> str:
    return " · ".join(f"{_plain(name)} {points}" for name, points in scores.items())


def match_line(header: MatchHeader, rules: RuleSettings) -> str:
    """The scoreboard before a game: match id, game, hand n of N, dealer, sticks, points."""
    return (f"match {header.id[:SHORT_ID]} · game {header.game} · hand {header.hand} of "
            f"{rules.hands} · dealer {_plain(header.players.east)} · {_sticks(header.honba)} · "
            f"{_scores(header.scores)}")


def scores_after(header: MatchHeader, payments: dict[Seat, int]) -> dict[str, int]:
    """The scores after a game: the header's (before it) plus the payments by seat."""
    scores = dict(header.scores)
    for seat, amount in payments.items():
        name = header.players.of(seat)
        scores[name] = scores.get(name, 0) + amount
    return scores


def payments_text(header: MatchHeader, payments: dict[Seat, int]) -> str:
    """``East (ann) +9000, West (bob) -9000`` (``nobody pays`` when both are 0)."""
    if not any(payments.values()):
        return "nobody pays"
    return ", ".join(f"{seat.value.title()} ({_plain(header.players.of(seat))}) "
                     f"{payments.get(seat, 0):+d}" for seat in Seat)


def settlement_line(header: MatchHeader, result: RecordResult) -> str:
    """The scoreboard after a game, from its result's payments: who pays, the points after,
    and whether the match is over (or that the result has no payments)."""
    if result.payments is None:
        return "the result has no payments: the match's scores after it are unknown"
    over = " · the match is over" if result.match_over else ""
    return (f"payments: {payments_text(header, result.payments)} → "
            f"{_scores(scores_after(header, result.payments))}{over}")


def _result_text(game: MatchGame) -> str:
    settlement = game.settlement
    if settlement is None:
        return "unfinished"
    if settlement.result == "draw":
        return "draw"
    assert settlement.winner is not None
    return f"ron: {_plain(settlement.seats[settlement.winner])}"


def scoreboard_rows(replay: MatchReplay) -> list[dict[str, Any]]:
    """One row per replayed game: the state before it, the result, the payments and the
    points after it (``None`` for an unfinished game), as ``replay --match --json`` has them."""
    rows: list[dict[str, Any]] = []
    for game in replay.games:
        before, settlement = game.before, game.settlement
        rows.append({
            "game": before.game,
            "hand": before.hand,
            "file": game.record.name,
            "players": before.players.model_dump(),
            "dealer": before.players.east,
            "dealer_streak": before.dealer_streak,
            "honba": before.honba,
            "before": dict(before.scores),
            "result": settlement.result if settlement else None,
            "winner": (settlement.winner.value if settlement and settlement.winner else None),
            "points": (game.record.result.result.points
                       if settlement and game.record.result else None),
            "payments": ({seat.value: amount for seat, amount in settlement.payments.items()}
                         if settlement else None),
            "after": dict(settlement.scores) if settlement else None,
            "match_over": settlement.match_over if settlement else None,
        })
    return rows


def match_json(replay: MatchReplay) -> dict[str, Any]:
    """The whole match as ``replay --match --json`` prints it: id, players, rules, each game's
    row, the points now, the standings (when over) and the problems."""
    match = replay.match
    return {
        "match": replay.id,
        "players": list(match.players) if match else None,
        "rules": match.settings.model_dump(mode="json") if match else None,
        "games": scoreboard_rows(replay),
        "scores": dict(match.scores) if match else None,
        "over": replay.over,
        "standings": ([s._asdict() for s in match.standings()]
                      if match is not None and match.over else None),
        "consistent": replay.consistent,
        "problems": list(replay.problems),
    }


def scoreboard_table(replay: MatchReplay) -> Table:
    """The match as a Rich table: a row per game with the points after it."""
    match = replay.match
    players = list(match.players) if match else []
    hands = match.settings.hands if match else 0
    title = f"match {replay.id[:SHORT_ID]}"
    if match is not None:
        title += (f": {' vs '.join(_plain(p) for p in players)}, {hands} hands from "
                  f"{match.settings.start_points}")
    table = Table(title=title, title_justify="left")
    for name in ("game", "hand", "dealer", "sticks", "result"):
        table.add_column(name, justify="right" if name in ("game", "sticks") else "left")
    table.add_column("paid", justify="right", no_wrap=True)
    for player in players:
        table.add_column(Text(_plain(player)), justify="right")
    if match is not None:
        table.add_row("", "", "", "", "start", "",
                      *[str(match.settings.start_points) for _ in players])
    for game in replay.games:
        before, settlement = game.before, game.settlement
        after = settlement.scores if settlement else {}
        table.add_row(str(before.game), f"{before.hand}/{hands}", Text(_plain(
            before.players.east)), str(before.honba), Text(_result_text(game)),
            _paid(before, settlement.payments, players) if settlement else "",
            *[str(after[p]) if p in after else "" for p in players])
    return table


def _paid(header: MatchHeader, payments: dict[Seat, int], players: list[str]) -> str:
    """The payments by player, in the players' column order: ``-12000 / +12000``."""
    by_name = {header.players.of(seat): amount for seat, amount in payments.items()}
    return " / ".join(f"{by_name.get(p, 0):+d}" for p in players)


def final_line(replay: MatchReplay) -> str:
    """``final after 3 games: ann 1st 34000 (+9000), bob 2nd 16000 (-9000)`` (each player's
    change over the match beside the points) or ``unfinished after 3 games: ...``."""
    match = replay.match
    if match is None:
        return "no game of the match could be replayed"
    played = len(match.history)
    if match.over:
        start = match.settings.start_points
        places = ", ".join(f"{_plain(s.player)} {_ordinal(s.place)} {s.points} "
                           f"({s.points - start:+d})" for s in match.standings())
        return f"final after {played} game{'s' * (played != 1)}: {places}"
    return (f"unfinished after {played} game{'s' * (played != 1)}: "
            f"{_scores(dict(match.scores))}")


def _ordinal(place: int) -> str:
    return {1: "1st", 2: "2nd"}.get(place, f"{place}th")


__all__ = ["final_line", "match_json", "match_line", "payments_text", "scoreboard_rows",
           "scoreboard_table", "scores_after", "settlement_line"]
