"""``minefield review FILE``: the review of a record as plain lines (in a pipe or with --text),
and one line, never a traceback, for a file that cannot be reviewed."""

from __future__ import annotations

from pathlib import Path

import pytest

from minefield.cli import main
from minefield.defense.estimate import estimate
from minefield.records.format import Players
from minefield.records.writer import write_game
from minefield.rules.game import Seat
from minefield.rules.tiles import Tile, kind_str
from minefield.trainer.review import review_of_game
from tests.records.conftest import RON_SEED, played
from tests.trainer.test_review import won_on_discard_one


@pytest.fixture
def record(tmp_path: Path) -> Path:
    """Seed 0 played by normal bots: East wins on West's discard 4 (R13)."""
    return write_game(played(RON_SEED), "practice", Players(east="Bot (normal)", west="You"),
                      tmp_path)


def test_review_prints_each_discard_with_its_danger_and_the_totals(
        record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(record), "--text"]) == 0
    lines = capsys.readouterr().out.splitlines()
    game = played(RON_SEED)
    review = review_of_game(game, Seat.WEST)  # the player's seat of a practice record
    assert lines[0].startswith("Review of You (west) against Bot (normal): their hand "
                               f"{review.opponent_hand}")
    body = lines[1:-1]
    assert len(body) == len(review.steps) == 2
    taken = least = 0.0
    for line, step in zip(body, review.steps, strict=True):
        report = estimate(step.position, "normal")  # the record's bot
        tile = kind_str(Tile.parse(step.tile).kind)
        assert line.startswith(f"{step.number:>2} {tile}: ")
        taken += report.of(tile).danger
        least += report.safest().danger
    assert body[-1].endswith("[DEALT IN]") and "[safe" in body[0]
    assert lines[-1] == (f"Danger taken in total {taken:.2f} expected deal-ins, the least "
                         f"possible {least:.2f} (fast estimate against the normal bot, "
                         "2 discards)")


def test_opponent_option_and_the_default_from_the_record(
        record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--opponent chooses the fit; without it a practice record's bot level is used, and a
    person's name (the other seat, here) gets the person's blend."""
    assert main(["review", str(record), "--text", "--opponent", "person"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith("(fast estimate against a person, "
                                                             "2 discards)")
    assert main(["review", str(record), "--seat", "east", "--text"]) == 0
    assert "(fast estimate against a person, " in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["review", str(record), "--opponent", "expert"])
    assert "--opponent takes " in (err := capsys.readouterr().err) and "not 'expert'" in err


def test_a_seat_without_discards_is_said_not_estimated(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """West wins on discard 1: West made no discard, so there is nothing to estimate (issue
    17: the review used to wait for 0 of 0 estimates)."""
    game = won_on_discard_one()
    path = write_game(game, "hotseat", Players(east="Ann", west="Bob"), tmp_path)
    assert main(["review", str(path), "--seat", "west", "--text"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1:] == ["Bob made no discard: the game ended on discard 1. There is no "
                         "danger to review."]


def test_review_of_the_other_seat(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(record), "--seat", "east", "--method", "fast"]) == 0  # old
    out = capsys.readouterr().out
    assert out.startswith("Review of Bot (normal) (east) against You")
    assert "DEALT IN" not in out


@pytest.mark.parametrize("content", [b'{"bad', b"", b"\x00\x01\x02 not json\n",
                                     b'{"record": "minefield", "version": 1}\n'])
def test_a_bad_file_is_one_line(tmp_path: Path, content: bytes,
                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    assert main(["review", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.splitlines()) == 1 and "Traceback" not in captured.err
    assert captured.err.startswith(f"minefield: {path}")


def test_a_missing_file_and_an_unfinished_game(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(tmp_path / "none.jsonl")]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1
    unfinished = write_game(played(RON_SEED, stop=4), "hotseat",
                            Players(east="Ann", west="Bob"), tmp_path)
    assert main(["review", str(unfinished)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "has not ended" in err
