"""How long from launching a client to its first frame (goals: the menu 0.35 s, the others 0.5 s).

Each client runs in a fresh pseudo-terminal of 100x32 (``TERM=xterm-256color``), as over SSH.
Two moments are taken from the bytes it writes:

- first output: Textual has started its driver (the alternate screen, mouse modes): the
  interpreter, the imports and the app's construction are done;
- first frame: the first screen content is written (the header's "Minefield" or a tile).

Clients: ``minefield`` (the menu), ``minefield practice --seed 1`` (a local game), and
``minefield host`` and ``minefield join CODE`` against a daemon that this script starts in a
temporary folder (each join gets a fresh room, hosted over the socket by the script). For
scale it also times ``python -c pass``, ``minefield --version`` (the command line without
Textual) and the imports of the app, and lists which packages the imports spend their time
in (``-X importtime``, self time summed per top-level package).

It also reports the CPU seconds each client has used by its first frame (``/proc/PID/stat``),
which a loaded machine changes much less than the wall time, and ``--version``/``--help``
against ``python -c pass``. Figures before and after the cuts to the start, and what was cut, are in
``benchmarks/README.md``.

Usage: ``python benchmarks/bench_startup.py [--runs N] [--clients menu,practice,host,join]``.
Not a test: it only prints. The first run of each client is reported apart (cold caches, among
them an empty cache folder: it is let run 1.5 s after its frame, so that it keeps its parsed
stylesheet as a player's first start does); the others as median and range.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import pty
import pwd
import re
import resource
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
from collections import defaultdict
from collections.abc import Iterator, Sequence
from pathlib import Path

GOAL = 0.5  # the practice builder's first frame (and a network client's)
MENU_GOAL = 0.35
VERSION_GOAL = 1.5  # --version and --help: at most this many times python -c pass
COLUMNS, ROWS = 100, 32
#: Text of the first frame (an OSC title, if any, is removed before looking).
FRAME_MARKERS = (b"Minefield", "╭──╮".encode(), "┌──┐".encode())
OSC = re.compile(rb"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
LIMIT = 60.0
#: Seconds the first (cold) launch of each client goes on after its first frame, as a player's
#: first start would: the parsed stylesheet it keeps is found by the launches after it.
COLD_LINGER = 1.5


def _minefield() -> str:
    beside = Path(sys.executable).parent / "minefield"
    found = str(beside) if beside.exists() else shutil.which("minefield")
    if found is None:
        sys.exit("bench_startup: the minefield command is not installed (pip install -e .)")
    return found


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) process ``pid`` has used so far (``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def first_frame(argv: Sequence[str], env: dict[str, str],
                linger: float = 0.0) -> tuple[float, float, float]:
    """Seconds from launching ``argv`` in a new pty to its first output and first frame, and
    the CPU seconds the client had used by its first frame (what a loaded machine does not
    change much). ``linger``: seconds the client may go on after its frame before it is
    stopped (what it does after its first frame, such as keeping the parsed stylesheet)."""
    start = time.perf_counter()
    pid, master = pty.fork()
    if pid == 0:  # the child: the terminal's size first, then the client
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
            os.execve(argv[0], list(argv), env)
        finally:
            os._exit(127)
    output = b""
    first_output = 0.0
    try:
        while True:
            elapsed = time.perf_counter() - start
            if elapsed > LIMIT:
                raise RuntimeError(f"{argv[1]}: no frame after {LIMIT:.0f} s: {output[-300:]!r}")
            ready, _, _ = select.select([master], [], [], 0.5)
            if not ready:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the client exited
                chunk = b""
            now = time.perf_counter() - start
            if not chunk:
                raise RuntimeError(f"{argv[1]} exited before a frame: {output[-300:]!r}")
            if not output:
                first_output = now
            output += chunk
            visible = OSC.sub(b"", output)
            if any(marker in visible for marker in FRAME_MARKERS):
                cpu = process_cpu(pid)
                until = time.perf_counter() + linger
                while (left := until - time.perf_counter()) > 0:
                    if select.select([master], [], [], left)[0]:
                        with contextlib.suppress(OSError):
                            os.read(master, 65536)
                return first_output, now, cpu
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(master)


def wall_time(argv: Sequence[str], env: dict[str, str]) -> float:
    """Seconds to run ``argv`` to its end (output discarded)."""
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    return time.perf_counter() - start


class Daemon:
    """``minefield serve`` in a temporary folder; this user may name its players."""

    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        self.socket = folder / "run" / "minefield.sock"
        user = pwd.getpwuid(os.getuid()).pw_name
        self.process = subprocess.Popen(
            [_minefield(), "serve", "--socket", str(self.socket), "--data",
             str(folder / "data"), "--shared-account", user],
            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + LIMIT
        while not self._listening():
            if self.process.poll() is not None or time.monotonic() > deadline:
                sys.exit("bench_startup: the daemon did not start")
            time.sleep(0.05)

    def _listening(self) -> bool:
        with socket.socket(socket.AF_UNIX) as probe:
            try:
                probe.connect(str(self.socket))
            except OSError:
                return False
            return True

    @contextlib.contextmanager
    def room(self, player: str) -> Iterator[str]:
        """A waiting room hosted by ``player`` over the socket; its code."""
        from minefield.protocol.messages import PROTOCOL_VERSION

        with socket.socket(socket.AF_UNIX) as conn:
            conn.connect(str(self.socket))
            hello = {"type": "hello", "version": PROTOCOL_VERSION, "action": "host",
                     "player": player}
            conn.sendall(json.dumps(hello).encode() + b"\n")
            reader = conn.makefile("rb")
            for line in reader:
                message = json.loads(line)
                if message.get("type") == "welcome" and message.get("code"):
                    yield str(message["code"])
                    return
                if message.get("type") == "error":
                    sys.exit(f"bench_startup: the daemon refused a room: {message}")
            sys.exit("bench_startup: no room code")

    def stop(self) -> None:
        """SIGTERM."""
        self.process.terminate()
        self.process.wait(timeout=30)


def _row(name: str, samples: list[tuple[float, float, float]], goal: float = GOAL) -> str:
    cold, warm = samples[0], samples[1:] or samples[:1]
    outputs = [s[0] for s in warm]
    frames = [s[1] for s in warm]
    frame, output = statistics.median(frames), statistics.median(outputs)
    cpu = statistics.median(s[2] for s in warm)
    verdict = "ok" if frame <= goal else f"over the {goal} s goal by {frame - goal:.2f} s"
    return (f"{name:<22} first output {output:4.2f} s + drawing {frame - output:4.2f} s = "
            f"first frame {frame:4.2f} s (range {min(frames):.2f}-{max(frames):.2f}, "
            f"cold {cold[1]:.2f}; CPU {cpu:4.2f} s)  {verdict}")


def import_breakdown(env: dict[str, str], top: int = 10) -> list[tuple[str, float]]:
    """Self import time per top-level package for the client (CLI and app), in seconds, the
    largest ``top`` and then the total."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import minefield.cli.game, minefield.tui.app"],
        env=env, capture_output=True, text=True, check=True)
    per_package: dict[str, float] = defaultdict(float)
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if len(parts) != 3 or not parts[0].split(":")[-1].strip().isdigit():
            continue
        name = parts[2].strip()
        root = name.split(".")[0]
        if root == "minefield" and "." in name:
            root = ".".join(name.split(".")[:2])
        per_package[root] += int(parts[0].split(":")[-1]) / 1e6
    ranked = sorted(per_package.items(), key=lambda item: -item[1])[:top]
    return [*ranked, ("(all imports)", sum(per_package.values()))]


