"""Tournament pairings and standings (R37): pure, no I/O.

Round robin by the circle method (:func:`round_robin`); Swiss by maximum weight matching
(:func:`swiss_round`, networkx); standings with R37's order (:func:`standings`).

>>> [[(p.east, p.west) for p in r] for r in round_robin(["a", "b", "c", "d"])]
[[('a', 'd'), ('b', 'c')], [('c', 'a'), ('d', 'b')], [('a', 'b'), ('c', 'd')]]

A game's result is ``"east"``, ``"west"`` or ``"draw"`` (a bye: ``west`` is None and the
result ``"east"``, a win, R37). Scores are kept in half points internally (a draw is 1) so
that every sum is exact.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

#: Who won a game; ``"none"``: both players lost (both absent, a double forfeit, R37).
Result = Literal["east", "west", "draw", "none"]
Format = Literal["round-robin", "swiss"]
#: The matching's stand-in for "nobody": the odd player out paired with it gets the bye.
_BYE = object()
#: How far apart (in places) two players may be and still be tried first as a pair.
_WINDOW = 6


@dataclass(frozen=True, slots=True)
class Pairing:
    """One game of a round: ``west`` None is a bye for ``east``."""

    east: str
    west: str | None


@dataclass(frozen=True, slots=True)
class Game:
    """A game of the tournament as the standings see it (``result`` None: not over yet).

    ``points``: what the winner was paid (none for a draw, a bye or a forfeit, R37)."""

    round: int
    east: str
    west: str | None
    result: Result | None
    forfeit: bool = False
    points: int = 0

    @property
    def bye(self) -> bool:
        """A bye (no opponent), scored as a win (R37)."""
        return self.west is None


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings (``score`` and ``tiebreak`` in whole points)."""

    rank: int
    name: str
    score: float
    tiebreak: float
    points: int


# -- round robin --------------------------------------------------------------------------------

