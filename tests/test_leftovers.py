"""A run of the tests leaves nothing running (tests/conftest.py): a process a test started and
left behind fails the run, is named with its test, and is ended; a process that does not carry
the run's marker (another run's, or anyone else's on this machine) is never touched."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.processes import process

ROOT = Path(__file__).resolve().parent.parent

LEAVING = """
import os, subprocess
from pathlib import Path

def test_leaves_a_process_behind():
    subprocess.Popen(["sleep", "600"], start_new_session=True)

def test_starts_a_process_that_is_not_the_runs():
    env = {name: value for name, value in os.environ.items() if name != "MINEFIELD_TEST_RUN"}
    other = subprocess.Popen(["sleep", "601"], env=env, start_new_session=True)
    Path(os.environ["OTHER_PID_FILE"]).write_text(str(other.pid))
"""

def run_tests(folder: Path, source: str) -> subprocess.CompletedProcess[str]:
    """pytest on ``source`` alone, with the suite's conftest as a plugin, in a process of its
    own (its own run, so its own marker)."""
    (folder / "pytest.ini").write_text("[pytest]\n")
    (folder / "test_it.py").write_text(source)
    env = {**os.environ, "OTHER_PID_FILE": str(folder / "other.pid"),
           "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "tests.conftest",
                           "-p", "no:cacheprovider", "-c", str(folder / "pytest.ini"),
                           "--rootdir", str(folder), str(folder / "test_it.py")],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=300,
                          check=False)


def test_a_process_left_running_fails_the_run_and_is_ended(tmp_path: Path) -> None:
    result = run_tests(tmp_path, LEAVING)
    other = int((tmp_path / "other.pid").read_text())
    try:
        output = result.stdout + result.stderr
        assert result.returncode == 1, output
        assert "2 passed" in output
        found = re.search(r"pid (\d+) \(started during test_it\.py::test_leaves_a_process_"
                          r"behind \(call\)\): sleep 600", output)
        assert found is not None, output
        assert "1 process(es) started by the tests still running" in output
        assert process(int(found.group(1))) is None  # ended by the run
        assert "sleep 601" not in output
        assert process(other) is not None  # not the run's: left alone
    finally:
        os.kill(other, 9)

