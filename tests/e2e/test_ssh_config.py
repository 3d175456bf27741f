"""The example server configs of ``assets/ssh``: sshd accepts the drop-in and applies it as
the README says, the authorized_keys example and the systemd unit run commands that exist,
and all three name the same socket, account and group."""

from __future__ import annotations

import grp
import os
import shlex
import subprocess
from pathlib import Path

import pytest

from minefield.cli import build_parser
from tests.e2e.harness import DROP_IN, KEYS_EXAMPLE, ME, REPOSITORY, keygen, tool

UNIT = REPOSITORY / "assets" / "ssh" / "minefield.service"
SOCKET = "/run/minefield/minefield.sock"


def _unit() -> dict[str, list[str]]:
    """The unit's settings (``Key=value`` lines; a key may repeat)."""
    settings: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key, []).append(value)
    return settings


def _effective(config: Path, user: str) -> dict[str, str]:
    """``sshd -T``: the settings sshd applies to a login of ``user`` from 127.0.0.1."""
    done = subprocess.run([tool("sshd"), "-T", "-f", str(config), "-C",
                           f"user={user},host=localhost,addr=127.0.0.1"],
                          capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    return dict(line.partition(" ")[::2] for line in done.stdout.splitlines())


@pytest.fixture
def main_config(tmp_path: Path) -> Path:
    """A minimal main sshd_config that includes a copy of the drop-in in which the players'
    group is this user's group and the shared account another name, as Debian's includes
    ``sshd_config.d/*.conf`` at its top."""
    if os.geteuid() == 0:
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)
    group = grp.getgrgid(os.getgid()).gr_name
    drop_in = tmp_path / "minefield.conf"
    drop_in.write_text(DROP_IN.read_text().replace("Group minefield", f"Group {group}"))
    config = tmp_path / "sshd_config"
    config.write_text(f"Include {drop_in}\nHostKey {keygen(tmp_path / 'host_key')}\n"
                      "UsePAM no\nX11Forwarding yes\nClientAliveInterval 300\n")
    return config


def test_sshd_accepts_the_drop_in(main_config: Path) -> None:
    done = subprocess.run([tool("sshd"), "-t", "-f", str(main_config)], capture_output=True,
                          text=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr


def test_group_members_always_get_the_game_and_no_tunnels(main_config: Path) -> None:
    player = _effective(main_config, ME)  # in the players' group here
    assert player["forcecommand"] == "/usr/local/bin/minefield ssh-entry"
    assert player["setenv"] == f"MINEFIELD_SOCKET={SOCKET}"
    for setting, value in [("disableforwarding", "yes"), ("allowagentforwarding", "no"),
                           ("allowtcpforwarding", "no"), ("x11forwarding", "no"),
                           ("permittunnel", "no"), ("permittty", "yes"),
                           ("permituserrc", "no"), ("permituserenvironment", "no"),
                           ("clientaliveinterval", "15"), ("clientalivecountmax", "4")]:
        assert player[setting] == value, setting


def test_the_shared_account_keeps_each_keys_command(main_config: Path) -> None:
    shared = _effective(main_config, "mahjong")
    # A ForceCommand would replace the command of each authorized_keys line (and the name).
    assert shared["forcecommand"] == "none"
    assert shared["authorizedkeysfile"] == "/etc/minefield/authorized_keys"
    assert shared["authenticationmethods"] == "publickey"
    assert shared["passwordauthentication"] == "no"
    assert shared["setenv"] == f"MINEFIELD_SOCKET={SOCKET}"
    for setting, value in [("disableforwarding", "yes"), ("x11forwarding", "no"),
                           ("permittunnel", "no"), ("permituserrc", "no"),
                           ("clientaliveinterval", "15")]:
        assert shared[setting] == value, setting


def test_the_drop_in_changes_nobody_else(main_config: Path) -> None:
    other = _effective(main_config, "nobody")
    assert other["forcecommand"] == "none"
    assert other["x11forwarding"] == "yes"  # the main config's, not the drop-in's
    assert other["clientaliveinterval"] == "300"


def test_every_example_key_runs_ssh_entry_as_a_named_player() -> None:
    lines = [line for line in KEYS_EXAMPLE.read_text().splitlines()
             if line and not line.startswith("#")]
    assert len(lines) >= 2
    for line in lines:
        options, _, key = line.partition(" ssh-ed25519 ")
        assert key, line
        prefix = 'restrict,pty,command="'
        assert options.startswith(prefix) and options.endswith('"'), line
        command = shlex.split(options[len(prefix):-1])
        assert command[:2] == ["/usr/local/bin/minefield", "ssh-entry"]
        args = build_parser().parse_args(command[1:])
        assert args.player and args.socket is None  # the socket comes from SetEnv


def test_the_unit_runs_the_daemon_hardened_on_the_socket_ssh_uses() -> None:
    unit = _unit()
    command = shlex.split(unit["ExecStart"][0])
    assert command[:2] == ["/usr/local/bin/minefield", "serve"]
    args = build_parser().parse_args(command[1:])
    assert str(args.socket) == SOCKET and args.group == "minefield"
    assert args.shared_account == "mahjong" and str(args.data) == "/var/lib/minefield"
    assert f"MINEFIELD_SOCKET={SOCKET}" in DROP_IN.read_text()
    expected = {"User": "minefield", "RuntimeDirectory": "minefield",
                "RuntimeDirectoryMode": "0750", "StateDirectory": "minefield",
                "ProtectSystem": "strict", "ProtectHome": "yes", "NoNewPrivileges": "yes",
                "PrivateTmp": "yes", "RestrictAddressFamilies": "AF_UNIX",
                "SystemCallFilter": "@system-service"}
    for key, value in expected.items():
        assert value in unit.get(key, []), key
