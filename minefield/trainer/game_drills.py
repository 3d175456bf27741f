"""Drills "from my games": the positions of the player's own saved games where their choice
cost the most expected points, asked again.

Three kinds of position are found, by the measures of the game review:

* **a discard** where a safer tile was there (a regret, :func:`~minefield.trainer.regrets.
  regrets`): the position the seat saw before that discard, asked as "which tile of your pool
  costs the fewest expected points?" (its chance of dealing in times what the opponent's ron
  pays, by the estimate fitted for that game's opponent). It costs what the regret cost;
* **the build**: the 13 kept from the 34 (R7) against the strong bot's choice from the same
  tiles (:func:`~minefield.trainer.build.build_of`), asked as "choose your 13". It costs the
  difference of their expected values by the strong bot's measure;
* **a readable wait**: the moment the opponent's view (run from their seat on their own pool,
  as the review's "How readable your wait was") feared the player's wait most above the other
  tiles they could fear, asked as "which of your discards gave your wait away?"
  (:mod:`minefield.trainer.wait_drill`). It costs the excess chance times what the player's
  ron would have paid, at that discard of theirs (:mod:`minefield.trainer.wait_cost`).

The saved games are the records folder's (:func:`~minefield.paths.records_dir`): the player's
seat of each practice game and both seats of a hot-seat game (both players sat at this
keyboard; other records have no seat known to be the player's). The newest
:data:`GAMES_LOOKED_AT` finished games are looked at; positions that cost at least
:data:`MIN_LOST` expected points are kept, the :data:`MOST_POSITIONS` most expensive first.

Progress is kept as for the other kinds (kind ``from_games``; the position's id rebuilds it,
:func:`game_drill_from_id`), and a position missed comes back sooner: Leitner boxes per
position, replayed from the drills answered (:func:`next_game_drill`). Until the answer, a
drill shows only what the seat saw then (R26); the opponent's hand is in its hidden part.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from minefield.bots.hands import DealtTiles, choose_best
from minefield.defense.calibration import Opponent
from minefield.defense.estimate import percent
from minefield.paths import records_dir
from minefield.records.history import list_history
from minefield.records.reader import RecordError, read_record
from minefield.records.writer import RECORD_SUFFIX
from minefield.rules.game import Seat
from minefield.rules.hand import Hand
from minefield.rules.names import to_mpsz
from minefield.rules.tiles import (
    Tile,
    TileError,
    kind_str,
    kinds_to_str,
    parse_tiles,
    tiles_to_str,
)
from minefield.trainer._drill_positions import Difficulty
from minefield.trainer.build import build_of
from minefield.trainer.defense_review import (
    AssessedStep,
    GameReview,
    ReviewError,
    assess,
    opponent_of,
)
from minefield.trainer.drill_answers import (
    DrillAnswer,
    DrillTruth,
    HandRating,
    hand_from_deal,
    rate_hand,
)
from minefield.trainer.drill_schedule import BOX_INTERVALS
from minefield.trainer.drills import Drill, DrillError
from minefield.trainer.progress_records import DrillRecord
from minefield.trainer.regrets import cheapest, regrets
from minefield.trainer.review_parts import review_of_record
from minefield.trainer.wait_cost import wait_moment
from minefield.trainer.wait_drill import WaitQuestion, answer_wait, wait_question

__all__ = ["FROM_GAMES", "GAMES_LOOKED_AT", "MIN_LOST", "MOST_POSITIONS", "RIGHT_WITHIN",
           "GameDrill", "GamePosition", "NoGameDrills", "answer_game_drill", "find_positions",
           "game_drill", "game_drill_from_id", "next_game_drill"]

#: The drill kind's code (the progress file and ``stats --json`` keep it).
FROM_GAMES = "from_games"
#: Saved games looked at, the newest first.
GAMES_LOOKED_AT = 20
#: A position that cost less than this (expected points) is not worth a drill.
MIN_LOST = 100
#: Positions kept, the most expensive first.
MOST_POSITIONS = 24
#: An answer within this many expected points of the best is right.
RIGHT_WITHIN = 100
#: The drill's level, from the opponent of that game (as the generated drills' levels are
#: tied to the bot that builds the opponent's hand).
LEVEL_OF: dict[Opponent, Difficulty] = {"easy": "beginner", "normal": "intermediate",
                                        "strong": "expert", "person": "expert"}
#: What each position asks for, as the answer line's placeholder.
PLACEHOLDERS = {"discard": "type the tile of your pool that costs least, e.g. 9p or E, then "
                           "Enter",
                "build": "type your 13 tiles, e.g. 123m456p789s E E S S, then Enter",
                "wait": "type the discard that gave your wait away, e.g. 4p or N, then Enter"}


class NoGameDrills(DrillError):
    """No drill can be made from the saved games (none saved, or none that cost anything)."""


@dataclass(frozen=True)
class GamePosition:
    """A position of a saved game that cost the player ``lost`` expected points: the discard
    ``number`` of ``seat`` (None: the build, or with ``reading`` the seat's wait as the
    opponent read it before their discard ``reading``) in the record at ``path``."""

    path: Path
    seat: Seat
    number: int | None
    lost: int
    reading: int | None = None

    @property
    def form(self) -> str:
        """What the position asks: ``discard``, ``build`` or ``wait``."""
        if self.number is not None:
            return "discard"
        return "build" if self.reading is None else "wait"

    @property
    def id(self) -> str:
        """``from_games:RECORD:SEAT:NUMBER`` (``build`` for the build, ``waitN`` for a
        readable wait at their discard N): it rebuilds the drill (:func:`game_drill_from_id`)
        while the record is saved."""
        last = {"discard": str(self.number), "build": "build",
                "wait": f"wait{self.reading}"}[self.form]
        return f"{FROM_GAMES}:{self.path.name.removesuffix(RECORD_SUFFIX)}:{self.seat.value}:{last}"


@dataclass(frozen=True)
class _Secret:
    """What the drill knows and the trainee does not (until the answer)."""

    review: GameReview
    step: AssessedStep | None = None
    deal: DealtTiles | None = None
    best: tuple[int, ...] = ()
    wait: WaitQuestion | None = None

    def __repr__(self) -> str:
        return "<hidden>"


@dataclass(frozen=True)
class GameDrill:
    """A position of the player's own game as a drill: ``drill`` is what the trainee sees (the
    position as the seat saw it, or its 34 tiles), ``lost`` what the choice made in the game
    cost, ``form`` ``discard``, ``build`` or ``wait``."""

    drill: Drill
    position: GamePosition
    form: str
    _secret: _Secret = field(repr=False)

    @property
    def id(self) -> str:
        """The position's id (:attr:`GamePosition.id`)."""
        return self.position.id

    @property
    def kind(self) -> str:
        """``from_games``."""
        return FROM_GAMES

    @property
    def placeholder(self) -> str:
        """What the answer line asks for."""
        return PLACEHOLDERS[self.form]


