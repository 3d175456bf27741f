"""The project's own promises: README quick start, CI script, rules text in step."""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _command_after(marker: str) -> str:
    text = (ROOT / "README.md").read_text()
    match = re.search(rf"<!-- {marker} -->\n```\n(.+)\n```", text)
    assert match, f"README has no command after <!-- {marker} -->"
    return match.group(1)


def test_readme_quick_start_has_exactly_two_commands() -> None:
    play = _command_after("play-command")
    test = _command_after("test-command")
    assert play.endswith("&& minefield")
    assert "pytest" in test and "'.[test]'" in test
    assert test.endswith("pytest -n auto")  # on every core: the suite's wall time (issue 18)


def test_ci_runs_the_readme_test_command() -> None:
    script = (ROOT / ".ci" / "run").read_text()
    assert "<!-- test-command -->" in script and 'bash -c "$test_command"' in script


def test_readme_rules_section_is_the_in_app_help_text() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("<!-- rules -->\n", 1)[1].split("<!-- /rules -->", 1)[0]
    shipped = (files("minefield.assets") / "rules.md").read_text()
    assert section.strip() == shipped.strip()


def test_every_package_ships_in_the_wheel() -> None:
    """A subpackage missing from pyproject's list works in an editable install and breaks
    an installed one (the wheel would lack it)."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"])
    found = {".".join(init.parent.relative_to(ROOT).parts)
             for init in (ROOT / "minefield").rglob("__init__.py")}
    assert found - listed == set()
