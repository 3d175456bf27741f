"""The systemd unit shipped for ``minefield ssh-server`` (assets/ssh/minefield-ssh.service):
a command the program accepts, the stop that lets the server restore its players' terminals,
the hardening, ``systemd-analyze verify`` finding nothing wrong where that tool exists; and
the bound on ``--keepalive`` it runs with."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from minefield.cli import build_parser
from tests.e2e.harness import REPOSITORY, minefield_command

UNIT = REPOSITORY / "assets" / "ssh" / "minefield-ssh.service"


def _settings() -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key, []).append(value)
    return settings


def test_the_unit_runs_ssh_server_hardened_and_stops_it_gently() -> None:
    unit = _settings()
    command = shlex.split(unit["ExecStart"][0])
    assert command[:2] == ["/usr/local/bin/minefield", "ssh-server"]
    args = build_parser().parse_args(command[1:])
    assert str(args.data) == "/var/lib/minefield-ssh" == f"/var/lib/{unit['StateDirectory'][0]}"
    assert str(args.allow) == "/etc/minefield/allowed_keys" and args.listen[1] == 2222
    # SIGTERM to the server alone (it ends its sessions itself), not to every session at once.
    assert unit["KillMode"] == ["mixed"]
    expected = {"User": "minefield-ssh", "NoNewPrivileges": "yes", "ProtectSystem": "strict",
                "ProtectHome": "yes", "PrivateTmp": "yes", "PrivateDevices": "yes",
                "CapabilityBoundingSet": "", "SystemCallFilter": "@system-service",
                "RestrictAddressFamilies": "AF_UNIX AF_INET AF_INET6",
                "MemoryDenyWriteExecute": "yes", "Restart": "on-failure"}
    for key, value in expected.items():
        assert unit.get(key) == [value], key
    readme = (REPOSITORY / "README.md").read_text()
    assert "assets/ssh/minefield-ssh.service" in readme and "nohup" in readme


def test_systemd_analyze_verify_accepts_the_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    # The program where this environment has it (verify checks that ExecStart exists).
    unit = tmp_path / UNIT.name
    unit.write_text(UNIT.read_text().replace("/usr/local/bin/minefield", minefield_command()))
    done = subprocess.run([analyze, "verify", "--man=no", str(unit)], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert str(unit) not in done.stderr, done.stderr  # a setting it could not parse


def test_the_keepalive_is_at_most_45_seconds() -> None:
    """A dead link is noticed within a minute: a longer keepalive is refused."""
    parser = build_parser()
    assert parser.parse_args(["ssh-server"]).keepalive == 45.0
    assert parser.parse_args(["ssh-server", "--keepalive", "6"]).keepalive == 6.0
    with pytest.raises(SystemExit):
        parser.parse_args(["ssh-server", "--keepalive", "90"])
