"""Records of matches: the header's match object and the result's payments (exact keys), old
single-game files, corrupt and edited match records, and whole matches replayed and resumed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from minefield.bots.levels import make_bot
from minefield.bots.simulate import MatchOutcome, match_seed, play_game, play_match
from minefield.records.header import MatchHeader, Players, RecordHeader
from minefield.records.history import MatchEntry, group_history, list_history
from minefield.records.reader import RecordError, parse_record, read_record
from minefield.records.replay import load_match, match_records, replay_match, replay_record
from minefield.records.scoreboard import final_line, match_json, match_line, settlement_line
from minefield.records.writer import MatchRecorder, RecordWriter, write_game
from minefield.rules.game import Game, GameTerms, Seat
from minefield.rules.match import Match, match_id
from minefield.rules.settings import RuleSettings
from tests.records.conftest import RON_SEED, played, record_of

#: Easy bots, match 0 of master seed 4: six games (five draws, one ron), A ends at -4000.
MASTER, GAMES, DRAWS, A_FINAL = 4, 6, 5, -4000
HEADER_KEYS = {"id", "game", "players", "dealer_streak", "honba", "scores", "seed", "hand",
               "terms"}


@pytest.fixture
def match_folder(tmp_path: Path) -> tuple[Path, MatchOutcome]:
    """A whole simulated match written as records (one file per game)."""
    folder = tmp_path / "match"
    outcome = play_match(0, MASTER, "easy", "easy", record_folder=folder)
    return folder, outcome


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_bytes().splitlines()]


def _by_game(folder: Path) -> list[Path]:
    """The match's records in game order."""
    return sorted(folder.glob("*.jsonl"), key=lambda p: _lines(p)[0]["match"]["game"])


def _rewrite(path: Path, number: int, edit: Any) -> None:
    """Apply ``edit`` to line ``number``'s JSON object and write the file back."""
    lines = path.read_bytes().splitlines(keepends=True)
    data = json.loads(lines[number - 1])
    edit(data)
    lines[number - 1] = json.dumps(data).encode() + b"\n"
    path.write_bytes(b"".join(lines))


# --- the format ----------------------------------------------------------------------------

def test_match_header_and_result_have_exactly_the_issues_keys(
        match_folder: tuple[Path, MatchOutcome]) -> None:
    folder, outcome = match_folder
    paths = _by_game(folder)
    assert outcome.games == GAMES == len(paths) and outcome.draws == DRAWS
    seed = match_seed(MASTER, 0)
    for number, path in enumerate(paths, start=1):
        lines = _lines(path)
        header, last = lines[0], lines[-1]
        match = header["match"]
        assert set(match) == HEADER_KEYS and match["game"] == number
        assert match["id"] == match_id(seed) != seed and match["seed"] == seed
        assert set(match["players"]) == {"east", "west"} == set(last["result"]["payments"])
        assert match["players"] == header["players"]
        assert list(match["scores"]) == ["A easy", "B easy"]  # the match's players order
        assert match["terms"] == {"dealer_bonus": True, "ryanshi": False, "paarenchan": False}
        assert sum(last["result"]["payments"].values()) == 0
        assert last["result"]["match_over"] is (number == GAMES)
    first = _lines(paths[0])[0]["match"]
    assert (first["dealer_streak"], first["honba"], first["hand"]) == (0, 0, 1)
    assert first["scores"] == {"A easy": 25000, "B easy": 25000}


def test_header_round_trip_and_reprs_hide_the_seeds() -> None:
    match = Match(9, ("ann", "bob"))
    header = MatchHeader.of_match(match)
    game = match.new_game()
    line = RecordHeader.for_game(game, "network", header.players, match=header)
    again = RecordHeader.model_validate_json(line.model_dump_json())
    assert again == line and again.match == header
    assert header.match_players == ("ann", "bob")
    for text in (repr(header), str(header), repr(line), repr(again)):
        assert match.seed not in text and game.seed not in text
    assert match.id in repr(header)


def test_a_game_of_a_match_needs_the_match_terms() -> None:
    match = Match(9, ("ann", "bob"))
    header = MatchHeader.of_match(match)
    with pytest.raises(ValueError, match="terms"):
        RecordHeader.for_game(Game(match.game_seed), "network", header.players, match=header)
    with pytest.raises(ValueError, match="not game 1"):
        RecordHeader.for_game(Game(5, match.settings, terms=match.terms), "network",
                              header.players, match=header)


