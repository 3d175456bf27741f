"""The packages' import direction, read from the source: every package of ``minefield/`` in
one order, and no package imports one above it, not even inside a function or under
``TYPE_CHECKING`` (a function-level import of a package above is a hidden circle that works or
fails by import order).

From the bottom up (:data:`LAYERS`):

1. ``_lazy``, ``errors``, ``files``, ``paths``, ``phrasing``: the house's tools (lazy
   re-exports, the root of the project's exceptions, private files, the data and config
   folders, where a line of text breaks); no game in them.
2. ``rules``: the game, pure.
3. ``records``: the record format, its writer and reader, history.
4. ``defense``: the danger model (what one seat can know about the other's waits).
5. ``bots``: they play with the danger model, and write records when they simulate.
6. ``trainer``: drills, progress and the review (bots and the danger model).
7. ``analyzer``: the hand analyzer of ``minefield analyze`` (the rules only).
8. ``protocol``: the wire between a client and the daemon: messages, framing, room codes,
   socket addresses, the watcher's public table.
9. ``table``: a game hosted (``GameTable``, ``Series``, ``MatchTable``), no I/O; the local
   session and the daemon's rooms each hold one.
10. ``session``: the clients (local, remote, the lobby's and a watcher's links).
11. ``tui``: the Textual client. It is below ``server``: a client never loads the daemon.
12. ``server``: the game daemon.
13. ``frontdoor``: the asyncssh door and the SSH command grammar; it runs the client in a
    terminal by naming its program (``minefield.cli.zygote``), not by importing it.
14. ``cli``: the subcommands, over all of them.

``tui`` and ``server`` are side by side in the architecture's picture (each above the
clients' and the daemon's middle); one order puts the client below the daemon so that the
client's side can be checked too, and :data:`APART` says what the order cannot: the daemon and
the door never import the clients or the Textual client (they share only ``table`` and
``protocol``). Module names written in strings (``cli.parser`` loads its subcommands by name)
are not imports and are not read here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "minefield"

#: Every package (or top-level module) of ``minefield/``, from the bottom up.
LAYERS = ("_lazy", "errors", "files", "paths", "phrasing", "rules", "records", "defense", "bots",
          "trainer", "analyzer", "protocol", "table", "session", "tui", "server", "frontdoor",
          "cli")
#: Packages that never import each other although the order would let them: the daemon and
#: the SSH door reach the game through ``table`` and ``protocol``, never through a client.
APART = {"server": {"session", "tui"}, "frontdoor": {"session", "tui"}}


def packages_of(root: Path) -> set[str]:
    """The packages and top-level modules of the ``minefield`` folder ``root``."""
    found = {path.stem for path in root.glob("*.py") if path.stem != "__init__"}
    found |= {path.parent.name for path in root.glob("*/__init__.py")}
    return found


def imported_packages(source: str, module: str = "minefield.x") -> set[str]:
    """The ``minefield`` packages (or top-level modules) that the source of the module called
    ``module`` imports, at any depth of the code; relative imports are resolved from
    ``module``. A name taken from ``minefield`` itself (``__version__``) is not a package.

    >>> sorted(imported_packages("import minefield.bots.levels\\n"
    ...                          "def f():\\n    from minefield.trainer import drills"))
    ['bots', 'trainer']
    >>> sorted(imported_packages("from minefield import defense, rules, __version__"))
    ['defense', 'rules']
    >>> sorted(imported_packages("from ...cli import main", "minefield.frontdoor.x.y"))
    ['cli']
    """
    found: set[str] = set()
    here = module.split(".")
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = here[:len(here) - node.level]
                base = ".".join([*parent, base] if base else parent)
            names = ([f"{base}.{alias.name}" for alias in node.names] if base == "minefield"
                     else [base])
        for name in names:
            parts = name.split(".")
            if parts[0] == "minefield" and len(parts) > 1 and parts[1] in LAYERS:
                found.add(parts[1])
    return found


def upward_imports(root: Path) -> list[str]:
    """Each module under the ``minefield`` folder ``root`` that imports a package above its
    own (or one kept :data:`APART` from it), with those packages."""
    wrong = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root.parent).with_suffix("")
        module = ".".join(relative.parts)
        if len(relative.parts) < 2 or relative.parts[1] == "__init__":
            continue
        own = relative.parts[1]
        above = set(LAYERS[LAYERS.index(own) + 1:]) | APART.get(own, set())
        upward = imported_packages(path.read_text(encoding="utf-8"), module) & above
        if upward:
            wrong.append(f"{relative.as_posix()}.py imports {sorted(upward)}")
    return wrong


def test_the_order_names_every_package_once() -> None:
    assert len(set(LAYERS)) == len(LAYERS)
    assert set(LAYERS) == packages_of(PACKAGE)


def test_no_package_imports_one_above_it() -> None:
    assert upward_imports(PACKAGE) == []


@pytest.mark.parametrize(("source", "upward"), [
    # The hidden circle this test was first written for: a function-level import.
    ("def features():\n    from minefield.bots.danger import wait_shapes\n", ["bots"]),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from minefield.cli import main\n",
     ["cli"]),
    ("from .. import tui\n", ["tui"]),
    ("from minefield.rules.game import Seat\nfrom . import position\n", []),
])
def test_the_check_sees_every_kind_of_upward_import(tmp_path: Path, source: str,
                                                    upward: list[str]) -> None:
    (tmp_path / "minefield" / "defense").mkdir(parents=True)
    (tmp_path / "minefield" / "defense" / "estimate.py").write_text(source)
    expected = [f"minefield/defense/estimate.py imports {upward}"] if upward else []
    assert upward_imports(tmp_path / "minefield") == expected


def test_the_daemon_never_imports_a_client(tmp_path: Path) -> None:
    """``session`` is below ``server`` in the order, and still the daemon may not import it."""
    (tmp_path / "minefield" / "server").mkdir(parents=True)
    (tmp_path / "minefield" / "server" / "audience.py").write_text(
        "from minefield.protocol.watching import public_table\n"
        "from minefield.session.daemon_socket import RemoteError\n")
    assert upward_imports(tmp_path / "minefield") == [
        "minefield/server/audience.py imports ['session']"]


def test_the_table_and_the_protocol_have_homes_of_their_own() -> None:
    """The middle has names: the table hosted, the wire, and the clients (the architecture's
    picture); nothing of the first two is left in ``session``."""
    assert {p.stem for p in (PACKAGE / "table").glob("*.py")} >= {
        "game_table", "series", "match_table"}
    assert {p.stem for p in (PACKAGE / "protocol").glob("*.py")} >= {
        "messages", "wire", "codes", "address", "watching"}
    assert not {p.stem for p in (PACKAGE / "session").glob("*.py")} & {
        "table", "series", "match_table", "protocol", "wire", "codes", "address", "watching"}


def test_the_trainer_holds_the_drills_progress_and_review() -> None:
    """The trainer's modules live in their own package; the danger model in defense."""
    assert {p.stem for p in (PACKAGE / "trainer").glob("*.py")} >= {
        "drills", "progress", "defense_review"}
    assert (PACKAGE / "defense" / "danger.py").exists()
    assert not (PACKAGE / "bots" / "danger.py").exists()
