"""The project's own promises: README quick start, CI script, rules text in step."""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path

import pytest

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
    assert test.endswith("pytest -n auto")  # on every core: the suite's wall time


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


def test_every_data_file_ships_in_the_wheel() -> None:
    """A file the package reads (help texts, the danger fit, the shipped per-suit
    tables) must match its package's package-data patterns, or an installed copy lacks it
    (the suit tables would then be computed, silently slower)."""
    import tomllib
    from fnmatch import fnmatch

    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]
    missing = []
    for path in (ROOT / "minefield").rglob("*"):
        if path.is_dir() or path.suffix in (".py", ".pyc") or "__pycache__" in path.parts:
            continue
        package = ".".join(path.parent.relative_to(ROOT).parts)
        if not any(fnmatch(path.name, pattern) for pattern in patterns.get(package, [])):
            missing.append(str(path.relative_to(ROOT)))
    assert missing == []
    assert any(fnmatch("suit_tables.bin", p) for p in patterns["minefield.rules"])


#: A file named in a docstring, a comment or the docs: relative to the repository, to
#: ``minefield/`` or ``tests/``, or to the file that names it.
CITED_FILE = re.compile(r"(?<![\w/.])(\w+(?:/[\w.-]+)*/[\w.-]+\.(?:py|md|tcss))\b")
#: A name in a Sphinx role, whole (``:mod:`minefield.paths```, ``:func:`~minefield.cli.main```,
#: ``:meth:`minefield.rules.game.Game.apply```), or relative to the citing file's package
#: (with a leading dot).
CITED_NAME = re.compile(
    r":(?:mod|func|class|meth|data|attr|exc|obj):`~?(minefield(?:\.\w+)+|(?:\.\w+)+)")


def _package_of(source: Path) -> str:
    """The dotted package of a file under the repository (``minefield.frontdoor``)."""
    return ".".join(source.parent.relative_to(ROOT).parts)


def _has_attribute(owner: object, name: str) -> object:
    """``owner.name``, counting a pydantic model's fields and a class's annotated attributes
    (neither is a class attribute); :data:`MISSING` when there is none."""
    if hasattr(owner, name):
        return getattr(owner, name)
    if isinstance(owner, type):
        fields: dict[str, object] = getattr(owner, "model_fields", {})
        if name in fields:
            return fields[name]
        if any(name in vars(klass).get("__annotations__", {}) for klass in owner.__mro__):
            return name
    return MISSING


MISSING = object()


def resolves(name: str) -> bool:
    """Whether the dotted ``name`` is a module of the repository followed by attributes that
    exist (``minefield.cli.main``: the module ``minefield.cli``, then its ``main``).

    >>> resolves("minefield.paths"), resolves("minefield.rules.game.Game.apply")
    (True, True)
    >>> resolves("minefield.session.local_push"), resolves("minefield.rules.game.Game.fly")
    (False, False)
    """
    import importlib

    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        path = ROOT.joinpath(*parts[:end])
        if path.with_suffix(".py").exists() or (path / "__init__.py").exists():
            break
    else:
        return False
    found: object = importlib.import_module(".".join(parts[:end]))
    for attribute in parts[end:]:
        found = _has_attribute(found, attribute)
        if found is MISSING:
            return False
    return True


def test_docstrings_and_docs_cite_files_that_exist() -> None:
    sources = [*ROOT.glob("minefield/**/*.py"), *ROOT.glob("tests/**/*.py"),
               *ROOT.glob("benchmarks/*.py"), *ROOT.glob("assets/*.md"), ROOT / "README.md"]
    missing = []
    for source in sources:
        text = source.read_text(encoding="utf-8")
        for cited in CITED_FILE.findall(text):
            bases = (ROOT, ROOT / "minefield", ROOT / "tests", source.parent)
            if not any((base / cited).exists() for base in bases):
                missing.append(f"{source.relative_to(ROOT)}: {cited}")
        for name in CITED_NAME.findall(text):
            whole = _package_of(source) + name if name.startswith(".") else name
            if not resolves(whole):
                missing.append(f"{source.relative_to(ROOT)}: {name}")
    assert missing == []


#: A pointer to a document the repository does not hold: the design notes by section, the issue
#: tracker by number. A reader of the code cannot follow it; the code says the thing instead.
OUTSIDE_CITATION = re.compile(r"\bARCHITECTURE\b|\b[Ii]ssues? #?\d")


def test_code_and_tests_cite_no_document_outside_the_repository() -> None:
    """(This file is not read: it holds the pattern.)"""
    cited = []
    for source in [*ROOT.glob("minefield/**/*.py"), *ROOT.glob("tests/**/*.py"),
                   *ROOT.glob("benchmarks/*.py")]:
        if source == Path(__file__).resolve():
            continue
        for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
            if OUTSIDE_CITATION.search(line):
                cited.append(f"{source.relative_to(ROOT)}:{number}: {line.strip()}")
    assert cited == []


@pytest.mark.parametrize(("fact", "home"), [
    ('"(waiting)"', "minefield/protocol/messages.py"),  # the server's name of an empty seat
    ('f"Bot (', "minefield/bots/base.py"),  # a bot's name, built (and read back) in one place
    ("SUIT_KINDS = 27", "minefield/rules/tiles.py"),
    ("POOL_SIZE = ", "minefield/rules/game.py"),
    ("NEVER_DISCARDED = ", "minefield/rules/game.py"),
    ("def review_game(", "minefield/trainer/defense_review.py"),
])
def test_each_fact_has_one_home(fact: str, home: str) -> None:
    homes = [path.relative_to(ROOT).as_posix() for path in sorted(ROOT.glob("minefield/**/*.py"))
             if fact in path.read_text(encoding="utf-8")]
    assert homes == [home]


#: The modules that may be longer than :data:`MODULE_LINES`: the scorer (one table of yaku and
#: fu, read top to bottom beside RULES.md) and the generated suit tables.
LONG_MODULES = {"minefield/rules/score.py", "minefield/rules/_suit_tables.py"}
#: A module's length above which it is split by job.
MODULE_LINES = 500


def test_no_module_is_longer_than_a_reader_takes_in() -> None:
    long = {str(path.relative_to(ROOT)): len(path.read_text().splitlines())
            for path in (ROOT / "minefield").rglob("*.py")}
    over = {path: lines for path, lines in long.items()
            if lines > MODULE_LINES and path not in LONG_MODULES}
    assert not over, f"split by job (over {MODULE_LINES} lines): {over}"
    assert all(path in long for path in LONG_MODULES)  # the exceptions still exist
