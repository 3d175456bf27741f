"""``ssh-server --metrics ADDR:PORT``: Prometheus's text format over HTTP, scraped after real
activity through the OpenSSH client (a login, a key refused, commands, a session in a
terminal, a game against a bot and a watcher), with no name, key, address or game id in any
label; and nothing served without it."""

from __future__ import annotations

import socket
import subprocess
import urllib.request
from pathlib import Path

from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from minefield.frontdoor.commands import ALLOWED
from minefield.frontdoor.limits import Gate, Limits, reason_of
from minefield.frontdoor.metrics import REASONS, DoorMetrics
from tests.e2e.harness import STEP_LIMIT, free_port, minefield_command, wait_for
from tests.frontdoor.conftest import FrontDoorProcess, SizedTerminals

#: Every label a sample may carry, and the values it may take.
LABELS = {"door": {"ssh", "web"}, "reason": REASONS, "le": None,
          "command": {"name", "whoami", "who", "menu", "host", "watch", "refused"}}

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(address: str) -> tuple[str, Samples]:
    """The text at ``/metrics``, and its samples by name and labels."""
    with urllib.request.urlopen(f"http://{address}/metrics", timeout=30) as answer:
        assert answer.status == 200
        assert answer.headers["Content-Type"].startswith("text/plain; version=")
        text: str = answer.read().decode()
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[sample.name, frozenset(sample.labels.items())] = sample.value
    return text, samples


def value(samples: Samples, name: str, **labels: str) -> float:
    """One sample's value (0 when it is not there)."""
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_the_figures_after_real_activity_and_no_name_in_a_label(
        folder: Path, keys: dict[str, Path], terminals: SizedTerminals) -> None:
    ann, bob, cat = keys["ann"], keys["bob"], keys["cat"]
    allowed = folder / "allowed_keys"
    allowed.write_text(Path(f"{ann}.pub").read_text() + Path(f"{bob}.pub").read_text())
    address = f"127.0.0.1:{free_port()}"
    door = FrontDoorProcess(folder, "--allow", str(allowed), "--metrics", address)
    try:
        assert f"metrics on http://{address}/metrics" in door.log.read_text()
        _, before = scrape(address)
        assert value(before, "minefield_logins_total") == 0
        assert value(before, "minefield_sessions", door="ssh") == 0
        # A login and its commands; a key not on the allow-list; a command that is none.
        assert door.run(ann, "name", "Ann").returncode == 0
        assert door.run(bob, "name", "Bob").returncode == 0
        assert door.run(ann, "whoami", "--json").returncode == 0
        refused = door.run(cat, "whoami")
        assert refused.returncode == 255 and "Permission denied" in refused.stderr
        bad = door.run(ann, "rm", "-rf", "/")
        assert bad.returncode == 2 and ALLOWED in bad.stderr
        # A game against a bot in a terminal, and Bob watching it.
        terminals.open("ann", door.ssh(ann, "host", "--bot", "easy", tty=True))
        wait_for("Ann's game", lambda: "Hand 0/13" in terminals.screen("ann"),
                 lambda: terminals.screen("ann") + door.report())

        def playing() -> str | None:
            tables = door.json(bob, "who", "--json")["tables"]
            return next((t["game"] for t in tables if t.get("game")), None)

        game = wait_for("the game listed", playing, door.report)
        terminals.open("bob", door.ssh(bob, "watch", game, tty=True))

        def watched() -> Samples | None:
            _, samples = scrape(address)
            return samples if value(samples, "minefield_watchers") == 1 else None

        samples = wait_for("Bob watching", watched, door.report)
        text, _ = scrape(address)
        assert value(samples, "minefield_logins_total") >= 7
        assert value(samples, "minefield_logins_refused_total", door="ssh",
                     reason="not_allowed") == 1
        assert value(samples, "minefield_sessions", door="ssh") == 2
        assert value(samples, "minefield_games_in_play") == 1
        assert value(samples, "minefield_players_online") >= 1
        assert value(samples, "minefield_tournaments_running") == 0
        assert value(samples, "minefield_ssh_commands_total", command="name") == 2
        assert value(samples, "minefield_ssh_commands_total", command="whoami") == 1
        assert value(samples, "minefield_ssh_commands_total", command="refused") == 1
        assert value(samples, "minefield_ssh_commands_total", command="host") == 1
        assert value(samples, "minefield_ssh_commands_total", command="watch") == 1
        # Each answered command has its latency: whoami's answer, host's first frame.
        assert value(samples, "minefield_ssh_command_seconds_count", command="whoami") == 1
        assert value(samples, "minefield_ssh_command_seconds_count", command="host") == 1
        assert value(samples, "minefield_ssh_command_seconds_bucket", command="whoami",
                     le="+Inf") == 1
        assert value(samples, "minefield_ssh_command_seconds_sum", command="whoami") > 0
        # No label carries a name, a key, an address or a game id; nor does the text.
        for (_name, labels) in samples:
            for label, shown in labels:
                assert label in LABELS, label
                values = LABELS[label]
                assert values is None or shown in values, (label, shown)
        for secret in ("Ann", "Bob", "SHA256", game, "127.0.0.1"):
            assert secret not in text
        terminals.keys("bob", "q")
        wait_for("Bob's watch ends", lambda: terminals.ended("bob"),
                 lambda: terminals.screen("bob"))
    finally:
        door.stop()


def test_no_metrics_without_the_option_and_a_port_in_use_is_one_line(
        folder: Path, keys: dict[str, Path]) -> None:
    door = FrontDoorProcess(folder, "--open")
    door.stop()
    assert "metrics on" not in door.log.read_text()
    port = free_port()
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", port))
        holder.listen()
        done = subprocess.run(
            [minefield_command(), "ssh-server", "--open", "--data", str(folder / "door"),
             "--listen", f"127.0.0.1:{free_port()}", "--metrics", f"127.0.0.1:{port}"],
            capture_output=True, text=True, timeout=STEP_LIMIT, check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1] == (
        f"minefield: ssh-server: --metrics 127.0.0.1:{port}: cannot listen (address already "
        "in use)")


def test_each_refusal_of_the_gate_has_its_reason_for_the_metrics() -> None:
    gate = Gate(Limits(max_sessions=3, sessions_per_address=2, sessions_per_key=1,
                       pending_per_address=1, auth_per_minute=2))
    assert reason_of(gate.connect("10.0.0.1", 0.0) or "") == "other"  # came in
    assert reason_of(gate.connect("10.0.0.1", 0.0) or "") == "pending"
    gate.logged_in_or_gone("10.0.0.1")
    assert gate.connect("10.0.0.1", 0.0) is None
    gate.logged_in_or_gone("10.0.0.1")
    assert reason_of(gate.connect("10.0.0.1", 0.0) or "") == "rate"
    assert gate.open_session("10.0.0.2", "SHA256:a") is None
    assert reason_of(gate.open_session("10.0.0.2", "SHA256:a") or "") == "key_full"
    assert gate.open_session("10.0.0.2", "SHA256:b") is None
    assert reason_of(gate.open_session("10.0.0.2", "SHA256:c") or "") == "address_full"
    assert gate.open_session("10.0.0.3", "SHA256:d") is None
    assert reason_of(gate.open_session("10.0.0.4", "SHA256:e") or "") == "server_full"
    metrics = DoorMetrics()
    metrics.login_refused("nobody@10.0.0.1")  # never a label value that is not a reason
    text = generate_latest(metrics.registry).decode()
    assert 'reason="other"' in text and "nobody" not in text
