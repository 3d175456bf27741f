"""Suite-wide settings: Hypothesis runs the same examples every time, and the longest tests
start first so that under ``pytest -n auto`` no worker is left with one of them at the end."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

# The same examples on every run and every worker (no example database, no random seed): a
# failure is reproduced by running the suite again. HYPOTHESIS_PROFILE=explore draws new ones.
settings.register_profile("suite", derandomize=True, database=None)
settings.register_profile("explore", database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``long`` first, the rest in their order (the same on every worker)."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)
