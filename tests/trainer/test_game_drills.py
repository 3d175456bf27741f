"""Drills from the player's own games (:mod:`minefield.trainer.game_drills`): the positions
of the saved games that cost the most expected points (a regret's discard, the build), asked
again, graded by the same measure, rebuilt from their id, missed ones back first, and one
line when there is nothing to drill; no answer raises anything but a one-line DrillError."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minefield.records.header import Players
from minefield.records.writer import write_game
from minefield.rules.game import Seat
from minefield.rules.names import LETTERS
from minefield.trainer import game_drills
from minefield.trainer.defense_review import assess, review_of_game
from minefield.trainer.drill_schedule import Scheduler
from minefield.trainer.drills import DrillError
from minefield.trainer.game_drills import (
    MIN_LOST,
    GameDrill,
    NoGameDrills,
    answer_game_drill,
    find_positions,
    game_drill,
    game_drill_from_id,
    next_game_drill,
)
from minefield.trainer.progress_records import DrillRecord
from minefield.trainer.regrets import cheapest, regrets
from tests.records.conftest import RON_SEED, played

PRACTICE = Players(east="Bot (normal)", west="You")


def saved(folder: Path, *seeds: int, mode: str = "practice",
          players: Players = PRACTICE) -> list[Path]:
    """Seeded games played by normal bots, saved in ``folder`` as the app saves them."""
    return [write_game(played(seed), mode, players, folder)  # type: ignore[arg-type]
            for seed in seeds]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three practice games (the player West), a hot-seat game and a simulation."""
    path = tmp_path_factory.mktemp("records")
    saved(path, 0, 1, 2)
    saved(path, 5, mode="hotseat", players=Players(east="Ann", west="Bob"))
    saved(path, 3, mode="simulate", players=Players(east="Bot (easy)", west="Bot (easy)"))
    return path


def discard_drill(folder: Path) -> GameDrill:
    """The most expensive discard of the saved games, as a drill."""
    positions, _ = find_positions(folder)
    return game_drill(next(p for p in positions if p.number is not None))


def build_drill(folder: Path) -> GameDrill:
    positions, _ = find_positions(folder)
    return game_drill(next(p for p in positions if p.form == "build"))


def test_positions_are_the_players_costliest_regrets_and_builds(folder: Path) -> None:
    positions, games = find_positions(folder)
    assert games == 4  # the simulation is no game of the player's
    assert [p.lost for p in positions] == sorted((p.lost for p in positions), reverse=True)
    assert all(p.lost >= MIN_LOST for p in positions)
    seats = {(p.path.name.split("-")[1], p.seat) for p in positions}
    assert ("practice", Seat.EAST) not in seats  # the bot's seat of a practice game
    assert ("hotseat", Seat.EAST) in seats or ("hotseat", Seat.WEST) in seats
    # Seed 1's costliest regret (West's discard 34, against the normal bot) is among them.
    review = review_of_game(played(1), Seat.WEST)
    top = regrets(list(assess(review, "normal")))[0]
    assert any(p.number == top.number and p.lost == top.lost and p.seat is Seat.WEST
               for p in positions)
    assert any(p.form == "build" for p in positions)  # a build the strong bot did better


def test_the_cheapest_tile_is_right_and_the_tile_played_is_wrong(folder: Path) -> None:
    drill = discard_drill(folder)
    step = drill._secret.step
    assert step is not None and drill.drill.position is not None
    assert drill.drill.prompt[0].startswith("Your game of ")
    right = answer_game_drill(drill, cheapest(step).tile)
    assert right.correct and right.score == 1.0 and right.explanation[0].startswith("Right")
    wrong = answer_game_drill(drill, step.chosen.tile)
    assert not wrong.correct and wrong.score == 0.0
    assert wrong.explanation[0].startswith("Not the cheapest")
    assert f"In the game you discarded {step.chosen.tile}: " in "\n".join(wrong.explanation)
    record = wrong.record()
    assert (record.kind, record.position, record.pattern) == ("from_games", drill.id,
                                                              "game_discard")
    assert wrong.truth.opponent_hand == drill._secret.review.opponent_hand  # then revealed


