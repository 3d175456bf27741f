"""Your regrets, and luck against skill: the discards where a tile of
smaller expected loss was in the pool, most expensive first, and the points lost taken apart
into danger no choice could avoid, the choices' cost and what the tiles did (R13, R15, R23).

The estimate's numbers change as it is refitted, so these tests assert relations, never a
percentage."""

from __future__ import annotations

from dataclasses import replace

import pytest

from minefield.bots.levels import make_bot
from minefield.defense.position import DangerReport, TileDanger
from minefield.rules.game import Discard, Game, Seat
from minefield.trainer.defense_review import AssessedStep, assess, review_of_game
from minefield.trainer.regrets import (
    TOP_REGRETS,
    cheapest,
    luck_and_skill,
    luck_note,
    luck_section,
    regrets,
    regrets_section,
)
from tests.trainer.test_defense_review import prepared


def careless_game(seed: int) -> Game:
    """A whole game: East the strong bot, West the easy one (who discards at random, so it
    leaves safer tiles behind)."""
    game = Game(seed)
    bots = {Seat.EAST: make_bot("strong", seed), Seat.WEST: make_bot("easy", seed + 100)}
    while game.phase != "ended":
        seat = (next(s for s in Seat if game.hand_of(s) is None) if game.phase == "choosing"
                else game.turn)
        assert seat is not None
        game.apply(seat, bots[seat].act(game.view(seat)))
    return game


@pytest.fixture(scope="module")
def careless() -> list[AssessedStep]:
    """The easy seat's assessed discards of a seeded game that lasts (seed 1 ran to the end
    when written; any game of several discards would do)."""
    game = careless_game(1)
    steps = list(assess(review_of_game(game, Seat.WEST), "strong"))
    assert len(steps) >= 5
    return steps


def test_regrets_are_sorted_by_expected_points_lost(careless: list[AssessedStep]) -> None:
    found = regrets(careless)
    assert found, "a random discarder leaves safer tiles behind"
    lost = [r.lost for r in found]
    assert lost == sorted(lost, reverse=True) and all(n > 0 for n in lost)
    for regret in found:
        step = careless[regret.index]
        assert regret.number == step.step.number and regret.tile == step.chosen.tile
        assert regret.safer == cheapest(step) and regret.safer.loss < regret.taken.loss
        assert regret.lost == regret.taken.loss - regret.safer.loss
        assert regret.safer.tile not in step.step.guarded  # never "throw your own wait" (R15a)
    top = found[0]
    assert top.taken.danger > top.safer.danger  # riskier than the safer choice it left
    regretted = {r.index for r in found}
    for index, step in enumerate(careless):  # a discard with no regret was the cheapest
        if index not in regretted:
            assert step.chosen.loss <= cheapest(step).loss


def test_the_points_lost_add_up(careless: list[AssessedStep]) -> None:
    """Points lost = danger no choice could avoid + the choices' cost + luck."""
    for paid in (0, 12000):
        dealt = [replace(careless[-1], step=replace(careless[-1].step, dealt_in=bool(paid)))]
        steps = careless[:-1] + dealt
        summary = luck_and_skill(steps, paid)
        assert summary.choices == sum(r.lost for r in regrets(steps))
        assert summary.risked == sum(s.chosen.loss for s in steps)
        assert summary.lost == paid == summary.unavoidable + summary.choices + summary.luck
        assert (summary.luck > 0) == (paid > summary.risked)


def test_the_regrets_in_words(careless: list[AssessedStep]) -> None:
    found = regrets(careless)
    section = regrets_section(careless)
    assert section.title == "Your regrets"
    numbered = [line for line in section.lines if line.depth == 1 and line.marker.endswith(".")]
    assert len(numbered) == min(TOP_REGRETS, len(found))
    for line, regret in zip(numbered, found, strict=False):
        assert line.text.startswith(f"Discard {regret.number}, {regret.tile}: ")
        assert f"where {regret.safer.tile} was" in line.text
        assert f"{regret.lost} expected points lost" in line.text
    reasons = [line.text for line in section.lines if line.depth == 2]
    assert reasons and all(line.marker == "•" for line in section.lines if line.depth == 2)
    last = section.lines[-1].text
    assert last.startswith(f"Expected points lost: {sum(r.lost for r in found)}.")
    assert "It is not luck" in last


def _step(chance: float, dealt_in: bool, safer: float = 0.0) -> AssessedStep:
    """The first step of the prepared game (East discards 2z, West's tanki) with a report of
    our own: the tile taken at ``chance``, one other tile at ``safer``."""
    game = prepared()
    game.apply(Seat.EAST, Discard(tile="2z"))
    step = review_of_game(game, Seat.EAST).steps[0]
    step = replace(step, dealt_in=dealt_in)
    report = DangerReport(discard=1, opponent_furiten=0.0, tiles=(
        TileDanger("9p", safer, round(safer * 8000), ("other",)),
        TileDanger("2z", chance, round(chance * 8000), ("taken",))))
    return AssessedStep(step, report)


def test_a_deal_in_on_a_two_percent_tile_is_bad_luck() -> None:
    """A deal-in on a 2% tile is shown as such (R13)."""
    note = luck_note(_step(0.02, dealt_in=True))
    assert note is not None and note.startswith("Bad luck: a deal-in on a 2% tile")
    chosen = luck_note(_step(0.30, dealt_in=True, safer=0.01))
    assert chosen is not None and "9p (1%) was there" in chosen and "not luck" in chosen
    forced = luck_note(_step(0.30, dealt_in=True, safer=0.40))
    assert forced is not None and "nothing in the pool was safer" in forced
    spared = luck_note(_step(0.30, dealt_in=False))
    assert spared is not None and spared.startswith("Good luck: a 30% tile")
    assert luck_note(_step(0.02, dealt_in=False)) is None


def test_the_luck_section_separates_choices_from_tiles() -> None:
    step = _step(0.02, dealt_in=True)
    section = luck_section([step], paid=12000)
    texts = [line.text for line in section.lines]
    assert texts[0] == "Points lost: 12000, the ron on discard 1."
    summary = luck_and_skill([step], 12000)
    assert f"What your choices cost: {summary.choices} expected points" in " ".join(texts)
    assert any(t.startswith(f"What the tiles did: {summary.luck} points of bad luck")
               for t in texts)
    assert any("bad luck: a deal-in on a 2% tile" in t for t in texts)


def test_a_real_deal_in_and_the_seats_own_waits() -> None:
    """The prepared game: East throws West's tanki 2z on discard 1 (R13, R16). East's own
    waits (1m 4m 7m) are never the safer choice while East is not furiten (R15a)."""
    game = prepared()
    game.apply(Seat.EAST, Discard(tile="2z"))
    review = review_of_game(game, Seat.EAST)
    steps = list(assess(review))
    assert game.result is not None and game.result.value is not None
    assert review.ron_points == game.result.value.points > 0
    assert steps[0].step.dealt_in
    summary = luck_and_skill(steps, review.ron_points)
    assert summary.lost == review.ron_points
    for step in steps:
        assert cheapest(step).tile not in {"1m", "4m", "7m"}
    assert review_of_game(game, Seat.WEST).ron_points == 0  # West won: it paid nothing
