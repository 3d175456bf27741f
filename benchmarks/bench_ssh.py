"""``minefield ssh-server`` under load: the first frame of a session, memory per session, and
the game daemon's latency at the same time.

The script starts ``minefield ssh-server --open`` on a free port in a temporary folder (limits
raised so that one address may open every session) and claims a name for a fresh key per
session (the daemon holds at most 8 connections per player), then:

1. first frame: ``ssh -tt -p PORT 127.0.0.1`` in a new pseudo-terminal of 100x32, from the
   launch of ``ssh`` (key exchange and authentication included) to the lobby's text on the
   screen (its list of who is online, which comes from the daemon); ``--runs`` times (median
   and p95; goal 0.5 s). For scale, the same ``ssh`` running
   ``whoami`` (the SSH part alone) and a plain local ``minefield lobby`` on the same daemon (no
   SSH, a fresh interpreter) are timed too;
2. memory: with 1, 50 and 200 sessions open in the lobby (``--sessions``), the USS (pages only
   that process has: ``Private_Clean + Private_Dirty`` of ``/proc/PID/smaps_rollup``) and the
   PSS of each session's client, and of the front door and its process server (goal: at most
   30 MB of USS per session);
3. while those sessions are open, the embedded daemon's round trip (a ``ping`` answered by a
   ``pong`` on its socket, every 120 ms as the daemon allows 10 messages a second, ``--pings``
   of them): p50 and p99. The daemon runs in the front door's event loop, so this is also that
   loop's latency;
4. memory after games: one session plays games against the bot from the lobby (``b``; its
   hand chosen by the clock, each discard by Enter, Escape on the result), and its USS (every
   process of the session: the client and any child of it) is measured in the lobby before
   the first game and back in the lobby after 1, 3 and 10 games (``--games``; goal: 30 MB,
   and no more than the fresh session plus a little).

Usage: ``nice -n 5 python benchmarks/bench_ssh.py [--runs 20] [--sessions 1,50,200]
[--pings 200] [--games 1,3,10]``; ``--runs 0``, ``--sessions ''`` or ``--games ''`` leaves a
part out. Not a test: it only prints.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import pty
import re
import select
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

GOAL_SECONDS = 0.5
GOAL_USS_MB = 30.0
COLUMNS, ROWS = 100, 32
MENU_MARKER = b"Online ("
RESULT_MARKER = b"Play again"
#: The local menu (a version that shows it after a game instead of the lobby).
LOCAL_MENU_MARKER = b"Practice against"
LIMIT = 120.0
OSC = re.compile(rb"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


def _minefield() -> str:
    beside = Path(sys.executable).parent / "minefield"
    found = str(beside) if beside.exists() else shutil.which("minefield")
    if found is None:
        sys.exit("bench_ssh: the minefield command is not installed (pip install -e .)")
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Terminal:
    """A program in a new pseudo-terminal of COLUMNS x ROWS; what it wrote so far."""

    def __init__(self, argv: Sequence[str], env: dict[str, str]) -> None:
        self.started = time.perf_counter()
        pid, master = pty.fork()
        if pid == 0:
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
                os.execve(argv[0], list(argv), env)
            finally:
                os._exit(127)
        self.pid, self.master = pid, master
        self.output = b""

    def read_until(self, marker: bytes, limit: float = LIMIT, since: int = 0,
                   poll: float = 0.5) -> float:
        """Seconds from the launch until ``marker`` was written (after ``since`` bytes of the
        output; inf if never)."""
        deadline = time.perf_counter() + limit
        while time.perf_counter() < deadline:
            ready, _, _ = select.select([self.master], [], [], poll)
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:
                    return float("inf")
                if not data:
                    return float("inf")
                self.output += data
                if marker in OSC.sub(b"", self.output[since:]):
                    return time.perf_counter() - self.started
            elif poll < 0.5:
                return float("inf")  # nothing more for now: the caller acts and asks again
        return float("inf")

    def write(self, data: bytes) -> None:
        """Type ``data``."""
        os.write(self.master, data)

    def drain(self) -> None:
        """Read what is waiting (so the program never blocks on a full terminal)."""
        while True:
            ready, _, _ = select.select([self.master], [], [], 0)
            if not ready:
                return
            try:
                if not os.read(self.master, 65536):
                    return
            except OSError:
                return

    def close(self) -> None:
        """Hang up and reap."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGTERM)
        with contextlib.suppress(OSError):
            os.close(self.master)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


def memory(pid: int) -> tuple[float, float]:
    """USS and PSS of ``pid`` in MB."""
    fields: dict[str, int] = {}
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            parts = line.split()
            if len(parts) >= 2 and parts[1].isdigit():
                fields[parts[0].rstrip(":")] = int(parts[1])
    uss = fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0)
    return uss / 1024, fields.get("Pss", 0) / 1024


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (any of its threads)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid:
            found.append(int(entry.name))
    return found


