"""The packages' import direction (ARCHITECTURE: the layers), read from the source.

From the bottom up: ``rules`` (the game) < ``defense`` (the danger model: what one seat can
know about the other's waits) < ``bots`` (they play with the danger model) < ``trainer``
(drills, progress and the review: they use bots and the danger model) < the front ends
(``tui``, ``cli``, ``server``, ``session``, ``frontdoor``). A package never imports one above
it, not even inside a function: such an import is a hidden circle that works or fails by
import order.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "minefield"
FRONT_ENDS = {"tui", "cli", "server", "session", "frontdoor"}

#: For each package, the packages it must never import.
ABOVE: dict[str, set[str]] = {
    "rules": {"defense", "bots", "trainer"} | FRONT_ENDS,
    "defense": {"bots", "trainer"} | FRONT_ENDS,
    "bots": {"trainer"} | FRONT_ENDS,
    "trainer": FRONT_ENDS,
    # The client's side: the wire messages live in session, and a client never loads the
    # daemon (ARCHITECTURE 9); the screens are above it.
    "session": {"server", "tui", "cli"},
}


def imported_packages(source: str) -> set[str]:
    """The ``minefield`` subpackages a module's source imports, at any depth of the code.

    >>> sorted(imported_packages("import minefield.bots.levels\\n"
    ...                          "def f():\\n    from minefield.trainer import drills"))
    ['bots', 'trainer']
    >>> sorted(imported_packages("from minefield import defense, rules"))
    ['defense', 'rules']
    """
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "minefield":
                names = [f"minefield.{alias.name}" for alias in node.names]
            else:
                names = [node.module]
        for name in names:
            parts = name.split(".")
            if parts[0] == "minefield" and len(parts) > 1:
                found.add(parts[1])
    return found


@pytest.mark.parametrize("package", sorted(ABOVE))
def test_no_package_imports_one_above_it(package: str) -> None:
    wrong = []
    for module in sorted((PACKAGE / package).rglob("*.py")):
        upward = imported_packages(module.read_text()) & ABOVE[package]
        if upward:
            wrong.append(f"{module.relative_to(PACKAGE.parent)} imports {sorted(upward)}")
    assert wrong == []


def test_the_check_sees_an_upward_import_inside_a_function() -> None:
    """The hidden circle this test exists for was a function-level import."""
    source = "def features():\n    from minefield.bots.danger import wait_shapes\n"
    assert imported_packages(source) & ABOVE["defense"] == {"bots"}


def test_the_trainer_holds_the_drills_progress_and_review() -> None:
    """The trainer's modules live in their own package; the danger model in defense."""
    assert {p.stem for p in (PACKAGE / "trainer").glob("*.py")} >= {
        "drills", "progress", "review"}
    assert (PACKAGE / "defense" / "danger.py").exists()
    assert not (PACKAGE / "bots" / "danger.py").exists()
