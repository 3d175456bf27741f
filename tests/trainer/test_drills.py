"""The drills: seeded and repeatable, graded against the truth of the game, never leaking it
before the answer, and scheduled so that missed patterns come back first."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from minefield.bots.discards import DiscardSituation
from minefield.bots.hands import DealtTiles, HandChoice, choose_best, choose_most_live
from minefield.bots.levels import make_bot
from minefield.defense.estimate import estimate
from minefield.rules.game import Discard, Game, Seat, ron_context
from minefield.rules.hand import Hand
from minefield.rules.score import score_win
from minefield.rules.tiles import Tile, kind_from_str, kind_str
from minefield.trainer._drill_positions import (
    TablePosition,
    is_suji,
    no_chance_from_own,
    suji_partners,
    trap_discard,
)
from minefield.trainer.drill_answers import (
    answer,
    answer_is_mangan,
    answer_read_wait,
    answer_safe_hand,
    answer_safest,
    wait_shape_words,
)
from minefield.trainer.drill_schedule import BOX_INTERVALS, Scheduler
from minefield.trainer.drills import (
    KINDS,
    PATTERNS,
    Drill,
    DrillError,
    _Secret,
    drill_from_id,
    kind_words,
    make_drill,
    make_mangan_drill,
    pattern_words,
    reader_lines,
)
from minefield.trainer.progress import ProgressStore
from minefield.trainer.progress_records import DrillRecord

#: A pinfu tanyao hand waiting on 2s-5s (ryanmen 34s): riichi, tanyao, pinfu = 3 han 30 fu.
PINFU = "234m456p678s34s55p"
#: Seven pairs waiting on 6z: riichi and chiitoitsu, 25 fu.
PAIRS = "1133m5577p6699s6z"


def secret(drill: Drill) -> _Secret:
    """The drill's hidden truth (tests only: a screen never reads it before the answer)."""
    return drill._secret


def table_of(drill: Drill) -> TablePosition:
    """The hidden game position of a safest or read_wait drill."""
    table = secret(drill).table
    assert table is not None
    return table


def replayed(drill: Drill) -> Game:
    """The drill's game, replayed from its seed and commands to the position asked."""
    table = secret(drill).table
    assert table is not None
    return Game.replay(table.game_seed, None, list(table.commands))


# ---------------------------------------------------------------------------------------------
# Same seed, same drill; no leak before the answer


@pytest.mark.parametrize("kind", KINDS)
def test_the_same_seed_gives_the_same_drill(kind: str) -> None:
    first = make_drill(kind, 11, "intermediate")
    again = make_drill(kind, "0000000000000000000000000000000b", "intermediate")
    assert first == again
    assert first.prompt == again.prompt and secret(first) == secret(again)
    assert drill_from_id(first.id) == first
    other = make_drill(kind, 12, "intermediate")
    assert (other.prompt, other.position, other.tiles, other.hand) != (
        first.prompt, first.position, first.tiles, first.hand)


def test_a_named_pattern_is_part_of_the_id() -> None:
    drill = make_drill("is_mangan", 5, "expert", "kiriage")
    assert drill.id == f"is_mangan:expert:kiriage:{drill.seed}"
    assert drill_from_id(drill.id) == drill
    assert answer_is_mangan(drill, True).pattern == "kiriage"


@pytest.mark.parametrize("kind", ["safest", "read_wait"])
def test_a_table_drill_never_shows_the_opponents_hand(kind: str) -> None:
    drill = make_drill(kind, 3, "intermediate")
    table = table_of(drill)
    hidden = str(table.opponent_hand)
    assert drill.position is not None
    shown = repr(drill) + "".join(drill.prompt) + repr(drill.position) + str(drill)
    assert hidden not in shown and "<truth hidden>" not in shown
    assert secret(drill).pattern not in "".join(drill.prompt)
    # The position is the trainee's own view (R26): their tiles, never the opponent's.
    game = replayed(drill)
    assert tuple(drill.position.tiles) == tuple(game.tiles_of(drill.seat))
    assert repr(table) == f"TablePosition(discard {drill.position.number}, <truth hidden>)"


