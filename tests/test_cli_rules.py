"""``--rules`` presets (``club``), ``--rule NAME=VALUE`` and ``--clock`` on the commands that
play or score (RULES.md "Rule presets"; R25, R32-R35): a bad one is one line and exit 2."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from minefield.cli import build_parser, main
from minefield.cli.common import UsageError
from minefield.cli.game import request_from_args
from minefield.cli.network import host_rules
from minefield.records.reader import read_record
from minefield.rules.settings import RuleSettings
from minefield.session.daemon_socket import RemoteError


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("argv", [
    ["practice", "--rule", "ryansi=on"],
    ["hotseat", "--rules", "club", "--rule", "ryanshi=maybe"],
    ["analyze", "123m456p789s1112z", "--rule", "honba_points=-1"],
    ["simulate", "--games", "1", "--rule", "hands=none"],
    ["host", "--rule", "minimum=haneman"],
    ["practice", "--rule", "kiriage"],
])
def test_a_bad_rule_is_one_line_naming_it(capsys: pytest.CaptureFixture[str],
                                          argv: list[str]) -> None:
    status, out, err = _run(capsys, *argv)
    named = argv[-1].partition("=")[0]
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("minefield: --rule: ")
    assert f"'{named}'" in err and "Traceback" not in err


@pytest.mark.parametrize(("clock", "rule"), [
    ("180+15", ("hand_seconds=180", "discard_seconds=15")),
    ("60+10", ("hand_seconds=60", "discard_seconds=10")),
    ("30+5", ("hand_seconds=30", "discard_seconds=5")),
    ("off", ("hand_seconds=none", "discard_seconds=none")),
])
def test_r25_clock_on_practice_and_hotseat(clock: str, rule: tuple[str, ...]) -> None:
    for command in ("practice", "hotseat"):
        args = build_parser().parse_args([command, "--clock", clock])
        request = request_from_args(args)
        assert request is not None and request.rule == rule
        settings = RuleSettings.chosen("standard", request.rule)
        hand, discard = (int(part) if part.isdigit() else None
                         for part in clock.replace("off", "x+x").split("+"))
        assert (settings.hand_seconds, settings.discard_seconds) == (hand, discard)


@pytest.mark.parametrize("clock", ["180", "180+", "+15", "0+5", "60+0", "a+b", "-1+5", "6０+5"])
def test_a_bad_clock_is_one_line(capsys: pytest.CaptureFixture[str], clock: str) -> None:
    status, out, err = _run(capsys, "practice", f"--clock={clock}")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("minefield: --clock ") and "HAND+DISCARD" in err


def test_club_plays_a_match_with_the_rules_over_it() -> None:
    """The club's preset is a match (R30) like ``match``; ``--rule`` goes over it."""
    args = build_parser().parse_args(["hotseat", "--rules", "club", "--rule", "paarenchan=off",
                                      "--rule", "honba_points=300", "--clock", "60+10"])
    request = request_from_args(args)
    assert request is not None and request.match and request.rules == "club"
    settings = RuleSettings.chosen(request.rules or "", request.rule)
    assert settings == RuleSettings.preset("club", paarenchan=False, honba_points=300,
                                           hand_seconds=60, discard_seconds=10)


def test_practice_under_the_standard_rules_with_ryanshi() -> None:
    args = build_parser().parse_args(["practice", "--rule", "ryanshi=on"])
    request = request_from_args(args)
    assert request is not None and not request.match and request.rule == ("ryanshi=on",)


def test_r23_analyze_pays_under_the_chosen_rules(capsys: pytest.CaptureFixture[str]) -> None:
    """Under the standard minimum (R14) a 2-han hand cannot ron; ``--rule minimum=none``
    lets it, at 2600 (R23)."""
    hand = "123m456p789s1112z"
    status, out, _ = _run(capsys, "analyze", hand, "--json")
    assert status == 0 and not json.loads(out)["waits"][0]["eligible"]
    status, out, _ = _run(capsys, "analyze", hand, "--json", "--rule", "minimum=none")
    wait = json.loads(out)["waits"][0]
    assert status == 0 and wait["eligible"] and wait["points"] == 2600


def test_simulate_plays_under_club_rules_with_a_rule_over_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every record of a ``simulate --match --rules club --rule hands=1`` holds those rules."""
    status, out, _ = _run(capsys, "simulate", "--match", "--games", "1", "--east", "easy",
                          "--west", "easy", "--jobs", "1", "--rules", "club", "--rule",
                          "hands=1", "--records", str(tmp_path))
    assert status == 0
    assert "1 match of 1 hand from 25000 (club rules, hands=1)" in " ".join(out.split())
    records = sorted(tmp_path.glob("*.jsonl"))
    assert records
    for path in records:
        assert read_record(path).header.rules == RuleSettings.preset("club", hands=1)


def test_host_sends_the_rules_by_name_and_leaves_the_clocks_to_the_server() -> None:
    assert host_rules("club", ["ryanshi=off", "honba_points=300"]) == {
        "ryanshi": False, "honba_points": 300}
    assert host_rules("standard", []) == {}
    with pytest.raises(RemoteError, match="the clocks of a network game are the server's"):
        host_rules("standard", ["hand_seconds=30"])


def test_a_usage_error_is_raised_before_any_screen() -> None:
    args = argparse.Namespace(command="hotseat", seed=None, rules="club", match=False,
                              rule=["honba_points=lots"], clock=None)
    with pytest.raises(UsageError, match="setting 'honba_points': 'lots' is not a whole number"):
        request_from_args(args)


def test_analyze_jsonl_takes_its_rules_from_each_line(capsys: pytest.CaptureFixture[str]) -> None:
    """As ``--rules`` is, a ``--rule`` beside ``--jsonl`` is refused: each line says its rules."""
    status, out, err = _run(capsys, "analyze", "--jsonl", "--rule", "ryanshi=on")
    assert status == 2 and out == ""
    assert err == ('minefield: --jsonl takes the rules from each line\'s "rules" key: give no '
                   "--rule\n")
