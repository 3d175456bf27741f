"""``minefield ssh-entry``: only the whitelisted commands pass, everything else is one line and
exit status 2; the player can never choose the socket or the player name."""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minefield.cli import main
from minefield.cli.ssh_entry import entry_argv, run
from minefield.frontdoor.grammar import (
    MAX_COMMAND_BYTES,
    EntryCommand,
    Refused,
    parse_original_command,
)
from tests.e2e.harness import ME, Daemon, wait_for
from tests.server.kept_records import played, write_record

#: The keys of ``history --json``'s entries, in order (those of ssh-server's).
SHOWN_KEYS = ["game", "ended", "rules", "east", "west", "result", "points", "rated",
              "tournament", "link"]


@pytest.mark.parametrize(("typed", "expected"), [
    (None, EntryCommand("menu")),
    ("", EntryCommand("menu")),
    ("   ", EntryCommand("menu")),
    ("minefield", EntryCommand("menu")),
    ("host", EntryCommand("host")),
    ("host --bot strong", EntryCommand("host", bot="strong")),
    ("host --bot=easy --rules beginner", EntryCommand("host", bot="easy", rules="beginner")),
    ("host --rules=standard", EntryCommand("host", rules="standard")),
    ("minefield host --bot normal", EntryCommand("host", bot="normal")),
    ("join K7Q3PX", EntryCommand("join", code="K7Q3PX")),
    ("history --json", EntryCommand("history", json=True)),
    ("join k7q-3px", EntryCommand("join", code="K7Q3PX")),
    ("join 'K7Q 3PX'", EntryCommand("join", code="K7Q3PX")),
    ("\tjoin\tK7Q3PX\t", EntryCommand("join", code="K7Q3PX")),
    ("resume", EntryCommand("resume")),
    ("history", EntryCommand("history")),
    (b"resume", EntryCommand("resume")),
    ("watch 20261201T120000.000Z-network-abcd",
     EntryCommand("watch", game="20261201T120000.000Z-network-abcd")),
])
def test_the_accepted_forms(typed: str | bytes | None, expected: EntryCommand) -> None:
    assert parse_original_command(typed) == expected


@pytest.mark.parametrize(("typed", "reason"), [
    ("join ABC; rm -rf /", "shell syntax"),
    ("join K7Q3PX && sh", "shell syntax"),
    ("join $(id)", "shell syntax"),
    ("join `id`", "shell syntax"),
    ("history > /etc/passwd", "shell syntax"),
    ("join K7Q3PX --socket /tmp/evil.sock", "--socket is set by the server"),
    ("join --socket=/tmp/evil.sock K7Q3PX", "--socket is set by the server"),
    ("host --player bob", "--player is set by the server"),
    ("resume --player=bob", "--player is set by the server"),
    ("--player bob", "--player is set by the server"),
    ("host --sock /x", "unknown option '--sock'"),  # no abbreviations, unlike argparse
    ("host --bot", "--bot needs a value"),
    ("host --bot medium", "choose one of easy, normal, strong"),
    ("host --bot easy --bot strong", "given twice"),
    ("host --rules", "--rules needs a value"),
    ("host now", "host takes no 'now'"),
    ("join", "join needs the room code"),
    ("join K7Q3PX K7Q3PX", "join takes one room code"),
    ("join K7Q3P0", "not a room code"),
    ("join ../../etc", "not a room code"),
    ("resume now", "resume takes nothing"),
    ("watch", "watch takes one game id"),
    ("watch a b", "watch takes one game id"),
    ("watch --socket=/tmp/x", "--socket is set by the server"),
    ("watch ../../etc/passwd", "not a game id"),
    ("watch " + "g" * 81, "not a game id"),
    ("history --dir /", "unknown option '--dir'"),
    ("history --json --json", "unknown option '--json'"),
    ("replay /etc/shadow", "unknown command 'replay'"),
    ("serve --socket /tmp/x", "unknown command 'serve'"),
    ("ssh-entry --player bob", "unknown command 'ssh-entry'"),
    ("bash", "unknown command 'bash'"),
    ("sh -c id", "unknown command 'sh'"),
    ("scp -t /tmp", "unknown command 'scp'"),
    ("/usr/lib/openssh/sftp-server", "unknown command"),
    ("internal-sftp", "unknown command"),
    ("python3", "unknown command"),
    ("join 'K7Q3PX", "unbalanced quotes"),
    ("join K7Q3PX\\", "unbalanced quotes"),
    ("join " + "K" * 300, "too long"),
    ("x" * (MAX_COMMAND_BYTES + 1), "too long"),
    ("join K7Q3PX\n id", "control characters"),
    ("join K7Q3PX\r", "control characters"),
    ("join \x1b[2JK7Q3PX", "control characters"),
    ("join K7Q3PX\x00", "control characters"),
    ("join K7Q3PX\x7f", "control characters"),
    (b"join \xff\xfe", "only plain ASCII"),
    ("join K7Q3PX\udcff", "only plain ASCII"),  # how Python shows an undecodable byte
    ("join Ｋ7Q3PX", "only plain ASCII"),  # a full-width K
    ("history\u202e", "only plain ASCII"),
])
def test_everything_else_is_refused_with_a_reason(typed: str | bytes, reason: str) -> None:
    with pytest.raises(Refused, match=None) as refusal:
        parse_original_command(typed)
    message = str(refusal.value)
    assert reason in message
    assert "\n" not in message and message.isprintable()


