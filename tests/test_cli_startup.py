"""What each ``minefield`` command loads: ``--version`` and ``--help`` nothing but the
parser, headless commands never Textual. Each command runs in a fresh interpreter that then
reports its ``sys.modules``; timing is measured by ``benchmarks/bench_startup.py``, not here.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stdout
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

from minefield import __version__
from minefield.bots.base import LEVELS
from minefield.cli import build_parser, main
from minefield.cli.common import LEVEL_NAMES, SEATS
from minefield.cli.registry import COMMANDS
from minefield.rules.game import Seat

TILES = "123456789m12345678934p1234567899s1122z"
DANGER: dict[str, Any] = {
    "seat": "east", "tiles": "123456789m1112z2p5p8p6p4s4s7s3z9p9p1s1s2s5z5z6z6z4z4z7z7z",
    "hand": "123456789m1112z", "dora": "9s",
    "discards": {"east": ["4s", "3z"], "west": ["5p", "3p"]}}
#: Run in a fresh interpreter: the command, then the loaded top-level packages on stderr.
PROBE = """
import json, sys
from minefield.cli import main
status = main(json.loads(sys.argv[1]))
sys.stdout.flush()
loaded = sorted({name.split(".")[0] for name in sys.modules} | set(sys.modules))
print("\\nLOADED " + json.dumps([status, loaded]), file=sys.stderr)
"""
HEAVY = ("textual", "pydantic", "rich", "asyncssh", "sqlite3")


def loaded_by(argv: list[str], folder: Path, stdin: str = "") -> tuple[int, set[str]]:
    """The exit status of ``minefield ARGV`` run in a new interpreter and every module it
    loaded."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("MINEFIELD")}
    env |= {"MINEFIELD_DATA_DIR": str(folder / "data"),
            "MINEFIELD_CONFIG_DIR": str(folder / "config")}
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(argv)], input=stdin,
                          capture_output=True, text=True, env=env, timeout=300, check=False)
    report = done.stderr.rsplit("LOADED ", 1)
    assert len(report) == 2, f"{argv}: no report: {done.stderr[-2000:]}"
    status, modules = json.loads(report[1])
    return status, set(modules)


@pytest.mark.parametrize("argv", [["--version"], ["--help"]])
def test_version_and_help_load_only_the_parser(tmp_path: Path, argv: list[str]) -> None:
    """``--version`` prints from ``minefield.__version__`` (no package metadata lookup) and
    ``--help`` lists the commands without importing any of them."""
    probe = PROBE.replace("status = main(", "try:\n    status = main(").replace(
        "\nsys.stdout.flush()", "\nexcept SystemExit as done:\n    status = done.code\n"
        "sys.stdout.flush()")
    env = {**os.environ, "MINEFIELD_DATA_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", probe, json.dumps(argv)], capture_output=True,
                          text=True, env=env, timeout=120, check=False)
    status, modules = json.loads(done.stderr.rsplit("LOADED ", 1)[1])
    assert status == 0
    ours = {name for name in modules if name.startswith("minefield.")}
    allowed = {"minefield.cli", "minefield.cli.registry", "minefield.cli.parser",
               "minefield.cli.common", "minefield.errors"}  # errors: UsageError's root
    assert ours <= allowed, f"{argv} imported {sorted(ours - allowed)}"
    assert not set(HEAVY) & set(modules)
    assert "importlib.metadata" not in modules
    assert "typing" not in modules  # a tenth of python -c pass by itself
    if argv == ["--version"]:
        assert "argparse" not in modules and done.stdout == f"minefield {__version__}\n"


def _record(folder: Path) -> Path:
    status, _ = loaded_by(["simulate", "--games", "1", "--jobs", "1", "--east", "easy",
                           "--west", "easy", "--records", str(folder / "records")], folder)
    assert status == 0
    (record,) = (folder / "records").glob("*.jsonl")
    return record


