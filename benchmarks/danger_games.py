"""Bot games for fitting and measuring the danger estimate, played once and kept in a cache.

Shared by ``fit_danger.py`` and ``bench_danger.py``. For each opponent level (``easy``,
``normal``, ``strong``) games are played between a ``strong`` defender and a bot of that
level, the defender East in even games and West in odd ones (for ``strong`` both seats are
strong and both are recorded). Deals and bot seeds come from ``minefield.bots.simulate``'s
seeds under a per-level master seed, so the same options give the same games.

A game is kept as its moves only (both hands, then the discards in order); replaying it in the
engine gives every position and its truth again, so the cache stays small. Games with an odd
index are held out (never fitted on); even ones train the fits.

Positions are what the defender sees before each of its discards (a
:class:`~minefield.defense.position.Position`). Their truth, read from the engine and never
given to an estimate, is per pool kind the points a ron on it would pay now (0: none): the kind
is one of the opponent's waits, the opponent is not furiten, and the win is eligible with this
discard's ippatsu/houtei (R13-R17).
"""

from __future__ import annotations

import os
import pickle
import sys
import time
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from minefield.bots.levels import make_bot
from minefield.bots.simulate import bot_seed, game_seed
from minefield.defense.calibration import DANGER_FEATURES
from minefield.defense.fast import features, value_category
from minefield.defense.position import Position
from minefield.rules.game import ChooseHand, Discard, Game, Seat, ron_context
from minefield.rules.score import score_win
from minefield.rules.tiles import SUIT_KINDS

LEVELS = ("easy", "normal", "strong")
DEFAULT_CACHE = Path(os.environ.get("TMPDIR", "/tmp")) / "minefield-danger-games"
CHUNK = 50  # games per cache file
ROWS_VERSION = "flush"  # what a cached row holds besides the features (a new value recomputes)


@dataclass(frozen=True, slots=True)
class Moves:
    """One played game: its deal seed, both chosen hands and every discard in order."""

    level: str
    index: int
    seed: str
    hands: tuple[str, str]  # East's, West's
    discards: tuple[str, ...]

    @property
    def defenders(self) -> tuple[Seat, ...]:
        """The seats whose positions are recorded (the strong seat; both when both are)."""
        if self.level == "strong":
            return (Seat.EAST, Seat.WEST)
        return (Seat.EAST,) if self.index % 2 == 0 else (Seat.WEST,)

    @property
    def held_out(self) -> bool:
        """Odd games are measured, even games train."""
        return self.index % 2 == 1


@dataclass(frozen=True, slots=True)
class Sample:
    """One position of a defender, with the truth of every pool kind."""

    level: str
    game: int
    position: Position
    points: dict[int, int]
    opponent_furiten: bool
    opponent_flush: bool  # the opponent's hand is honitsu or chinitsu (R19): one number suit


def master_seed(seed: int, level: str) -> int:
    """The master seed of one level's games."""
    return seed * 10 + LEVELS.index(level)


def play(level: str, index: int, seed: int) -> Moves:
    """Play game ``index`` of ``level`` and keep its moves."""
    master = master_seed(seed, level)
    game = Game(game_seed(master, index))
    strong_east = index % 2 == 0 or level == "strong"
    east_level, west_level = ("strong", level) if strong_east else (level, "strong")
    bots = {Seat.EAST: make_bot(east_level, bot_seed(master, index, "a")),
            Seat.WEST: make_bot(west_level, bot_seed(master, index, "b"))}
    hands = []
    for seat in Seat:
        command = bots[seat].act(game.view(seat))
        assert isinstance(command, ChooseHand)
        hands.append(command.tiles)
        game.apply(seat, command)
    discards = []
    while game.turn is not None:
        seat = game.turn
        command = bots[seat].act(game.view(seat))
        assert isinstance(command, Discard)
        discards.append(command.tile)
        game.apply(seat, command)
    return Moves(level, index, game_seed(master, index), (hands[0], hands[1]), tuple(discards))


