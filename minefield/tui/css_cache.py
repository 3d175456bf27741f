"""The parsed stylesheet kept on disk between starts (for a faster first frame).

Textual parses our stylesheet and every widget's ``DEFAULT_CSS`` at every start (about 15 ms
of the menu's CPU time; loading them back takes about 1.5 ms). The app loads what an earlier
start parsed into the stylesheet before its first parse, and after its first frame writes
what it parsed if anything was new. The file is in the cache folder
(:func:`minefield.paths.cache_dir`), one per set of stylesheet variables (the theme), named
by a hash of everything the parsed rules depend on: this format, the Python version,
Textual's installed files (path, size, time) and the variables. The whole key is kept in the
file too and must match. A source is found by its own text (Textual's key), so a changed
stylesheet is parsed anew. A file that is missing, unreadable, corrupt or of another key is
passed over (the start parses as without it) and replaced at the next save; writing it never
stops the app (written whole, then moved into place).

The file holds Python objects (pickle): it is written by this user's own Minefield into this
user's own cache folder, as Python's own compiled files are.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import sys
import tempfile
from collections.abc import Mapping, Set
from pathlib import Path

import textual
import textual.css.model
import textual.css.styles
import textual.css.stylesheet
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet

from minefield.files import read_bounded
from minefield.paths import cache_dir
from minefield.tui.textual_private import ParsedCss, add_parsed_css, parsed_css

#: Changed when what is stored changes.
FORMAT = 1
#: The largest file read (ours is about 120 KiB).
MAX_BYTES = 8 * 1024 * 1024


def cache_key(variables: Mapping[str, str]) -> str:
    """Everything the parsed rules depend on besides the sources' own text."""
    installed = []
    for module in (textual, textual.css.model, textual.css.styles, textual.css.stylesheet):
        where = module.__file__ or ""
        info = os.stat(where)
        installed.append((where, info.st_size, info.st_mtime_ns))
    return repr((FORMAT, sys.version, installed, sorted(variables.items())))


def cache_path(key: str) -> Path:
    """The file of ``key`` in the cache folder."""
    return cache_dir() / f"css-{hashlib.sha256(key.encode()).hexdigest()[:32]}.pickle"


def _valid(parsed: object) -> bool:
    return isinstance(parsed, dict) and all(
        isinstance(key, tuple) and len(key) == 5 and isinstance(key[0], str)
        and isinstance(rules, list) and all(isinstance(rule, RuleSet) for rule in rules)
        for key, rules in parsed.items())


def load(stylesheet: Stylesheet, variables: Mapping[str, str]) -> Set[tuple[object, ...]]:
    """Give ``stylesheet`` the sources an earlier start parsed with these ``variables``; the
    keys of those given (empty when there was no usable file)."""
    key = cache_key(variables)
    try:
        stored = pickle.loads(read_bounded(cache_path(key), MAX_BYTES))
    except Exception:  # missing, unreadable, corrupt: parsed as without it
        return frozenset()
    if not (isinstance(stored, dict) and stored.get("key") == key and _valid(stored.get("parsed"))):
        return frozenset()
    parsed: ParsedCss = stored["parsed"]
    add_parsed_css(stylesheet, parsed)
    return parsed.keys()


def save(stylesheet: Stylesheet, variables: Mapping[str, str],
         loaded: Set[tuple[object, ...]]) -> bool:
    """Write the sources ``stylesheet`` has parsed with these ``variables`` (give the same
    ``variables`` it parsed with) if any is not among ``loaded``; True when written."""
    parsed = parsed_css(stylesheet)
    if not parsed or parsed.keys() <= loaded:
        return False
    key = cache_key(variables)
    path = cache_path(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        data = pickle.dumps({"key": key, "parsed": parsed}, protocol=pickle.HIGHEST_PROTOCOL)
        descriptor, temporary = tempfile.mkstemp(prefix=path.name + ".", suffix=".new",
                                                 dir=path.parent)
        try:
            with os.fdopen(descriptor, "wb") as out:
                out.write(data)
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    except Exception:  # a full disk, a folder not writable, an object pickle refuses
        return False
    return True


__all__ = ["FORMAT", "MAX_BYTES", "cache_key", "cache_path", "load", "save"]