# ---------------------------------------------------------------------------------------------
# Finding the positions


def _player_seats(path: Path) -> tuple[Seat, ...]:
    """The seats of a saved game that are the player's: a practice game's human, both seats of
    a hot-seat game, none of anything else (a simulation, a network record)."""
    from minefield.bots.base import player_seat

    record = read_record(path)
    if record.header.mode == "practice":
        return (player_seat(record.header),)
    return tuple(Seat) if record.header.mode == "hotseat" else ()


#: The positions found per record and seat, while its file is unchanged: (path, size,
#: modification time, seat) -> positions. A review of a game takes a moment; a game saved
#: does not change.
_FOUND: dict[tuple[str, int, int, Seat], tuple[GamePosition, ...]] = {}


def _positions_of(path: Path, seat: Seat) -> tuple[GamePosition, ...]:
    info = path.stat()
    key = (str(path), info.st_size, info.st_mtime_ns, seat)
    found = _FOUND.get(key)
    if found is None:
        review, names = review_of_record(path, seat)
        steps = list(assess(review, opponent_of(names[seat.other])))
        positions = [GamePosition(path, seat, r.number, r.lost) for r in regrets(steps)]
        built = build_of(review)
        gap = round(built.bot.value - built.yours.value)
        positions.append(GamePosition(path, seat, None, gap))
        moment = wait_moment(review, opponent_of(names[seat]))  # whom the opponent was reading
        if moment is not None:
            positions.append(GamePosition(path, seat, None, moment.cost.cost,
                                          reading=moment.cost.number))
        found = _FOUND[key] = tuple(p for p in positions if p.lost > 0)
    return found


