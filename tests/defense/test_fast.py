"""The fast danger estimate (minefield.defense.fast) and the report built on it (estimate)."""

from __future__ import annotations

import importlib
from typing import get_args

import pytest

from minefield.bots.levels import make_bot
from minefield.bots.simulate import game_seed
from minefield.defense.calibration import OPPONENTS, PERSON_BLEND
from minefield.defense.estimate import estimate, feedback
from minefield.defense.fast import fast_dangers
from minefield.defense.position import Method, Position
from minefield.rules.game import Game, Seat, ron_context
from minefield.rules.score import score_win
from minefield.rules.tiles import NUM_KINDS, kind_from_str, kind_str
from tests.defense.test_reasons import DORA, OWN, SUJI, WALLS, position

POSITIONS = [SUJI, WALLS, OWN, DORA]


def k(tile: str) -> int:
    return kind_from_str(tile)


@pytest.mark.parametrize("pos", POSITIONS)
def test_chances_are_probabilities(pos: Position) -> None:
    found = fast_dangers(pos)
    assert len(found.danger) == len(found.loss) == NUM_KINDS
    assert all(0.0 <= d <= 1.0 for d in found.danger)
    assert all(loss >= 0.0 for loss in found.loss)
    assert 0.0 <= found.opponent_furiten <= 1.0


def test_genbutsu_and_passed_tiles_are_exactly_safe() -> None:
    """R15a (West discarded 5p, 3p) and R13/R15 (East passed 4s, 3z)."""
    found = fast_dangers(SUJI)
    for tile in ("5p", "3p", "4s", "3z"):
        assert found.danger[k(tile)] == 0.0 and found.loss[k(tile)] == 0.0
    assert all(found.danger[kind] > 0 for kind in (k("2p"), k("9p"), k("1s"), k("7z")))


def test_absolute_no_chance_is_exactly_safe() -> None:
    """R12: all 1s and 2s seen, kokushi blocked: no hand can wait on 1s."""
    assert fast_dangers(OWN).danger[k("1s")] == 0.0
    assert fast_dangers(OWN).danger[k("2s")] > 0.0  # a 34s ryanmen still waits on it


def test_nobody_is_furiten_before_the_first_discard() -> None:
    assert fast_dangers(OWN).opponent_furiten == 0.0


def test_suji_is_safer_than_the_same_tile_in_the_mirror_suit() -> None:
    """East passed 5p: 2p is suji. Pin and sou are otherwise mirror images (West's discard is an
    honor, so the suit signal is equal), so only suji can make 2p safer than 2s."""
    pos = position("2p5p5p2s5s5s3z3z3z4z4z4z5z5z5z6z6z6z2z2z2z", "7z", east="5p", west="3z")
    found = fast_dangers(pos)
    assert found.danger[k("2p")] < found.danger[k("2s")]
    assert found.danger[k("5s")] > 0.0 and found.danger[k("5p")] == 0.0


def test_an_honor_with_fewer_unseen_copies_is_safer() -> None:
    """North with three copies held (only a tanki is left) against South with two held; neither
    is a yakuhai for West (R19)."""
    pos = position("4z4z4z2z3z3z3z5z5z5z6z6z6z7z7z7z9p9p9p1p1p", "9s")
    found = fast_dangers(pos)
    assert 0.0 < found.danger[k("4z")] < found.danger[k("2z")]


def test_the_dora_is_more_dangerous_than_its_mirror() -> None:
    """R24: a wait on the dora reaches mangan more easily (dora 5p, and 5s mirrors it)."""
    pos = position("5p5s3z3z3z4z4z4z5z5z5z6z6z6z7z7z2z2z2z1p1s", "4p")
    found = fast_dangers(pos)
    assert found.danger[k("5p")] > found.danger[k("5s")]
    assert found.loss[k("5p")] > found.loss[k("5s")]


@pytest.mark.parametrize("pos", POSITIONS)
def test_report_has_exactly_the_pool_kinds(pos: Position) -> None:
    report = estimate(pos)
    assert [t.tile for t in report.tiles] == [kind_str(kind) for kind in pos.pool_kinds]
    assert report.discard == pos.number and report.method == "fast"
    found = fast_dangers(pos)
    for entry in report.tiles:
        assert entry.danger == found.danger[k(entry.tile)]
        assert entry.loss == round(found.loss[k(entry.tile)]) and entry.reasons


