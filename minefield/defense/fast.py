"""The fast danger estimate: the bots' shape weights and a few more features of the view,
turned into calibrated probabilities for the opponent the seat plays against.

:mod:`minefield.defense.danger` weighs every wait shape the opponent could hold, from what this
seat sees (R26). Its numbers rank tiles well but are not chances. Here they become chances:
each live kind gets a few features (its share of the live shape weight, how much weight the
discards so far have killed, the discard number, whether it is an honor, whether it is suji or
half suji, whether it is the dora or next to it, whether this discard carries ippatsu or
houtei, the opponent's share of discards in the kind's suit over the game and over their last
five discards, how many dora the opponent could hold, how central the kind is, how many live
ryanmen and kanchan/penchan shapes wait on it, how many of its copies this seat cannot see, and
the suit reading of :class:`SuitReading`: how far the opponent's discards of the kind's suit
fall under an even spread, how long ago they last threw it, how far under the other suits, for
an honor how strongly some suit is avoided, the deficit again in the dora's suit, and how
many more tiles of the kind's suit this seat cannot see than of the others), and a
logistic mapping fitted on bot games per opponent level
(``benchmarks/fit_danger.py``, data in :mod:`minefield.defense.calibration`) turns them into
the chance of dealing in now. Two kinds of tiles are exactly safe and get 0 without any
fitting: those either seat has already discarded (genbutsu and passed tiles, R13, R15), and
those no wait shape can use any more because every tile it needs is seen ("absolute
no-chance").

>>> from minefield.rules.game import ChooseHand, Game, Seat
>>> from minefield.defense.position import Position
>>> from minefield.rules.tiles import tiles_to_str
>>> game = Game(7)
>>> for seat in Seat:
...     hand = tiles_to_str(game.tiles_of(seat)[:13])
...     _ = game.apply(seat, ChooseHand(tiles=hand))
>>> estimate = fast_dangers(Position.from_view(game.view(Seat.EAST)))
>>> all(0.0 <= d <= 1.0 for d in estimate.danger), len(estimate.loss)
(True, 34)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from minefield.defense import calibration
from minefield.defense.calibration import DEFAULT_OPPONENT, PERSON_BLEND, LevelFit, Opponent
from minefield.defense.danger import DEFAULT_PRIORS, tile_dangers, wait_shapes
from minefield.defense.position import Estimate, Position
from minefield.rules.game import TOTAL_DISCARDS, ron_context
from minefield.rules.tiles import NUM_KINDS, TERMINALS_AND_HONORS, is_honor

RECENT = 5  # the opponent's last discards whose suits are a feature of their own
AVOID_MIN_SUITED = 6  # number-tile discards before a suit can be read as avoided
AVOID_DEFICIT = 2.0  # ... this many under an even spread over the three suits
AVOID_MARGIN = 1  # ... and this many under every other number suit
AVOID_MOST = 1  # ... and at most this many of it thrown
DEALER_FACTOR = 1.5  # R23: a dealer's ron pays 1.5 times a non-dealer's
_SHARE_FLOOR = 1e-4  # a live kind the heuristic gives no weight is still not proven safe
NO_SUJI, HALF_SUJI, FULL_SUJI = 0, 1, 2


@dataclass(frozen=True)
class Features:
    """The inputs of the fitted mappings for one position (``benchmarks/fit_danger.py`` fits
    on exactly these).

    ``share[k]`` is kind ``k``'s heuristic danger over the total weight of live shapes;
    ``killed`` the share of all shape weight that the discards so far have killed, and
    ``passed_killed`` the share killed by this seat's own discards (each such shape, if real,
    made the opponent furiten). ``possible[k]`` is False when ``k`` is exactly safe. The
    row's order is :data:`minefield.defense.calibration.DANGER_FEATURES`.
    """

    share: tuple[float, ...]
    possible: tuple[bool, ...]
    suji: tuple[int, ...]
    killed: float
    passed_killed: float
    number: int
    bonus_han: bool
    dora: int
    suit_share: tuple[float, ...]  # per suit (m, p, s, honors): the opponent's discards
    recent_suit_share: tuple[float, ...]  # the same over their last RECENT discards
    dora_unseen: int  # copies of the dora this seat cannot see
    ryanmen_live: tuple[int, ...]  # per kind: live ryanmen shapes that wait on it
    edge_live: tuple[int, ...]  # per kind: live kanchan and penchan shapes that wait on it
    unseen: tuple[int, ...]
    suits: SuitReading  # how the opponent's discards spread over the suits

    def danger_row(self, kind: int) -> tuple[float, ...]:
        """The danger mapping's inputs for one kind (the order of
        :data:`~minefield.defense.calibration.DANGER_FEATURES`)."""
        honor = is_honor(kind)
        near = (kind != self.dora and not honor and kind // 9 == self.dora // 9
                and abs(kind - self.dora) <= 2)
        pos = kind % 9
        return (1.0, math.log(max(self.share[kind], _SHARE_FLOOR)),
                self.number / TOTAL_DISCARDS, 1.0 if honor else 0.0,
                self.killed, 1.0 if self.bonus_han else 0.0,
                1.0 if self.suji[kind] == FULL_SUJI else 0.0,
                1.0 if self.suji[kind] == HALF_SUJI else 0.0,
                1.0 if kind == self.dora else 0.0, 1.0 if near else 0.0,
                self.suit_share[kind // 9], self.recent_suit_share[kind // 9],
                self.dora_unseen / 4, 0.0 if honor else min(pos, 8 - pos) / 4,
                float(self.ryanmen_live[kind]), float(self.edge_live[kind]),
                self.unseen[kind] / 4, *self.suits.row(kind, self.dora, self.unseen))

    def furiten_row(self) -> tuple[float, ...]:
        """The furiten mapping's inputs (the order of ``FURITEN_COEFFICIENTS``)."""
        return (1.0, self.number / TOTAL_DISCARDS, self.passed_killed)