def test_headless_commands_never_load_textual(tmp_path: Path) -> None:
    """The tools other programs call (and the text modes) import only what they use:
    no Textual, whatever they print."""
    record = _record(tmp_path)
    jsonl = {"analyze": json.dumps({"hand": "123m456p789s1112z"}) + "\n",
             "danger": json.dumps(DANGER) + "\n",
             "bot-hand": json.dumps({"tiles": TILES, "level": "easy"}) + "\n"}
    runs: list[tuple[list[str], str]] = [
        (["analyze", "123m456p789s1112z", "--json"], ""),
        (["analyze", "123m456p789s1112z"], ""),
        (["danger", "--tiles", DANGER["tiles"], "--hand", DANGER["hand"], "--dora", "9s",
          "--east", "4s,3z", "--west", "5p,3p", "--json"], ""),
        (["bot-hand", TILES, "--level", "easy", "--json"], ""),
        (["simulate", "--games", "1", "--jobs", "1", "--east", "easy", "--west", "easy"], ""),
        (["history", "--json", "--dir", str(record.parent)], ""),
        (["history", "--dir", str(record.parent)], ""),
        (["replay", "--json", str(record)], ""),
        (["review", "--text", "--method", "fast", str(record)], ""),
        (["stats", "--json", "--file", str(tmp_path / "progress.sqlite3")], ""),
        *(([command, "--jsonl"], line) for command, line in jsonl.items()),
    ]
    for argv, stdin in runs:
        status, modules = loaded_by(argv, tmp_path, stdin)
        assert status == 0, argv
        assert "textual" not in modules, f"minefield {' '.join(argv)} imported Textual"
    status, modules = loaded_by(["analyze", "--jsonl"], tmp_path, jsonl["analyze"])
    assert not {"asyncssh", "sqlite3", "minefield.server", "minefield.tui",
                "minefield.bots", "minefield.defense"} & modules  # the analyzer alone


