"""The project's exceptions have one root, :class:`minefield.errors.MinefieldError`, and one
name for one thing (a file that is not one to read is :class:`~minefield.files.UnusableFileError`
wherever it is met)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import minefield
from minefield.errors import MinefieldError


def project_exceptions() -> dict[str, type[BaseException]]:
    """Every exception class defined in a module of ``minefield`` (``__main__`` modules, which
    run a command when imported, aside), by its dotted name."""
    found: dict[str, type[BaseException]] = {}
    for module_info in pkgutil.walk_packages(minefield.__path__, "minefield."):
        if module_info.name.rsplit(".", 1)[-1] == "__main__":
            continue
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            if (inspect.isclass(value) and issubclass(value, BaseException)
                    and value.__module__ == module.__name__):
                found[f"{module.__name__}.{name}"] = value
    return found


def test_every_exception_of_the_project_has_the_one_root() -> None:
    exceptions = project_exceptions()
    assert len(exceptions) > 30  # the walk found the project's modules
    assert sorted(name for name, kind in exceptions.items()
                  if not issubclass(kind, MinefieldError)) == []


def test_a_root_does_not_change_what_callers_catch() -> None:
    """Each error keeps its built-in base: ``except ValueError`` still catches a bad tile."""
    from minefield.rules.tiles import Tile, TileError

    with pytest.raises(MinefieldError) as caught:
        Tile.parse("9z")
    assert type(caught.value) is TileError
    assert isinstance(caught.value, ValueError)
    assert str(caught.value) == '"9z" is not a tile (honors are 1z-7z)'


def test_an_unusable_file_has_one_name() -> None:
    exceptions = project_exceptions()
    assert [name for name in exceptions if "Unusable" in name] == [
        "minefield.files.UnusableFileError"]
