"""``ssh HOST wire`` on ``minefield ssh-server`` with the real OpenSSH client: a program (the
example bot, ``assets/examples/wire_bot.py``) speaks the protocol on the SSH channel, without a
terminal, as its key's player. It plays whole games against a person in tmux and is rated
like any player, marked ``"program": true`` (``ladder``, ``stats``, ``who`` and the lobby); it
plays a tournament round unattended (protocol 10's ``tournament_round``); a hello naming
another player, a key with no name, a session over the caps and a line too long are each one
fatal ``error`` line; a malformed line after the hello is answered with one ``bad_message``
and the connection goes on."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from minefield.protocol.messages import MAX_LINE_BYTES
from tests.e2e.harness import STEP_LIMIT, wait_for
from tests.e2e.test_ssh import DISCARDS, REPRESS, RESULT, Player, build_hand
from tests.frontdoor.conftest import FrontDoorProcess, SizedTerminals

BOT = Path(__file__).resolve().parents[2] / "assets" / "examples" / "wire_bot.py"
LOBBY_HELLO = '{"type": "hello", "version": 1, "action": "lobby"}\n'


@dataclass
class DoorRoute:
    """What a :class:`~tests.e2e.test_ssh.Player` needs of ``ssh-server``: a terminal's
    ``ssh`` command line per key."""

    door: FrontDoorProcess

    def ssh(self, key: Path, *remote: str) -> list[str]:
        """``ssh -tt`` logging in with ``key``, typing ``remote``."""
        return self.door.ssh(key, *remote, tty=True)


@dataclass
class DoorSite:
    """The server, the keys and the person's terminals, as a Player sees them."""

    sshd: DoorRoute
    keys: dict[str, Path]
    terminals: SizedTerminals

    def report(self) -> str:
        """The server's log."""
        return self.sshd.door.report()


def wire(door: FrontDoorProcess, key: Path, text: str) -> subprocess.CompletedProcess[str]:
    """``ssh HOST wire`` (no terminal) fed ``text``, then end of input."""
    return subprocess.run(door.ssh(key, "wire"), input=text, capture_output=True, text=True,
                          timeout=STEP_LIMIT, check=False)


def lines(out: str) -> list[dict[str, Any]]:
    """Every line of ``out`` as JSON (each must be one object)."""
    return [json.loads(line) for line in out.splitlines()]


def start_bot(door: FrontDoorProcess, key: Path, folder: Path, name: str, *args: str
              ) -> tuple[subprocess.Popen[bytes], Path]:
    """The example bot with ``args``, its link ``ssh ... wire`` with ``key``; its output file."""
    out = folder / f"{name}.out"
    with out.open("wb") as sink:
        process = subprocess.Popen([sys.executable, str(BOT), *args, "--",
                                    *door.ssh(key, "wire")],
                                   stdin=subprocess.DEVNULL, stdout=sink,
                                   stderr=subprocess.STDOUT)
    return process, out


def play_the_game(person: Player, bot: Path) -> None:
    """The person builds a hand and discards on each turn until the result screen."""
    build_hand(person)

    def step() -> bool:
        screen = person.screen()
        if RESULT.search(screen):
            return True
        if "Your turn" in screen and (count := DISCARDS.search(screen)):
            made = int(count.group(1))
            if person.pressed_at != made or time.monotonic() - person.pressed_when > REPRESS:
                person.keys("Enter")
                person.pressed_at, person.pressed_when = made, time.monotonic()
        return False

    wait_for("the game to its result", step,
             lambda: person.report() + "\nbot:\n" + bot.read_text(), limit=STEP_LIMIT * 5)