@dataclass(frozen=True)
class SuitReading:
    """How the opponent's discards spread over the suits: the reading of a one-suit hand.

    An opponent building honitsu or chinitsu (R19: 3 and 6 han, so riichi and honitsu already
    make 4 han, near the mangan minimum of R14) holds most tiles of one suit, and their
    discards, the leftovers of their 34, hold few of it. ``counts`` are the opponent's discards
    per suit (m, p, s, then honors), ``thrown`` all of them, ``last[s]`` how many of them had
    been made when the last one of suit ``s`` was (0: none yet).

    >>> reading = SuitReading.of([0, 1, 18, 27, 2, 20, 28, 19, 3, 21, 29, 22, 30, 23])
    >>> reading.counts, reading.expected(), reading.deficit(1), reading.margin(1)
    ((4, 0, 6, 4), 3.3333333333333335, 3.3333333333333335, 4)
    """

    counts: tuple[int, int, int, int]
    thrown: int
    last: tuple[int, int, int, int]

    @classmethod
    def of(cls, kinds: Sequence[int]) -> SuitReading:
        """The reading of the opponent's discards ``kinds``, in the order played."""
        counts = [0, 0, 0, 0]
        last = [0, 0, 0, 0]
        for index, kind in enumerate(kinds, 1):
            counts[kind // 9] += 1
            last[kind // 9] = index
        return cls((counts[0], counts[1], counts[2], counts[3]), len(kinds),
                   (last[0], last[1], last[2], last[3]))

    @property
    def suited(self) -> int:
        """The opponent's discards of number tiles (honors are often thrown as safe tiles
        whatever the hand, so the spread is read over the number tiles)."""
        return self.thrown - self.counts[3]

    def expected(self) -> float:
        """The discards of one number suit an even spread over the three would give."""
        return self.suited / 3

    def deficit(self, suit: int) -> float:
        """How many fewer tiles of number ``suit`` were discarded than an even spread gives."""
        return self.expected() - self.counts[suit]

    def margin(self, suit: int) -> int:
        """How many fewer tiles of ``suit`` than of the least discarded other number suit."""
        return max(0, min(self.counts[o] for o in range(3) if o != suit) - self.counts[suit])

    def avoided(self) -> int | None:
        """The number suit the opponent clearly avoids (a one-suit hand is likely), or None:
        at least :data:`AVOID_MIN_SUITED` number tiles discarded, at most :data:`AVOID_MOST`
        of this suit, at least :data:`AVOID_DEFICIT` under an even spread and
        :data:`AVOID_MARGIN` under each other suit.

        >>> SuitReading.of([0, 1, 18, 27, 2, 20, 28, 19, 3, 21, 29, 22, 30, 23]).avoided()
        1
        >>> SuitReading.of([0, 9, 18, 27, 1, 10, 19, 28, 2, 11, 20]).avoided() is None
        True
        """
        if self.suited < AVOID_MIN_SUITED:
            return None
        suit = min(range(3), key=lambda s: self.counts[s])
        if (self.counts[suit] <= AVOID_MOST and self.deficit(suit) >= AVOID_DEFICIT
                and self.margin(suit) >= AVOID_MARGIN):
            return suit
        return None

    def row(self, kind: int, dora: int, unseen: Sequence[int]
            ) -> tuple[float, float, float, float, float, float]:
        """The suit features of one kind (the last six of
        :data:`~minefield.defense.calibration.DANGER_FEATURES`): its suit's deficit, the
        discards since the suit was last thrown (how early the opponent stopped), its margin
        under the other suits, for an honor the largest deficit of any suit (honitsu holds
        honors), the deficit again when the kind shares the dora's suit, and how many more
        tiles of its suit this seat cannot see than of the mean number suit (``unseen`` per
        kind: the opponent's 34 were dealt from those, so a suit rich in them is one the
        opponent could build a flush in)."""
        if is_honor(kind):
            widest = max(0.0, *(self.deficit(s) for s in range(3)))
            return 0.0, 0.0, 0.0, widest / 4, 0.0, 0.0
        suit = kind // 9
        deficit = self.deficit(suit)
        same_as_dora = not is_honor(dora) and dora // 9 == suit
        per_suit = [sum(unseen[9 * s:9 * s + 9]) for s in range(3)]
        richer = per_suit[suit] - sum(per_suit) / 3
        return (deficit / 4, (self.thrown - self.last[suit]) / (TOTAL_DISCARDS / 2),
                self.margin(suit) / 4, 0.0, deficit / 4 if same_as_dora else 0.0, richer / 8)


def suji_status(safe: frozenset[int], kind: int) -> int:
    """:data:`FULL_SUJI` when every ryanmen that waits on number ``kind`` has its other wait
    among the safe kinds, :data:`HALF_SUJI` when some has, else :data:`NO_SUJI` (honors too)."""
    if is_honor(kind):
        return NO_SUJI
    pos = kind % 9
    partners = [k for k, ok in ((kind - 3, pos >= 3), (kind + 3, pos <= 5)) if ok]
    covered = sum(1 for k in partners if k in safe)
    if covered == len(partners):
        return FULL_SUJI
    return HALF_SUJI if covered else NO_SUJI


def possible_wait(unseen: Sequence[int], kind: int) -> bool:
    """Whether some wait shape on ``kind`` can still be in the opponent's hand at all.

    Every wait is a tanki or shanpon on the kind itself, a sequence shape holding two of its
    neighbours, or thirteen orphans; each needs tiles the opponent can hold (unseen ones).
    """
    if unseen[kind] >= 1:
        return True  # a tanki on it
    if kind in TERMINALS_AND_HONORS and all(unseen[k] for k in TERMINALS_AND_HONORS if k != kind):
        return True  # thirteen orphans
    if is_honor(kind):
        return False
    pos = kind % 9
    pairs = [(-2, -1), (-1, 1), (1, 2)]  # ryanmen/penchan below, kanchan, ryanmen/penchan above
    for a, b in pairs:
        if pos + a >= 0 and pos + b <= 8 and unseen[kind + a] and unseen[kind + b]:
            return True
    return False


def features(position: Position) -> Features:
    """The features of one position (what this seat sees only, R26)."""
    unseen = position.unseen
    safe = position.genbutsu | position.passed
    dora = position.dora
    wind = position.opponent.wind
    opponent = [t.kind for t in position.opponent_discards]
    every = wait_shapes(unseen, (), dora, DEFAULT_PRIORS, wind)
    total = sum(s.weight for s in every) or 1.0
    live = sum(s.weight for s in every if not any(w in safe for w in s.waits))
    passed_only = position.passed - position.genbutsu
    by_passed = sum(s.weight for s in every if any(w in passed_only for w in s.waits))
    danger = tile_dangers(unseen, safe, dora, DEFAULT_PRIORS, wind, opponent)
    share = tuple(d / live if live > 0 else 0.0 for d in danger)
    possible = tuple(k not in safe and possible_wait(unseen, k) for k in range(NUM_KINDS))
    context = ron_context(position.opponent, position.number)
    suji = tuple(suji_status(safe, k) for k in range(NUM_KINDS))
    ryanmen = [0] * NUM_KINDS
    edge = [0] * NUM_KINDS
    for shape in every:
        if shape.name in ("ryanmen", "kanchan", "penchan") and not any(
                w in safe for w in shape.waits):
            for wait in shape.waits:
                if shape.name == "ryanmen":
                    ryanmen[wait] += 1
                else:
                    edge[wait] += 1
    return Features(share=share, possible=possible, suji=suji, killed=1.0 - live / total,
                    passed_killed=by_passed / total, number=position.number,
                    bonus_han=context.ippatsu or context.houtei, dora=dora,
                    suit_share=suit_shares(opponent), recent_suit_share=suit_shares(
                        opponent[-RECENT:]), dora_unseen=unseen[dora],
                    ryanmen_live=tuple(ryanmen), edge_live=tuple(edge), unseen=tuple(unseen),
                    suits=SuitReading.of(opponent))


def suit_shares(kinds: Sequence[int]) -> tuple[float, ...]:
    """The share of ``kinds`` in each suit (m, p, s, then honors); all 0 for no kinds.

    >>> suit_shares([0, 1, 9, 27])
    (0.5, 0.25, 0.0, 0.25)
    """
    counts = [0, 0, 0, 0]
    for kind in kinds:
        counts[kind // 9] += 1
    return tuple(c / len(kinds) if kinds else 0.0 for c in counts)


def logistic(coefficients: Sequence[float], row: Sequence[float]) -> float:
    """The logistic mapping's chance for one row of inputs (the sum clipped to +-50)."""
    z = sum(c * x for c, x in zip(coefficients, row, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


def value_category(position: Position, kind: int) -> str:
    """Where ``kind`` sits relative to the dora: ``dora``, ``near_dora`` (two steps or less in
    its suit) or ``other`` (the categories of ``MEAN_RON_POINTS``)."""
    dora = position.dora
    if kind == dora:
        return "dora"
    if not is_honor(kind) and kind // 9 == dora // 9 and abs(kind - dora) <= 2:
        return "near_dora"
    return "other"


def mean_ron_value(fit: LevelFit, position: Position, kind: int, bonus_han: bool) -> float:
    """The average points of a ron on ``kind`` (fitted by :func:`value_category`, with or
    without ippatsu/houtei), 1.5 times as much when the opponent is paid dealer values
    (R23)."""
    return fit.mean_ron_points[value_category(position, kind)] * (
        fit.bonus_han_value_factor if bonus_han else 1.0) * (
        DEALER_FACTOR if position.opponent_dealer else 1.0)


def _level_estimate(feats: Features, position: Position, fit: LevelFit) -> Estimate:
    danger = [0.0] * NUM_KINDS
    loss = [0.0] * NUM_KINDS
    for kind in range(NUM_KINDS):
        if not feats.possible[kind]:
            continue
        chance = logistic(fit.danger, feats.danger_row(kind))
        danger[kind] = chance
        loss[kind] = chance * mean_ron_value(fit, position, kind, feats.bonus_han)
    furiten = logistic(fit.furiten, feats.furiten_row())
    if position.number == 1:
        furiten = 0.0  # nothing has been discarded: nobody can be furiten yet
    return Estimate(danger=tuple(danger), loss=tuple(loss), opponent_furiten=furiten)


def fast_dangers(position: Position, opponent: Opponent = DEFAULT_OPPONENT) -> Estimate:
    """The fast estimate of one position against ``opponent`` (a bot level, or ``person``:
    the levels' estimates blended by :data:`~minefield.defense.calibration.PERSON_BLEND`): a
    chance and an expected loss for each of the 34 kinds (0 for genbutsu, passed and
    absolutely impossible kinds), and the chance that the opponent is already furiten."""
    feats = features(position)
    if opponent != "person":
        return _level_estimate(feats, position, calibration.FITS[opponent])
    parts = [(weight, _level_estimate(feats, position, calibration.FITS[level]))
             for level, weight in PERSON_BLEND.items() if weight > 0]
    return Estimate(
        danger=tuple(sum(w * e.danger[k] for w, e in parts) for k in range(NUM_KINDS)),
        loss=tuple(sum(w * e.loss[k] for w, e in parts) for k in range(NUM_KINDS)),
        opponent_furiten=sum(w * e.opponent_furiten for w, e in parts))


def bot_dangers(position: Position) -> tuple[float, ...]:
    """The strong bot's read of one position: for each of the 34 kinds the chance that it deals
    in by :data:`~minefield.defense.calibration.BOT_DANGER` (fitted on games against ``normal``
    and ``strong`` together: a bot cannot know whom it plays), 0 for genbutsu, passed and
    absolutely impossible kinds."""
    feats = features(position)
    return tuple(logistic(calibration.BOT_DANGER, feats.danger_row(kind))
                 if feats.possible[kind] else 0.0 for kind in range(NUM_KINDS))
