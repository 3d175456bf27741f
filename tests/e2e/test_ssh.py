"""End to end through real OpenSSH: two players log in with their keys (the shared account of
``assets/ssh``, one ``authorized_keys`` line each), host and join a room, build their hands and
play a whole game to the result screen; halfway through one player's ssh is killed and
``ssh -t HOST resume`` brings them back to the same game. Everything the player may not do
over SSH is refused by the real sshd or by ``minefield ssh-entry``.

The players' terminals are tmux panes read with ``capture-pane``; every step polls with a
generous limit (:data:`~tests.e2e.harness.STEP_LIMIT`), so a loaded machine only makes the test
slower. In CI this test must run: missing ``sshd`` or ``tmux`` fails it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

import pytest

from tests.e2e.conftest import Site
from tests.e2e.harness import ME, Terminals, minefield_command, wait_for

ROOM = re.compile(r"Room ([2-9A-Z]{6})")
DISCARDS = re.compile(r"discards (\d+)/34")
#: What shows the result screen (its footer, headline or seed line; the layout may change).
RESULT = re.compile(r"\bPlay again\b|\bRematch\b|^(?:Draw:|Ron!) |seed [0-9a-f]{32}", re.M)
SEED = re.compile(r"seed ([0-9a-f]{32})")
CONFIRM = re.compile(r"\by Yes\b")
#: The discard after which bob's link drops ("halfway": a draw has 34).
DROP_AFTER = 8
#: Seconds after which a turn still on screen gets its Enter again.
REPRESS = 15.0
T = TypeVar("T")


class SshRoute(Protocol):
    """Where a player's ``ssh`` goes: OpenSSH's door here, ``ssh-server`` in other tests."""

    def ssh(self, key: Path, *remote: str) -> list[str]:
        """The ``ssh`` command line logging in with ``key``, typing ``remote``."""
        ...


class PlayerSite(Protocol):
    """What a :class:`Player` needs of a site: its terminals, keys, door and logs."""

    @property
    def sshd(self) -> SshRoute: ...

    @property
    def keys(self) -> dict[str, Path]: ...

    @property
    def terminals(self) -> Terminals: ...

    def report(self) -> str:
        """The logs, for a failure message."""
        ...


class Seated(Protocol):
    """A player at a table, as the playing helpers below use one: over SSH (:class:`Player`)
    or in a browser (the web door's tests)."""

    name: str
    #: The discard count at which Enter was last pressed (a turn is played once), and when.
    pressed_at: int | None
    pressed_when: float

    def screen(self) -> str:
        """What the player sees."""
        ...

    def keys(self, *keys: str) -> None:
        """The player types ``keys``."""
        ...

    def report(self) -> str:
        """The screen and the logs, for a failure message."""
        ...

    def wait(self, what: str, check: Callable[[str], T | None]) -> T:
        """Poll the player's screen until ``check`` gives a true value."""
        ...


class Player:
    """One person at a terminal of their own, logging in over SSH with their key."""

    def __init__(self, site: PlayerSite, name: str) -> None:
        self.site = site
        self.name = name
        self.logins = 0
        self.terminal = ""
        #: The discard count at which Enter was last pressed (a turn is played once), and when.
        self.pressed_at: int | None = None
        self.pressed_when = 0.0

    def login(self, *typed: str) -> None:
        """``ssh -t HOST typed...`` in a new terminal."""
        self.logins += 1
        self.terminal = f"{self.name}{self.logins}"
        self.pressed_at = None
        self.site.terminals.open(self.terminal,
                                 self.site.sshd.ssh(self.site.keys[self.name], *typed))

    def screen(self) -> str:
        """What the player sees."""
        return self.site.terminals.screen(self.terminal)

    def keys(self, *keys: str) -> None:
        """The player types ``keys``."""
        self.site.terminals.keys(self.terminal, *keys)

    def report(self) -> str:
        """The screen and the logs, for a failure message."""
        return f"{self.name}'s screen:\n{self.screen()}\n{self.site.report()}"

    def wait(self, what: str, check: Callable[[str], T | None]) -> T:
        """Poll this player's screen until ``check`` gives a true value."""
        return wait_for(f"{self.name}: {what}", lambda: check(self.screen()), self.report)

    def drop_link(self) -> None:
        """The connection dies: the ssh client is killed (no goodbye to anyone)."""
        os.kill(self.site.terminals.pid(self.terminal), signal.SIGKILL)
        wait_for(f"{self.name}: the ssh client is gone",
                 lambda: self.site.terminals.ended(self.terminal), self.report)
        self.site.terminals.close(self.terminal)


def hand_row(screen: str) -> str | None:
    """The player's own 13 tiles as the play screen shows them (None elsewhere)."""
    for line in screen.splitlines():
        if line.startswith("Hand ") and "│" in line:
            return line.split("▏")[0].rstrip()  # the discard log on the right changes
    return None


def seated_at_one_table(alice: Player, bob: Player) -> str:
    """Alice hosts, Bob joins with the room code from her header, both build their hands; both
    at the table. Returns Bob's first screen of the table."""
    code = alice.wait("a room code in the header",
                      lambda screen: (match := ROOM.search(screen)) and match.group(1))
    bob.login("join", code)
    alice.wait("bob has joined", lambda screen: "vs bob" in screen)
    build_hand(alice)
    build_hand(bob)
    before = bob.wait("the table", hand_row)
    alice.wait("the table", hand_row)
    return before


def build_hand(player: Seated) -> None:
    """Choose the first 13 tiles (space, right arrow), confirm, and answer yes if asked."""
    player.wait("the hand builder", lambda screen: "Hand 0/13" in screen)
    player.keys(*["Space", "Right"] * 13)
    player.wait("13 tiles chosen", lambda screen: "Hand 13/13" in screen)
    player.keys("Enter")
    answered = False

    def confirmed(screen: str) -> bool:
        nonlocal answered
        # The table: waiting for the other hand (no discard count shown then), or playing.
        if DISCARDS.search(screen) or "to choose a hand" in screen:
            return True
        if CONFIRM.search(screen) and not answered:  # e.g. "This hand is not tenpai"
            player.keys("y")
            answered = True
        return False

    player.wait("the hand is kept", confirmed)


def discards_seen(players: Sequence[Seated]) -> int:
    """The highest discard count on the players' screens."""
    counts = [int(match.group(1)) for player in players
              if (match := DISCARDS.search(player.screen()))]
    return max(counts, default=0)


def drop_and_resume(leaving: Player, staying: Seated) -> None:
    """Kill ``leaving``'s ssh mid-game; ``ssh -t HOST resume`` brings back the same game."""
    before = leaving.wait("the table before the drop", hand_row)
    leaving.drop_link()
    staying.wait(f"sees {leaving.name} disconnected",
                 lambda screen: f"{leaving.name} disconnected" in screen)
    leaving.login("resume")
    after = leaving.wait("the same table after resume", hand_row)
    assert after == before, f"resume brought another hand:\n{before}\n{after}"
    staying.wait(f"sees {leaving.name} back",
                 lambda screen: f"{leaving.name} disconnected" not in screen)


def play_to_the_end(alice: Seated, bob: Seated, drop: bool) -> tuple[list[str | None], bool]:
    """Both discard whenever it is their turn until both see the result; bob's link drops
    after discard :data:`DROP_AFTER` if ``drop``. The seeds the result screens show (None
    when not in view), and whether the drop happened."""
    players = [alice, bob]
    seeds: dict[str, str | None] = {}
    dropped = False
    progress: tuple[int, int] = (-1, -1)

    def step() -> tuple[int, int] | None:
        for player in players:
            screen = player.screen()
            if RESULT.search(screen):
                seeds[player.name] = match.group(1) if (match := SEED.search(screen)) else None
            elif "Your turn" in screen and (count := DISCARDS.search(screen)):
                made = int(count.group(1))
                # Once per turn; again only if the screen has not moved for a long while (a
                # key lost on the way: a second Enter is at worst ignored or a later discard).
                if player.pressed_at != made or time.monotonic() - player.pressed_when > REPRESS:
                    player.keys("Enter")  # discards the selected pool tile
                    player.pressed_at, player.pressed_when = made, time.monotonic()
        state = (discards_seen(players), len(seeds))
        return state if state != progress else None

    for _ in range(400):  # each step is a discard or a result: a game has at most 36
        if len(seeds) == len(players):
            return [seeds[player.name] for player in players], dropped
        progress = wait_for(f"the game goes on after {progress}", step,
                            lambda: alice.report() + bob.report())
        if drop and not dropped and not seeds and progress[0] >= DROP_AFTER:
            assert isinstance(bob, Player), "only an SSH player's link can be dropped"
            drop_and_resume(bob, alice)
            dropped = True
    raise AssertionError("the game never ended")


#: bob's things of before (a version that kept ``players/bob`` inside both roots).
OLD_RECORD = '{"type": "header", "game": "old"}\n'
OLD_LOG = "--- an error of before\n"


@pytest.fixture(scope="module", autouse=True)
def bob_of_before(site: Site) -> None:
    """bob played on this host with a version of before: a saved game in his data folder
    ``players/bob``, an error log in his config folder ``players/bob``."""
    for root, relative, content in (("player-data", "records/old.jsonl", OLD_RECORD),
                                    ("player-config", "errors.log", OLD_LOG)):
        path = site.folder / root / "players" / "bob" / relative
        path.parent.mkdir(parents=True)
        path.write_text(content)


def test_two_players_play_a_game_over_ssh_and_one_resumes_after_a_dropped_link(
        site: Site) -> None:
    alice, bob = Player(site, "alice"), Player(site, "bob")
    alice.login("host")
    code = alice.wait("a room code in the header",
                      lambda screen: (match := ROOM.search(screen)) and match.group(1))
    bob.login("join", code)
    alice.wait("bob has joined", lambda screen: "vs bob" in screen)

    resumed = False
    for _game in range(3):  # a game ended by a ron before the drop is followed by a rematch
        build_hand(alice)
        build_hand(bob)
        seeds, dropped = play_to_the_end(alice, bob, drop=not resumed)
        if None not in seeds:
            assert seeds[0] == seeds[1], "the two players saw different games"
        resumed = resumed or dropped
        if resumed:
            break
        alice.keys("n")  # play again
        bob.keys("n")
    assert resumed, "three games in a row ended before the link could drop"

    # The daemon kept the games (ended ones in finished/): each replays to its stored result.
    records = sorted((site.daemon.data / "games" / "finished").glob("*.jsonl"))
    assert records, site.daemon.report()
    for record in records:
        replay = subprocess.run([minefield_command(), "replay", str(record), "--json"],
                                capture_output=True, text=True, timeout=120, check=False)
        assert replay.returncode == 0, replay.stderr
        header = json.loads(record.read_text().splitlines()[0])
        assert sorted(header["players"].values()) == [f"alice@{ME}",
                                                      f"bob@{ME}"]

    # Each player's home is players/NAME/ in the account's data folder, config/ and data/ in
    # it; bob's folders of before moved in at his first start.
    homes = site.folder / "player-data" / "players"
    assert sorted(path.name for path in (homes / "alice").iterdir()) == ["config", "data"]
    assert (homes / "bob" / "data" / "records" / "old.jsonl").read_text() == OLD_RECORD
    assert (homes / "bob" / "config" / "errors.log").read_text().startswith(OLD_LOG)
    assert not (site.folder / "player-config" / "players" / "bob").exists()


def _over_ssh(site: Site, *typed: str, options: tuple[str, ...] = ()
              ) -> subprocess.CompletedProcess[str]:
    """``ssh -T`` (no terminal) as alice typing ``typed``; its status and output."""
    command = site.sshd.ssh(site.keys["alice"], *typed, tty=False)
    command[1:1] = list(options)
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False,
                          stdin=subprocess.DEVNULL)