def find_positions(folder: Path | None = None) -> tuple[list[GamePosition], int]:
    """The positions of the saved games in ``folder`` (default the records folder) that cost
    the player at least :data:`MIN_LOST` expected points, the most expensive first (ties: the
    newer game, the earlier discard, the build last), at most :data:`MOST_POSITIONS`; and the
    number of the player's finished games looked at. A record that cannot be read or reviewed
    is passed over."""
    folder = folder if folder is not None else records_dir()
    try:
        entries = list_history(folder)
    except RecordError:
        entries = []
    finished = [e for e in entries if e.result is not None and not e.problems
                and e.mode in ("practice", "hotseat")][:GAMES_LOOKED_AT]
    found: list[tuple[int, GamePosition]] = []
    for age, entry in enumerate(finished):
        try:
            for seat in _player_seats(entry.path):
                found.extend((age, p) for p in _positions_of(entry.path, seat)
                             if p.lost >= MIN_LOST)
        except (RecordError, ReviewError, OSError, ValueError):
            continue
    found.sort(key=lambda item: (-item[1].lost, item[0], item[1].number or 99))
    return [p for _, p in found[:MOST_POSITIONS]], len(finished)


# ---------------------------------------------------------------------------------------------
# Making a drill


def _seat_name(seat: Seat) -> str:
    return str(seat).capitalize()


def game_drill(position: GamePosition) -> GameDrill:
    """The drill of one position (:class:`DrillError` when its record cannot be reviewed, or
    no longer has that discard)."""
    try:
        review, names = review_of_record(position.path, position.seat)
        header = read_record(position.path).header
    except (RecordError, ReviewError) as error:
        raise DrillError(str(error)) from None
    seat, opponent = position.seat, position.seat.other
    against = opponent_of(names[opponent])
    level = LEVEL_OF[against]
    when = f" of {header.started:%Y-%m-%d}" if header.started is not None else ""
    game = f"Your game{when} against {names[opponent]}"
    if position.reading is not None:
        return _wait_drill(position, review, opponent_of(names[seat]), game, level)
    if position.number is None:
        return _build_drill(position, review, game, level)
    step = next((s for s in assess(review, against) if s.step.number == position.number), None)
    if step is None:
        raise DrillError(f"{position.path.name}: {_seat_name(seat)} made no discard "
                         f"{position.number}")
    prompt = (f"{game}: discard {position.number}, you are {_seat_name(seat)}.",
              "Which tile of your pool costs the fewest expected points (its chance of "
              "dealing in times what their hand would pay)?")
    drill = Drill(kind="from_games", difficulty=level, seed=position.id, target=None,
                  prompt=prompt, seat=seat, dora_indicator=step.step.position.dora_indicator,
                  position=step.step.position, custom=position.id)
    return GameDrill(drill, position, "discard", _Secret(review, step=step))


def _build_drill(position: GamePosition, review: GameReview, game: str,
                 level: Difficulty) -> GameDrill:
    end, seat = review.end, position.seat
    tiles = tuple(parse_tiles(tiles_to_str(parse_tiles((end.hands.get(seat) or "")
                                                       + end.pools.get(seat, "")))))
    dora = Tile.parse(review.dora_indicator)
    deal = DealtTiles.from_tiles(tiles, dora.kind, seat, review.settings)
    prompt = (f"{game}: you are {_seat_name(seat)}; dora indicator {dora}.",
              "Choose the 13 of your 34 tiles to keep as your hand (R7): the other 21 are the "
              "pool you must discard from.")
    drill = Drill(kind="from_games", difficulty=level, seed=position.id, target=None,
                  prompt=prompt, seat=seat, dora_indicator=dora, tiles=tiles,
                  custom=position.id)
    best = choose_best(deal).hand
    return GameDrill(drill, position, "build", _Secret(review, deal=deal, best=tuple(best)))


