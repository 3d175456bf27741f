"""A player's profile: figures over their network games, computed from the kept games.

Everything but the rating comes from the index of kept games (:mod:`~minefield.server.
kept_games`), itself made from the records: rebuilding the index from the records gives the
same profile. The rating, its deviation and its history are the ratings' keeper's (Glicko-2,
one change per rated game, R36): a history entry is the rating after a rated game, dated by
the game's end.

What counts: every finished game between two players, rated and casual (R36; ``rated_games``
says how many were rated). Games against the server's bots are left out (they are practice,
never rated). In Minefield every win is a ron on the other player's discard (R11), so a game
lost is a deal-in, and the points of a game are what its winner was paid (a match's game:
with its counter sticks, R32). ``furiten_games``: games the player ended in furiten (R15).
``longest_game_streak``: the most games won in a row.

>>> from minefield.server.kept_games import KeptGame
>>> def game(n, result, points=8000):
...     return KeptGame(game=f"g{n}", ended=f"2026-01-0{n}T00:00:00.000Z", rules="standard",
...                     east="ann@c", west="bob@c", result=result, points=points, rated=True,
...                     kind="public", tournament=None, bot=False, east_furiten=False,
...                     west_furiten=n == 3)
>>> figures = profile("Ann", [game(1, "east"), game(2, "east", 12000), game(3, "west")],
...                   {"ann@c"}, 1510.4, 80.2, {"g1": 1540.0, "g3": 1510.4})
>>> figures["wins"], figures["deal_ins"], figures["average_win"], figures["longest_game_streak"]
(2, 1, 10000, 2)
>>> figures["rating_history"]
[['2026-01-01T00:00:00.000Z', 1540], ['2026-01-03T00:00:00.000Z', 1510]]
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from minefield.server.kept_games import KeptGame

#: The keys of a profile, in the order ``stats --json`` gives them.
PROFILE_KEYS = ("name", "rating", "deviation", "games", "wins", "losses", "draws",
                "rated_games", "win_rate", "deal_ins", "deal_in_rate", "average_win",
                "average_loss", "furiten_games", "longest_game_streak", "rating_history")


def _share(part: int, whole: int) -> float:
    return round(part / whole, 3) if whole else 0.0


def profile(name: str, games: Sequence[KeptGame], keys: Collection[str],
            rating: float | None, deviation: float | None,
            history: Mapping[str, float]) -> dict[str, Any]:
    """The profile of the player ``name`` (``stats --json``): ``games`` holds their kept
    games oldest first (others and bot games are skipped), ``keys`` their folded record
    names; ``rating`` and ``deviation`` as they are now (None: never rated), ``history`` the
    rating after each of their rated games, by game id."""
    wins = losses = draws = rated = furiten = streak = longest = 0
    won_points = lost_points = 0
    ratings: list[list[Any]] = []
    for game in games:
        seat = game.seat_of(keys)
        if seat is None or game.bot:
            continue
        rated += game.rated
        if game.east_furiten if seat.value == "east" else game.west_furiten:
            furiten += 1
        if game.result == "draw":
            draws += 1
            streak = 0
        elif game.result == seat.value:
            wins += 1
            won_points += game.points
            streak += 1
            longest = max(longest, streak)
        else:
            losses += 1
            lost_points += game.points
            streak = 0
        if game.game in history:
            ratings.append([game.ended, round(history[game.game])])
    played = wins + losses + draws
    figures = {
        "name": name,
        "rating": round(rating) if rating is not None else None,
        "deviation": round(deviation) if deviation is not None else None,
        "games": played, "wins": wins, "losses": losses, "draws": draws,
        "rated_games": rated, "win_rate": _share(wins, played),
        "deal_ins": losses, "deal_in_rate": _share(losses, played),
        "average_win": round(won_points / wins) if wins else 0,
        "average_loss": round(lost_points / losses) if losses else 0,
        "furiten_games": furiten, "longest_game_streak": longest,
        "rating_history": ratings,
    }
    return {key: figures[key] for key in PROFILE_KEYS}


def describe(figures: Mapping[str, Any]) -> str:
    """``stats`` in words: a few lines a player reads.

    >>> print(describe({"name": "Ann", "rating": None, "deviation": None, "games": 0}))
    Ann: no games yet.
    """
    name, played = figures["name"], figures["games"]
    if figures.get("program"):
        name = f"{name} (a program)"
    rating = ("not rated yet" if figures["rating"] is None
              else f"rating {figures['rating']} (deviation {figures['deviation']})")
    if not played:
        return f"{name}: no games yet." if figures["rating"] is None else f"{name}: {rating}"
    lines = [
        f"{name}: {rating}",
        f"games {played} ({figures['rated_games']} rated, {played - figures['rated_games']} "
        f"casual): {figures['wins']} won, {figures['losses']} lost, {figures['draws']} drawn "
        f"(win rate {figures['win_rate']:.0%})",
        f"deal-ins {figures['deal_ins']} ({figures['deal_in_rate']:.0%} of games); "
        f"average win {figures['average_win']}, average loss {figures['average_loss']}",
        f"furiten at the end of {figures['furiten_games']} games; longest winning streak "
        f"{figures['longest_game_streak']}",
    ]
    history = figures["rating_history"]
    if history:
        last = history[-10:]
        lines.append("rating after the last rated games: "
                     + ", ".join(str(rating) for _, rating in last))
    return "\n".join(lines)


__all__ = ["PROFILE_KEYS", "describe", "profile"]