def test_old_single_game_files_still_read_and_have_no_match_keys(tmp_path: Path) -> None:
    path = record_of(played(RON_SEED), tmp_path)
    header, *_, last = _lines(path)
    assert "match" not in header
    assert "payments" not in last["result"] and "match_over" not in last["result"]
    record = read_record(path)
    assert record.header.match is None and record.result is not None
    assert record.result.result.payments is None and record.result.result.match_over is None
    assert replay_record(record).consistent and record.problems == ()


def test_a_corrupt_match_header_is_reported_with_its_line(
        match_folder: tuple[Path, MatchOutcome]) -> None:
    folder, _ = match_folder
    path = _by_game(folder)[1]
    seed = _lines(path)[0]["match"]["seed"]

    def negative(data: dict[str, Any]) -> None:
        data["match"]["honba"] = -1

    _rewrite(path, 1, negative)
    with pytest.raises(RecordError, match=r"line 1: bad header: .*match\.honba") as caught:
        read_record(path)
    assert str(path) in str(caught.value) and seed not in str(caught.value)

    def other_id(data: dict[str, Any]) -> None:
        data["match"]["honba"] = 0
        data["match"]["id"] = "f" * 32

    _rewrite(path, 1, other_id)
    with pytest.raises(RecordError, match=r"line 1: .*does not follow from the match seed"):
        read_record(path)


def test_bad_payments_are_a_bad_result_line(match_folder: tuple[Path, MatchOutcome]) -> None:
    folder, _ = match_folder
    path = _by_game(folder)[0]
    last = len(_lines(path))

    def unbalanced(data: dict[str, Any]) -> None:
        data["result"]["payments"] = {"east": 1000, "west": 0}

    _rewrite(path, last, unbalanced)
    record = read_record(path)
    assert record.result is None
    assert [str(p) for p in record.problems] == [
        f"line {last}: bad result line (field 'result': the payments do not sum to zero): "
        "skipped"]


# --- writing ---------------------------------------------------------------------------------

def test_match_recorder_settles_the_match_and_writes_the_settlement(tmp_path: Path) -> None:
    match = Match(11, ("ann", "bob"))
    header = MatchHeader.of_match(match)
    game = match.new_game()
    writer = RecordWriter.start(game, "hotseat", header.players, tmp_path, match=header)
    recorder = MatchRecorder(writer, match)
    play_game(game, make_bot("easy", 1), make_bot("easy", 2))
    for seq, (seat, command) in enumerate(game.commands, start=1):
        recorder.command(seq, seat, command)
    recorder.result(game)
    assert recorder.settlement is not None and match.game_number == 2
    record = read_record(writer.path)
    assert record.result is not None and writer.closed
    result = record.result.result
    assert result.payments == recorder.settlement.payments
    assert result.match_over is recorder.settlement.match_over is False
    assert replay_record(record).consistent


def test_match_recorder_uses_the_settlement_of_a_match_settled_first(tmp_path: Path) -> None:
    match = Match(11, ("ann", "bob"))
    header = MatchHeader.of_match(match)
    game = match.new_game()
    recorder = MatchRecorder(RecordWriter.start(game, "hotseat", header.players, tmp_path,
                                                match=header), match)
    play_game(game, make_bot("easy", 1), make_bot("easy", 2))
    for seq, (seat, command) in enumerate(game.commands, start=1):
        recorder.command(seq, seat, command)
    settlement = match.settle(game)  # as a match table does, before the record's result
    recorder.result(game)
    assert recorder.settlement is settlement and len(match.history) == 1
    record = read_record(recorder.writer.path)
    assert record.result is not None and record.result.result.payments == settlement.payments
    single = Game(5)
    with pytest.raises(ValueError, match="single game's record"):
        MatchRecorder(RecordWriter.start(single, "hotseat", header.players, tmp_path), match)


def test_the_writer_refuses_a_settlement_that_is_not_the_records(tmp_path: Path) -> None:
    match = Match(11, ("ann", "bob"))
    header = MatchHeader.of_match(match)
    game = match.new_game()
    play_game(game, make_bot("easy", 1), make_bot("easy", 2))
    settlement = match.settle(game)
    single = Game(5)
    play_game(single, make_bot("easy", 1), make_bot("easy", 2))
    with pytest.raises(ValueError, match="single game's record takes no settlement"):
        write_game(single, "hotseat", Players(east="a", west="b"), tmp_path,
                   settlement=settlement)
    second = MatchHeader.of_match(match)
    next_game = match.new_game()
    play_game(next_game, make_bot("easy", 3), make_bot("easy", 4))
    with pytest.raises(ValueError, match="the settlement is game 1's, the record is game 2"):
        write_game(next_game, "hotseat", second.players, tmp_path, match=second,
                   settlement=settlement)
    assert write_game(game, "hotseat", header.players, tmp_path, match=header,
                      settlement=settlement).exists()


