"""Speed tools of the rules engine: memo tables and fast constructors (private).

The bots analyse thousands of hands per deal, so the hand and score modules
keep their answers in tables filled on first use and build their small result values without
the cost of a frozen dataclass's ``__init__``. Nothing here knows about mahjong.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar, cast

_Entry = TypeVar("_Entry")
_Key = TypeVar("_Key")


def slots_constructor(cls: type[_Entry]) -> Callable[..., _Entry]:
    """A fast constructor for a frozen, slotted dataclass without ``__post_init__``: it takes
    every field positionally and fills the slots directly.

    A frozen dataclass's ``__init__`` goes through ``object.__setattr__`` for each field, which
    is half the cost of the small values an analysis returns. Like ``dataclasses`` itself, this
    writes the function's source (one slot setter call per field) and compiles it.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, slots=True)
    ... class Pair:
    ...     kind: int
    ...     copies: int
    >>> slots_constructor(Pair)(5, 2) == Pair(5, 2)
    True
    """
    names = [item.name for item in fields(cls)]  # type: ignore[arg-type]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    namespace.update({f"_set_{name}": getattr(cls, name).__set__ for name in names})
    setters = "".join(f"    _set_{name}(made, {name})\n" for name in names)
    exec(f"def make({', '.join(names)}):\n    made = _new(_cls)\n{setters}    return made\n",
         namespace)
    return cast(Callable[..., _Entry], namespace["make"])


class MemoTable(dict[_Key, _Entry]):
    """A memo table: a dict that builds an entry the first time its key is looked up.

    Plain subscripting keeps the hot path a single dict look-up. Like a functools cache it has
    ``cache_clear`` (benchmarks empty every ``cache_clear`` of a module to time a cold start);
    it is set on each table, so that the class itself has no such method to call.

    >>> squares = MemoTable(lambda n: n * n)
    >>> squares[12], len(squares)
    (144, 1)
    """

    __slots__ = ("build", "cache_clear")
    cache_clear: Callable[[], None]

    def __init__(self, build: Callable[[_Key], _Entry]) -> None:
        super().__init__()
        self.build = build
        self.cache_clear = self.clear

    def __missing__(self, key: _Key) -> _Entry:
        entry = self.build(key)
        self[key] = entry
        return entry


class TableGroup:
    """Several tables emptied by one ``cache_clear``."""

    __slots__ = ("cache_clear", "tables")
    cache_clear: Callable[[], None]

    def __init__(self, *tables: dict[Any, Any]) -> None:
        self.tables = tables
        self.cache_clear = self._clear

    def _clear(self) -> None:
        for table in self.tables:
            table.clear()