def test_a_safe_hand_drill_does_not_show_the_bots_answer() -> None:
    drill = make_drill("safe_hand", 3, "beginner")
    best = drill_best_hand(drill)
    assert best not in repr(drill) and best not in "".join(drill.prompt)


def drill_best_hand(drill: Drill) -> str:
    deal = secret(drill).hand_deal
    assert deal is not None
    return deal.deal.hand_tiles(deal.best.hand)


# ---------------------------------------------------------------------------------------------
# safest


def test_safest_truth_is_what_the_engine_does_with_each_tile() -> None:
    """The tiles said to deal in are exactly those the engine wins on (R13: ron is automatic
    when the tile is a wait, the player is not furiten and the win is eligible)."""
    drill = make_drill("safest", 3, "intermediate")
    assert drill.position is not None
    deal_ins = set(answer_safest(drill, kind_str(drill.position.pool_kinds[0])).truth.deal_ins)
    assert deal_ins and deal_ins != {kind_str(k) for k in drill.position.pool_kinds}
    for kind in drill.position.pool_kinds:
        game = replayed(drill)
        game.apply(drill.seat, Discard(tile=kind_str(kind)))
        won = game.result is not None and game.result.winner is drill.seat.other
        assert won == (kind_str(kind) in deal_ins), kind_str(kind)


def test_safest_grading_follows_the_estimate() -> None:
    drill = make_drill("safest", 4, "intermediate")
    assert drill.position is not None
    report = estimate(drill.position, "normal")  # the normal bot built the opponent's hand
    best = answer_safest(drill, report.safest().tile)
    assert best.truth.report is not None and best.truth.report.opponent == "normal"
    assert best.correct and best.score == 1.0
    assert best.truth.report == report
    assert best.explanation[0].startswith("Right")
    worst = max(report.tiles, key=lambda t: t.danger)
    assert worst.danger > report.safest().danger + 0.01  # the position has a choice to make
    bad = answer_safest(drill, worst.tile)
    assert not bad.correct and bad.score == 0.0
    assert bad.explanation[0].startswith(f"Not the safest: {worst.tile}")
    assert any(line.startswith(f"In truth {worst.tile}") for line in bad.explanation)
    assert any(str(table_of(drill).opponent_hand) in line for line in bad.explanation)


def test_safest_refuses_a_tile_that_is_not_in_the_pool() -> None:
    drill = make_drill("safest", 4, "beginner")
    assert drill.position is not None
    missing = next(k for k in range(34) if k not in drill.position.pool_kinds)
    with pytest.raises(DrillError, match=f"{kind_str(missing)} is not in your pool"):
        answer_safest(drill, kind_str(missing))
    with pytest.raises(DrillError, match="is not a tile"):
        answer_safest(drill, "10x")


@pytest.mark.parametrize(("pattern", "difficulty", "seed"), [
    ("suji_trap", "expert", 5), ("no_chance_own", "intermediate", 6)])
def test_safest_patterns_are_in_the_position(pattern: str, difficulty: str, seed: int) -> None:
    drill = make_drill("safest", seed, difficulty, pattern)
    table = table_of(drill)
    position = drill.position
    assert position is not None and secret(drill).pattern == pattern
    known = position.genbutsu | position.passed
    if pattern == "suji_trap":  # a tile that looks safe by suji deals in
        assert any(is_suji(k, known) and k not in known for k in table.deal_ins)
    else:  # a safe tile that only the trainee's own four of a kind proves safe
        own = [sum(1 for t in position.tiles if t.kind == k) for k in range(34)]
        assert any(no_chance_from_own(k, own) and k not in known and k not in table.deal_ins
                   for k in position.pool_kinds)


