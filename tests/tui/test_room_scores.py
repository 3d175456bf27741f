"""The running score of a network room on disk (what a resume finds again)."""

from __future__ import annotations

from pathlib import Path

from minefield.tui import room_scores
from minefield.tui.scores import RunningScore


def test_a_tally_is_found_again_under_its_game_id(tmp_path: Path) -> None:
    path = tmp_path / "room-scores.json"
    score = RunningScore()
    score.points, score.games = {"You": 8000, "bob": -8000}, 1
    room_scores.save("game-2", score.to_dict(), path)
    kept = room_scores.load("game-2", path)
    assert kept is not None
    again = RunningScore.from_dict(kept)
    assert (again.points, again.games, again.text()) == (score.points, 1, score.text())
    assert room_scores.load("game-3", path) is None


def test_only_the_newest_games_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "room-scores.json"
    for number in range(room_scores.KEEP + 5):
        room_scores.save(f"game-{number}", {"games": number}, path)
    assert room_scores.load("game-0", path) is None
    assert room_scores.load(f"game-{room_scores.KEEP + 4}", path) == {
        "games": room_scores.KEEP + 4}


def test_a_damaged_file_starts_the_tally_again(tmp_path: Path) -> None:
    path = tmp_path / "room-scores.json"
    for text in ("not json", "[1, 2]", '{"game-1": "x"}'):
        path.write_text(text)
        assert room_scores.load("game-1", path) is None
    path.write_text('{"game-1": {"points": {"You": "lots", "bob": true}, "games": -3, '
                    '"counted": [1, "seed"]}}')
    kept = room_scores.load("game-1", path)
    assert kept is not None
    score = RunningScore.from_dict(kept)
    assert (score.points, score.games) == ({}, 0)  # nothing badly formed is taken
    room_scores.save("game-2", {"games": 1}, path)  # and the file is usable again
    assert room_scores.load("game-2", path) == {"games": 1}