def test_over_ssh_only_the_game_runs(site: Site) -> None:
    for typed, reason in [
        ("join ABC; rm -rf /", "refused: shell syntax"),
        ("bash -i", "refused: unknown command 'bash'"),
        ("join K7Q3PX --socket /tmp/other.sock", "refused: --socket is set by the server"),
        ("resume --player bob", "refused: --player is set by the server"),
        ("cat /etc/passwd", "refused: unknown command 'cat'"),
    ]:
        done = _over_ssh(site, typed)
        assert done.returncode == 2, (typed, done.stderr)
        assert done.stdout == ""
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and reason in lines[0], (typed, done.stderr)

    # The game needs a terminal: said in one line, not a broken screen.
    done = _over_ssh(site, "join", "K7Q3PX")
    assert (done.returncode, done.stderr) == (
        2, "minefield: the game needs a terminal: connect with ssh -t\n")
    # history needs none: the player's own network games, asked of the game server.
    done = _over_ssh(site, "history", "--json")
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout)
    assert all("alice" in (game["east"], game["west"]) for game in listed), listed
    assert [game["ended"] for game in listed] == sorted(
        (game["ended"] for game in listed), reverse=True)
    done = _over_ssh(site, "history")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ended (UTC)" if listed else "No network games yet")
    assert "players/alice" not in done.stdout  # no folder of the host
    # A subsystem (sftp, scp's new mode) reaches ssh-entry as its name and is refused (sshd
    # does not pass a subsystem's stderr on: the status says it).
    done = _over_ssh(site, "sftp", options=("-s",))
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    # No forwarding of any kind (restrict, DisableForwarding): the client gives up.
    done = _over_ssh(site, "history", options=("-o", "ExitOnForwardFailure=yes",
                                               "-R", "127.0.0.1:0:127.0.0.1:9"))
    assert done.returncode == 255, (done.returncode, done.stderr)
    assert "forwarding failed" in done.stderr