def test_feedback_line() -> None:
    report = estimate(SUJI)
    line = feedback(report, "2p")
    assert line.startswith("2p: 2% (suji of 5p (covers ryanmen 34p)")
    assert line.endswith("; safest was 5p (genbutsu)")
    assert feedback(report, "5p").endswith("; that was the safest tile")
    with pytest.raises(KeyError):
        feedback(report, "1m")  # in the hand, not in the pool


def test_the_posterior_is_gone() -> None:
    """One estimate everywhere: the posterior's module and method no longer exist."""
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("minefield.defense.posterior")
    assert get_args(Method) == ("fast",)


@pytest.mark.parametrize("pos", POSITIONS)
def test_a_person_is_the_blend_of_the_levels(pos: Position) -> None:
    """A person's chances are the levels' chances weighted by the shipped blend."""
    levels = {level: fast_dangers(pos, level) for level in PERSON_BLEND}
    person = fast_dangers(pos, "person")
    for kind in range(NUM_KINDS):
        blended = sum(w * levels[level].danger[kind] for level, w in PERSON_BLEND.items())
        assert person.danger[kind] == pytest.approx(blended)
    assert person.opponent_furiten == pytest.approx(
        sum(w * levels[level].opponent_furiten for level, w in PERSON_BLEND.items()))


def test_each_level_has_its_own_fit_and_the_report_names_it() -> None:
    """The opponent is passed through to the report; the default is the strong bot."""
    assert estimate(SUJI).opponent == "strong"
    report = estimate(SUJI, "easy")
    assert report.opponent == "easy"
    assert [t.danger for t in report.tiles] == [
        fast_dangers(SUJI, "easy").danger[k(t.tile)] for t in report.tiles]
    with pytest.raises(ValueError, match="unknown opponent 'fast'"):
        estimate(SUJI, "fast")  # type: ignore[arg-type]  # not an opponent, on purpose


def test_genbutsu_is_zero_against_every_opponent() -> None:
    for opponent in OPPONENTS:
        assert fast_dangers(SUJI, opponent).danger[k("5p")] == 0.0


def _deal_ins(games: int) -> tuple[list[float], list[int]]:
    """The fast chance of every pool kind before every discard of ``games`` bot games, and
    whether the engine says discarding it would have been a ron then (R13-R17)."""
    chances: list[float] = []
    labels: list[int] = []
    for index in range(games):
        game = Game(game_seed(5, index))
        bots = {Seat.EAST: make_bot("strong", index), Seat.WEST: make_bot("normal", index + 50)}
        if index % 2:
            bots = {Seat.EAST: bots[Seat.WEST], Seat.WEST: bots[Seat.EAST]}
        for seat in Seat:
            game.apply(seat, bots[seat].act(game.view(seat)))
        while game.turn is not None:
            seat = game.turn
            view = game.view(seat)
            pos = Position.from_view(view)
            found = fast_dangers(pos)
            hand = game.hand_of(seat.other)
            assert hand is not None
            ctx = ron_context(seat.other, pos.number, game.dora_indicator.kind,
                              game.ura_indicator.kind)
            for kind in pos.pool_kinds:
                value = score_win(hand, kind, ctx) if game.furiten_of(seat.other) is None else None
                chances.append(found.danger[kind])
                labels.append(1 if value is not None and value.eligible else 0)
            game.apply(seat, bots[seat].act(view))
    return chances, labels


def test_real_deal_ins_get_higher_chances() -> None:
    """Against the engine's truth on bot games: the tiles that would really have dealt in get
    clearly higher chances on average, and the chances are of the right size overall."""
    chances, labels = _deal_ins(16)
    hits = [c for c, y in zip(chances, labels, strict=True) if y]
    misses = [c for c, y in zip(chances, labels, strict=True) if not y]
    assert len(hits) > 30
    mean_hit, mean_miss = sum(hits) / len(hits), sum(misses) / len(misses)
    assert mean_hit > 1.3 * mean_miss
    rate, mean = len(hits) / len(labels), sum(chances) / len(chances)
    assert 0.5 * rate < mean < 2 * rate