def _wait_drill(position: GamePosition, review: GameReview, reader: Opponent, game: str,
                level: Difficulty) -> GameDrill:
    moment = wait_moment(review, reader, position.reading)
    if moment is None:
        raise DrillError(f"{position.path.name}: no readable wait of {_seat_name(position.seat)}"
                         f" before discard {position.reading}")
    question = wait_question(review, moment, game, level, position.id)
    return GameDrill(question.drill, position, "wait", _Secret(review, wait=question))


def game_drill_from_id(drill_id: str, folder: Path | None = None) -> GameDrill:
    """Rebuild a drill from its id (:attr:`GamePosition.id`) and the record it names in
    ``folder`` (default the records folder); :class:`DrillError` for a malformed id or a
    record no longer saved."""
    parts = drill_id.split(":")
    last = parts[3] if len(parts) == 4 else ""
    reading = last.removeprefix("wait")
    if len(parts) != 4 or parts[0] != FROM_GAMES or parts[2] not in ("east", "west") or not (
            last == "build" or last.isdigit() or (reading != last and reading.isdigit())):
        raise DrillError(f"{drill_id!r} is not a drill of your games "
                         "(from_games:RECORD:SEAT:NUMBER)")
    folder = folder if folder is not None else records_dir()
    path = folder / f"{parts[1]}{RECORD_SUFFIX}"
    if "/" in parts[1] or not path.is_file():
        raise DrillError(f"the game of drill {drill_id} is no longer saved")
    number = int(last) if last.isdigit() else None
    waited = int(reading) if reading != last else None
    return game_drill(GamePosition(path, Seat(parts[2]), number, 0, reading=waited))


def next_game_drill(history: Sequence[DrillRecord], folder: Path | None = None) -> GameDrill:
    """The next drill from the saved games in ``folder``: a position missed that is due again
    (Leitner boxes per position over the ``from_games`` answers in ``history``, as
    :class:`~minefield.trainer.drill_schedule.Scheduler` keeps them per pattern), else the most
    expensive position not asked yet, else the one due soonest. :class:`NoGameDrills` (one
    line) when there is none."""
    positions, games = find_positions(folder)
    if not positions:
        if not games:
            raise NoGameDrills("No saved games to drill from yet: play a practice game first.")
        raise NoGameDrills(f"Nothing to drill from your {games} saved game"
                           f"{'s' if games != 1 else ''}: no discard, build or wait in them cost "
                           f"{MIN_LOST} expected points or more.")
    boxes: dict[str, tuple[int, int]] = {}
    count = 0
    for record in history:
        if record.kind != FROM_GAMES:
            continue
        old = boxes.get(record.position)
        box = min(len(BOX_INTERVALS), old[0] + 1) if old and record.correct else (
            2 if record.correct else 1)
        boxes[record.position] = (box, count + BOX_INTERVALS[box - 1])
        count += 1

    def order(position: GamePosition) -> tuple[int, int, int]:
        box, due = boxes.get(position.id, (0, 0))
        if not box:
            return (1, 0, 0)  # never asked: by cost (the sort is stable)
        return (0, box, due) if due <= count else (2, due, box)

    return game_drill(min(positions, key=order))


# ---------------------------------------------------------------------------------------------
# Answers


def answer_game_drill(drill: GameDrill, text: str) -> DrillAnswer:
    """Grade an answer as a person types it: one tile of the pool (honors by any name) for a
    discard, 13 of the 34 tiles for the build, one of the discards shown for a wait. Anything
    else raises :class:`DrillError` with a one-line reason; nothing else is raised, whatever
    the text."""
    typed = " ".join(text.split())
    if not typed:
        what = {"discard": "one tile of your pool, e.g. 9p or E",
                "wait": "one of your discards, e.g. 4p or N"}.get(
            drill.form, "your 13 tiles, e.g. 123m456p789s E E S S")
        raise DrillError(f"Type an answer first: {what}.")
    try:
        tiles = parse_tiles(to_mpsz(typed))
    except TileError as error:
        raise DrillError(str(error)) from None
    if drill.form == "discard":
        return _answer_discard(drill, tiles)
    if drill.form == "wait" and drill._secret.wait is not None:
        return answer_wait(drill._secret.wait, tiles, drill._secret.review, drill.id)
    return _answer_build(drill, tiles)


