"""Reviewing a finished game's defense: each of one seat's discards with the danger it carried
then, the opponent's hand revealed, and the truth of which tiles would have dealt in.

A review is built from what the game's end reveals (R26): both hands, both pools and discard
rows, the dora indicator and the rules. Each of the seat's discards becomes a
:class:`ReviewStep` holding the :class:`~minefield.defense.position.Position` the seat saw
before it (what the estimators take) and the truth: the pool kinds that would have dealt in
then (a wait of the opponent's hand, eligible by R14 with that discard's ippatsu R16 or
houtei R17, the opponent not furiten yet, R13, R15). :func:`assess` adds the danger estimate
(the fast one, for the opponent the seat played against: :func:`opponent_of` reads it from a
record's player names).

>>> from minefield.rules.game import Discard
>>> from minefield.rules.prepared import game_with_hands
>>> game = game_with_hands("23m456m345p678s55s", "123m456p789s3332z", east_pool="1z",
...                        west_pool="4m", dora="2m")
>>> _ = game.apply(Seat.EAST, Discard(tile="1z"))
>>> _ = game.apply(Seat.WEST, Discard(tile="4m"))  # East waits on 1m 4m 7m
>>> review = review_of_game(game, Seat.WEST)
>>> [(step.number, step.tile, step.dealt_in, step.deal_ins) for step in review.steps]
[(2, '4m', True, ('4m',))]
>>> review.opponent_waits
('1m', '4m', '7m')
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from minefield.bots.base import bot_level
from minefield.defense.calibration import DEFAULT_OPPONENT, Opponent
from minefield.defense.estimate import estimate
from minefield.defense.position import DangerReport, Position, PositionError, TileDanger
from minefield.errors import MinefieldError
from minefield.rules.game import Game, GameEnded, Seat, ron_context
from minefield.rules.hand import Hand
from minefield.rules.score import analyze
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import Tile, kind_str, parse_tiles, tiles_to_str


class ReviewError(MinefieldError, ValueError):
    """A game that cannot be reviewed (not finished, tiles that do not add up)."""


@dataclass(frozen=True)
class ReviewStep:
    """One of the seat's discards: its number in the game (1-34), the tile, the position seen
    just before it, the pool kinds that would have dealt in then (the truth), whether this
    discard dealt in, and whether the opponent was already furiten (nothing could deal in)."""

    number: int
    tile: str
    position: Position
    deal_ins: tuple[str, ...]
    dealt_in: bool
    opponent_furiten: bool
    own_furiten: bool = False

    @property
    def guarded(self) -> frozenset[str]:
        """The seat's own waits left in its pool, while it is not furiten: discarding one would
        make it furiten (R15a), so no review calls one of them the safer choice."""
        if self.own_furiten:
            return frozenset()
        waits = set(self.position.own_waits)
        return frozenset(kind_str(k) for k in self.position.pool_kinds if k in waits)

    def __repr__(self) -> str:
        return f"ReviewStep(discard {self.number}, <tiles hidden>)"


@dataclass(frozen=True)
class GameReview:
    """A finished game from one seat's side: the revealed opponent hand and waits, and one
    step per discard the seat made."""

    seat: Seat
    end: GameEnded
    opponent_hand: str | None
    opponent_waits: tuple[str, ...]
    steps: tuple[ReviewStep, ...]
    their_steps: tuple[ReviewStep, ...] = ()
    discards: Mapping[Seat, tuple[str, ...]] = field(default_factory=dict)
    dora_indicator: str = ""
    settings: RuleSettings = field(default_factory=RuleSettings)

    @property
    def waits(self) -> tuple[str, ...]:
        """The seat's own waits (revealed at the end, R26)."""
        return tuple(self.end.waits.get(self.seat, ()))

    @property
    def ron_points(self) -> int:
        """What the opponent's ron was worth when the seat dealt in (R23), else 0."""
        end = self.end
        if end.result == "ron" and end.winner is self.seat.other and end.value is not None:
            return end.value.points
        return 0

    def __repr__(self) -> str:
        return f"GameReview(seat={self.seat.value}, steps={len(self.steps)})"


@dataclass(frozen=True)
class AssessedStep:
    """A step with its danger report."""

    step: ReviewStep
    report: DangerReport

    @property
    def chosen(self) -> TileDanger:
        """The estimate's entry of the tile discarded."""
        return self.report.of(kind_str(Tile.parse(self.step.tile).kind))

    @property
    def taken(self) -> float:
        """The estimated danger of the tile discarded."""
        return self.chosen.danger

    @property
    def least(self) -> float:
        """The least estimated danger the pool offered."""
        return self.report.safest().danger


