"""Every drill kind takes whatever a person types: right and wrong answers, empty
lines, garbage and honors by each of their names are graded or refused in one line, never an
exception (the read-the-wait drill used to stop the app with ``KeyError`` on 3 answers of 5)."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minefield.rules.names import KANJI, LETTERS, NUMBERS, WORDS
from minefield.rules.tiles import kind_str
from minefield.trainer.drill_answers import DrillAnswer, answer_safest, answer_text
from minefield.trainer.drills import DIFFICULTIES, KINDS, Drill, DrillError, make_drill

#: Seeds per kind and difficulty: as many as the kind's drills can be made in a few seconds
#: (an expert safest drill plays many seeded bot games before its pattern comes).
SEEDS = {"safest": 5, "read_wait": 6, "is_mangan": 40, "safe_hand": 3}
EXPERT_SEEDS = {"safest": 1, "read_wait": 2, "is_mangan": 40, "safe_hand": 1}
#: Each honor kind (27-33) by every name the game takes, as typed in any case.
HONOR_NAMES = [names[i] for names in (LETTERS, KANJI, NUMBERS, WORDS) for i in range(7)]


@cache
def drill(kind: str, difficulty: str, seed: int) -> Drill:
    """The drill (built once per run: building one plays seeded bot games)."""
    return make_drill(kind, seed, difficulty)


def drills(kind: str) -> st.SearchStrategy[Drill]:
    """Drills of ``kind`` over the difficulties and their seeds."""
    return st.sampled_from([
        (difficulty, seed) for difficulty in DIFFICULTIES
        for seed in range((EXPERT_SEEDS if difficulty == "expert" else SEEDS)[kind])
    ]).map(lambda pair: drill(kind, *pair))


def named(kind: int, names: int, case: str) -> str:
    """``kind`` written as a person may type it: an honor by one of its four names."""
    if kind < 27:
        return kind_str(kind)
    name = (LETTERS, KANJI, NUMBERS, WORDS)[names][kind - 27]
    return {"lower": name.lower(), "upper": name.upper()}.get(case, name)


def right_answer(task: Drill) -> list[int] | bool:
    """The answer the drill grades right: kinds (safest, read_wait, safe_hand) or yes/no."""
    secret = task._secret
    if task.kind == "is_mangan":
        assert secret.mangan is not None
        return secret.mangan.value.eligible
    if task.kind == "read_wait":
        assert secret.table is not None
        return list(secret.table.opponent_waits)
    if task.kind == "safest":
        assert task.position is not None
        report = answer_safest(task, kind_str(task.position.pool_kinds[0])).truth.report
        assert report is not None
        return [next(k for k in task.position.pool_kinds
                     if kind_str(k) == report.safest().tile)]
    assert secret.hand_deal is not None
    counts = secret.hand_deal.best.hand
    return [k for k in range(34) for _ in range(counts[k])]


def written(kinds: list[int] | bool, names: int, case: str, separator: str) -> str:
    """An answer as typed: tiles with honors by one naming (0 letters, 1 kanji, 2 numbers,
    3 words), side by side or spaced, or y/n in a case."""
    if isinstance(kinds, bool):
        word = "yes" if kinds else "no"
        return {"lower": word, "upper": word.upper()}.get(case, word[0])
    if names in (0, 3) and not separator:
        separator = " "  # letters and words need a space between them (WhGr is no name)
    return separator.join(named(k, names, case) for k in kinds)


def graded_or_refused(task: Drill, text: str) -> DrillAnswer | None:
    """The answer graded, or None when it was refused in one line; any other outcome fails."""
    try:
        result = answer_text(task, text)
    except DrillError as error:
        message = str(error)
        assert message and "\n" not in message, message
        return None
    assert 0.0 <= result.score <= 1.0
    assert result.explanation and all(isinstance(line, str) for line in result.explanation)
    assert result.drill_id == task.id
    return result


NAMES, CASES, SEPARATORS = (st.integers(0, 3), st.sampled_from(["as is", "lower", "upper"]),
                             st.sampled_from([" ", "  ", ""]))


def style(data: st.DataObject) -> tuple[int, str, str]:
    """How an answer is written: the honors' naming, the case and the separator."""
    return data.draw(NAMES), data.draw(CASES), data.draw(SEPARATORS)


TYPED = st.one_of(
    st.just(""), st.sampled_from([" ", "\t", "   "]),  # empty
    st.text(max_size=30),  # garbage
    st.text(alphabet="0123456789mpsz ", max_size=30),  # near misses
    st.lists(st.sampled_from(HONOR_NAMES), min_size=1, max_size=14).map(" ".join),  # honors
    st.sampled_from(["y", "n", "yes", "NO", "maybe", "1", "0p", "5z5z", "east wh 東"]),
)
HYPOTHESIS = settings(max_examples=60, deadline=None,
                      suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("kind", KINDS)
@HYPOTHESIS
@given(data=st.data())
def test_every_answer_is_graded_or_refused_in_one_line(kind: str, data: st.DataObject) -> None:
    task = data.draw(drills(kind))
    for _ in range(4):
        graded_or_refused(task, data.draw(TYPED))


@pytest.mark.parametrize("kind", KINDS)
@HYPOTHESIS
@given(data=st.data())
def test_the_right_answer_by_any_name_is_right(kind: str, data: st.DataObject) -> None:
    task = data.draw(drills(kind))
    text = written(right_answer(task), *style(data))
    result = graded_or_refused(task, text)
    assert result is not None, text
    assert result.correct, (text, result.explanation[0])


@pytest.mark.parametrize("kind", ["safest", "read_wait", "safe_hand"])
@HYPOTHESIS
@given(data=st.data())
def test_wrong_answers_are_graded_not_refused(kind: str, data: st.DataObject) -> None:
    """A wrong answer of the right form (tiles of the pool; kinds; 13 of your tiles) is
    graded: a score, never an exception."""
    task = data.draw(drills(kind))
    names, case, separator = style(data)
    if task.kind == "read_wait":
        kinds = data.draw(st.lists(st.integers(0, 33), min_size=1, max_size=9))
    elif task.kind == "safest":
        assert task.position is not None
        kinds = [data.draw(st.sampled_from(task.position.pool_kinds))]
    else:
        assert task.tiles is not None
        picked = data.draw(st.permutations(list(task.tiles)))[:13]
        kinds = sorted(tile.kind for tile in picked)
    text = written(kinds, names, case, separator)
    assert graded_or_refused(task, text) is not None, text


def test_read_the_wait_answers_that_stopped_the_app_are_graded() -> None:
    """The answers that once failed (``6m 9m``, ``5m``): the explanation names each true wait with
    its reasons, whether the reader still holds that kind or not (it raised KeyError)."""
    for seed in range(8):
        task = drill("read_wait", "intermediate", seed)
        for text in ("6m 9m", "5m", "369s", "E Wh 東"):
            result = answer_text(task, text)
            assert any(line.startswith(("Not quite", "Right")) for line in result.explanation)


def test_an_empty_answer_says_what_to_type() -> None:
    task = drill("read_wait", "beginner", 0)
    with pytest.raises(DrillError, match="Type an answer first: the kinds you think"):
        answer_text(task, "  ")