@pytest.mark.parametrize(("difficulty", "policy"), [
    ("beginner", choose_most_live), ("intermediate", choose_most_live), ("expert", choose_best)])
def test_the_difficulty_chooses_the_bot_that_built_the_opponents_hand(
        difficulty: str, policy: Callable[[DealtTiles], HandChoice]) -> None:
    drill = make_drill("read_wait", 3, difficulty)
    table = table_of(drill)
    deal = DealtTiles.from_view(Game(table.game_seed).view(drill.seat.other))
    assert Hand.parse(deal.hand_tiles(policy(deal).hand)) == table.opponent_hand


def test_the_expert_opponent_lays_suji_traps() -> None:
    """While not furiten, the expert discards a tile three steps from one of its own waits
    when it has one (never a wait itself, R15a), so that the wait looks like suji."""
    rng = random.Random(0)
    laid = 0
    for seed in range(3):
        game = Game(seed)
        bots = {seat: make_bot("strong", seed) for seat in Seat}
        for seat in Seat:
            game.apply(seat, bots[seat].act(game.view(seat)))
        while game.turn is not None:
            seat = game.turn
            table = DiscardSituation.from_view(game.view(seat))
            tile = Tile.parse(trap_discard(table, rng).tile)
            lures = {t.kind for t in table.allowed() if t.kind not in table.own_waits
                     and any(t.kind in suji_partners(w) for w in table.own_waits)}
            if table.seat_view.own_furiten is None and lures:
                assert tile.kind in lures
                laid += 1
            game.apply(seat, Discard(tile=str(tile)))
    assert laid > 0


def test_reading_helpers() -> None:
    one, four, seven = (kind_from_str(t) for t in ("1m", "4m", "7m"))
    assert is_suji(one, frozenset({four}))
    assert not is_suji(four, frozenset({one}))  # 4m needs both 1m and 7m
    assert is_suji(four, frozenset({one, seven}))
    assert not is_suji(kind_from_str("1z"), frozenset({one}))
    own = [0] * 34
    own[kind_from_str("3m")] = 4  # all four 3m: 1m and 2m cannot be in a sequence wait
    assert no_chance_from_own(one, own) and no_chance_from_own(kind_from_str("2m"), own)
    assert not no_chance_from_own(four, own)  # 456m does not need 3m


# ---------------------------------------------------------------------------------------------
# read_wait


def test_read_wait_is_graded_by_precision_and_recall() -> None:
    drill = make_drill("read_wait", 3, "beginner")
    game = replayed(drill)
    true = [kind_str(k) for k in game.waits_of(drill.seat.other)]  # R12, from the engine
    exact = answer_read_wait(drill, true)
    assert exact.correct and exact.score == 1.0
    assert set(exact.truth.opponent_waits) == set(true)
    wrong = next(kind_str(k) for k in range(34) if kind_str(k) not in true)
    half = answer_read_wait(drill, [true[0], wrong])  # precision 1/2, recall 1/len(true)
    recall = 1 / len(true)
    assert not half.correct
    assert half.score == pytest.approx(2 * 0.5 * recall / (0.5 + recall), abs=1e-4)
    assert f"Not waits: {wrong}." in half.explanation
    none = answer(drill, [])
    assert not none.correct and none.score == 0.0
    assert answer(drill, " ".join(true)).correct  # the generic form takes "2p 5p"


def test_read_wait_answer_explains_each_wait_with_what_a_reader_saw() -> None:
    """The answer says how the hand waits on each tile (its shape, from the reading
    the ron is paid by) and how many copies the reader saw, with the estimate's first reason."""
    drill = make_drill("read_wait", 3, "beginner")
    position = drill.position
    assert position is not None
    result = answer_read_wait(drill, [])
    table = table_of(drill)
    for value in table.values:
        tile = kind_str(value.tile)
        line = next(line for line in result.explanation if line.startswith(f"{tile}: "))
        assert wait_shape_words(value) in line
        assert f"You saw {4 - position.unseen[value.tile]} of its 4 copies" in line