def test_host_match_over_ssh_starts_a_match_with_its_scoreboard(site: Site) -> None:
    """``ssh -t HOST host --match --bot easy``: a match against a bot on the server, its
    scoreboard on the table, every game recorded with the match."""
    alice = Player(site, "alice")
    alice.logins = 100  # a terminal of its own: the module's other tests may keep theirs open
    alice.login("host", "--match", "--bot", "easy")
    alice.wait("the match's scoreboard on the builder",
               lambda screen: "Game 1 · hand 1 of 4" in screen and "Hand 0/13" in screen)
    games = site.daemon.data / "games"

    def match_record() -> dict[str, Any] | None:
        for record in games.glob("*.jsonl"):
            header = json.loads(record.read_text().splitlines()[0])
            if header.get("match") and "Bot (easy)" in header["players"].values():
                return dict(header["match"])
        return None

    header = wait_for("the match's record", match_record, alice.report)
    assert header["game"] == 1 and sorted(header["scores"].values()) == [25000, 25000]
    assert "seed" in header  # the match seed is in the daemon's private record only
    alice.drop_link()


def test_watch_over_ssh_shows_a_game_with_its_hands_face_down(site: Site) -> None:
    """``ssh -t HOST watch GAME`` through the forced command: bob watches alice's game
    against a bot, both hands face down (R26), and q ends his ssh."""
    alice, bob = Player(site, "alice"), Player(site, "bob")
    alice.logins = bob.logins = 200  # terminals of their own
    alice.login("host", "--bot", "normal")
    alice.wait("the hand builder", lambda screen: "Hand 0/13" in screen)
    games = site.daemon.data / "games"

    def game_id() -> str | None:
        for record in games.glob("*.jsonl"):
            header = json.loads(record.read_text().splitlines()[0])
            players = header["players"].values()
            if "Bot (normal)" in players and not header.get("match"):
                return record.name.removesuffix(".jsonl")
        return None

    game = wait_for("the game's record", game_id, alice.report)
    bob.login("watch", game)
    screen = bob.wait("bob watching", lambda screen: screen if "watching" in screen
                      and "34 tiles face down" in screen else None)
    assert "Bot (normal)" in screen and "1 watching" in screen
    assert hand_row(screen) is None  # no hand of anyone's on a watcher's screen
    bob.keys("q")
    wait_for("bob's ssh ends", lambda: site.terminals.ended(bob.terminal), bob.report)
    alice.drop_link()