def test_a_bot_plays_whole_games_over_wire_against_a_person_and_is_rated_as_a_program(
        folder: Path, keys: dict[str, Path], terminals: SizedTerminals) -> None:
    door = FrontDoorProcess(folder, "--open", "--hand-seconds", "900", "--discard-seconds",
                            "600", "--auth-per-minute", "200")
    ann, robo, cat = keys["ann"], keys["bob"], keys["cat"]
    try:
        for key, name in ((ann, "Ann"), (robo, "Robo"), (cat, "Cat")):
            assert door.run(key, "name", name).returncode == 0
        bot, out = start_bot(door, robo, folder, "robo", "host", "--games", "2")
        code = wait_for("the bot's room code", lambda: next(
            (line.split()[1] for line in out.read_text().splitlines()
             if line.startswith("code ")), None), lambda: out.read_text() + door.report())
        person = Player(DoorSite(DoorRoute(door), {"ann": ann}, terminals), "ann")
        person.login("join", code)
        person.wait("the table with the bot", lambda screen: "Robo" in screen)
        # While it plays, who names it a program; Ann is a person.
        online = {p["name"]: p for p in door.json(cat, "who", "--json")["online"]}
        assert online["Robo"] == {"name": "Robo", "status": "playing", "program": True}
        assert online["Ann"] == {"name": "Ann", "status": "playing"}
        play_the_game(person, out)
        person.keys("n")  # play again: the bot has asked for a rematch
        play_the_game(person, out)
        assert bot.wait(timeout=STEP_LIMIT) == 0, out.read_text()
        said = out.read_text().splitlines()
        assert len([line for line in said if line.startswith("result ")]) == 2, said
        # Rated like any player: two rated games each, the bot marked as a program.
        ladder = wait_for("both games rated", lambda: [
            row for row in door.json(cat, "ladder", "--json") if row["games"] == 2],
            door.report)
        assert sorted((row["name"], row["program"]) for row in ladder) == [
            ("Ann", False), ("Robo", True)]
        assert all(list(row) == ["name", "rating", "deviation", "games", "program"]
                   for row in ladder)
        stats = door.json(cat, "stats", "Robo", "--json")
        assert stats["program"] is True and stats["rated_games"] == 2 and stats["games"] == 2
        assert door.json(cat, "stats", "Ann", "--json")["program"] is False
        text = door.run(cat, "ladder").stdout.splitlines()
        assert [line.endswith("program") for line in text[1:]] == [
            row["name"] == "Robo" for row in ladder]
        # In the lobby as the protocol sends it: marked, with its rating.
        seen = lines(wire(door, robo, LOBBY_HELLO).stdout)
        assert seen[0]["type"] == "lobby"
        assert {"name": "Robo", "status": "lobby", "program": True,
                "rating": stats["rating"]} in seen[0]["online"]
    finally:
        door.stop()