def _answer(drill: GameDrill, correct: bool, score: float, lines: list[str],
            truth: DrillTruth) -> DrillAnswer:
    return DrillAnswer(drill.id, "from_games", drill.drill.difficulty, correct,
                       round(max(0.0, min(1.0, score)), 4), tuple(lines), truth)


def _answer_discard(drill: GameDrill, tiles: list[Tile]) -> DrillAnswer:
    step = drill._secret.step
    position = drill.drill.position
    assert step is not None and position is not None
    pool = position.pool_kinds
    if len(tiles) != 1:
        raise DrillError(f"Answer one tile of your pool: one of {kinds_to_str(pool)}.")
    name = kind_str(tiles[0].kind)
    if tiles[0].kind not in pool:
        raise DrillError(f"{name} is not in your pool: choose one of {kinds_to_str(pool)}.")
    chosen, best, played = step.report.of(name), cheapest(step), step.chosen
    own_wait = name in step.step.guarded
    excess = chosen.loss - best.loss
    correct = excess <= RIGHT_WITHIN and not own_wait
    span = max(1, played.loss - best.loss)
    score = 0.0 if own_wait else (1.0 if excess <= 0 else 1 - excess / span)
    verdict = "Right" if correct else "Not the cheapest"
    costs = f"{chosen.loss} expected points ({percent(chosen.danger)} to deal in)"
    lines = [f"{verdict}: {name} is the cheapest tile of your pool, {costs}."
             if best.tile == name else
             f"{verdict}: {name} costs {costs}; the least in your pool was {best.tile} at "
             f"{best.loss} ({percent(best.danger)})."]
    if own_wait:
        lines.append(f"{name} is one of your own waits: discarding it makes you furiten for "
                     "the rest of the game (R15a).")
    lines.extend(f"{name}: {reason}" for reason in chosen.reasons[:2])
    if best.tile != name:
        lines.extend(f"{best.tile}: {reason}" for reason in best.reasons[:2])
    lines.append(f"In the game you discarded {played.tile}: {played.loss} expected points, "
                 f"{played.loss - best.loss} more than {best.tile}.")
    truth = step.step
    dealt = tiles[0].kind in {Tile.parse(t).kind for t in truth.deal_ins}
    lines.append(f"In truth {name} {'would have dealt in' if dealt else 'was safe'} (R13).")
    review = drill._secret.review
    opponent = _seat_name(review.seat.other)
    lines.append(f"{opponent} held {review.opponent_hand or 'no hand'}, waiting on "
                 f"{' '.join(review.opponent_waits) or 'nothing (not tenpai)'}.")
    return _answer(drill, correct, score, lines,
                   DrillTruth(pattern="game_discard", opponent_hand=review.opponent_hand,
                              opponent_waits=review.opponent_waits, deal_ins=truth.deal_ins,
                              report=step.report))


def _rating_line(label: str, rating: HandRating) -> str:
    waits = " ".join(rating.waits) if rating.waits else "none (not tenpai)"
    return (f"{label}: {rating.hand}, waits {waits}; chance to win {rating.win_chance:.0%}, "
            f"pool danger {rating.pool_danger:.0%}, value {rating.value:.0f}.")


def _answer_build(drill: GameDrill, tiles: list[Tile]) -> DrillAnswer:
    deal, review = drill._secret.deal, drill._secret.review
    assert deal is not None
    counts = hand_from_deal(deal, tiles)
    yours = rate_hand(deal, counts)
    best = rate_hand(deal, drill._secret.best)
    played = rate_hand(deal, Hand.parse(review.end.hands.get(review.seat) or "").counts)
    gap = best.value - yours.value
    correct = gap <= max(float(RIGHT_WITHIN), 0.05 * abs(best.value))
    span = max(1.0, best.value - played.value)
    score = 1.0 if gap <= 0 else 1 - gap / span
    lines = [f"{'Right' if correct else 'The bot found better'}: your hand is worth "
             f"{yours.value:.0f} points in expectation, the strong bot's {best.value:.0f}.",
             _rating_line("Yours now", yours), _rating_line("The strong bot's", best),
             _rating_line("In the game you kept", played),
             "A wait below mangan only makes you furiten when it comes (R14, R15b); the pool "
             "is your defense (R10)."]
    return _answer(drill, correct, score, lines,
                   DrillTruth(pattern="game_build", yours=yours, best=best))