@pytest.mark.parametrize(("hand", "win", "words"), [
    ("23m456p789s111z55s", "1m", "ryanmen: 23m waits on 1m or 4m"),
    ("24m456p789s111z55s", "3m", "kanchan: 24m waits on the 3m between them"),
    ("12m456p789s111z55s", "3m", "penchan: 12m waits only on 3m (an edge)"),
    ("123m456p789s1z555s", "1z", "tanki: a single 1z waits for its pair"),
    ("123m456p789s11z55s", "1z", "shanpon: the pair 11z waits to become a triplet (the other "
                                 "pair is 55s, so its kind wins too)"),
    ("1133m5577p22s334z", "4z", "seven pairs: six pairs and a single 4z that waits for its "
                                  "pair"),
])
def test_wait_shapes_in_words(hand: str, win: str, words: str) -> None:
    ctx = ron_context(Seat.WEST, 1, kind_from_str("9p"))
    value = score_win(Hand.parse(hand), kind_from_str(win), ctx)
    assert value is not None and wait_shape_words(value) == words


def test_the_reader_sees_the_rows_in_order_the_dora_and_the_copies() -> None:
    drill = make_drill("read_wait", 3, "beginner")
    position = drill.position
    assert position is not None
    lines = reader_lines(position)
    assert lines[0] == (f"Dora indicator {position.dora_indicator}, so the dora is "
                        f"{kind_str(position.dora)}")
    assert lines[1].endswith(" ".join(str(t) for t in position.opponent_discards))
    grid = {row.split()[0]: [int(n) for n in row.split("(")[0].split()[1:]]
            for row in lines[-4:]}
    seen = [4 - n for n in position.unseen]
    assert grid["m"] + grid["p"] + grid["s"] + grid["z"] == seen


def test_kinds_and_patterns_have_words() -> None:
    assert [kind_words(k) for k in KINDS] == ["Safest discard", "Read the wait",
                                              "Mangan or not", "Choose the hand"]
    for kind, patterns in PATTERNS.items():
        for pattern in patterns:
            assert "_" not in pattern_words(pattern), (kind, pattern)


# ---------------------------------------------------------------------------------------------
# is_mangan (R14, R16, R17, R22, R24)


@pytest.mark.parametrize(("hand", "wait", "seat", "number", "indicator", "allowed", "pattern"), [
    # R14 kiriage: riichi, tanyao, pinfu, dora 1 (indicator 1m: 2m) = 4 han 30 fu.
    (PINFU, "5s", "east", 10, "1m", True, "kiriage"),
    # The same without dora: 3 han 30 fu is below mangan.
    (PINFU, "5s", "east", 10, "7z", False, "just_below"),
    # R16: on the opponent's first discard ippatsu makes it 4 han 30 fu.
    (PINFU, "2s", "east", 2, "7z", True, "ippatsu"),
    (PINFU, "2s", "west", 1, "7z", True, "ippatsu"),
    # R17: houtei on discard 34 (East only).
    (PINFU, "5s", "east", 34, "7z", True, "houtei"),
    # R14, R22: seven pairs with ippatsu is 4 han 25 fu, not mangan.
    (PAIRS, "6z", "east", 2, "7z", False, "chiitoitsu_25"),
    # R24: two dora (indicator 5z: 6z dora, the winning tile makes the pair) make 5 han;
    # without them 3 han 25 fu. Dora count for the minimum.
    (PAIRS, "6z", "east", 12, "5z", True, "dora"),
    # R20: nine gates (chuuren poutou) is yakuman: well above the minimum.
    ("1112345678999m", "5m", "west", 9, "7z", True, "clear"),
])
def test_is_mangan_is_graded_exactly(hand: str, wait: str, seat: str, number: int,
                                     indicator: str, allowed: bool, pattern: str) -> None:
    drill = make_mangan_drill(hand, wait, seat, number, indicator)
    assert drill_from_id(drill.id) == drill
    assert drill.context is not None
    value = score_win(Hand.parse(hand), kind_from_str(wait), drill.context)
    assert value is not None and value.eligible is allowed
    right, wrong = answer_is_mangan(drill, allowed), answer_is_mangan(drill, not allowed)
    assert right.correct and right.score == 1.0 and right.truth.allowed is allowed
    assert not wrong.correct and wrong.score == 0.0
    assert right.pattern == pattern
    assert right.truth.value is not None and right.truth.value.ura == 0  # no ura in R14


