"""What the end-to-end tests drive: a real OpenSSH server with its own throwaway files, the
game daemon as a process, and terminals in a private tmux server.

Nothing here touches the machine's own sshd, tmux or home folder: every file lives in one
temporary folder. Every wait is bounded and polls (a limit is a safety net on a loaded
machine, never an assertion on speed). In CI (``CI=true``) a missing or broken ``sshd`` or
``tmux`` fails the test; elsewhere it skips.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TypeVar

import pytest

from minefield.server.identity import user_name

#: The longest any one step may take before the test gives up (a safety net, not a timing).
STEP_LIMIT = 60.0
#: The terminal each player has.
COLUMNS, ROWS = 100, 32
SSHD = Path("/usr/sbin/sshd")
ME = user_name(os.getuid())
REPOSITORY = Path(__file__).resolve().parents[2]
DROP_IN = REPOSITORY / "assets" / "ssh" / "sshd_config.d" / "minefield.conf"
KEYS_EXAMPLE = REPOSITORY / "assets" / "ssh" / "authorized_keys.example"
SHARED_ACCOUNT = "mahjong"  # the shared account the example configs name

T = TypeVar("T")


def in_ci() -> bool:
    """True on a CI runner, where the end-to-end tests must run."""
    return os.environ.get("CI", "").lower() in ("true", "1", "yes")


def unavailable(reason: str) -> None:
    """Fail in CI, skip elsewhere: the tools for an end-to-end test are missing."""
    if in_ci():
        pytest.fail(f"CI=true and the end-to-end test cannot run: {reason}", pytrace=False)
    pytest.skip(reason)


def tool(name: str) -> str:
    """The path of a program the test needs (see :func:`unavailable`)."""
    path = str(SSHD) if name == "sshd" and SSHD.exists() else shutil.which(name)
    if path is None:
        unavailable(f"{name} is not installed (apt-get install openssh-server openssh-client "
                    "tmux)")
        raise AssertionError("unreachable")
    return path


def minefield_command() -> str:
    """The absolute path of this environment's ``minefield`` console script."""
    beside = Path(sys.executable).parent / "minefield"
    found = str(beside) if beside.exists() else shutil.which("minefield")
    if found is None:
        pytest.fail("the minefield command is not installed (pip install -e .)")
    return found


def wait_for(what: str, check: Callable[[], T | None], on_timeout: Callable[[], str],
             limit: float = STEP_LIMIT) -> T:
    """Poll ``check`` until it gives a true value; fail with ``on_timeout()`` after ``limit``."""
    deadline = time.monotonic() + limit
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: still not the case after {limit:.0f} s\n{on_timeout()}",
                        pytrace=False)
        time.sleep(0.15)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def keygen(path: Path) -> Path:
    """A fresh ed25519 key pair without a passphrase at ``path`` (and ``path.pub``)."""
    subprocess.run([tool("ssh-keygen"), "-q", "-t", "ed25519", "-N", "", "-C", path.name,
                    "-f", str(path)], check=True, timeout=30, stdin=subprocess.DEVNULL)
    return path


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


class Daemon:
    """``minefield serve`` as a process, this user its shared account."""

    def __init__(self, folder: Path, *options: str, shared: bool = True) -> None:
        """``shared``: this user is the daemon's shared account (else a personal account)."""
        self.socket = folder / "run" / "minefield.sock"
        self.data = folder / "server"
        self.log = folder / "serve.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [minefield_command(), "serve", "--socket", str(self.socket), "--data",
                 str(self.data), *(["--shared-account", ME] if shared else []), *options],
                stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        wait_for("the game daemon listens", self._listening, self.report)

    def _listening(self) -> bool:
        if self.process.poll() is not None:
            pytest.fail(f"the game daemon exited\n{self.report()}", pytrace=False)
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            try:
                probe.connect(str(self.socket))
            except OSError:
                return False
        return True

    def report(self) -> str:
        """The daemon's log."""
        return "daemon log:\n" + self.log.read_text(errors="replace")[-4000:]

    def stop(self) -> None:
        """SIGTERM, as systemd stops it."""
        _stop(self.process)


def _substitute(text: str, changes: dict[str, str]) -> str:
    for old, new in changes.items():
        assert old in text, f"the shipped config no longer mentions {old!r}"
        text = text.replace(old, new)
    return text


