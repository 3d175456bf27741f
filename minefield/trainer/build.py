"""The build: the 13 tiles a seat kept against the strong bot's choice from the same 34 (R7).

For each hand: its waits with their live copies (those the seat could not see: not among its
own 34 and not the dora indicator), what a ron on each pays on an ordinary discard and whether
it reaches mangan (R14; a wait below it passes and freezes the hand, R15b), the expected points
by the strong bot's measure (:func:`~minefield.bots.hands.expected_value`, what
:func:`~minefield.bots.hands.choose_best` maximizes), and the four pool tiles kept back (R10).
Then what each would have done against the opponent's discards as they were made (replayed:
the first of their discards that is a wait wins if it is eligible, with its ippatsu or houtei
and the real ura dora, R16-R18, or passes and makes the hand furiten, R15b).

>>> from minefield.rules.game import Discard, Seat
>>> from minefield.rules.prepared import game_with_hands
>>> from minefield.trainer.defense_review import review_of_game
>>> game = game_with_hands("23m456m345p678s55s", "123m456p789s3332z", east_pool="1z",
...                        west_pool="4m", dora="2m")
>>> _ = game.apply(Seat.EAST, Discard(tile="1z"))
>>> _ = game.apply(Seat.WEST, Discard(tile="4m"))  # East waits on 1m 4m 7m
>>> built = build_of(review_of_game(game, Seat.EAST))
>>> built.yours.hand, [w.tile for w in built.yours.waits], built.yours.won
('23456m345p55678s', ['1m', '4m', '7m'], 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from minefield.bots.discards import keep_plan
from minefield.bots.hands import DealtTiles, choose_best, expected_value
from minefield.defense.fast import fast_dangers
from minefield.defense.position import Position, PositionError
from minefield.rules.game import NEVER_DISCARDED, TOTAL_DISCARDS, Seat, ron_context
from minefield.rules.hand import Hand, waits
from minefield.rules.score import score_counts
from minefield.rules.settings import RuleSettings
from minefield.rules.tiles import NUM_KINDS, Tile, kind_str, parse_tiles, tiles_to_str
from minefield.trainer.defense_review import GameReview
from minefield.trainer.sections import Line, Section

__all__ = ["Build", "BuiltHand", "WaitValue", "build_of", "build_part", "build_section"]

Counts = tuple[int, ...]


@dataclass(frozen=True)
class WaitValue:
    """One wait of a hand: its live copies, what a ron on it pays on an ordinary discard
    (without ura dora), and whether that reaches the minimum (R14)."""

    tile: str
    live: int
    points: int
    eligible: bool
    limit: str | None


@dataclass(frozen=True)
class BuiltHand:
    """A hand built from the seat's 34: its tiles, waits, expected points by the strong bot's
    measure, the pool tiles kept back, and what it won against the opponent's discards
    (``won`` the discard number, ``earned`` the points; ``passed`` the discard number where it
    became furiten, R15, and ``furiten`` why, in words)."""

    hand: str
    waits: tuple[WaitValue, ...]
    value: float
    kept_back: str
    won: int | None
    earned: int
    passed: int | None
    furiten: str = ""

    def __repr__(self) -> str:
        return f"BuiltHand(waits={len(self.waits)}, <tiles hidden>)"

    @property
    def live(self) -> int:
        """Live copies of the waits that reach the minimum."""
        return sum(w.live for w in self.waits if w.eligible)

    @property
    def mangan(self) -> bool:
        """Whether some wait with a live copy reaches the minimum (R14)."""
        return any(w.eligible and w.live for w in self.waits)


@dataclass(frozen=True)
class Build:
    """The seat's hand and the strong bot's from the same 34, and how the game ended for the
    seat's own hand."""

    yours: BuiltHand
    bot: BuiltHand
    last_discard: int

    def __repr__(self) -> str:
        return "Build(<tiles hidden>)"

    @property
    def same(self) -> bool:
        """The strong bot keeps the same 13."""
        return self.yours.hand == self.bot.hand


def _counts(tiles: Sequence[Tile]) -> Counts:
    counts = [0] * NUM_KINDS
    for tile in tiles:
        counts[tile.kind] += 1
    return tuple(counts)