def test_is_mangan_refuses_impossible_questions() -> None:
    with pytest.raises(DrillError, match="does not complete"):
        make_mangan_drill(PINFU, "9m", "east", 10, "1m")
    with pytest.raises(DrillError, match="opponent's discard"):
        make_mangan_drill(PINFU, "5s", "west", 34, "1m")  # 34 is West's own discard
    with pytest.raises(DrillError):
        make_mangan_drill("123m", "5s", "east", 10, "1m")
    with pytest.raises(DrillError, match="True"):
        answer(make_mangan_drill(PINFU, "5s", "east", 10, "1m"), "yes")


@pytest.mark.parametrize("difficulty", ["beginner", "intermediate", "expert"])
def test_seeded_is_mangan_drills_agree_with_the_engine(difficulty: str) -> None:
    for seed in range(4):
        drill = make_drill("is_mangan", seed, difficulty)
        assert drill.hand is not None and drill.wait is not None and drill.context is not None
        value = score_win(drill.hand, kind_from_str(drill.wait), drill.context)
        assert value is not None
        assert answer_is_mangan(drill, value.eligible).correct


# ---------------------------------------------------------------------------------------------
# safe_hand


def test_safe_hand_compares_with_the_bots_best() -> None:
    drill = make_drill("safe_hand", 3, "intermediate")
    assert drill.tiles is not None and len(drill.tiles) == 34
    best = drill_best_hand(drill)
    top = answer_safe_hand(drill, best)
    assert top.correct and top.score == 1.0
    assert top.truth.yours == top.truth.best and top.truth.best is not None
    assert top.truth.best.tenpai and 0 < top.truth.best.win_chance <= 1
    # Keeping the 13 lowest tiles is (almost surely) no tenpai hand at all: worth much less.
    lowest = "".join(str(t) for t in drill.tiles[:13])
    low = answer_safe_hand(drill, lowest)
    assert low.truth.yours is not None and low.truth.best is not None
    if not low.truth.yours.tenpai:
        assert low.truth.yours.win_chance == 0.0
    assert low.truth.yours.value < low.truth.best.value
    assert not low.correct and low.score < 1.0
    assert low.explanation[2].startswith(f"Best: {best}")


def test_safe_hand_refuses_tiles_you_do_not_hold() -> None:
    drill = make_drill("safe_hand", 3, "intermediate")
    assert drill.tiles is not None
    with pytest.raises(DrillError, match="13"):
        answer_safe_hand(drill, "".join(str(t) for t in drill.tiles[:12]))
    count = {k: sum(1 for t in drill.tiles if t.kind == k) for k in range(34)}
    kind = next(k for k in range(34) if count[k] < 4)  # one copy more than the seat holds
    others = [str(t) for t in drill.tiles if t.kind != kind]
    hand = kind_str(kind) * (count[kind] + 1) + "".join(others[:12 - count[kind]])
    with pytest.raises(DrillError, match="you hold only"):
        answer_safe_hand(drill, hand)


# ---------------------------------------------------------------------------------------------
# Bad input