class Sshd:
    """A real ``sshd -D`` on 127.0.0.1 with the shipped drop-in, its own host key and keys file.

    The drop-in's shared account is this user, so its ``Match User`` block applies and the
    ``authorized_keys`` lines (from the shipped example) name the players.
    """

    def __init__(self, folder: Path, daemon_socket: Path, players: dict[str, Path],
                 environment: dict[str, str], netns: str | None = None,
                 listen: Sequence[str] = ("127.0.0.1",)) -> None:
        """``netns``: run sshd in that network namespace (made by :class:`DeadLinkNet`),
        listening on ``listen`` there, on a fixed port (the namespace is the test's own)."""
        self.folder = folder
        self.prefix = ["ip", "netns", "exec", netns] if netns else []
        self.listen = tuple(listen)
        #: Per key: the namespace command prefix and the address its ssh client uses.
        self.routes: dict[Path, tuple[list[str], str]] = {}
        self.log = folder / "sshd.log"
        command = minefield_command()
        keys_file = folder / "authorized_keys"
        keys_file.write_text(authorized_keys(players, command, environment))
        keys_file.chmod(0o600)
        drop_in = folder / "minefield.conf"
        drop_in.write_text(_substitute(DROP_IN.read_text(), {
            SHARED_ACCOUNT: ME,
            "/etc/minefield/authorized_keys": str(keys_file),
            "/run/minefield/minefield.sock": str(daemon_socket),
            "/usr/local/bin/minefield": command,
        }))
        host_key = keygen(folder / "host_key")
        self.config = folder / "sshd_config"
        if os.geteuid() == 0:
            # sshd run by root wants its privilege separation folder (systemd makes it).
            Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0
        for _attempt in range(5):  # another program may take the free port first
            self.port = 2222 if netns else free_port()
            listen_lines = "".join(f"ListenAddress {address}\n" for address in self.listen)
            self.config.write_text(
                f"Include {drop_in}\n"  # first, as Debian's sshd_config includes its drop-ins
                f"{listen_lines}Port {self.port}\nHostKey {host_key}\n"
                f"PidFile {folder / 'sshd.pid'}\nAuthorizedKeysFile {keys_file}\n"
                f"AllowUsers {ME}\nPubkeyAuthentication yes\nPasswordAuthentication no\n"
                "KbdInteractiveAuthentication no\nUsePAM no\nStrictModes no\n"
                "PermitRootLogin prohibit-password\nPrintMotd no\nPrintLastLog no\n"
                # As Debian's main config has it: the forced command must win over it.
                "Subsystem sftp /usr/lib/openssh/sftp-server\n"
                "LogLevel VERBOSE\n")
            check = subprocess.run([tool("sshd"), "-t", "-f", str(self.config)],
                                   capture_output=True, text=True, timeout=30, check=False)
            if check.returncode != 0:
                unavailable(f"sshd refuses the test configuration: {check.stderr.strip()}")
            with self.log.open("wb") as log:
                self.process = subprocess.Popen(
                    [*self.prefix, tool("sshd"), "-D", "-e", "-f", str(self.config)],
                    stdin=subprocess.DEVNULL, stdout=log, stderr=log)
            if self._wait_listening():
                return
        unavailable(f"sshd did not start\n{self.report()}")

    def _wait_listening(self) -> bool:
        assert self.process is not None
        deadline = time.monotonic() + STEP_LIMIT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            if self.prefix:  # in another namespace: its log says when it listens
                text = self.log.read_text(errors="replace")
                if all(f"Server listening on {address} port" in text
                       for address in self.listen):
                    return True
                time.sleep(0.1)
                continue
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
                probe.settimeout(2)
                try:
                    probe.connect(("127.0.0.1", self.port))
                    return True
                except OSError:
                    pass
            time.sleep(0.1)
        return False

    def ssh(self, key: Path, *remote: str, tty: bool = True) -> list[str]:
        """The command line of an ``ssh`` client logging in with ``key``, typing ``remote``
        (from the namespace and to the address :attr:`routes` gives ``key``)."""
        prefix, address = self.routes.get(key, (self.prefix, self.listen[0]))
        return [*prefix, tool("ssh"), "-t" if tty else "-T", "-p", str(self.port), "-i",
                str(key), "-F", "/dev/null", "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
                "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                "-o", "LogLevel=ERROR", f"{ME}@{address}", *remote]

    def report(self) -> str:
        """sshd's log."""
        return "sshd log:\n" + self.log.read_text(errors="replace")[-4000:]

    def stop(self) -> None:
        """Stop sshd (the sessions it started end with it)."""
        if self.process is not None:
            _stop(self.process)


def authorized_keys(players: dict[str, Path], command: str, environment: dict[str, str]
                    ) -> str:
    """The shipped example's lines with real keys, this environment's ``minefield`` and, in
    front of it, ``env`` setting each player's data and config folders (kept in the test)."""
    lines = [line for line in KEYS_EXAMPLE.read_text().splitlines()
             if line and not line.startswith("#")]
    result = []
    for line in lines:
        options = line.partition(" ssh-ed25519 ")[0]
        name = options.rsplit("--player ", 1)[1].rstrip('"')
        if name not in players:
            continue
        settings = " ".join(f"{key}={value}" for key, value in environment.items())
        options = options.replace("/usr/local/bin/minefield", f"env {settings} {command}")
        public = players[name].with_suffix(".pub").read_text().split()[:2]
        result.append(f"{options} {' '.join(public)} {name}@test\n")
    assert len(result) == len(players), "the example names other players"
    return "".join(result)


class Terminals:
    """Terminals of ``COLUMNS`` x ``ROWS`` in a tmux server of the test's own."""

    def __init__(self, folder: Path) -> None:
        self.tmux = tool("tmux")
        self.socket = folder / "tmux.sock"
        self.conf = folder / "tmux.conf"
        self.conf.write_text(
            'set -g default-terminal "xterm-256color"\n'  # what ssh passes on as TERM
            "set -g status off\n"  # all the rows for the game
            "set -g remain-on-exit on\n"  # a pane whose ssh ended can still be read
            "set -g escape-time 0\n")

    def _tmux(self, *args: str) -> str:
        done = subprocess.run([self.tmux, "-S", str(self.socket), "-f", str(self.conf), *args],
                              capture_output=True, text=True, timeout=30, check=False,
                              stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args[:1])}: {done.stderr.strip()}")
        return done.stdout

    def open(self, name: str, argv: Sequence[str]) -> None:
        """A terminal named ``name`` running ``argv`` (no shell in between)."""
        try:
            self._tmux("new-session", "-d", "-s", name, "-x", str(COLUMNS), "-y", str(ROWS),
                       *argv)
        except RuntimeError as error:
            unavailable(f"tmux cannot open a terminal: {error}")

    def screen(self, name: str) -> str:
        """What the terminal shows now."""
        return self._tmux("capture-pane", "-p", "-t", name)

    def keys(self, name: str, *keys: str) -> None:
        """Type ``keys`` (tmux key names: ``Space``, ``Right``, ``Enter``, ``y``)."""
        self._tmux("send-keys", "-t", name, *keys)

    def pid(self, name: str) -> int:
        """The process running in the terminal (the ssh client)."""
        return int(self._tmux("display-message", "-p", "-t", name, "#{pane_pid}"))

    def ended(self, name: str) -> bool:
        """True once the terminal's program has exited."""
        return self._tmux("display-message", "-p", "-t", name, "#{pane_dead}").strip() == "1"

    def close(self, name: str) -> None:
        """Close one terminal."""
        with contextlib.suppress(RuntimeError):
            self._tmux("kill-session", "-t", name)

    def close_all(self) -> None:
        """Stop the tmux server."""
        with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
            self._tmux("kill-server")