def test_wire_refuses_another_player_a_nameless_key_and_answers_a_malformed_line(
        folder: Path, keys: dict[str, Path]) -> None:
    door = FrontDoorProcess(folder, "--open", "--sessions-per-key", "1",
                            "--auth-per-minute", "200")
    robo, nameless = keys["bob"], keys["cat"]
    try:
        assert door.run(robo, "name", "Robo").returncode == 0
        # Another player's name in the hello: one fatal bad_message, exit 2, nothing marked.
        done = wire(door, robo, LOBBY_HELLO.replace('"lobby"', '"lobby", "player": "Ann"'))
        assert done.returncode == 2, done
        assert lines(done.stdout) == [{
            "type": "error", "code": "bad_message", "fatal": True,
            "message": 'this key plays as Robo: leave "player" out of the hello, or give '
                       "that name"}]
        assert door.json(robo, "stats", "--json")["program"] is False
        # Its own name, in any case, is the player; a malformed line is answered with one
        # error and the connection goes on (the ping after it is answered).
        done = wire(door, robo, LOBBY_HELLO.replace('"lobby"', '"lobby", "player": "ROBO"')
                    + "{not json\n" + '{"type": "frob"}\n' + '{"type": "ping"}\n')
        assert done.returncode == 0, done
        answers = lines(done.stdout)
        assert [a["type"] for a in answers] == ["lobby", "error", "error", "pong"], answers
        assert [(a["code"], a["fatal"]) for a in answers[1:3]] == [("bad_message", False)] * 2
        assert answers[0]["online"] == [{"name": "Robo", "status": "lobby", "rating": 1500,
                                         "program": True}]
        assert door.json(robo, "stats", "--json")["program"] is True
        # A first line that is no hello: the daemon's own error, fatal.
        done = wire(door, robo, '{"type": "ping"}\n')
        assert done.returncode == 2 and lines(done.stdout) == [{
            "type": "error", "code": "handshake", "fatal": True,
            "message": 'the first message must be {"type": "hello", ...}'}], done
        # A hello longer than a line may be.
        done = wire(door, robo, '{"type": "hello", "pad": "' + "x" * MAX_LINE_BYTES + '"}\n')
        assert done.returncode == 2 and [(a["code"], a["fatal"]) for a in lines(
            done.stdout)] == [("too_long", True)], done.stdout[:300]
        # A key with no name yet plays as nobody.
        done = wire(door, nameless, LOBBY_HELLO)
        assert done.returncode == 2 and [(a["code"], a["fatal"]) for a in lines(
            done.stdout)] == [("not_allowed", True)], done
        assert "no name yet" in done.stdout
        # The front door's caps hold: one session per key here, the second refused in words.
        first = subprocess.Popen(door.ssh(robo, "wire"), stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True)
        try:
            assert first.stdin is not None and first.stdout is not None
            first.stdin.write(LOBBY_HELLO)
            first.stdin.flush()
            assert json.loads(first.stdout.readline())["type"] == "lobby"
            done = wire(door, robo, LOBBY_HELLO)
            assert done.returncode == 1 and [(a["code"], a["fatal"]) for a in lines(
                done.stdout)] == [("rate_limited", True)], done
            assert "already has 1 session" in done.stdout, done.stdout
        finally:
            first.kill()
            first.wait(timeout=STEP_LIMIT)
        assert "Traceback" not in door.report()
    finally:
        door.stop()


def test_a_program_plays_a_tournament_round_unattended(folder: Path,
                                                      keys: dict[str, Path]) -> None:
    """Two bots wait in the lobby over wire; the organizer starts a round robin (R37): each is
    sent its ``tournament_round``, sits down with a second link and plays the game out."""
    door = FrontDoorProcess(folder, "--open", "--auth-per-minute", "200")
    ann, robo, tin = keys["ann"], keys["bob"], keys["cat"]
    bots: list[subprocess.Popen[bytes]] = []
    try:
        for key, name in ((ann, "Ann"), (robo, "Robo"), (tin, "Tin")):
            assert door.run(key, "name", name).returncode == 0
        assert door.run(ann, "tournament", "new", "cup", "--format",
                        "round-robin").returncode == 0
        for key in (robo, tin):
            assert door.run(key, "tournament", "join", "cup").returncode == 0
        outs = []
        for key, name in ((robo, "robo"), (tin, "tin")):
            bot, out = start_bot(door, key, folder, name, "lobby")
            bots.append(bot)
            outs.append(out)
        wait_for("both bots in the lobby", lambda: {
            p["name"] for p in door.json(ann, "who", "--json")["online"]
            if p.get("program")} == {"Robo", "Tin"}, door.report)
        assert door.run(ann, "tournament", "start", "cup").returncode == 0
        shown = wait_for("the round played", lambda: (
            shown if (shown := door.json(ann, "tournament", "show", "cup", "--json"))[
                "status"] == "finished" else None),
            lambda: door.report() + "".join(out.read_text() for out in outs),
            limit=STEP_LIMIT * 3)
        (pairing,) = shown["pairings"]
        assert pairing["result"] in ("east", "west", "draw") and not pairing["forfeit"]
        for out in outs:
            said = out.read_text()
            assert "round 1 of cup against" in said and "result " in said, said
        ladder = door.json(ann, "ladder", "--json")
        assert sorted((row["name"], row["games"], row["program"]) for row in ladder) == [
            ("Robo", 1, True), ("Tin", 1, True)]
    finally:
        for bot in bots:
            bot.kill()
            bot.wait(timeout=STEP_LIMIT)
        door.stop()