def test_a_probe_sees_textual_when_it_is_loaded() -> None:
    """The check above can fail: importing the app (as the game commands do) loads Textual."""
    done = subprocess.run([sys.executable, "-c", "import sys, minefield.tui.app; "
                           "print('textual' in sys.modules)"], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout.strip() == "True"


def test_the_registry_is_what_the_modules_add() -> None:
    """Each command's module adds exactly the commands the registry gives it, with the same
    one-line help, in the same order; so the lazily built parser's ``--help`` is the full
    one's."""
    full = build_parser()
    (sub,) = [a for a in full._actions if isinstance(a, argparse._SubParsersAction)]
    assert [a.dest for a in sub._choices_actions] == list(COMMANDS)
    assert {a.dest: a.help for a in sub._choices_actions} == {
        name: summary for name, (_, summary) in COMMANDS.items()}
    lazy = build_parser(None, full=False)
    assert lazy.format_help() == full.format_help()
    for name in COMMANDS:  # a command's own parser is whole in its lazy parser
        own = build_parser(name, full=False)
        (lazy_sub,) = [a for a in own._actions if isinstance(a, argparse._SubParsersAction)]
        assert lazy_sub.choices[name].format_help() == sub.choices[name].format_help()


def test_the_parser_constants_are_the_engines() -> None:
    """The seat and level names the parser offers without loading the engine are its own."""
    assert [seat.value for seat in Seat] == SEATS
    assert list(LEVELS) == LEVEL_NAMES


def test_version_and_help_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    """The same answers through ``main`` in this process."""
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"minefield {__version__}\n"
    assert version("minefield") == __version__  # pyproject reads it from there
    out = io.StringIO()
    with redirect_stdout(out), pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    assert all(name in out.getvalue() for name in COMMANDS)
    with pytest.raises(SystemExit) as exit_info:
        main(["anlyze", "1m"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err == ("minefield: 'anlyze' is not a command (minefield --help "
                                       "lists them)\n")


#: Run in a fresh interpreter on a pseudo-terminal: ``minefield ARGV`` until its first frame
#: (the first write of the title or a tile to the terminal), then the loaded modules in a file.
FIRST_FRAME_PROBE = """
import json, os, sys
import textual.drivers.linux_driver as driver
write = driver.LinuxDriver.write
def first_frame(self, data):
    write(self, data)
    if "Minefield" in data or "\u256d\u2500\u2500\u256e" in data:
        with open(sys.argv[1], "w") as report:
            json.dump(sorted(sys.modules), report)
        os._exit(0)
driver.LinuxDriver.write = first_frame
from minefield.cli import main
main(json.loads(sys.argv[2]))
"""


def loaded_at_first_frame(argv: list[str], folder: Path) -> set[str]:
    """The modules ``minefield ARGV`` had loaded when it drew its first frame (100x32)."""
    import fcntl
    import pty
    import select
    import struct
    import termios

    report = folder / "first-frame.json"
    env = {key: value for key, value in os.environ.items() if not key.startswith("MINEFIELD")}
    env |= {"MINEFIELD_DATA_DIR": str(folder / "data"),
            "MINEFIELD_CONFIG_DIR": str(folder / "config"),
            "MINEFIELD_CACHE_DIR": str(folder / "cache"), "TERM": "xterm-256color"}
    pid, terminal = pty.fork()
    if pid == 0:  # the child: its terminal's size, then the probe
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))
            os.execve(sys.executable, [sys.executable, "-c", FIRST_FRAME_PROBE, str(report),
                                       json.dumps(argv)], env)
        finally:
            os._exit(127)
    try:
        while select.select([terminal], [], [], 120)[0]:
            try:
                if not os.read(terminal, 65536):
                    break
            except OSError:  # the probe exited
                break
    finally:
        os.close(terminal)
        os.waitpid(pid, 0)
    assert report.exists(), f"minefield {argv}: no first frame"
    return set(json.loads(report.read_text()))


def test_the_menus_first_frame_loads_neither_pydantic_nor_the_engine(tmp_path: Path) -> None:
    """The menu is drawn before pydantic, the rules engine, the saved settings'
    model and the new-game form are loaded (they load after the first frame, for the first
    key)."""
    modules = loaded_at_first_frame([], tmp_path)
    assert "minefield.tui.screens.menu" in modules and "textual" in modules
    assert not {"pydantic", "pydantic_core", "minefield.rules.game", "minefield.tui.config",
                "minefield.tui.screens.new_game", "minefield.protocol.messages"} & modules


def test_the_first_frame_probe_sees_pydantic_when_it_is_loaded(tmp_path: Path) -> None:
    """The check above can fail: the practice builder's first frame needs the engine."""
    modules = loaded_at_first_frame(["practice", "--seed", "1"], tmp_path)
    assert {"pydantic", "minefield.rules.game", "minefield.tui.config"} <= modules


def test_after_the_first_frame_the_collector_is_back_and_the_menus_keys_are_ready(
        tmp_path: Path) -> None:
    """``minefield`` starts with the garbage collector off (cli/game.py); the app turns it back
    on after its first frame, with the start frozen, and loads what the menu's first keys
    want (the preferences model, the new-game form)."""
    probe = """
import asyncio, gc, sys
from minefield.tui.app import MinefieldApp
async def main():
    gc.disable()  # as minefield's game command does
    app = MinefieldApp(catch_errors=False)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3):
            await pilot.pause()
        print(gc.isenabled(), gc.get_freeze_count() > 0,
              "minefield.tui.screens.new_game" in sys.modules, app.prefs.model_built)
asyncio.run(main())
"""
    env = {key: value for key, value in os.environ.items() if not key.startswith("MINEFIELD")}
    env |= {"MINEFIELD_DATA_DIR": str(tmp_path / "data"),
            "MINEFIELD_CONFIG_DIR": str(tmp_path / "config"),
            "MINEFIELD_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          env=env, timeout=120, check=True)
    assert done.stdout.split() == ["True", "True", "True", "True"], done.stderr[-2000:]


#: What the game servers load only when asked: the browser door and the metrics' HTTP server
#: (aiohttp, webauthn) with ``--web`` and ``--metrics``, networkx at a tournament's first
#: pairing.
ON_DEMAND = ("aiohttp", "webauthn", "networkx")


def test_the_servers_load_the_browser_door_metrics_and_pairing_only_when_asked() -> None:
    """``minefield ssh-server`` and ``minefield serve`` start without the web stack or
    networkx (a third of a start's CPU); a pairing, a browser door and a metrics listener
    load them when they are used."""
    probe = ("import json, sys\n"
             "import minefield.cli.ssh_server, minefield.cli.network, minefield.frontdoor.server\n"
             "import minefield.server.daemon\n"
             "before = sorted(set(sys.modules) & set(json.loads(sys.argv[1])))\n"
             "from minefield.server.tournament_pairing import swiss_round\n"
             "from minefield.frontdoor.metrics import DoorMetrics\n"
             "import asyncio\n"
             "metrics = DoorMetrics()\n"
             "async def listen():\n"
             "    await metrics.start('127.0.0.1', 0)\n"
             "    await metrics.stop()\n"
             "asyncio.run(listen())\n"
             "swiss_round(['a', 'b', 'c'], [])\n"
             "from minefield.frontdoor import web_door\n"
             "after = sorted(set(sys.modules) & set(json.loads(sys.argv[1])))\n"
             "print(json.dumps([before, after]))\n")
    done = subprocess.run([sys.executable, "-c", probe, json.dumps(ON_DEMAND)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    before, after = json.loads(done.stdout)
    assert before == []
    assert after == sorted(ON_DEMAND)  # the probe sees them once they are used