def test_nothing_typed_opens_the_lobby_with_the_hosts_players_and_an_invitation_seats_both(
        site: Site) -> None:
    """``ssh -t HOST`` with nothing typed: the daemon's lobby, as over ``ssh-server``, with
    the players of this host (the module's other tests may still have theirs connected, busy);
    alice invites bob, who accepts on his screen, and both sit at a new table."""
    alice, bob = Player(site, "alice"), Player(site, "bob")
    alice.logins = bob.logins = 300  # terminals of their own
    alice.login()
    alice.wait("the lobby", lambda screen: "Online (" in screen and "alice (" in screen)
    bob.login()
    bob.wait("the lobby with both", lambda screen: "alice (" in screen and "bob (" in screen)
    alice.wait("bob in the lobby", lambda screen: "bob (" in screen)
    alice.keys("i")
    alice.wait("the invitation's form", lambda screen: "Invite whom?" in screen)
    alice.keys("C-a", "C-k")  # the name offered (someone free in the lobby) cleared
    alice.wait("an empty name", lambda screen: re.search(r"▊ +name +▎", screen))
    alice.keys("b", "o", "b")
    alice.wait("bob typed", lambda screen: re.search(r"▊ +bob +▎", screen))
    alice.keys("Enter")
    bob.wait("the invitation", lambda screen: "alice invites you to a game" in screen)
    bob.keys("y")
    alice.wait("alice seated", lambda screen: "Hand 0/13" in screen and "vs bob" in screen)
    bob.wait("bob seated", lambda screen: "Hand 0/13" in screen and "vs alice" in screen)
    # Leaving a game chosen in the lobby goes back to the lobby, never to the menu.
    alice.keys("Escape")
    alice.wait("the question", lambda screen: "Keep playing" in screen)
    alice.keys("y")
    alice.wait("alice back in the lobby", lambda screen: "Online (" in screen
               and "Practice against" not in screen)
    alice.drop_link()
    bob.drop_link()
