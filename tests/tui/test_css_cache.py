"""The parsed stylesheet kept between starts (minefield.tui.css_cache): a second start
parses nothing it parsed before and shows the same screen; a broken or foreign file is passed
over and replaced."""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import textual.css.parse
import textual.css.stylesheet

from minefield.paths import cache_dir
from minefield.tui import css_cache
from minefield.tui.app import MinefieldApp
from minefield.tui.textual_private import screen_lines


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The locations of the CSS sources Textual parses from here on."""
    seen: list[str] = []
    parse = textual.css.parse.parse  # the function the stylesheet module imported

    def counting(scope: str, css: str, read_from: Any, **options: Any) -> Any:
        seen.append(str(read_from))
        return parse(scope, css, read_from, **options)

    monkeypatch.setattr(textual.css.stylesheet, "parse", counting)
    yield seen


async def menu_lines() -> list[str]:
    """The menu's first screen, its stylesheet saved after its first frame as in a real start."""
    app = MinefieldApp(think_seconds=0, catch_errors=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        return screen_lines(app.screen)


def cache_files() -> list[Path]:
    return sorted(cache_dir().glob("css-*.pickle"))


async def test_a_second_start_parses_nothing_and_looks_the_same(parses: list[str]) -> None:
    first = await menu_lines()
    assert any("minefield.tcss" in where for where in parses)
    assert len(cache_files()) == 1
    saved = cache_files()[0].stat().st_mtime_ns
    parses.clear()
    assert await menu_lines() == first
    assert parses == []
    assert cache_files()[0].stat().st_mtime_ns == saved  # nothing new: not written again


@pytest.mark.parametrize("garbage", [b"", b"not a pickle", b"\x80\x05K\x01."])
async def test_a_broken_file_is_passed_over_and_replaced(parses: list[str],
                                                         garbage: bytes) -> None:
    first = await menu_lines()
    (path,) = cache_files()
    path.write_bytes(garbage)
    parses.clear()
    assert await menu_lines() == first
    assert any("minefield.tcss" in where for where in parses)  # parsed again
    assert path.read_bytes() != garbage
    parses.clear()
    await menu_lines()
    assert parses == []


async def test_a_file_of_another_key_is_not_used(parses: list[str]) -> None:
    """A file whose stored key is not this start's (a hash shared by other variables, say)
    is parsed over, whatever its name."""
    await menu_lines()
    (path,) = cache_files()
    stored = pickle.loads(path.read_bytes())
    variables = MinefieldApp().get_css_variables()
    assert stored["key"] == css_cache.cache_key(variables)
    stored["key"] = css_cache.cache_key({**variables, "primary": "#123456"})
    path.write_bytes(pickle.dumps(stored))
    parses.clear()
    await menu_lines()
    assert any("minefield.tcss" in where for where in parses)