def test_create_takes_the_match_keyword(tmp_path: Path) -> None:
    match = Match(3, ("ann", "bob"))
    header = MatchHeader.of_match(match)
    game = match.new_game()
    base = RecordHeader.for_game(game, "network", header.players)
    with RecordWriter.create(base, tmp_path, match=header) as writer:
        pass
    assert read_record(writer.path).header.match == header


# --- replaying a match -----------------------------------------------------------------------

def test_a_simulated_match_replays_and_verifies_from_its_records(
        match_folder: tuple[Path, MatchOutcome]) -> None:
    folder, outcome = match_folder
    matches, unreadable = match_records(folder)
    assert unreadable == [] and list(matches) == [outcome.id]
    replay = replay_match(matches[outcome.id])
    assert replay.consistent and replay.over and replay.unfinished is None
    assert replay.match is not None and len(replay.games) == GAMES
    assert replay.match.scores == {"A easy": A_FINAL, "B easy": 50000 - A_FINAL}
    assert (outcome.a_points, outcome.b_points) == (A_FINAL, 50000 - A_FINAL)
    assert [g.before.game for g in replay.games] == list(range(1, GAMES + 1))
    assert sum(g.settlement is not None and g.settlement.result == "draw"
               for g in replay.games) == DRAWS
    for game in replay.games:  # each game also replays alone, with its match's terms
        assert replay_record(game.record).consistent
    loaded = load_match(folder, outcome.id).match
    assert loaded is not None
    assert loaded.state_key() == replay.match.state_key()
    assert final_line(replay).startswith(f"final after {GAMES} games: B easy 1st")
    b_change = 50000 - A_FINAL - 25000  # each player's change over the match, beside the points
    assert f"B easy 1st {50000 - A_FINAL} ({b_change:+d})" in final_line(replay)
    assert f"A easy 2nd {A_FINAL} ({A_FINAL - 25000:+d})" in final_line(replay)
    data = match_json(replay)
    assert data["consistent"] and [row["game"] for row in data["games"]] == list(
        range(1, GAMES + 1))
    assert data["games"][-1]["after"] == replay.match.scores
    assert match_seed(MASTER, 0) not in json.dumps(data) + repr(replay)


def test_an_edited_score_is_reported_as_inconsistent(
        match_folder: tuple[Path, MatchOutcome]) -> None:
    folder, outcome = match_folder
    third = _by_game(folder)[2]

    def richer(data: dict[str, Any]) -> None:
        data["match"]["scores"]["A easy"] += 8000

    _rewrite(third, 1, richer)
    replay = load_match(folder, outcome.id)
    assert not replay.consistent and len(replay.games) == 2
    [problem] = replay.problems
    assert problem.startswith(f"{third}: line 1: the match header differs")
    assert "match.scores.A easy: stored" in problem


def test_edited_payments_are_reported_with_the_result_line(
        match_folder: tuple[Path, MatchOutcome]) -> None:
    folder, outcome = match_folder
    first = _by_game(folder)[0]
    last = len(_lines(first))

    def swapped(data: dict[str, Any]) -> None:
        payments = data["result"]["payments"]
        payments["east"], payments["west"] = payments["west"] + 500, payments["east"] - 500

    _rewrite(first, last, swapped)
    replay = load_match(folder, outcome.id)
    assert replay.problems == (
        f"{first}: line {last}: the result differs from the match: "
        + "; ".join(f"result.payments.{seat}: stored {stored}, replayed {real}"
                    for seat, stored, real in _payment_changes(replay)),)


def _payment_changes(replay: Any) -> list[tuple[str, int, int]]:
    game = replay.games[0]
    stored = game.record.result.result.payments
    return [(seat.value, stored[seat], game.settlement.payments[seat]) for seat in Seat]


def test_a_missing_game_is_reported(match_folder: tuple[Path, MatchOutcome]) -> None:
    folder, outcome = match_folder
    paths = _by_game(folder)
    paths[1].unlink()
    replay = load_match(folder, outcome.id)
    assert replay.problems == (f"{paths[2]}: line 1: game 2 is missing: the next record is "
                               "game 3",)


