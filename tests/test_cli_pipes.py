"""The ``minefield`` tools as real processes in pipelines: closed pipes, raw bytes on stdin."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HAND = "23m456m345p678s55s"
TILES = "123456789m12345678934p1234567899s1122z"


def _command(*argv: str) -> list[str]:
    return [sys.executable, "-m", "minefield.cli", *argv]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env | extra


def test_jsonl_into_head_exits_quietly(tmp_path: Path) -> None:
    """``analyze --jsonl < many | head -1``: head gets its line, the closed pipe is no traceback.

    5000 answers are far more than a pipe holds, so the analyzer writes after head has gone.
    """
    requests = tmp_path / "requests.jsonl"
    requests.write_text((json.dumps({"hand": HAND}) + "\n") * 5000)
    with requests.open("rb") as stdin:
        tool = subprocess.Popen(_command("analyze", "--jsonl"), stdin=stdin,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                                env=_env())
        assert tool.stdout is not None and tool.stderr is not None
        head = subprocess.run(["head", "-1"], stdin=tool.stdout, capture_output=True,
                              check=True)
        tool.stdout.close()  # only head reads the tool's output
        err = tool.stderr.read().decode()
        status = tool.wait()
    assert json.loads(head.stdout)["hand"] == "23456m345p55678s"
    assert err == "" and status == 1


def test_json_into_a_closed_pipe_exits_quietly() -> None:
    """``bot-hand ... --json`` whose reader has already gone: no traceback, exit status 1."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the bot writes anything
    try:
        result = subprocess.run(_command("bot-hand", TILES, "--json", "--level", "easy"),
                                stdout=write_end, stderr=subprocess.PIPE, cwd=ROOT, env=_env(),
                                check=False)
    finally:
        os.close(write_end)
    assert result.stderr.decode() == "" and result.returncode == 1


def test_json_into_head_c_5() -> None:
    """``bot-hand ... --json | head -c 5``: the first bytes arrive and nothing else is said."""
    tool = subprocess.Popen(_command("bot-hand", TILES, "--json", "--level", "easy"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            env=_env())
    assert tool.stdout is not None and tool.stderr is not None
    head = subprocess.run(["head", "-c", "5"], stdin=tool.stdout, capture_output=True,
                          check=True)
    tool.stdout.close()
    err = tool.stderr.read().decode()
    status = tool.wait()
    assert head.stdout == b'{"han' and err == "" and status in (0, 1)


def test_jsonl_strict_utf8_locale_answers_every_line() -> None:
    """Under a strict UTF-8 locale, a line of invalid UTF-8 is one error line; none is lost."""
    good = json.dumps({"hand": HAND}).encode()
    data = good + b"\n" + b'{"hand": "\xff"}\n' + b"\xc3\n" + good + b"\n"
    result = subprocess.run(_command("analyze", "--jsonl"), input=data, capture_output=True,
                            cwd=ROOT, env=_env(PYTHONIOENCODING="utf-8:strict",
                                               LC_ALL="C.UTF-8"), check=False)
    assert result.returncode == 0 and result.stderr == b""
    lines = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert len(lines) == 4
    assert lines[0] == lines[3] and lines[0]["tenpai"] is True
    assert lines[1] == {"error": "line 2: not valid UTF-8 (byte 0xff at position 11)"}
    assert lines[2] == {"error": "line 3: not valid UTF-8 (byte 0xc3 at position 1)"}
