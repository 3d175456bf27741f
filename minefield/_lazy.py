"""Lazy re-exports for package ``__init__`` modules (PEP 562).

A package that re-exports names of its submodules would import them all as soon as any one
submodule is imported (``import minefield.rules.tiles`` runs ``minefield/rules/__init__.py``
first). With :func:`lazy_exports` the package's ``__getattr__`` imports a submodule only when
one of its names is first asked for, so ``minefield --version`` or a small command loads only
what it uses. The names stay importable as before (``from minefield.rules import Hand``); type
checkers read them from an ``if TYPE_CHECKING:`` block of the same imports.

>>> getattr_, dir_ = lazy_exports("json", {"dumps": "json"})
>>> getattr_("dumps")({"a": 1})
'{"a": 1}'
>>> getattr_("missing")
Traceback (most recent call last):
AttributeError: module 'json' has no attribute 'missing'
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, names: Mapping[str, str]
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``: each of ``names`` (a name to the
    module it comes from) is imported from its module when first asked for and then kept in
    the package's namespace."""

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *names})

    return __getattr__, __dir__