def round_robin(players: Sequence[str]) -> list[list[Pairing]]:
    """Every round of a round robin by the circle method (R37): the first player stays, the
    others turn one place a round; with an odd number one is out each round (a bye). Seats
    alternate so that each player is East about half the time."""
    circle: list[str | None] = list(players)
    if len(circle) < 2:
        return []
    if len(circle) % 2:
        circle.append(None)
    n = len(circle)
    rounds: list[list[Pairing]] = []
    for number in range(n - 1):
        games: list[Pairing] = []
        for i in range(n // 2):
            first, second = circle[i], circle[n - 1 - i]
            if i == 0 and number % 2:  # the one who stays alternates; the others turn
                first, second = second, first
            if first is None or second is None:
                games.append(Pairing(east=str(first or second), west=None))
            else:
                games.append(Pairing(east=first, west=second))
        rounds.append(games)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


# -- Swiss --------------------------------------------------------------------------------------

def _half_points(games: Iterable[Game]) -> dict[str, int]:
    """Each player's score in half points (win 2, draw 1, loss or forfeit 0; a bye 2)."""
    score: dict[str, int] = {}
    for game in games:
        score.setdefault(game.east, 0)
        if game.west is not None:
            score.setdefault(game.west, 0)
        if game.result == "draw":
            score[game.east] += 1
            score[str(game.west)] += 1
        elif game.result == "east":
            score[game.east] += 2
        elif game.result == "west" and game.west is not None:
            score[game.west] += 2
    return score


def swiss_round(ranked: Sequence[str], games: Sequence[Game]) -> list[Pairing]:
    """The next Swiss round for ``ranked`` (the current standings, best first) after
    ``games`` (R37): players of equal or nearest score meet, no pair meets twice, and with an
    odd number the lowest-ranked player who has had no bye gets one.

    The pairing is one maximum weight matching (networkx) over the pairs that have not met
    plus a stand-in for the bye, its weights ordered so that, first, nobody gets a second bye
    when it can be helped; then the squared score differences are as small as they can be;
    then the bye goes as low as it can; then, within a score group, the top half meets the
    bottom half. The near pairs are tried first (a sparse graph, far faster to match: the
    matching is cubic in the worst case); when they cannot seat everyone (or only with a
    second bye), every pair is. Should no pairing without a repeat exist at all, repeats are
    allowed (heavily weighted against) rather than leaving a player out.
    """
    players = list(ranked)
    if len(players) < 2:
        return [Pairing(east=p, west=None) for p in players]
    swiss = _SwissGraph(players, games)
    matching = swiss.best(everyone=False)
    if not swiss.acceptable(matching):
        matching = swiss.best(everyone=True)
    return _seat(matching, players, games)


class _SwissGraph:
    """The weights of a Swiss round's matching (:func:`swiss_round`)."""

    def __init__(self, players: list[str], games: Sequence[Game]) -> None:
        self.players = players
        n = self.n = len(players)
        scores = _half_points(games)
        self.score = {p: scores.get(p, 0) for p in players}
        self.met = {frozenset((g.east, g.west)) for g in games if g.west is not None}
        self.had_bye = {g.east for g in games if g.bye}
        self.group: dict[int, list[str]] = {}
        for p in players:
            self.group.setdefault(self.score[p], []).append(p)
        self.position = {p: members.index(p) for members in self.group.values()
                         for p in members}
        self.rank = {p: i for i, p in enumerate(players)}
        top = max(self.score.values()) - min(self.score.values())
        # Lexicographic weights: each tier outweighs every lower tier summed over a round.
        self.tier1 = n * n + 1                            # a unit of squared score difference
        self.tier2 = self.tier1 * (top * top + 1) * n + 1  # a second bye
        self.tier3 = self.tier2 * n + 1                    # a repeated pair
        self.base = self.tier3 * n * 4

    def pair_weight(self, a: str, b: str) -> int:
        """The weight of ``a`` against ``b`` (higher is better)."""
        diff = self.score[a] - self.score[b]
        weight = self.base - diff * diff * self.tier1
        if diff == 0:
            half = len(self.group[self.score[a]]) / 2
            weight -= int(abs(abs(self.position[a] - self.position[b]) - half) * 2)
        return weight

    def bye_weight(self, p: str) -> int:
        """The weight of a bye for ``p``: best for the lowest-ranked, lowest-scored player
        who has had none."""
        second = self.tier2 if p in self.had_bye else 0
        return (self.base - second - self.score[p] ** 2 * self.tier1
                - (self.n - 1 - self.rank[p]))

    def near(self, a: str, b: str) -> bool:
        """A likely pair: the same score group about half the group apart (top half against
        bottom half), or neighbours in the standings within a point of each other."""
        if self.score[a] == self.score[b]:
            half = len(self.group[self.score[a]]) // 2
            return abs(abs(self.position[a] - self.position[b]) - half) <= _WINDOW
        return (abs(self.score[a] - self.score[b]) <= 2
                and abs(self.rank[a] - self.rank[b]) <= _WINDOW)

    def best(self, everyone: bool) -> set[tuple[object, object]]:
        """The best matching over the near pairs that have not met, or (``everyone``) over
        all pairs, those that have met heavily weighted against."""
        # networkx is loaded at the first pairing, not with every game server (a tenth of a
        # second of each start).
        import networkx as nx

        graph = nx.Graph()
        for i, a in enumerate(self.players):
            for b in self.players[i + 1:]:
                if not (everyone or self.near(a, b)):
                    continue
                if frozenset((a, b)) not in self.met:
                    graph.add_edge(a, b, weight=self.pair_weight(a, b))
                elif everyone:
                    graph.add_edge(a, b, weight=self.pair_weight(a, b) - self.tier3)
        if self.n % 2:
            for p in self.players:
                graph.add_edge(_BYE, p, weight=self.bye_weight(p))
        found: set[tuple[object, object]] = nx.max_weight_matching(graph, maxcardinality=True)
        return found

    def acceptable(self, matching: set[tuple[object, object]]) -> bool:
        """Everyone seated, and no second bye while someone has had none."""
        if 2 * len(matching) < self.n + self.n % 2:
            return False
        byes = {str(b if a is _BYE else a) for a, b in matching if _BYE in (a, b)}
        return not (byes & self.had_bye and set(self.players) - self.had_bye)


def _seat(matching: set[tuple[object, object]], players: list[str],
          games: Sequence[Game]) -> list[Pairing]:
    """Seats for the matched pairs: the player who has been East less often is East (the
    higher-ranked on a tie), in the order of the higher-ranked player of each pair."""
    rank = {p: i for i, p in enumerate(players)}
    east_games = {p: 0 for p in players}
    for g in games:
        if g.west is not None and g.east in east_games:
            east_games[g.east] += 1
    pairings: list[tuple[int, Pairing]] = []
    for a, b in matching:
        if a is _BYE or b is _BYE:
            alone = str(b if a is _BYE else a)
            pairings.append((len(players) + rank[alone], Pairing(alone, None)))
            continue
        first, second = sorted((str(a), str(b)), key=lambda p: (east_games[p], rank[p]))
        pairings.append((min(rank[first], rank[second]), Pairing(first, second)))
    return [p for _, p in sorted(pairings, key=lambda item: item[0])]


# -- standings ----------------------------------------------------------------------------------

def standings(players: Sequence[str], games: Sequence[Game], fmt: Format,
              ratings: Mapping[str, float] | None = None) -> list[Standing]:
    """The standings (R37): score (win 1, draw 0.5, loss 0, a bye a win, a forfeit a loss),
    then the tie-break (Swiss: Buchholz, the sum of the opponents' scores; round robin:
    Sonneborn-Berger, the opponents beaten's scores plus half the drawn ones'), then the
    points won in all games, then the rating at the tournament's start. Games not yet over
    count for nothing; a bye has no opponent and adds nothing to a tie-break. Equal on every
    count, players share a rank."""
    finished = [g for g in games if g.result is not None]
    half = _half_points(finished)
    score = {p: half.get(p, 0) for p in players}
    tiebreak = dict.fromkeys(players, 0)  # in quarter points for Sonneborn-Berger's halves
    points = dict.fromkeys(players, 0)
    for g in finished:
        if g.west is None:
            continue
        for me, other, won in ((g.east, g.west, "east"), (g.west, g.east, "west")):
            if me not in tiebreak:
                continue
            theirs = score.get(other, 0)
            if fmt == "swiss" or g.result == won:
                tiebreak[me] += 2 * theirs
            elif g.result == "draw":
                tiebreak[me] += theirs
            if g.result == won and not g.forfeit:
                points[me] += g.points
    rating = dict(ratings or {})

    def key(p: str) -> tuple[int, int, int, float]:
        return (score[p], tiebreak[p], points[p], rating.get(p, 0.0))

    ordered = sorted(players, key=lambda p: (tuple(-x for x in key(p)), players.index(p)))
    table: list[Standing] = []
    for i, p in enumerate(ordered):
        rank = table[-1].rank if table and key(ordered[i - 1]) == key(p) else i + 1
        table.append(Standing(rank=rank, name=p, score=score[p] / 2,
                              tiebreak=tiebreak[p] / 4, points=points[p]))
    return table


__all__ = ["Format", "Game", "Pairing", "Result", "Standing", "round_robin", "standings",
           "swiss_round"]
