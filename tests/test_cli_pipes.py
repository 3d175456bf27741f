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
