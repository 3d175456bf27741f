"""``minefield host --match`` and ``ssh HOST host --match``: the options reach the
hello, and the SSH entry lets the flag through (and nothing else with it)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from minefield.cli import network as commands
from minefield.cli.ssh_entry import entry_argv
from minefield.frontdoor.grammar import EntryCommand, Refused, parse_original_command
from minefield.protocol.messages import PROTOCOL_VERSION, Snapshot
from minefield.protocol.wire import Hello, encode, parse_hello
from minefield.server.daemon import Daemon
from minefield.session.daemon_socket import RemoteError
from minefield.session.remote import RemoteSession
from tests.server.conftest import next_of


def host_args(*words: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command")
    commands.add_client_parsers(sub)
    return parser.parse_args(["host", *words])


@pytest.mark.parametrize(("words", "rules", "dealer_bonus"), [
    (["--match"], "match", True),  # --match alone: the match preset
    (["--match", "--rules", "beginner"], "beginner", False),  # any preset
    (["--rules", "match"], "match", True),  # the match preset is a match
    (["--rules", "club"], "club", True),  # so is the club's (RULES.md presets)
])
async def test_host_match_options_start_a_match(daemon: Daemon, words: list[str], rules: str,
                                               dealer_bonus: bool) -> None:
    args = host_args(*words, "--bot", "easy", "--socket", str(daemon.config.socket),
                     "--player", "ann")
    session = await commands.connect(args)
    await session.open()
    snapshot = await next_of(session, Snapshot)
    match = snapshot.table.match
    assert match is not None and match.game == 1 and match.dealer_bonus is dealer_bonus
    assert session.settings.dealer_bonus is dealer_bonus
    assert (session.settings.minimum == "none") is (rules == "beginner")
    await session.close()


async def test_host_without_match_is_a_single_game(daemon: Daemon) -> None:
    args = host_args("--bot", "easy", "--socket", str(daemon.config.socket), "--player", "ann")
    session = await commands.connect(args)
    await session.open()
    snapshot = await next_of(session, Snapshot)
    assert snapshot.table.match is None and session.match is None
    await session.close()


def test_ssh_entry_lets_host_match_through() -> None:
    command = parse_original_command("host --match --bot normal")
    assert command == EntryCommand("host", bot="normal", match=True)
    assert entry_argv(command, "alice", Path("/run/m.sock")) == [
        "host", "--bot", "normal", "--match", "--player", "alice", "--socket", "/run/m.sock"]
    assert parse_original_command("host").match is False


@pytest.mark.parametrize(("typed", "reason"), [
    ("host --match --match", "--match is given twice"),
    ("host --match=yes", "--match takes no value"),
    ("join K7Q3PX --match", "unknown option '--match'"),
    ("resume --match", "unknown option '--match'"),
])
def test_ssh_entry_refuses_a_bad_match_flag(typed: str, reason: str) -> None:
    with pytest.raises(Refused) as refusal:
        parse_original_command(typed)
    assert reason in str(refusal.value)


def test_a_single_game_hello_is_as_before_matches() -> None:
    """The client leaves ``match`` out of a single game's hello (a server older than matches
    refuses unknown fields), and sends it for a match."""
    single = json.loads(encode(Hello(version=PROTOCOL_VERSION, action="host", bot="easy")))
    assert "match" not in single
    match = json.loads(encode(Hello(version=PROTOCOL_VERSION, action="host", match=True)))
    assert match["match"] is True
    assert parse_hello(json.dumps({**single, "rules": "match"})).wants_match
    assert not parse_hello(json.dumps(single)).wants_match


async def test_host_rules_by_name_reach_the_daemon_over_the_preset(daemon: Daemon) -> None:
    """``host --rules club --rule ...`` (RULES.md presets; R32, R34): the hello carries the
    settings by name, the daemon plays them over the preset with its own clocks (R25)."""
    args = host_args("--rules", "club", "--rule", "ryanshi=off", "--rule", "honba_points=300",
                     "--bot", "easy", "--socket", str(daemon.config.socket), "--player", "ann")
    session = await commands.connect(args)
    await session.open()
    snapshot = await next_of(session, Snapshot)
    assert snapshot.table.match is not None and not snapshot.table.match.ryanshi
    rules = session.settings
    assert (rules.ryanshi, rules.paarenchan, rules.honba_points) == (False, True, 300)
    assert (rules.hand_seconds, rules.discard_seconds) == (daemon.config.hand_seconds,
                                                           daemon.config.discard_seconds)
    await session.close()


def test_a_hello_leaves_rule_out_when_empty_and_the_daemon_checks_it() -> None:
    """Without ``--rule`` the hello is as before (``rule`` left out); a hello's bad setting
    is refused with its name."""
    plain = json.loads(encode(Hello(version=PROTOCOL_VERSION, action="host")))
    assert "rule" not in plain
    ruled = json.loads(encode(Hello(version=PROTOCOL_VERSION, action="host",
                                    rule={"ryanshi": True})))
    assert ruled["rule"] == {"ryanshi": True}
    assert parse_hello(json.dumps({**plain, "rules": "club"})).wants_match


async def test_a_bad_rule_in_a_hello_is_refused_naming_it(daemon: Daemon) -> None:
    for rule, named in (({"ryansi": True}, "ryansi"), ({"hand_seconds": 5}, "clocks")):
        hello = Hello(version=PROTOCOL_VERSION, action="host", bot="easy", player="ann",
                      rule=rule)
        with pytest.raises(RemoteError, match=named):
            await RemoteSession.connect(hello, daemon.config.socket)


def test_ssh_entry_lets_host_rules_by_name_through() -> None:
    """``ssh HOST host --rules club --rule NAME=VALUE`` (RULES.md presets): each setting is
    checked as ``--rule`` is, and passed on as typed."""
    command = parse_original_command("host --rules club --rule honba_points=300 --rule=ryanshi=off")
    assert command == EntryCommand("host", rules="club", rule=("honba_points=300", "ryanshi=off"))
    assert entry_argv(command, "alice", Path("/run/m.sock")) == [
        "host", "--rules", "club", "--rule", "honba_points=300", "--rule", "ryanshi=off",
        "--player", "alice", "--socket", "/run/m.sock"]


@pytest.mark.parametrize(("typed", "reason"), [
    ("host --rule", "--rule needs a value"),
    ("host --rule ryansi=on", "--rule: unknown setting 'ryansi'"),
    ("host --rule ryanshi=maybe", "--rule: setting 'ryanshi': 'maybe' is not on, off"),
    ("host --rule hand_seconds=30", "the clocks of a network game are the server's"),
    ("join K7Q3PX --rule ryanshi=on", "unknown option '--rule'"),
])
def test_ssh_entry_refuses_a_bad_rule(typed: str, reason: str) -> None:
    with pytest.raises(Refused) as refusal:
        parse_original_command(typed)
    assert reason in str(refusal.value) and "\n" not in str(refusal.value)