def test_the_build_the_bots_hand_is_right_and_the_one_kept_is_not(folder: Path) -> None:
    drill = build_drill(folder)
    deal = drill._secret.deal
    assert deal is not None and drill.drill.tiles is not None and len(drill.drill.tiles) == 34
    best = answer_game_drill(drill, deal.hand_tiles(drill._secret.best))
    assert best.correct and best.score == 1.0
    kept = drill._secret.review.end.hands[drill.position.seat]
    assert kept is not None
    again = answer_game_drill(drill, kept)
    assert not again.correct and again.score == 0.0
    assert again.truth.best is not None and again.truth.yours is not None
    assert again.truth.best.value - again.truth.yours.value >= MIN_LOST


def test_a_drill_is_rebuilt_from_its_id(folder: Path) -> None:
    drill = discard_drill(folder)
    again = game_drill_from_id(drill.id, folder)
    assert again.drill == drill.drill and again.form == "discard"
    for bad in ("from_games:x", "safest:a:b:c", "from_games:none:east:4",
                "from_games:../x:east:4", f"{drill.id.rsplit(':', 1)[0]}:x"):
        with pytest.raises(DrillError):
            game_drill_from_id(bad, folder)


def test_a_missed_position_comes_back_and_a_right_one_waits(folder: Path) -> None:
    first = next_game_drill([], folder)
    positions, _ = find_positions(folder)
    assert first.id == positions[0].id  # the costliest first
    missed = DrillRecord("from_games", "intermediate", first.id, False, 0.0, "game_discard")
    other = DrillRecord("safest", "beginner", "safest:beginner:*:1", True, 1.0, "genbutsu")
    assert next_game_drill([missed], folder).id == first.id  # due again at once
    right = DrillRecord("from_games", "intermediate", first.id, True, 1.0, "game_discard")
    assert next_game_drill([missed, right, other], folder).id == positions[1].id
    # The seeded kinds' schedule passes over the answers of this kind.
    assert Scheduler([missed, right, other], 1).next_drill("beginner").kind != "from_games"


def test_no_saved_games_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(NoGameDrills) as refused:
        next_game_drill([], tmp_path / "records")
    assert str(refused.value) == "No saved games to drill from yet: play a practice game first."
    saved(tmp_path, 3, mode="simulate", players=Players(east="Bot (easy)", west="Bot (easy)"))
    with pytest.raises(NoGameDrills, match="No saved games"):
        next_game_drill([], tmp_path)


def test_games_that_cost_nothing_say_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game not finished is not looked at; finished games whose positions all cost less
    than the least worth a drill say there is nothing to drill, in one line."""
    write_game(played(RON_SEED, stop=2), "practice", PRACTICE, tmp_path)
    with pytest.raises(NoGameDrills, match="No saved games"):
        next_game_drill([], tmp_path)
    saved(tmp_path, 0)
    monkeypatch.setattr(game_drills, "MIN_LOST", 10**6)
    with pytest.raises(NoGameDrills) as refused:
        next_game_drill([], tmp_path)
    assert str(refused.value) == ("Nothing to drill from your 1 saved game: no discard, build "
                                  "or wait in them cost 1000000 expected points or more.")


TYPED = st.one_of(
    st.just(""), st.text(max_size=30), st.text(alphabet="0123456789mpsz ", max_size=40),
    st.lists(st.sampled_from(LETTERS), min_size=1, max_size=14).map(" ".join),
    st.sampled_from(["y", "1z", "0p", "5z5z", "east wh 東", "123m456p789s1122z"]))


@pytest.fixture(scope="module")
def both(folder: Path) -> tuple[GameDrill, GameDrill]:
    """The costliest discard and build of the saved games, as drills."""
    return discard_drill(folder), build_drill(folder)


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=TYPED, build=st.booleans())
def test_no_answer_raises(both: tuple[GameDrill, GameDrill], text: str, build: bool) -> None:
    drill = both[1] if build else both[0]
    try:
        result = answer_game_drill(drill, text)
    except DrillError as error:
        assert "\n" not in str(error) and str(error)
    else:
        assert 0.0 <= result.score <= 1.0 and result.kind == "from_games"