def test_bad_drill_requests_say_what_is_wrong() -> None:
    with pytest.raises(DrillError, match="unknown drill kind 'guess'"):
        make_drill("guess", 1)
    with pytest.raises(DrillError, match="unknown difficulty"):
        make_drill("safest", 1, "master")
    with pytest.raises(DrillError, match="seed"):
        make_drill("safest", "not a seed")
    with pytest.raises(DrillError, match="unknown safest pattern"):
        make_drill("safest", 1, "expert", "kiriage")
    with pytest.raises(DrillError, match="not a drill id"):
        drill_from_id("safest:1")
    with pytest.raises(DrillError, match="'x' is not a number"):
        drill_from_id(f"is_mangan:custom:{PINFU}:5s:east:x:1m")
    with pytest.raises(DrillError, match="is_mangan drill, not a safest one"):
        answer_safest(make_mangan_drill(PINFU, "5s", "east", 10, "1m"), "1m")


# ---------------------------------------------------------------------------------------------
# Spaced repetition


def record(kind: str, pattern: str, correct: bool) -> DrillRecord:
    return DrillRecord(kind=kind, difficulty="expert", position="x", correct=correct,
                       score=1.0 if correct else 0.0, pattern=pattern)


def test_a_missed_pattern_comes_back_first() -> None:
    history = [record("safest", "suji_trap", True), record("is_mangan", "kiriage", False),
               record("read_wait", "kanchan", True)]
    scheduler = Scheduler(history, seed=1)
    boxes = scheduler.boxes
    assert (boxes["safest:suji_trap"].box, boxes["safest:suji_trap"].due) == (2, 0 + 2)
    assert (boxes["is_mangan:kiriage"].box, boxes["is_mangan:kiriage"].due) == (1, 1 + 1)
    assert (boxes["read_wait:kanchan"].box, boxes["read_wait:kanchan"].due) == (2, 2 + 2)
    assert [b.key for b in scheduler.due()] == ["is_mangan:kiriage", "safest:suji_trap"]
    assert scheduler.next_target() == ("is_mangan", "kiriage")
    drill = scheduler.next_drill("expert")
    assert drill.kind == "is_mangan" and drill.target == "kiriage"
    assert answer_is_mangan(drill, True).pattern == "kiriage"


def test_right_answers_push_a_pattern_back() -> None:
    history = [record("safest", "genbutsu", True)] * 3  # boxes 2, 3, 4
    scheduler = Scheduler(history, seed=1)
    box = scheduler.boxes["safest:genbutsu"]
    assert box.box == 4 and box.due == 2 + BOX_INTERVALS[3]
    assert scheduler.due() == []
    again = Scheduler([*history, record("safest", "genbutsu", False)], seed=1)
    assert again.boxes["safest:genbutsu"].box == 1
    assert again.next_target() == ("safest", "genbutsu")


def test_the_schedule_is_deterministic_given_history_and_seed() -> None:
    history = [record("safe_hand", "honitsu", True)]
    first = Scheduler(history, seed=5)
    assert first.next_target() == Scheduler(history, seed=5).next_target()
    assert first.next_drill("beginner") == Scheduler(history, seed=5).next_drill("beginner")
    kinds = {Scheduler(history, seed=s).next_target()[0] for s in range(12)}
    assert len(kinds) > 1  # nothing due: the seed chooses the kind
    with pytest.raises(DrillError, match="seed"):
        Scheduler(history, seed="nope")


def test_answers_go_through_the_progress_store(tmp_path: Path) -> None:
    store = ProgressStore(tmp_path / "progress.sqlite3")
    drill = make_mangan_drill(PAIRS, "6z", "east", 2, "7z")
    wrong = answer_is_mangan(drill, True)
    when = datetime(2026, 11, 23, tzinfo=UTC)
    store.record_drill(DrillRecord(**{**wrong.record().__dict__, "done_at": when}))
    history = store.drill_history()
    assert [(h.kind, h.pattern, h.correct) for h in history] == [
        ("is_mangan", "chiitoitsu_25", False)]
    assert Scheduler(history, seed=0).next_target() == ("is_mangan", "chiitoitsu_25")
    store.close()