class DeadLinkNet:
    """Two network namespaces of this test's own joined by a veth pair: the server side (sshd,
    and ``127.0.0.1`` inside it for the players who stay) and a player's side, whose link can
    be taken down. Names and the private /30 are drawn at random per run, and every address
    lives only inside these namespaces. Needs root (``ip netns``); :func:`unavailable`
    otherwise.
    """

    def __init__(self) -> None:
        if os.geteuid() != 0 or shutil.which("ip") is None:
            unavailable("a dead link needs root and iproute2 (ip netns)")
        tag = f"{os.getpid() % 100000:05d}{secrets.token_hex(2)}"
        self.server, self.player = f"mfe2e{tag}s", f"mfe2e{tag}p"
        self.server_end, self.player_end = f"mf{tag}s", f"mf{tag}p"  # at most 15 characters
        base = secrets.randbelow(2**14) * 4  # a /30 of 10.0.0.0/8, as two bytes and a half
        prefix = f"10.{(base >> 8) & 255}.{base & 252}"
        self.server_address, self.player_address = f"{prefix}.1", f"{prefix}.2"
        self._made: list[str] = []
        try:
            for name in (self.server, self.player):
                self._ip("netns", "add", name)
                self._made.append(name)
                self._ip("-n", name, "link", "set", "lo", "up")
            self._ip("-n", self.server, "link", "add", self.server_end, "type", "veth",
                     "peer", "name", self.player_end, "netns", self.player)
            self._ip("-n", self.server, "addr", "add", f"{self.server_address}/30", "dev",
                     self.server_end)
            self._ip("-n", self.player, "addr", "add", f"{self.player_address}/30", "dev",
                     self.player_end)
            self._ip("-n", self.server, "link", "set", self.server_end, "up")
            self._ip("-n", self.player, "link", "set", self.player_end, "up")
        except BaseException:
            self.close()
            raise

    @staticmethod
    def _ip(*args: str) -> None:
        done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30,
                              check=False, stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            unavailable(f"ip {' '.join(args)}: {done.stderr.strip()}")

    def prefix(self, namespace: str) -> list[str]:
        """The command prefix that runs a program in ``namespace``."""
        return ["ip", "netns", "exec", namespace]

    def cut(self) -> None:
        """The player's link goes down: no packet passes either way, nobody is told."""
        self._ip("-n", self.player, "link", "set", self.player_end, "down")

    def restore(self) -> None:
        """The player's link comes back."""
        self._ip("-n", self.player, "link", "set", self.player_end, "up")

    def close(self) -> None:
        """Delete the namespaces (and with them the veth pair)."""
        for name in reversed(self._made):
            subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=30,
                           check=False, stdin=subprocess.DEVNULL)
        self._made.clear()


@contextlib.contextmanager
def short_folder() -> Iterator[Path]:
    """A folder with a short path (Unix socket paths have at most 107 bytes)."""
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="mfe2e", dir="/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