def _tree(pid: int) -> list[int]:
    """``pid`` and every process under it."""
    found = [pid]
    for child in _children(pid):
        found += _tree(child)
    return found


def _session_uss(zygotes: list[int]) -> float:
    """The USS (MB) of the one session open: its client and every process under it."""
    sessions = [pid for zygote in zygotes for pid in _children(zygote)]
    return sum(memory(pid)[0] for session in sessions for pid in _tree(session))


def _play_a_game(terminal: Terminal) -> bool:
    """From the lobby: a game against the bot (``b``), Enter on each turn (the clock chooses
    the hand), then Escape back to the lobby (``q`` too where Escape shows the local menu)."""
    start = len(terminal.output)
    terminal.write(b"b")
    deadline = time.monotonic() + LIMIT * 3
    while terminal.read_until(RESULT_MARKER, 0.2, since=start, poll=0.2) == float("inf"):
        if time.monotonic() > deadline:
            return False
        terminal.write(b"\r")
    time.sleep(0.3)
    start = len(terminal.output)
    terminal.write(b"\x1b")
    if terminal.read_until(MENU_MARKER, 10.0, since=start) == float("inf"):
        if LOCAL_MENU_MARKER not in OSC.sub(b"", terminal.output[start:]):
            return False
        start = len(terminal.output)
        terminal.write(b"q")
        if terminal.read_until(MENU_MARKER, LIMIT, since=start) == float("inf"):
            return False
    return True


def games_memory(key: Path, port: int, env: dict[str, str], door: int,
                 counts: Sequence[int]) -> None:
    """One session's USS in the lobby before any game and after each count of games."""
    zygotes = _children(door)
    terminal = Terminal(_ssh(key, port, tty=True), env)
    try:
        if terminal.read_until(MENU_MARKER) == float("inf"):
            print("  the session did not show the lobby:", terminal.output[-300:])
            return
        time.sleep(2.0)
        fresh = _session_uss(zygotes)
        print(f"  fresh, in the lobby: USS {fresh:.1f} MB")
        played = 0
        for count in counts:
            while played < count:
                if not _play_a_game(terminal):
                    print(f"  game {played + 1} did not end in the lobby:",
                          OSC.sub(b"", terminal.output[-400:]))
                    return
                played += 1
            time.sleep(2.0)
            uss = _session_uss(zygotes)
            print(f"  back in the lobby after {played:>2} game{'s' if played > 1 else ' '}: "
                  f"USS {uss:.1f} MB ({uss - fresh:+.1f} MB; goal {GOAL_USS_MB:g} MB)")
    finally:
        terminal.close()


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


