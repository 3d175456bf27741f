"""``ssh HOST wire`` on the OpenSSH route: sshd runs ``minefield ssh-entry --player bob`` (the
shipped shared-account line) and the program on the channel speaks the protocol as bob,
without a terminal. The example bot plays a whole game against alice in tmux; a hello naming
another player is one fatal ``bad_message`` line; a malformed line is answered with one
``bad_message`` and the connection goes on."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from tests.e2e.conftest import Site
from tests.e2e.harness import ME, STEP_LIMIT, wait_for
from tests.e2e.test_ssh import Player
from tests.frontdoor.test_server_wire import BOT, LOBBY_HELLO, play_the_game


def wire(site: Site, name: str, text: str) -> subprocess.CompletedProcess[str]:
    """``ssh HOST wire`` as ``name`` (no terminal), fed ``text``, then end of input."""
    return subprocess.run(site.sshd.ssh(site.keys[name], "wire", tty=False), input=text,
                          capture_output=True, text=True, timeout=STEP_LIMIT, check=False)


def lines(out: str) -> list[dict[str, Any]]:
    """Every line of ``out`` as JSON."""
    return [json.loads(line) for line in out.splitlines()]


def test_a_bot_plays_a_game_over_wire_through_openssh(site: Site) -> None:
    out = site.folder / "bot.out"
    with out.open("wb") as sink:
        bot = subprocess.Popen([sys.executable, str(BOT), "host", "--", *site.sshd.ssh(
            site.keys["bob"], "wire", tty=False)], stdin=subprocess.DEVNULL, stdout=sink,
            stderr=subprocess.STDOUT)
    try:
        code = wait_for("the bot's room code", lambda: next(
            (line.split()[1] for line in out.read_text().splitlines()
             if line.startswith("code ")), None), lambda: out.read_text() + site.report())
        alice = Player(site, "alice")
        alice.login("join", code)
        alice.wait("the table with the bot", lambda screen: "bob" in screen)
        play_the_game(alice, out)
        assert bot.wait(timeout=STEP_LIMIT) == 0, out.read_text()
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait(timeout=STEP_LIMIT)
    said = out.read_text()
    assert "result " in said, said
    game = next(line.split()[1] for line in said.splitlines() if line.startswith("game "))
    # The daemon kept the game between alice and bob (the forced command's player).
    record = site.daemon.data / "games" / "finished" / f"{game}.jsonl"
    header = json.loads(record.read_text().splitlines()[0])
    assert sorted(header["players"].values()) == sorted(
        f"{name}@{ME}" for name in ("alice", "bob")), header


def test_wire_through_openssh_refuses_another_player_and_answers_a_malformed_line(
        site: Site) -> None:
    done = wire(site, "bob", LOBBY_HELLO.replace('"lobby"', '"lobby", "player": "alice"'))
    assert done.returncode == 2 and lines(done.stdout) == [{
        "type": "error", "code": "bad_message", "fatal": True,
        "message": 'this key plays as bob: leave "player" out of the hello, or give that '
                   "name"}], done
    done = wire(site, "bob", LOBBY_HELLO + "[1, 2]\n" + '{"type": "ping"}\n')
    assert done.returncode == 0, done
    answers = lines(done.stdout)
    assert [a["type"] for a in answers] == ["lobby", "error", "pong"], answers
    assert (answers[1]["code"], answers[1]["fatal"]) == ("bad_message", False)
    assert {"name": "bob", "status": "lobby"} in answers[0]["online"]
    assert done.stderr == ""
