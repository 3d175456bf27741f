"""The readable-wait positions of the drills from the player's own games
(:mod:`minefield.trainer.wait_cost`, :mod:`minefield.trainer.wait_drill`): a wait the opponent's
view feared far above the usual is a position, it is asked as "which of your discards gave it
away?", graded by the estimate in expected points, recorded under the kind ``from_games`` with
its own pattern, rebuilt from its id; no answer raises anything but a one-line DrillError."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minefield.records.header import Players
from minefield.records.writer import write_game
from minefield.rules.game import Discard, Game, Seat
from minefield.rules.names import LETTERS, name_text, to_mpsz
from minefield.rules.prepared import game_with_hands
from minefield.rules.tiles import Tile, kind_str, parse_tiles
from minefield.trainer.defense_review import review_of_game
from minefield.trainer.drill_answers import DrillAnswer
from minefield.trainer.drills import DrillError
from minefield.trainer.game_drills import (
    GameDrill,
    answer_game_drill,
    find_positions,
    game_drill,
    game_drill_from_id,
)
from minefield.trainer.wait_cost import WaitMoment, ron_points, wait_costs, wait_moment
from minefield.trainer.wait_drill import RIGHT_SHARE, answer_wait, wait_question
from tests.records.conftest import played

PRACTICE = Players(east="Bot (normal)", west="You")
#: West's hand: a souzu honitsu with haku (R19), waiting on 3s 6s 9s; East's on 2p 5p.
EAST_HAND, WEST_HAND = "123m456m789m2345p", "123s456s78s555z11z"
#: West throws only manzu and pinzu: souzu looks kept (a flush reading).
WEST_THROWS = ("1m", "9m", "1p", "9p", "2m", "8m", "3p", "7p")


def played_to_ron(west_hand: str, west_throws: Sequence[str], east_throws: Sequence[str],
                   ron_tile: str) -> Game:
    """East (EAST_HAND) throws ``east_throws`` and then ``ron_tile``, West (``west_hand``)
    ``west_throws`` in turn, until the game ends (West's ron on ``ron_tile``, R13)."""
    game = game_with_hands(EAST_HAND, west_hand, east_pool=ron_tile,
                           west_pool="".join(west_throws), dora="2z")
    for index, tile in enumerate([*east_throws, ron_tile]):
        game.apply(Seat.EAST, Discard(tile=tile))
        if game.phase == "ended":
            break
        game.apply(Seat.WEST, Discard(tile=west_throws[index]))
    return game


def obvious() -> Game:
    """West's souzu wait made obvious by eight discards of the other suits; East throws 6s
    at discard 17 and West wins (R13)."""
    return played_to_ron(WEST_HAND, WEST_THROWS, ["4z"] * 4 + ["6z"] * 4, "6s")


def test_an_obvious_wait_is_found_and_priced_in_expected_points() -> None:
    """R13, R14, R19, R26: at each of East's discards their view (their own 34 tiles and both
    rows) rated West's 6s far above the other tiles they could fear; the cost is that excess
    times what West's ron on 6s paid by the engine's scorer."""
    game = obvious()
    assert game.result is not None and game.result.winner is Seat.WEST
    review = review_of_game(game, Seat.WEST)
    assert review.waits == ("3s", "6s", "9s")
    costs = wait_costs(review, "person")
    assert [c.number for c in costs] == list(range(1, 18, 2))  # only 6s is in East's pool
    assert all(c.wait == "6s" and c.chance > 2 * c.usual for c in costs)
    assert costs[0].points == 12000 and costs[1].points == 8000  # ippatsu on discard 1 (R16)
    # By the engine's scorer: 9s adds ittsu to the honitsu, a haneman (R19, R23).
    assert ron_points(review, 3) == {"3s": 8000, "6s": 8000, "9s": 12000}
    assert all(c.cost == round((c.chance - c.usual) * c.points) for c in costs)
    moment = wait_moment(review, "person")
    assert isinstance(moment, WaitMoment)
    assert moment.cost == max(costs, key=lambda c: c.cost) and moment.cost.number == 17
    assert moment.readings == 9
    assert any("souzu flush is likely" in reason for reason in moment.reasons)
    # Each discard of another suit made souzu look kept: all of them gave the wait away.
    assert [e.tile for e in moment.effects] == list(WEST_THROWS)
    assert all(e.points > 0 for e in moment.effects)
    assert moment.best.tile == max(moment.effects, key=lambda e: e.points).tile


def test_the_obvious_waits_drill_grades_by_the_estimate() -> None:
    review = review_of_game(obvious(), Seat.WEST)
    moment = wait_moment(review, "person")
    assert moment is not None
    question = wait_question(review, moment, "Your game", "intermediate", "from_games:x:west:"
                             "wait17")
    prompt = "\n".join(question.drill.prompt)
    assert "waiting on 3s 6s 9s" in prompt and "1m 9m 1p 9p 2m 8m 3p 7p" in prompt
    assert "rated your 6s 33% to deal in" in prompt
    best = answer_wait(question, [Tile.parse(moment.best.tile)], review, "id")
    assert best.correct and best.score == 1.0 and best.explanation[0].startswith("Right")
    assert any("makes souzu look kept" in line for line in best.explanation)
    ranked = sorted(moment.effects, key=lambda e: (-e.points, e.index))
    assert ("What each discard gave away, in expected points (below 0: it hid the wait): "
            + " · ".join(f"{e.tile} {e.points}" for e in ranked) + ".") in best.explanation
    assert best.explanation[-1] == "You won on discard 17."
    worst = min(moment.effects, key=lambda e: e.points)
    assert worst.points < RIGHT_SHARE * moment.best.points
    missed = answer_wait(question, [Tile.parse(worst.tile)], review, "id")
    assert not missed.correct and missed.score == 0.0
    assert missed.explanation[0].startswith("Not the one: your ")
    assert missed.truth.pattern == "game_wait" and missed.truth.report is not None
    with pytest.raises(DrillError, match="6s is not one of your discards so far"):
        answer_wait(question, [Tile.parse("6s")], review, "id")


def test_a_suji_discard_hid_the_wait_and_the_explanation_says_so() -> None:
    """R15a, R26: West waits on 5s 8s and threw 2s at discard 6; to East's view 5s is half
    suji (no ryanmen 34s), so taking the 2s out of their view raises the wait's excess: it hid
    the wait, and an answer naming it is wrong and told so."""
    throws = ("1m", "9m", "2s", "1p", "9p", "2m", "8m", "3p")
    game = played_to_ron("123s456s67s555z11z", throws, ["4z"] * 4 + ["6z"] * 4, "5s")
    review = review_of_game(game, Seat.WEST)
    assert review.waits == ("5s", "8s")
    costs = {c.number: c for c in wait_costs(review, "person")}
    assert costs[7].chance < costs[5].chance  # the 2s (discard 6) lowered the rating
    moment = wait_moment(review, "person")
    assert moment is not None and moment.cost.wait == "5s"
    hid = next(e for e in moment.effects if e.tile == "2s")
    assert hid.points < 0 and hid.chance > moment.cost.chance
    question = wait_question(review, moment, "Your game", "intermediate", "id")
    answer = answer_wait(question, [Tile.parse("2s")], review, "id")
    assert not answer.correct and answer.score == 0.0
    assert "expected points more on a ron worth 8000" in answer.explanation[0]
    assert "Your 2s made 5s look suji: that hid it (a ryanmen on it would have been furiten, " \
           "R15a)." in answer.explanation
    assert any(line.startswith("East's view of 5s: half suji: 2s is safe")
               for line in answer.explanation)


def test_a_wait_no_discard_gave_away_is_no_drill() -> None:
    """West throws four Rd and nothing else: East's view still rates 6s above the usual (their
    own tiles leave souzu unseen, R26), but no discard did more than another, so there is no
    discard to name and no position is made."""
    throws = ("7z",) * 4
    game = played_to_ron(WEST_HAND, throws, ["4z"] * 4, "6s")
    review = review_of_game(game, Seat.WEST)
    costs = wait_costs(review, "person")
    assert len(costs) == 5 and all(c.cost > 0 for c in costs)
    assert wait_moment(review, "person") is None


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Eight practice games of normal bots, the player West."""
    path = tmp_path_factory.mktemp("records")
    for seed in range(8):
        write_game(played(seed), "practice", PRACTICE, path)
    return path


@pytest.fixture(scope="module")
def waits(folder: Path) -> list[GameDrill]:
    """The readable-wait positions of those games, as drills."""
    positions, _ = find_positions(folder)
    return [game_drill(p) for p in positions if p.form == "wait"]


def test_readable_waits_join_the_ranking_and_are_rebuilt_from_their_id(
        folder: Path, waits: list[GameDrill]) -> None:
    positions, _ = find_positions(folder)
    assert len(waits) >= 3
    forms = {p.form for p in positions}
    assert forms == {"discard", "build", "wait"}
    for drill in waits:
        assert drill.form == "wait" and drill.id.rsplit(":", 1)[1].startswith("wait")
        moment = drill._secret.wait.moment if drill._secret.wait else None
        assert moment is not None and moment.cost.cost == drill.position.lost >= 100
        again = game_drill_from_id(drill.id, folder)
        assert again.drill == drill.drill and again.form == "wait"
    for bad in ("from_games:x:west:wait", "from_games:x:west:waitx", "from_games:x:west:wait-3"):
        with pytest.raises(DrillError):
            game_drill_from_id(bad, folder)


def test_a_readable_wait_is_recorded_under_the_same_kind(waits: list[GameDrill]) -> None:
    drill = waits[0]
    assert drill._secret.wait is not None
    best = drill._secret.wait.moment.best.tile
    record = answer_game_drill(drill, name_text(best, "letters")).record()
    assert (record.kind, record.position, record.pattern, record.correct) == (
        "from_games", drill.id, "game_wait", True)


def _typed() -> st.SearchStrategy[str]:
    tiles = st.sampled_from([f"{n}{s}" for s in "mps" for n in range(1, 10)]
                            + [f"{n}z" for n in range(1, 8)])
    return st.one_of(
        st.just(""), st.text(max_size=30), st.text(alphabet="0123456789mpsz ", max_size=20),
        tiles, tiles.map(lambda t: name_text(t, "letters")),
        st.lists(st.sampled_from(LETTERS), min_size=1, max_size=3).map(" ".join),
        st.sampled_from(["East", "wh", "東", "中", "north", "0p", "5z5z", "1m 9m", "y"]))


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_answer_raises(waits: list[GameDrill], data: st.DataObject) -> None:
    """Over the readable waits of eight seeded games: the discard that gave the wait away most
    is right, each discard shown is graded by its expected points, and anything else is one
    line of DrillError, whatever is typed."""
    drill = data.draw(st.sampled_from(waits))
    assert drill._secret.wait is not None
    moment = drill._secret.wait.moment
    shown = sorted({e.tile for e in moment.effects})
    text = data.draw(st.one_of(_typed(), st.sampled_from(shown),
                               st.sampled_from(shown).map(lambda t: name_text(t, "kanji"))))
    try:
        result: DrillAnswer = answer_game_drill(drill, text)
    except DrillError as error:
        assert "\n" not in str(error) and str(error)
        return
    assert 0.0 <= result.score <= 1.0 and result.kind == "from_games"
    assert result.pattern == "game_wait"
    typed = parse_tiles(to_mpsz(" ".join(text.split())))
    assert len(typed) == 1  # only one tile of the discards shown is graded
    chosen = max((e for e in moment.effects if e.tile == kind_str(typed[0].kind)),
                 key=lambda e: e.points)
    assert result.correct == (chosen.points >= RIGHT_SHARE * moment.best.points)
    assert (result.score == 1.0) == (chosen.points == moment.best.points)
