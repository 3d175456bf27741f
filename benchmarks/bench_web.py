"""The browser door (``minefield ssh-server --web``) in Debian's headless Chromium: the first
frame of a browser session, the memory of each one, and a keypress's round trip.

The script starts ``minefield ssh-server --open --web 127.0.0.1:PORT`` on free ports in a
temporary folder, claims a name for a fresh key, launches Chromium once (Playwright, pointed at
``/usr/bin/chromium``), then:

1. link to lobby: ``ssh HOST web`` gives a link (not timed); from opening it in a fresh browser
   profile, through the *Sign in* press (at once, as a player would), to the lobby's list of
   who is online in the page's terminal; ``--runs`` times, median and p95 (goal 1.0 s);
2. memory: with ``--sessions`` browser sessions open in the lobby, the USS (pages only that
   process has: ``Private_Clean + Private_Dirty`` of ``/proc/PID/smaps_rollup``) and the PSS
   of each session's client process (goal: at most 30 MB of USS each), and of the front door;
3. keypress to screen: in the lobby, ``i`` until the invitation's form is drawn in the page's
   terminal, then Escape until it is gone; ``--keys`` times each, median and p95.

Usage: ``nice -n 5 python benchmarks/bench_web.py [--runs 20] [--sessions 5] [--keys 20]``.
Not a test: it only prints.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_ssh import memory  # USS and PSS in MB, as bench_ssh measures them
from tests.e2e.harness import free_port
from tests.frontdoor.browser import SCREEN, launch, new_context

GOAL_SECONDS = 1.0
GOAL_USS_MB = 30.0
STARTED = re.compile(r"browser session of \w+ \(web-[0-9a-f]+\) from \S+: lobby, pid (\d+)")


def until(check: Callable[[], Any], limit: float = 60.0, step: float = 0.01) -> Any:
    """Poll ``check`` until true (RuntimeError after ``limit`` seconds)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(step)
    raise RuntimeError("gave up waiting")


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


class Server:
    """``ssh-server --open --web`` in a folder of its own, and a key with a name."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port, web = free_port(), free_port()
        self.web = f"http://127.0.0.1:{web}"
        self.log = folder / "door.log"
        self.key = folder / "key"
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(self.key)],
                       check=True)
        minefield = Path(sys.executable).parent / "minefield"
        self.process = subprocess.Popen(
            [str(minefield), "ssh-server", "--listen", f"127.0.0.1:{self.port}", "--data",
             str(folder / "door"), "--open", "--web", f"127.0.0.1:{web}", "--auth-per-minute",
             "1000", "--sessions-per-key", "100"],
            stdout=self.log.open("wb"), stderr=subprocess.STDOUT)
        until(lambda: "browser door on" in self.log.read_text(errors="replace"))
        self.ssh("name", "bench")

    def ssh(self, *words: str) -> str:
        done = subprocess.run(
            ["ssh", "-T", "-p", str(self.port), "-i", str(self.key), "-F", "/dev/null", "-o",
             "IdentitiesOnly=yes", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no",
             "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "127.0.0.1", *words],
            capture_output=True, text=True, check=True, timeout=60)
        return done.stdout

    def link(self) -> str:
        return self.ssh("web").strip().splitlines()[-1]

    def pids(self) -> list[int]:
        return [int(m[1]) for m in STARTED.finditer(self.log.read_text(errors="replace"))]

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def screen_has(page: Any, text: str) -> bool:
    return text in page.evaluate(SCREEN)


def open_lobby(server: Server, browser: Any) -> tuple[Any, Any, float]:
    """A fresh profile signed in with a new link; the seconds from opening the link to the
    lobby on screen."""
    link = server.link()
    context = new_context(browser)
    page = context.new_page()
    start = time.perf_counter()
    page.goto(link)
    page.click("#sign-in")
    until(lambda: screen_has(page, "Online ("))
    return context, page, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--sessions", type=int, default=5)
    parser.add_argument("--keys", type=int, default=20)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="mfweb", dir="/tmp") as tmp, \
            sync_playwright() as playwright:
        server = Server(Path(tmp))
        browser = launch(playwright)
        try:
            open_lobby(server, browser)[0].close()  # warm: the process server, the caches
            times = []
            for _ in range(args.runs):
                context, _page, seconds = open_lobby(server, browser)
                times.append(seconds)
                context.close()
            if times:
                print(f"link to lobby, {len(times)} runs: median {statistics.median(times):.3f}"
                      f" s, p95 {p95(times):.3f} s (goal {GOAL_SECONDS} s)")
            opened = [open_lobby(server, browser) for _ in range(args.sessions)]
            time.sleep(2.0)  # settled
            pids = server.pids()[-args.sessions:]
            figures = [memory(pid) for pid in pids]
            uss = [f[0] for f in figures]
            door_uss, door_pss = memory(server.process.pid)
            print(f"memory, {len(pids)} browser sessions in the lobby: client USS median "
                  f"{statistics.median(uss):.1f} MB (max {max(uss):.1f}), PSS median "
                  f"{statistics.median(f[1] for f in figures):.1f} MB (goal {GOAL_USS_MB} MB "
                  f"USS); the front door USS {door_uss:.1f} MB, PSS {door_pss:.1f} MB")
            page = opened[0][1]
            page.focus(".xterm-helper-textarea")
            there, back = [], []
            for _ in range(args.keys):
                start = time.perf_counter()
                page.keyboard.press("i")
                until(lambda: screen_has(page, "Invite whom?"), step=0.002)
                there.append(time.perf_counter() - start)
                start = time.perf_counter()
                page.keyboard.press("Escape")
                until(lambda: not screen_has(page, "Invite whom?"), step=0.002)
                back.append(time.perf_counter() - start)
            if there:
                print(f"keypress to screen, {len(there)} times: i median "
                      f"{statistics.median(there) * 1000:.0f} ms (p95 {p95(there) * 1000:.0f}),"
                      f" Escape median {statistics.median(back) * 1000:.0f} ms "
                      f"(p95 {p95(back) * 1000:.0f})")
            for context, _page, _seconds in opened:
                context.close()
        finally:
            browser.close()
            server.stop()


if __name__ == "__main__":
    main()