def _wait_values(deal: DealtTiles, hand: Counts) -> tuple[WaitValue, ...]:
    ctx = deal.context
    found = []
    for wait in waits(hand):
        value = score_counts(hand, wait, ctx, deal.settings, deal.reds_in(hand))
        live = max(0, deal.unseen(wait))
        if value is None:
            found.append(WaitValue(kind_str(wait), live, 0, False, None))
        else:
            found.append(WaitValue(kind_str(wait), live, value.paid.points, value.eligible,
                                   value.paid.limit))
    return tuple(found)


def _replay(review: GameReview, deal: DealtTiles, hand: Counts
            ) -> tuple[int | None, int, int | None]:
    """The first of the opponent's discards that is one of ``hand``'s waits: (won at, points,
    None) when eligible, (None, 0, passed at) when not; (None, 0, None) when none came."""
    seat = review.seat
    hand_waits = set(waits(hand))
    indicator = Tile.parse(review.dora_indicator).kind
    ura = Tile.parse(review.end.ura_indicator).kind
    for index, text in enumerate(review.discards.get(seat.other, ())):
        kind = Tile.parse(text).kind
        if kind not in hand_waits:
            continue
        number = 2 * index + (1 if seat.other is Seat.EAST else 2)
        ctx = ron_context(seat, number, indicator, ura, deal.dealer)
        value = score_counts(hand, kind, ctx, deal.settings, deal.reds_in(hand))
        if value is not None and value.eligible:
            return number, value.paid.points, None
        return None, 0, number
    return None, 0, None


def _bot_kept_back(review: GameReview, tiles: Sequence[Tile], hand: Counts,
                   settings: RuleSettings) -> str:
    """The four tiles the strong bot plans to keep back before its first discard: its own
    waits first, then the most dangerous whole kinds (:func:`~minefield.bots.discards.
    keep_plan`, the calibrated estimate, as its discards plan them)."""
    seat = review.seat
    seen = {s: tuple(Tile.parse(t) for t in review.discards.get(s, ())[:1]) if (
        seat is Seat.WEST and s is Seat.EAST) else () for s in Seat}
    hand_tiles = [Tile(k) for k in range(NUM_KINDS) for _ in range(hand[k])]
    pool = [a - b for a, b in zip(_counts(tiles), hand, strict=True)]
    try:
        position = Position(seat=seat, tiles=tuple(tiles), hand=Hand(hand_tiles),
                            dora_indicator=Tile.parse(review.dora_indicator), discards=seen,
                            settings=settings)
    except PositionError:
        return ""
    danger = fast_dangers(position).danger
    own = set(waits(hand))
    guarded = [k for k in own if pool[k]]
    capacity = NEVER_DISCARDED - sum(pool[k] for k in guarded)
    free = [n if k not in own else 0 for k, n in enumerate(pool)]
    kept = set(guarded) | (set(keep_plan(free, danger, capacity)) if capacity > 0 else set())
    chosen = [Tile(k) for k in sorted(kept) for _ in range(pool[k])][:NEVER_DISCARDED]
    return tiles_to_str(chosen)


def _your_kept_back(review: GameReview) -> str:
    pool = parse_tiles(review.end.pools.get(review.seat, ""))
    counts = list(_counts(pool))
    for text in review.discards.get(review.seat, ()):
        counts[Tile.parse(text).kind] -= 1
    return tiles_to_str([Tile(k) for k in range(NUM_KINDS) for _ in range(max(0, counts[k]))])