def is_flush(counts: Sequence[int]) -> bool:
    """Whether a hand's number tiles are all of one suit (honitsu with honors, chinitsu
    without, R19); a hand of honors only is no flush."""
    suits = {kind // 9 for kind in range(SUIT_KINDS) if counts[kind]}
    return len(suits) == 1


def samples_of(moves: Moves) -> Iterator[Sample]:
    """Replay one game and yield every defender position with its truth."""
    game = Game(moves.seed)
    for seat, hand in zip(Seat, moves.hands, strict=True):
        game.apply(seat, ChooseHand(tiles=hand))
    for tile in moves.discards:
        seat = game.turn
        assert seat is not None
        if seat in moves.defenders:
            view = game.view(seat)
            position = Position.from_view(view)
            opponent = seat.other
            hand = game.hand_of(opponent)
            furiten = game.furiten_of(opponent) is not None
            points = {}
            for kind in position.pool_kinds:
                value = None
                if hand is not None and not furiten and kind in game.waits_of(opponent):
                    ctx = ron_context(opponent, position.number, game.dora_indicator.kind,
                                      game.ura_indicator.kind)
                    value = score_win(hand, kind, ctx, game.settings)
                points[kind] = value.paid.points if value is not None and value.eligible else 0
            yield Sample(moves.level, moves.index, position, points, furiten,
                         hand is not None and is_flush(hand.counts))
        game.apply(seat, Discard(tile=tile))


@dataclass(frozen=True, slots=True)
class Row:
    """One pool kind of one defender position, ready for fitting and measuring."""

    features: tuple[float, ...]  # the danger mapping's inputs (calibration.DANGER_FEATURES)
    live: bool  # not exactly safe (genbutsu, passed or absolutely impossible are 0)
    known_safe: bool  # genbutsu or passed (a zero for every estimate)
    points: int  # what a ron on it would pay now (0: no deal-in)
    category: str  # dora, near_dora or other (for the mean ron value)


@dataclass(frozen=True, slots=True)
class PositionRows:
    """One defender position: its pool kinds' rows and the opponent-furiten truth."""

    level: str
    game: int
    number: int
    kinds: tuple[int, ...]
    rows: tuple[Row, ...]
    bonus_han: bool
    furiten_features: tuple[float, ...]
    opponent_furiten: bool
    flush: bool  # the opponent's hand is honitsu or chinitsu (the truth, never a feature)


def rows_of(sample: Sample) -> PositionRows:
    """The features and truth of one sample (the same features the estimate computes)."""
    position = sample.position
    feats = features(position)
    safe = position.genbutsu | position.passed
    kinds = tuple(position.pool_kinds)
    rows = tuple(Row(feats.danger_row(k), feats.possible[k], k in safe, sample.points[k],
                     value_category(position, k)) for k in kinds)
    return PositionRows(sample.level, sample.game, position.number, kinds, rows,
                        feats.bonus_han, feats.furiten_row(), sample.opponent_furiten,
                        sample.opponent_flush)


def load_rows(cache: Path, seed: int, games: int, levels: tuple[str, ...] = LEVELS
              ) -> list[PositionRows]:
    """Every defender position of the first ``games`` cached games of each level with its
    features, computed once per chunk and set of features and kept beside the games."""
    key = f"{zlib.crc32(','.join((*DANGER_FEATURES, ROWS_VERSION)).encode()):08x}"
    out: list[PositionRows] = []
    for level in levels:
        began, done = time.perf_counter(), 0
        for start in range(0, games, CHUNK):
            path = cache / f"rows-{seed}-{level}-{start:06d}-{key}.pkl"
            if not path.exists():
                chunk = _chunk_file(cache, seed, level, start)
                if not chunk.exists():
                    continue
                moves = _load(chunk)
                assert isinstance(moves, list)
                path.write_bytes(pickle.dumps([rows_of(s) for m in moves for s in samples_of(m)]))
                done += 1
            found = _load(path)
            assert isinstance(found, list)
            out.extend(p for p in found if p.game < games)
        if done:
            print(f"{level}: {done} chunks featured in {time.perf_counter() - began:.0f} s",
                  file=sys.stderr, flush=True)
    return out


class _Unpickler(pickle.Unpickler):
    """Reads chunks written by this file run as a script (their classes are ``__main__``'s)."""

    def find_class(self, module: str, name: str) -> object:
        if module == "__main__":
            module = __name__
        return super().find_class(module, name)


def _load(path: Path) -> object:
    with path.open("rb") as stream:
        return _Unpickler(stream).load()


def _chunk_file(cache: Path, seed: int, level: str, start: int) -> Path:
    return cache / f"{seed}-{level}-{start:06d}.pkl"


def load_games(cache: Path, seed: int, games: int, levels: tuple[str, ...] = LEVELS,
               play_missing: bool = True) -> list[Moves]:
    """The first ``games`` games of each level, played and cached in chunks (a run that is
    stopped keeps the chunks it finished); with ``play_missing`` False only cached ones."""
    cache.mkdir(parents=True, exist_ok=True)
    out: list[Moves] = []
    for level in levels:
        for start in range(0, games, CHUNK):
            path = _chunk_file(cache, seed, level, start)
            if path.exists():
                chunk = _load(path)
                assert isinstance(chunk, list)
            elif play_missing:
                began = time.perf_counter()
                chunk = [play(level, i, seed) for i in range(start, start + CHUNK)]
                path.write_bytes(pickle.dumps(chunk))
                print(f"{level} games {start}-{start + CHUNK - 1}: "
                      f"{time.perf_counter() - began:.0f} s", file=sys.stderr, flush=True)
            else:
                continue
            out.extend(m for m in chunk if m.index < games)
    return out


def main() -> int:
    """Play (or complete) the cache: ``python benchmarks/danger_games.py GAMES [SEED]``."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 17
    # one chunk of each level in turn, so that every level grows together
    for start in range(0, games, CHUNK):
        for level in LEVELS:
            load_games(DEFAULT_CACHE, seed, start + CHUNK, (level,))
    return 0


if __name__ == "__main__":
    sys.exit(main())