def review_game(end: GameEnded, discards: Mapping[Seat, Sequence[str]], dora_indicator: str,
                settings: RuleSettings, seat: Seat, theirs: bool = True) -> GameReview:
    """The review of ``seat``'s discards in a finished game (its end and both discard rows in
    the order played); with ``theirs``, also the opponent's discards as they saw them (the
    review's ``their_steps``, for how readable the seat's wait was). :class:`ReviewError` when
    the tiles do not make a game."""
    hand_text = end.hands.get(seat)
    if hand_text is None:
        raise ReviewError(f"{seat} never chose a hand: there is nothing to review")
    try:
        # In the order a view gives them (sorted), so that a step's position is the one seen.
        tiles = tuple(parse_tiles(tiles_to_str(parse_tiles(hand_text + end.pools[seat]))))
        hand = Hand.parse(hand_text)
        indicator = Tile.parse(dora_indicator)
        rows = {s: tuple(Tile.parse(t) for t in discards.get(s, ())) for s in Seat}
    except (ValueError, KeyError) as error:
        raise ReviewError(f"the game's tiles cannot be read: {error}") from None
    opponent = seat.other
    opponent_text = end.hands.get(opponent)
    opponent_hand = Hand.parse(opponent_text) if opponent_text else None
    furiten = end.furiten.get(opponent)
    own_furiten = end.furiten.get(seat)
    steps = []
    for index, tile in enumerate(rows[seat]):
        number = 2 * index + (1 if seat is Seat.EAST else 2)
        seen = {s: rows[s][:index + (1 if s is Seat.EAST and seat is Seat.WEST else 0)]
                for s in Seat}
        try:
            position = Position(seat=seat, tiles=tiles, hand=hand, dora_indicator=indicator,
                                discards=seen, settings=settings)
        except PositionError as error:
            raise ReviewError(f"discard {number}: {error}") from None
        frozen = furiten is not None and furiten.discard_number < number
        deal_ins: tuple[str, ...] = ()
        if opponent_hand is not None and not frozen:
            ctx = ron_context(opponent, number, indicator.kind)
            eligible = {v.tile for v in analyze(opponent_hand, ctx, settings) if v.eligible}
            deal_ins = tuple(kind_str(k) for k in position.pool_kinds if k in eligible)
        dealt_in = (end.result == "ron" and end.winner is opponent
                    and end.discard_number == number)
        steps.append(ReviewStep(number=number, tile=str(tile), position=position,
                                deal_ins=deal_ins, dealt_in=dealt_in, opponent_furiten=frozen,
                                own_furiten=(own_furiten is not None
                                             and own_furiten.discard_number < number)))
    their_steps: tuple[ReviewStep, ...] = ()
    if theirs and opponent_hand is not None:
        their_steps = review_game(end, discards, dora_indicator, settings, opponent,
                                  theirs=False).steps
    return GameReview(seat=seat, end=end, opponent_hand=opponent_text,
                      opponent_waits=tuple(end.waits.get(opponent, ())), steps=tuple(steps),
                      their_steps=their_steps,
                      discards={s: tuple(str(t) for t in rows[s]) for s in Seat},
                      dora_indicator=str(indicator), settings=settings)


def review_of_game(game: Game, seat: Seat) -> GameReview:
    """The review of a finished :class:`~minefield.rules.game.Game` (a replayed record)."""
    end = game.result
    if end is None:
        raise ReviewError("the game has not ended: a review needs both hands revealed")
    view = game.view(seat)
    return review_game(end, view.discards, view.dora_indicator, game.settings, seat)


def opponent_of(name: str) -> Opponent:
    """Whom a record's player name stands for: a bot of its level (practice records name the
    bot ``Bot (level)``), else a person.

    >>> opponent_of("Bot (normal)"), opponent_of("Alice")
    ('normal', 'person')
    """
    level = bot_level(name)
    return level if level is not None else "person"


def assess(review: GameReview, opponent: Opponent = DEFAULT_OPPONENT,
           stop: Callable[[], bool] | None = None) -> Iterator[AssessedStep]:
    """Each step of ``review`` with its danger report against ``opponent``, in order (a
    generator, so that a caller can show them as they come; ``stop`` ends it early)."""
    for step in review.steps:
        if stop is not None and stop():
            return
        yield AssessedStep(step, estimate(step.position, opponent))


def totals(steps: Sequence[AssessedStep]) -> tuple[float, float]:
    """The danger taken over these steps and the least that could have been taken (sums of
    chances: the expected number of deal-ins)."""
    return sum(s.taken for s in steps), sum(s.least for s in steps)


__all__ = ["AssessedStep", "GameReview", "ReviewError", "ReviewStep", "assess", "opponent_of",
           "review_game", "review_of_game", "totals"]
