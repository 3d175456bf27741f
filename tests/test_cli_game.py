"""`minefield practice` and `hotseat` on the command line: their options and names."""

from __future__ import annotations

import pytest

from minefield.cli import build_parser, main
from minefield.cli.game import request_from_args


def test_hotseat_help_lists_its_own_options_only(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["hotseat", "--help"])
    out = capsys.readouterr().out
    assert "--seat" not in out  # hot-seat has no seat to choose
    assert "--east NAME" in out and "--west NAME" in out


def test_names_reach_the_game_request() -> None:
    args = build_parser().parse_args(["hotseat", "--east", " Ann", "--west", "Bob"])
    request = request_from_args(args)
    assert request is not None and request.players == ("Ann", "Bob")
    one = request_from_args(build_parser().parse_args(["hotseat", "--west", "Bob", "--match"]))
    assert one is not None and one.players == ("Player 1", "Bob")
    practice = request_from_args(build_parser().parse_args(["practice", "--name", "Carla"]))
    assert practice is not None and practice.player == "Carla" and practice.seat is None


@pytest.mark.parametrize(("argv", "error"), [
    (["hotseat", "--east", "Ann", "--west", "ANN"],
     "minefield: --east/--west: both players are called 'ANN': give two different names"),
    (["hotseat", "--east", "   "], "minefield hotseat: --east: a player's name cannot be empty"),
    (["practice", "--name", "x" * 30], "at most 20 characters"),
    (["practice", "--name", "Bot (easy)"], "'Bot (easy)' is a bot's name: choose another"),
])
def test_a_name_that_cannot_be_used_is_one_line(argv: list[str], error: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    try:
        status = main(argv)
    except SystemExit as stop:  # argparse's own errors
        status = int(stop.code or 0)
    err = capsys.readouterr().err
    assert status == 2 and error in err and "Traceback" not in err
