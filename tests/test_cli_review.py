"""``minefield review FILE``: the review of a record as plain lines (in a pipe or with --text),
and one line, never a traceback, for a file that cannot be reviewed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.cells import cell_len

from minefield.cli import main
from minefield.defense.estimate import estimate
from minefield.records.header import Players
from minefield.records.writer import write_game
from minefield.rules.game import Seat
from minefield.rules.tiles import Tile, kind_str
from minefield.trainer.build import build_of
from minefield.trainer.defense_review import assess, review_of_game
from minefield.trainer.readable import readability
from minefield.trainer.regrets import luck_and_skill, regrets
from tests.records.conftest import RON_SEED, played
from tests.trainer.test_defense_review import won_on_discard_one


@pytest.fixture(autouse=True)
def in_a_pipe(monkeypatch: pytest.MonkeyPatch) -> None:
    """No $COLUMNS (pytest-xdist's workers set 80): the text is one line per item, as in a
    pipe, unless a test sets a width."""
    monkeypatch.delenv("COLUMNS", raising=False)


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
    totals = next(i for i, line in enumerate(lines) if line.startswith("Danger taken"))
    body = lines[1:totals]
    assert len(body) == len(review.steps) == 2
    taken = least = 0.0
    for line, step in zip(body, review.steps, strict=True):
        report = estimate(step.position, "normal")  # the record's bot
        tile = kind_str(Tile.parse(step.tile).kind)
        assert line.startswith(f"{step.number:>2} {tile}: ")
        taken += report.of(tile).danger
        least += report.safest().danger
    assert body[-1].endswith("[DEALT IN]") and "[safe" in body[0]
    assert lines[totals] == (f"Danger taken in total {taken:.2f} expected deal-ins, the least "
                         f"possible {least:.2f} (fast estimate against the normal bot, "
                         "2 discards)")


def test_opponent_option_and_the_default_from_the_record(
        record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--opponent chooses the fit; without it a practice record's bot level is used, and a
    person's name (the other seat, here) gets the person's blend."""
    assert main(["review", str(record), "--text", "--opponent", "person"]) == 0
    assert "(fast estimate against a person, 2 discards)\n" in capsys.readouterr().out
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
    assert lines[1] == ("Bob made no discard: the game ended on discard 1. There is no "
                        "danger to review.")
    assert "Danger taken" not in "\n".join(lines)
    assert "\nThe build:" in "\n".join(lines)  # Bob's hand is still worth a look


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


def test_review_text_shows_the_regrets_and_luck(record: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The regrets with their total, and the points lost taken apart
    (seed 0: West deals in on discard 4, R13)."""
    assert main(["review", str(record), "--text", "--honors", "numbers"]) == 0
    out = capsys.readouterr().out
    review = review_of_game(played(RON_SEED), Seat.WEST)
    steps = list(assess(review, "normal"))
    found = regrets(steps)
    assert "\nYour regrets:\n" in out and "\nLuck and skill:\n" in out
    for regret in found[:5]:
        assert f"Discard {regret.number}, {regret.tile}: " in out
    assert f"Expected points lost: {sum(r.lost for r in found)}." in out
    assert "It is not luck" in out
    summary = luck_and_skill(steps, review.ron_points)
    assert f"Points lost: {review.ron_points}, the ron on discard 4." in out
    assert f"What your choices cost: {summary.choices} expected points" in out


def test_review_text_shows_how_readable_your_wait_was(
        record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The opponent's estimate of the player's waits at each of their
    discards, from their view (seed 0: East discards 1 and 3 before the game ends)."""
    assert main(["review", str(record), "--text", "--honors", "numbers"]) == 0
    out = capsys.readouterr().out
    found = readability(review_of_game(played(RON_SEED), Seat.WEST), "person")
    assert "\nHow readable your wait was:\n" in out
    assert "as Bot (normal)'s view rated" in out
    assert [r.number for r in found.readings] == [1, 3]
    for reading in found.readings:
        assert f"Discard {reading.number}, they threw {reading.tile}: " in out


def test_review_text_shows_the_build(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Your 13 against the strong bot's from the same 34 (R7)."""
    assert main(["review", str(record), "--text", "--honors", "numbers"]) == 0
    out = capsys.readouterr().out
    built = build_of(review_of_game(played(RON_SEED), Seat.WEST))
    assert "\nThe build:\n" in out and f"  • Yours: {built.yours.hand}\n" in out
    assert (f"  • The strong bot's: {built.bot.hand}\n" in out if not built.same
            else "The strong bot keeps the same 13." in out)


@pytest.mark.parametrize("columns", [80, 44])
def test_review_text_fits_the_terminal_width(
        record: Path, columns: int, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At 80 columns no line is wider, no word or figure is split, and a
    wrapped bullet goes on under its text (a hanging indent)."""
    assert main(["review", str(record), "--text", "--honors", "numbers"]) == 0
    whole = capsys.readouterr().out  # in a pipe: one line per item
    monkeypatch.setenv("COLUMNS", str(columns))
    assert main(["review", str(record), "--text", "--honors", "numbers"]) == 0
    wrapped = capsys.readouterr().out
    assert wrapped != whole and max(cell_len(line) for line in whole.splitlines()) > columns
    assert all(cell_len(line) <= columns for line in wrapped.splitlines())
    assert wrapped.split() == whole.split()  # the same words and figures, none cut
    lines = wrapped.splitlines()
    for index, line in enumerate(lines[:-1]):
        bullet = re.match(r"( *(?:•|\d+\.) )", line)
        nxt = lines[index + 1]
        if bullet and nxt.strip() and not re.match(r" *(?:•|\d+\.) ", nxt) \
                and nxt.startswith(" "):
            assert len(nxt) - len(nxt.lstrip(" ")) == len(bullet.group(1)), (line, nxt)
    discards = [i for i, line in enumerate(lines) if re.match(r" ?\d+ \S+: \d+%", line)]
    for index in discards:  # a discard's wrapped lines go on under its tile
        following = lines[index + 1]
        if following.startswith(" ") and not re.match(r" ?\d+ ", following):
            assert following.startswith("   ") and following[3] != " "


def test_review_html_writes_one_page_and_dash_prints_it(
        record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--html PAGE`` writes the whole review as one page; ``-`` prints it."""
    page = tmp_path / "review.html"
    assert main(["review", str(record), "--html", str(page), "--honors", "numbers"]) == 0
    assert capsys.readouterr() == ("", "")
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and text.endswith("</html>\n")
    for title in ("Your discards", "Your regrets", "Luck and skill",
                  "How readable your wait was", "The build"):
        assert f"<h2>{title}</h2>" in text
    assert "DEALT IN" in text and 'class="tile ' in text
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # none aside
    assert main(["review", str(record), "--html", "-", "--honors", "numbers"]) == 0
    assert capsys.readouterr().out == text
    with pytest.raises(SystemExit):
        main(["review", str(record), "--html", str(page), "--text"])
    assert "not allowed with argument" in capsys.readouterr().err


@pytest.mark.parametrize("case", ["missing record", "corrupt record", "no such folder",
                                  "a folder", "under a file"])
def test_review_html_bad_input_is_one_line_and_writes_nothing(
        record: Path, tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]) -> None:
    corrupt = tmp_path / "corrupt.jsonl"
    corrupt.write_bytes(b"\x00garbage" + record.read_bytes()[20:])  # its header spoilt
    plain = tmp_path / "notes.txt"
    plain.write_text("not a folder\n")
    source, page = {
        "missing record": (tmp_path / "none.jsonl", tmp_path / "review.html"),
        "corrupt record": (corrupt, tmp_path / "review.html"),
        "no such folder": (record, tmp_path / "nowhere" / "review.html"),
        "a folder": (record, tmp_path),
        "under a file": (record, plain / "review.html"),
    }[case]
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main(["review", str(source), "--html", str(page)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert len(captured.err.splitlines()) == 1 and captured.err.startswith("minefield: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert plain.read_text() == "not a folder\n"