def cpu_and_wall(argv: Sequence[str], env: dict[str, str]) -> tuple[float, float]:
    """CPU seconds (user + system) and wall seconds of running ``argv`` to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = wall_time(argv, env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def command_line_ratios(command: str, env: dict[str, str], runs: int) -> None:
    """``--version`` and ``--help`` against ``python -c pass``, launched in turn (so that load
    changes hit all three), as medians of CPU and of wall time."""
    commands = {"python -c pass": [sys.executable, "-c", "pass"],
                "minefield --version": [command, "--version"],
                "minefield --help": [command, "--help"],
                "import the app": [sys.executable, "-c",
                                   "import minefield.cli.game, minefield.tui.app"]}
    cpu: dict[str, list[float]] = defaultdict(list)
    wall: dict[str, list[float]] = defaultdict(list)
    for _ in range(runs):
        for label, argv in commands.items():
            spent, took = cpu_and_wall(argv, env)
            cpu[label].append(spent)
            wall[label].append(took)
    base_cpu = statistics.median(cpu["python -c pass"])
    base_wall = statistics.median(wall["python -c pass"])
    for label in commands:
        ratio_cpu = statistics.median(cpu[label]) / base_cpu
        ratio_wall = statistics.median(wall[label]) / base_wall
        verdict = ""
        if label.startswith("minefield"):
            verdict = ("  ok" if max(ratio_cpu, ratio_wall) <= VERSION_GOAL
                       else f"  over {VERSION_GOAL}x")
        print(f"{label:<22} wall {statistics.median(wall[label]) * 1000:6.1f} ms "
              f"({ratio_wall:4.2f}x), CPU {statistics.median(cpu[label]) * 1000:6.1f} ms "
              f"({ratio_cpu:4.2f}x python -c pass){verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20,
                        help="launches per client (default 20)")
    parser.add_argument("--clients", default="menu,practice,host,join",
                        help="which clients to launch (default menu,practice,host,join)")
    args = parser.parse_args()
    runs = max(2, args.runs)
    clients = set(args.clients.split(","))
    command = _minefield()
    with tempfile.TemporaryDirectory(prefix="mfbench", dir="/tmp") as name:
        folder = Path(name)
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(COLUMNS),
               "LINES": str(ROWS), "MINEFIELD_DATA_DIR": str(folder / "player-data"),
               "MINEFIELD_CONFIG_DIR": str(folder / "player-config"),
               "MINEFIELD_CACHE_DIR": str(folder / "player-cache")}
        env.pop("COLORTERM", None)
        # Compiled modules are kept, as an installed package has them (an environment that
        # forbids writing them would time the compiler at every launch).
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run([sys.executable, "-m", "compileall", "-q",
                        str(Path(__file__).resolve().parents[1] / "minefield")],
                       env=env, stdout=subprocess.DEVNULL, check=False)
        print(f"Start-up, {runs} launches each (medians; goals: menu {MENU_GOAL} s, practice "
              f"and network clients {GOAL} s, --version and --help {VERSION_GOAL}x python -c "
              f"pass), {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
        command_line_ratios(command, env, runs)
        if "menu" in clients:
            menu = [first_frame([command], env, linger=COLD_LINGER if i == 0 else 0.0)
                    for i in range(runs)]
            print(_row("minefield (the menu)", menu, MENU_GOAL))
        if "practice" in clients:
            practice = [first_frame([command, "practice", "--seed", "1"], env,
                                    linger=COLD_LINGER if i == 0 else 0.0)
                        for i in range(runs)]
            print(_row("minefield practice", practice))
        if clients & {"host", "join"}:
            daemon = Daemon(folder, env)
            try:
                if "host" in clients:
                    hosts = [first_frame([command, "host", "--socket", str(daemon.socket),
                                          "--player", f"host{i}"], env) for i in range(runs)]
                    print(_row("minefield host", hosts))
                if "join" in clients:
                    joins = []
                    for i in range(runs):
                        with daemon.room(f"room{i}") as code:
                            joins.append(first_frame([command, "join", code, "--socket",
                                                      str(daemon.socket), "--player",
                                                      f"join{i}"], env))
                    print(_row("minefield join CODE", joins))
            finally:
                daemon.stop()

        print("\nImport time by package (self time, one run; -X importtime adds overhead):")
        for package, seconds in import_breakdown(env):
            print(f"  {package:<28} {seconds * 1000:6.0f} ms")


if __name__ == "__main__":
    main()
