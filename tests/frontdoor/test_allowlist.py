"""``ssh-server --allow FILE``: OpenSSH's ``from=`` honoured, any option that would silently
not be done refused at load (its line named in the log), the file checked before anything is
made; and, with the real OpenSSH client, a key let in only from its addresses."""

from __future__ import annotations

import logging
import subprocess
from pathlib import Path

import pytest

from minefield.frontdoor.allowlist import allowed_from, read_allowed, split_options
from tests.e2e.harness import minefield_command
from tests.frontdoor.conftest import FrontDoorProcess

ED25519 = "AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"


def test_options_are_split_as_openssh_reads_them() -> None:
    assert split_options('restrict,from="10.0.0.0/8,!10.0.0.7",command="a \\"b\\""') == [
        ("restrict", None), ("from", "10.0.0.0/8,!10.0.0.7"), ("command", 'a "b"')]


def test_from_patterns_match_addresses_as_sshd_does() -> None:
    assert allowed_from(["127.0.0.2"], "127.0.0.2") and not allowed_from(["127.0.0.2"],
                                                                          "127.0.0.1")
    assert allowed_from(["192.168.*", "!192.168.0.9"], "192.168.4.4")
    assert not allowed_from(["192.168.*", "!192.168.0.9"], "192.168.0.9")
    assert allowed_from(["2001:db8::/32"], "2001:db8::1")
    assert not allowed_from(["home.example.org"], "127.0.0.1")  # names are not looked up
    assert not allowed_from([], "127.0.0.1")


def test_a_line_with_an_option_that_cannot_be_honoured_is_refused_and_named(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    allow = tmp_path / "allowed"
    allow.write_text(f"# players\nssh-ed25519 {ED25519} plain\n"
                     f'command="/bin/sh" ssh-ed25519 {ED25519} forced\n'
                     f'restrict,from="10.1.*" ssh-ed25519 {ED25519} from\n'
                     f"no-pty ssh-ed25519 {ED25519}\n")
    with caplog.at_level(logging.WARNING, "minefield.frontdoor"):
        allowed = read_allowed(allow)
    assert len(allowed) == 1
    [fingerprint] = allowed.keys
    assert allowed.keys[fingerprint] == [None, ["10.1.*"]]
    assert f"{allow} line 3 refused: the option command= is not supported" in caplog.text
    assert f"{allow} line 5 refused: the option no-pty is not supported" in caplog.text


def test_a_missing_allow_file_is_one_line_and_nothing_is_made(tmp_path: Path) -> None:
    data = tmp_path / "door"
    done = subprocess.run([minefield_command(), "ssh-server", "--data", str(data), "--allow",
                           str(tmp_path / "nowhere"), "--listen", "127.0.0.1:1"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr == f"minefield: ssh-server: --allow {tmp_path / 'nowhere'}: no such file\n"
    assert not data.exists()


def test_a_key_with_from_comes_in_only_from_its_addresses(folder: Path,
                                                          keys: dict[str, Path]) -> None:
    ann, bob = (keys[name].with_suffix(".pub").read_text().strip() for name in ("ann", "bob"))
    allow = folder / "allowed"
    allow.write_text(f'from="127.0.0.2,127.0.0.3" {ann}\ncommand="/bin/sh" {bob}\n')
    door = FrontDoorProcess(folder, "--allow", str(allow))
    try:
        assert "allowed line 2 refused: the option command=" in door.report()
        elsewhere = door.run(keys["ann"], "whoami", "--json")
        assert elsewhere.returncode == 255, elsewhere.stdout
        assert door.run(keys["ann"], "whoami", "--json", source="127.0.0.2").returncode == 0
        refused = door.run(keys["bob"], "whoami", "--json", source="127.0.0.2")
        assert refused.returncode == 255
    finally:
        door.stop()