def test_a_match_resumes_mid_way_from_its_records(
        match_folder: tuple[Path, MatchOutcome]) -> None:
    folder, outcome = match_folder
    paths = _by_game(folder)
    full = load_match(folder, outcome.id)
    assert full.match is not None
    # The daemon stopped during game 4: later games never happened, game 4 has 20 commands.
    for path in paths[4:]:
        path.unlink()
    data = paths[3].read_bytes().splitlines(keepends=True)
    paths[3].write_bytes(b"".join(data[:21]))
    resumed = load_match(folder, outcome.id)
    assert resumed.consistent and not resumed.over and resumed.match is not None
    assert resumed.unfinished is not None and resumed.unfinished.name == str(paths[3])
    match = resumed.match
    assert len(match.history) == 3 and match.game_number == 4
    position = replay_record(resumed.unfinished).game
    assert position.seed == match.new_game().seed and len(position.commands) == 20
    # Going on with the original moves ends the match exactly as it did.
    original = full.games[3].replay.game
    for seat, command in original.commands[20:]:
        position.apply(seat, command)
    match.settle(position)
    for game in full.games[4:]:
        match.settle(game.replay.game)
    assert match.state_key() == full.match.state_key()


# --- history and scoreboard ------------------------------------------------------------------

def test_history_groups_the_games_of_a_match(match_folder: tuple[Path, MatchOutcome],
                                             tmp_path: Path) -> None:
    folder, outcome = match_folder
    single = record_of(played(RON_SEED), folder)
    grouped = group_history(list_history(folder))
    matches = [e for e in grouped if isinstance(e, MatchEntry)]
    assert len(grouped) == 2 and len(matches) == 1
    entry = matches[0]
    assert entry.id == outcome.id and entry.players == ("A easy", "B easy")
    assert len(entry.games) == GAMES and entry.over
    assert entry.scores == {"A easy": A_FINAL, "B easy": 50000 - A_FINAL}
    assert [e.path for e in grouped if not isinstance(e, MatchEntry)] == [single]
    data = entry.to_json()
    assert data["match"] == outcome.id and data["games_played"] == GAMES
    assert [g["match"]["game"] for g in data["games"]] == list(range(1, GAMES + 1))


def test_an_unfinished_match_is_listed_as_such(match_folder: tuple[Path, MatchOutcome]) -> None:
    folder, _ = match_folder
    for path in _by_game(folder)[2:]:
        path.unlink()
    [entry] = group_history(list_history(folder))
    assert isinstance(entry, MatchEntry) and not entry.over and len(entry.games) == 2


def test_the_scoreboard_lines_of_one_game(match_folder: tuple[Path, MatchOutcome]) -> None:
    folder, outcome = match_folder
    record = read_record(_by_game(folder)[-1])
    header = record.header.match
    assert header is not None and record.result is not None
    line = match_line(header, record.header.rules)
    assert line.startswith(f"match {outcome.id[:8]} · game {GAMES} · hand ")
    assert " of 4 · dealer " in line and "A easy" in line
    after = settlement_line(header, record.result.result)
    assert after.endswith("A easy -4000 · B easy 54000 · the match is over")


def test_single_record_parse_of_a_match_game_names_the_match() -> None:
    match = Match(2, ("ann", "bob"))
    header = MatchHeader.of_match(match)
    line = RecordHeader.for_game(match.new_game(), "network", header.players, match=header)
    record = parse_record(line.model_dump_json().encode() + b"\n", "demo")
    assert record.header.match == header and record.header.match.terms == GameTerms(
        dealer_bonus=True)
    assert RuleSettings.preset("match") == record.header.rules


async def test_the_viewer_shows_the_match_line(match_folder: tuple[Path, MatchOutcome]) -> None:
    from minefield.tui.config import Preferences
    from minefield.tui.replay_app import ReplayApp

    folder, outcome = match_folder
    record = read_record(_by_game(folder)[-1])
    app = ReplayApp(record, replay_record(record), preferences=Preferences())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("end")
        await pilot.pause()
        info = str(app.screen.query_one("#replay-info").render())
        end = str(app.screen.query_one("#replay-end").render())
    assert f"match {outcome.id[:8]} · game {GAMES}" in info
    assert "the match is over" in end and "A easy -4000" in end
    assert match_seed(MASTER, 0) not in info + end