def build_of(review: GameReview) -> Build:
    """The build of ``review.seat``: its hand and the strong bot's from the same 34 tiles."""
    seat, end = review.seat, review.end
    tiles = parse_tiles(tiles_to_str(parse_tiles((end.hands.get(seat) or "")
                                                 + end.pools.get(seat, ""))))
    deal = DealtTiles.from_tiles(tiles, Tile.parse(review.dora_indicator).kind, seat,
                                 review.settings)
    yours = Hand.parse(end.hands.get(seat) or "").counts
    choice = choose_best(deal)
    built = []
    for hand, kept in ((yours, _your_kept_back(review)),
                       (choice.hand, _bot_kept_back(review, tiles, choice.hand,
                                                    review.settings))):
        won, earned, passed = _replay(review, deal, hand)
        built.append(BuiltHand(hand=deal.hand_tiles(hand), waits=_wait_values(deal, hand),
                               value=expected_value(deal, hand), kept_back=kept, won=won,
                               earned=earned, passed=passed))
    # The seat's own hand did what the game says (its own discards could make it furiten too,
    # R15a), not what a replay of the opponent's discards alone would give.
    cause = end.furiten.get(seat)
    won_here = end.result == "ron" and end.winner is seat and end.value is not None
    built[0] = replace(built[0], won=end.discard_number if won_here else None,
                       earned=end.value.points if won_here and end.value else 0,
                       passed=cause.discard_number if cause else None,
                       furiten=cause.detail if cause else "")
    return Build(yours=built[0], bot=built[1], last_discard=end.discard_number)


def build_part(review: GameReview) -> Section:
    """:func:`build_section` of :func:`build_of`, or one line saying why the build cannot be
    worked out (tiles that do not make a deal), so that the review's other parts still show."""
    try:
        built = build_of(review)
    except ValueError as error:
        return Section("The build", (Line(f"It cannot be worked out: {error}"),))
    return build_section(built, review.settings)


def _hand_lines(built: BuiltHand, settings: RuleSettings, kept: str) -> list[Line]:
    lines = []
    minimum = "mangan" if settings.minimum == "mangan" else "the minimum"
    for wait in built.waits:
        pays = f"{wait.points}" + (f" ({wait.limit})" if wait.limit else "")
        verdict = "" if wait.eligible else f", below {minimum}: it would pass and freeze the hand"
        lines.append(Line(f"{wait.tile}: {wait.live} live, pays {pays}{verdict}", 2, "•"))
    if not built.waits:
        lines.append(Line("no wait: the hand is not tenpai and cannot win (R12)", 2, "•"))
    eligible = "reaches mangan" if built.mangan else "cannot reach mangan with a live wait"
    if settings.minimum != "mangan":
        eligible = "can win" if built.mangan else "cannot win with a live wait"
    lines.append(Line(f"{built.live} live copies of winning waits; the hand {eligible} (R14); "
                      f"expected value {round(built.value)} points by the strong bot's measure",
                      2, "•"))
    lines.append(Line(f"{kept}: {built.kept_back or 'nothing'}", 2, "•"))
    return lines


def _outcome(built: BuiltHand, last: int) -> str:
    if built.won is not None:
        return f"won {built.earned} on discard {built.won}"
    if built.passed is not None:
        why = built.furiten or "a wait below the minimum passed"
        return f"furiten on discard {built.passed} ({why}, R15), nothing won"
    if last < TOTAL_DISCARDS:
        return f"no wait of it came before the game ended on discard {last}: nothing won"
    return "no wait of it came in the 34 discards: nothing won"


def build_section(built: Build, settings: RuleSettings) -> Section:
    """"The build" in words: your 13 and the strong bot's, side by side, and what each did
    against the opponent's discards."""
    title = "The build"
    lines = [Line("Your 13 against the strong bot's choice from the same 34 (what a ron pays "
                  "on an ordinary discard, without ura dora):"),
             Line(f"Yours: {built.yours.hand}", 1, "•")]
    ended = built.last_discard < TOTAL_DISCARDS
    lines.extend(_hand_lines(built.yours, settings, "left in your pool when the game ended"
                             if ended else "kept back (never discarded, R10)"))
    lines.append(Line(f"What it did: {_outcome(built.yours, built.last_discard)}", 2, "•"))
    if built.same:
        lines.append(Line("The strong bot keeps the same 13.", 1, "•"))
        return Section(title, tuple(lines))
    lines.append(Line(f"The strong bot's: {built.bot.hand}", 1, "•"))
    lines.extend(_hand_lines(built.bot, settings, "it plans to keep back (before its first "
                             "discard; it plans again each turn)"))
    lines.append(Line("What it would have earned against the same discards (replayed): "
                      f"{_outcome(built.bot, built.last_discard)}", 2, "•"))
    return Section(title, tuple(lines))