@contextlib.contextmanager
def front_door(folder: Path, sessions: int) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """A running ssh-server (its process and port); a bot that does not pause, a hand chosen
    by the clock after a second (the games of part 4)."""
    port = _free_port()
    log = (folder / "door.log").open("wb")
    allowance = str(max(sessions * 2, 100))
    process = subprocess.Popen(
        [_minefield(), "ssh-server", "--open", "--listen", f"127.0.0.1:{port}", "--data",
         str(folder / "door"), "--max-sessions", allowance, "--sessions-per-key", allowance,
         "--sessions-per-address", allowance, "--auth-per-minute", "100000",
         "--pending-per-address", allowance, "--bot-think", "0", "--hand-seconds", "1"],
        stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    deadline = time.monotonic() + LIMIT
    while f"listening on 127.0.0.1:{port}" not in (folder / "door.log").read_text():
        if process.poll() is not None or time.monotonic() > deadline:
            sys.exit("bench_ssh: ssh-server did not start:\n" + (folder / "door.log").read_text())
        time.sleep(0.1)
    try:
        yield process, port
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def _ssh(key: Path, port: int, *remote: str, tty: bool = False) -> list[str]:
    return [shutil.which("ssh") or "ssh", "-tt" if tty else "-T", "-p", str(port), "-i",
            str(key), "-F", "/dev/null", "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
            "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
            "-o", "LogLevel=ERROR", "127.0.0.1", *remote]


def _ping_latencies(socket_path: Path, count: int) -> list[float]:
    """Round trips of ``ping`` on the daemon's socket (a probe player in a bot game)."""
    from minefield.protocol.messages import PROTOCOL_VERSION

    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(LIMIT)
    probe.connect(str(socket_path))
    reader = probe.makefile("rb")
    hello = {"type": "hello", "version": PROTOCOL_VERSION, "action": "host", "bot": "easy",
             "player": "benchprobe"}
    probe.sendall(json.dumps(hello).encode() + b"\n")
    times = []
    for _ in range(count):
        time.sleep(0.12)  # under the daemon's 10 messages a second per connection
        start = time.perf_counter()
        probe.sendall(b'{"type": "ping"}\n')
        while True:
            line = reader.readline()
            if not line:
                raise RuntimeError("the daemon closed the probe")
            if b'"pong"' in line:
                break
        times.append(time.perf_counter() - start)
    probe.close()
    return times


def main(argv: Sequence[str] | None = None) -> int:
    """Run the measurements and print them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--sessions", default="1,50,200")
    parser.add_argument("--pings", type=int, default=200)
    parser.add_argument("--games", default="1,3,10")
    args = parser.parse_args(argv)
    levels = [int(word) for word in args.sessions.split(",") if word]
    games = [int(word) for word in args.games.split(",") if word]
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TERM": "xterm-256color",
           "LANG": "C.UTF-8", "HOME": os.environ.get("HOME", "/tmp")}
    with tempfile.TemporaryDirectory(prefix="mfbench", dir="/tmp") as name:
        folder = Path(name)
        # One key and name per session: the daemon holds at most 8 connections per player.
        players = [folder / f"key{number}" for number in range(max([*levels, 1]))]
        for path in players:
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)],
                           check=True)
        key = players[0]
        with front_door(folder, max([*levels, 1])) as (door, port):
            for number, path in enumerate(players):
                subprocess.run(_ssh(path, port, "name", f"Bench{number}"), check=True,
                               capture_output=True, timeout=LIMIT)
            if games:
                print(f"memory of one session after games against the bot ({args.games}):")
                games_memory(key, port, env, door.pid, games)
            if args.runs <= 0 and not levels:
                return 0
            print(f"first frame of `ssh -tt -p PORT 127.0.0.1` (the lobby), {args.runs} runs "
                  f"(goal {GOAL_SECONDS} s):")
            frames = []
            for _ in range(args.runs):
                terminal = Terminal(_ssh(key, port, tty=True), env)
                frames.append(terminal.read_until(MENU_MARKER))
                terminal.close()
                time.sleep(0.2)
            print(f"  median {statistics.median(frames):.3f} s, p95 "
                  f"{_quantile(frames, 0.95):.3f} s, min {min(frames):.3f} s, max "
                  f"{max(frames):.3f} s")
            logins = []
            for _ in range(min(args.runs, 10)):
                start = time.perf_counter()
                subprocess.run(_ssh(key, port, "whoami"), check=True, capture_output=True,
                               timeout=LIMIT)
                logins.append(time.perf_counter() - start)
            print(f"  for scale: `ssh ... whoami` (SSH alone) median "
                  f"{statistics.median(logins):.3f} s")
            local = []
            for _ in range(min(args.runs, 5)):
                terminal = Terminal([_minefield(), "lobby", "--player", "Local", "--socket",
                                     str(folder / "door" / "run" / "daemon.sock")],
                                    {**env, "MINEFIELD_DATA_DIR": str(folder / "local")})
                local.append(terminal.read_until(MENU_MARKER))
                terminal.close()
            print(f"  for scale: local `minefield lobby` (a fresh interpreter, no SSH) median "
                  f"{statistics.median(local):.3f} s")
            zygotes = _children(door.pid)
            daemon_socket = folder / "door" / "run" / "daemon.sock"
            print(f"\nmemory per session in the lobby (goal: USS <= {GOAL_USS_MB:g} MB); daemon "
                  f"ping round trip meanwhile ({args.pings} pings):")
            open_terminals: list[Terminal] = []
            try:
                for level in levels:
                    while len(open_terminals) < level:
                        player = players[len(open_terminals)]
                        terminal = Terminal(_ssh(player, port, tty=True), env)
                        if terminal.read_until(MENU_MARKER) == float("inf"):
                            print("  a session did not show the lobby:",
                                  terminal.output[-300:])
                            return 1
                        open_terminals.append(terminal)
                        for other in open_terminals:
                            other.drain()
                    time.sleep(2.0)
                    sessions = [pid for zygote in zygotes for pid in _children(zygote)]
                    figures = [memory(pid) for pid in sessions]
                    uss = [m[0] for m in figures]
                    pss = [m[1] for m in figures]
                    door_uss, _door_pss = memory(door.pid)
                    zygote_uss, zygote_pss = memory(zygotes[0]) if zygotes else (0.0, 0.0)
                    pings = _ping_latencies(daemon_socket, args.pings)
                    print(f"  {level:>3} sessions ({len(sessions)} clients): USS per session "
                          f"mean {statistics.mean(uss):.1f} MB, max {max(uss):.1f} MB; PSS "
                          f"mean {statistics.mean(pss):.1f} MB; front door USS "
                          f"{door_uss:.1f} MB, process server USS {zygote_uss:.1f} MB (PSS "
                          f"{zygote_pss:.1f}); daemon ping p50 "
                          f"{statistics.median(pings) * 1000:.2f} ms, p99 "
                          f"{_quantile(pings, 0.99) * 1000:.2f} ms")
            finally:
                for terminal in open_terminals:
                    terminal.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
