"""Suite-wide settings: Hypothesis runs the same examples every time, the longest tests start
first so that under ``pytest -n auto`` no worker is left with one of them at the end, and a run
that leaves a process of its own running fails."""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import shutil
import signal
import sys
import tempfile
import uuid
from collections.abc import Generator
from itertools import islice
from typing import TypeVar

import pytest
from hypothesis import settings

from tests.processes import Process, environment, marked, survivors

# Compiled modules are kept (in the git-ignored __pycache__ folders) even where
# PYTHONDONTWRITEBYTECODE is set, as in some containers: otherwise every xdist worker of every
# run compiles the package and rewrites the asserts of every test module again (about 6 s of
# CPU per worker), and every `minefield` process a test starts compiles what it imports.
sys.dont_write_bytecode = False

# The parsed stylesheet an app keeps between starts (minefield/tui/css_cache.py) goes to a
# folder of this run, for every app a test starts and every process it launches, never to the
# real cache folder (tests that look at the cache set their own folder).
if "MINEFIELD_CACHE_DIR" not in os.environ:
    os.environ["MINEFIELD_CACHE_DIR"] = tempfile.mkdtemp(prefix="minefield-test-cache-")
    atexit.register(shutil.rmtree, os.environ["MINEFIELD_CACHE_DIR"], ignore_errors=True)

# The same examples on every run and every worker (no example database, no random seed): a
# failure is reproduced by running the suite again. HYPOTHESIS_PROFILE=explore draws new ones.
settings.register_profile("suite", derandomize=True, database=None)
settings.register_profile("explore", database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))


#: Workers per core for ``pytest -n auto``: many tests spend their time waiting on real
#: processes (sshd, the daemon, tmux) or on an app's timers, so more workers than cores keep
#: the cores busy. MINEFIELD_TEST_WORKERS sets the number outright.
WORKERS_PER_CORE = 2


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """The number of workers ``-n auto`` starts (see :data:`WORKERS_PER_CORE`)."""
    given = os.environ.get("MINEFIELD_TEST_WORKERS", "")
    if given.isdigit() and int(given) > 0:
        return int(given)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return WORKERS_PER_CORE * (cores or 1)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Garbage collection tuned for the tests' processes: the modules and objects loaded by
    the collection (Textual, pydantic, Hypothesis, every test module: millions of objects) are
    frozen out of the collector's scans, and the young generations are collected every
    50,000 allocations instead of 700. An app test allocates a great deal; this costs a worker
    about 50 MB more and saves about a quarter of the CPU of the app tests. Nothing is left
    uncollected: cycles are freed, later."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


T = TypeVar("T")


def first_chunk(tests: int, workers: int, max_chunk: int | None) -> int:
    """How many tests ``pytest -n`` (xdist's ``load`` scheduling) sends each worker first: it
    hands the collection out in that order, the first chunk to the first worker, the next to
    the second, and so on (pytest-xdist's load scheduler); 0 when it sends them one by one."""
    if tests < 2 * workers:
        return 0
    return max(min(tests // workers // 4, max_chunk or tests), 2)


def long_first(tests: list[T], long: list[bool], workers: int, chunk: int) -> list[T]:
    """``tests`` in the order that starts the ``long`` ones first and on different workers:
    the first of them at the head of the first worker's first chunk, the next at the head of
    the second worker's, and so on round the workers; the others after them in their order.
    Without chunks (``chunk`` 0, or one worker) the long ones are simply first."""
    longs = [test for test, is_long in zip(tests, long, strict=True) if is_long]
    others = [test for test, is_long in zip(tests, long, strict=True) if not is_long]
    if chunk == 0 or workers < 2:
        return longs + others
    ordered: list[T] = []
    rest = iter(others)
    for worker in range(workers):
        mine = longs[worker::workers]
        ordered += mine
        ordered += islice(rest, max(chunk - len(mine), 0))
    return ordered + list(rest)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``long`` start first, each on a worker of its own as far as there are
    workers (see :func:`long_first`); the rest in their order. Every worker collects and
    orders the same way, so the order is the one xdist hands out."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    dist, _, max_chunk = os.environ.get(DIST_ENV, "no 0").partition(" ")
    chunk = (first_chunk(len(items), workers, int(max_chunk or 0) or None)
             if dist == "load" else 0)
    items[:] = long_first(items, [item.get_closest_marker("long") is not None
                                  for item in items], workers, chunk)


#: Set by the run (the process that starts it) to an id of its own; every process the tests
#: start inherits it, workers and what they start included, and no other process has it.
RUN_MARKER = "MINEFIELD_TEST_RUN"
#: The run's ``--dist`` and ``--maxschedchunk``, for its workers (see pytest_configure).
DIST_ENV = "MINEFIELD_TEST_DIST"
#: How long the processes a run started may take to end once its tests are over.
LEFTOVER_GRACE = 10.0


def pytest_configure(config: pytest.Config) -> None:
    """The run's marker, set before any worker or test starts (an xdist worker keeps the one
    of the run that started it)."""
    if not hasattr(config, "workerinput"):
        os.environ[RUN_MARKER] = f"{os.getpid()}-{uuid.uuid4().hex}"
        # xdist's workers see "no" for --dist: they learn the run's from here.
        os.environ[DIST_ENV] = f"{config.getoption('dist', 'no')} " \
                               f"{config.getoption('maxschedchunk', None) or 0}"


def _describe(each: Process) -> str:
    test = environment(each.pid).get("PYTEST_CURRENT_TEST", "no test")
    return f"pid {each.pid} (started during {test}): {each.command[:200]}"


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> Generator[None, None, None]:
    """After the run (and its xdist workers) ended: a process that carries this run's marker
    and still runs after :data:`LEFTOVER_GRACE` seconds is a process the tests left behind.
    The run fails and names each, with the test that was running when it started; they are
    then ended (SIGKILL), so that one bad run does not leave them to the next."""
    result = yield
    if hasattr(session.config, "workerinput"):
        return result
    mine = os.environ.get(RUN_MARKER, "")
    left = survivors((each for each in marked(RUN_MARKER, mine) if each.pid != os.getpid()),
                     LEFTOVER_GRACE)
    if left:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        lines = [f"{len(left)} process(es) started by the tests still running at the end "
                 f"of the run (now ended with SIGKILL):", *map(_describe, left)]
        for line in lines:
            if reporter is not None:
                reporter.write_line(line, red=True, bold=True)
            else:
                print(line, file=sys.stderr)
        for each in left:
            with contextlib.suppress(OSError):
                os.kill(each.pid, signal.SIGKILL)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    return result
