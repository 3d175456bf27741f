"""``minefield watch GAME``: a game that is not being played, a bad id and a server that is
not there are each one line on stderr, before any screen."""

from __future__ import annotations

import argparse

import pytest

from minefield.cli import main
from minefield.cli.watch import _watch
from minefield.server.daemon import Daemon
from tests.server.conftest import daemon, short_dir  # noqa: F401  (fixtures)


async def test_a_game_not_being_played_is_one_line(daemon: Daemon,  # noqa: F811
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(game="20250102T030405.678Z-network-00",
                              socket=daemon.config.socket, player="cat")
    assert await _watch(args) == 2
    err = capsys.readouterr().err
    assert err == ("minefield: no game 20250102T030405.678Z-network-00 is being played on "
                   "this server: who lists the games\n")


def test_a_bad_id_and_no_server_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["watch", "../etc/passwd"])
    assert exit_.value.code == 2
    assert "'../etc/passwd' is not a game id" in capsys.readouterr().err
    assert main(["watch", "g-1", "--socket", "/nonexistent/minefield.sock"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("minefield: no game server at /nonexistent/minefield.sock")
    assert err.count("\n") == 1