@given(st.one_of(st.binary(max_size=300), st.text(max_size=300)))
def test_no_input_escapes_the_whitelist(typed: bytes | str) -> None:
    try:
        command = parse_original_command(typed)
    except Refused as refusal:
        assert str(refusal).isprintable()
        return
    argv = command.argv()
    assert command.action in ("menu", "host", "join", "resume", "history", "watch")
    assert not any(word.startswith(("--socket", "--player")) for word in argv)
    assert all(word.isascii() and word.isprintable() for word in argv)


def test_the_forced_commands_own_options_are_added_after_the_checked_command() -> None:
    assert entry_argv(EntryCommand("host", bot="easy"), "alice", Path("/run/m.sock")) == [
        "host", "--bot", "easy", "--player", "alice", "--socket", "/run/m.sock"]
    assert entry_argv(EntryCommand("resume"), None, None) == ["resume"]
    assert entry_argv(EntryCommand("watch", game="g-1"), "alice", Path("/run/m.sock")) == [
        "watch", "g-1", "--player", "alice", "--socket", "/run/m.sock"]
    assert entry_argv(EntryCommand("menu"), "alice", Path("/run/m.sock")) == []


def _args(player: str | None = "alice", socket: Path | None = None) -> argparse.Namespace:
    return argparse.Namespace(command="ssh-entry", player=player, socket=socket)


def test_a_refusal_is_one_line_on_stderr_and_status_2(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    status = run(_args(), {b"SSH_ORIGINAL_COMMAND": b"join ABC; rm -rf /"})
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("minefield: refused: shell syntax")
    assert "join CODE" in err  # it says what is allowed


def test_the_game_asks_for_a_terminal(capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # As with `ssh HOST join CODE` without -t: no terminal.
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    status = run(_args(), {b"SSH_ORIGINAL_COMMAND": b"join K7Q3PX"})
    assert status == 2
    assert capsys.readouterr().err == "minefield: the game needs a terminal: connect with ssh -t\n"


def test_history_lists_the_players_network_games_as_the_game_server_keeps_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``ssh HOST history [--json]`` on the OpenSSH route: the player's own finished network
    games, newest first, asked of the game server (what ssh-server's ``history`` lists), not
    the player's folder of local games."""
    games = tmp_path / "server" / "games"
    write_record(games, "g1", 1, f"ann@{ME}", f"bob@{ME}", "private", minute=1)
    write_record(games, "g2", 2, f"bob@{ME}", f"cat@{ME}", "private", minute=2)  # not hers
    write_record(games, "g3", 3, f"cat@{ME}", f"ann@{ME}", "public", rated=False, minute=3)
    monkeypatch.setenv("MINEFIELD_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MINEFIELD_CONFIG_DIR", str(tmp_path / "config"))
    daemon = Daemon(tmp_path)
    entry = ["ssh-entry", "--player", "ann", "--socket", str(daemon.socket)]
    try:
        def listed() -> list[dict[str, object]]:
            monkeypatch.setenv("SSH_ORIGINAL_COMMAND", "history --json")
            assert main(entry) == 0
            answer: list[dict[str, object]] = json.loads(capsys.readouterr().out)
            return answer

        wait_for("the game server keeps the finished games", lambda: len(listed()) == 2,
                 daemon.report)
        shown = listed()
        monkeypatch.setenv("SSH_ORIGINAL_COMMAND", "history")
        assert main(entry) == 0
        text = capsys.readouterr().out
        monkeypatch.setenv("SSH_ORIGINAL_COMMAND", "history")
        assert main(["ssh-entry", "--player", "dan", "--socket", str(daemon.socket)]) == 0
        nothing = capsys.readouterr().out
    finally:
        daemon.stop()
    expected = {"g1": played(1), "g3": played(3)}
    assert [game["game"] for game in shown] == ["g3", "g1"]  # newest first, hers only
    assert [list(game) for game in shown] == [SHOWN_KEYS] * 2  # ssh-server's history --json
    for game in shown:
        result = expected[str(game["game"])].result
        assert result is not None
        assert game["result"] == (result.winner.value if result.winner else "draw")
        assert game["link"] is None
    assert [(g["east"], g["west"], g["rated"]) for g in shown] == [
        ("cat", "ann", False), ("ann", "bob", True)]
    lines = text.splitlines()
    assert lines[0].startswith("ended (UTC)") and len(lines) == 3
    assert lines[1].endswith("casual  g3") and lines[2].endswith("rated   g1")
    assert all(("you won" in line) != ("you lost" in line) or " draw " in line
               for line in lines[1:])
    assert "records" not in text and str(tmp_path) not in text  # no folder of the host
    assert nothing == "No network games yet: a game you finish on this server is kept here.\n"
    assert not (tmp_path / "data" / "players").exists()  # no player folder made for it


def test_history_without_a_game_server_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SSH_ORIGINAL_COMMAND", "history")
    status = main(["ssh-entry", "--player", "ann", "--socket", str(tmp_path / "none.sock")])
    err = capsys.readouterr().err
    assert status == 1 and err.count("\n") == 1 and "no game server at" in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize("player", ["", "al ice", "../bob", "x" * 33, "bob;id", ".", ".."])
def test_a_bad_player_name_in_the_forced_command_is_one_line(
        player: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ssh-entry", "--player", player]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "fix the forced command" in err


def test_the_installed_command_refuses_without_a_traceback(tmp_path: Path) -> None:
    env = {**os.environ, "SSH_ORIGINAL_COMMAND": "join ABC; rm -rf /",
           "MINEFIELD_DATA_DIR": str(tmp_path), "MINEFIELD_CONFIG_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "minefield.cli", "ssh-entry", "--player",
                           "alice"], env=env, capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "players").exists()  # refused before anything was touched
