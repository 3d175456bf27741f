"""House rules enforced in CI: ruff and mypy --strict are clean."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: it is part of the test extras")
    return found


def test_ruff_is_clean() -> None:
    result = subprocess.run([_tool("ruff"), "check", "."], cwd=ROOT, capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.long
def test_mypy_strict_is_clean() -> None:
    """The package and the tests (pyproject names both). With mypy's own incremental cache
    (``.mypy_cache``, git-ignored, as ``mypy`` alone uses it): a run after a small change
    checks what the change affects, not everything."""
    result = subprocess.run([_tool("mypy")], cwd=ROOT, capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stdout + result.stderr
