"""The review as one self-contained web page (:mod:`minefield.trainer.review_page`, ``review
--html``): it says what the text review says, with the tiles drawn, and a real headless
Chromium (Debian's ``chromium``, as the browser door's tests) opens it from the file without
one request beyond the file itself, scripts off.

The screenshot is kept in ``/tmp/minefield-web-shots/review-page.png`` for a person to look at.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from minefield.cli import main
from minefield.records.header import Players
from minefield.records.writer import write_game
from minefield.rules.game import Seat
from minefield.rules.names import tile_name
from minefield.rules.tiles import parse_tiles
from minefield.trainer.defense_review import review_of_game
from minefield.trainer.review_page import STYLE, review_page, tiles_html
from minefield.trainer.review_parts import ReviewParts, review_parts
from tests.e2e.harness import unavailable
from tests.frontdoor.browser import CHROMIUM
from tests.records.conftest import RON_SEED, played

SHOTS = Path("/tmp/minefield-web-shots")
NAMES = {Seat.EAST: "Bot (normal)", Seat.WEST: "You"}
_GROUP = re.compile(r"(?<![0-9A-Za-z])(?:[0-9]+[mpsz])+(?![0-9A-Za-z])")


@pytest.fixture(scope="module")
def parts() -> ReviewParts:
    """Seed 0 from West's seat: West deals in on discard 4 (R13)."""
    return review_parts(review_of_game(played(RON_SEED), Seat.WEST), NAMES)


def drawn(text: str) -> str:
    """``text`` as the page reads it: each tile a face of its own (honors by letter, a red
    five drawn as a five), and no spaces (tile faces sit side by side)."""
    def faces(found: re.Match[str]) -> str:
        tiles = parse_tiles(found.group())
        return "".join(tile_name(t, "letters").replace("0", "5") for t in tiles)
    return "".join(_GROUP.sub(faces, text).split())


def test_tiles_are_drawn_and_the_rest_is_escaped() -> None:
    page = tiles_html("safest was 1z, not 123m <b> in the 1st row (R15a); 7z")
    assert page.count('class="tile ') == 5
    assert '<span class="tile z" title="E">E</span>' in page
    assert '<span class="tile m" title="1m">1<small>m</small></span>' in page
    assert '<span class="tile z rd" title="Rd">Rd</span>' in page
    assert "&lt;b&gt;" in page and "<b>" not in page
    assert "1st row (R15a)" in page  # words and rule numbers are not tiles
    red = tiles_html("0p")
    assert 'class="tile p red"' in red and "(red five)" in red


def test_the_page_has_every_part_and_needs_nothing_from_outside(parts: ReviewParts) -> None:
    page = review_page(parts, "letters", title="Defense review", source="game.jsonl")
    # One stylesheet inline, and nothing that would fetch: no script, link, image, font,
    # frame or url().
    assert page.count("<style>") == 1 and STYLE in page
    for fetching in ("<script", "<link", "<img", "<iframe", "src=", "href=", "url(", "@import",
                     "@font-face"):
        assert fetching not in page, fetching
    text = drawn(re.sub(r"<[^>]+>", "", page).replace("&#x27;", "'").replace("&amp;", "&"))
    for said in (parts.heading, parts.totals or ""):
        assert drawn(said) in text
    for discard in parts.discards:
        assert drawn(discard.text) in text and drawn(discard.truth) in text
    titles = [section.title for section in parts.sections]
    assert titles == ["Your regrets", "Luck and skill", "How readable your wait was",
                      "The build"]
    for section in parts.sections:
        assert f"<h2>{section.title}</h2>" in page
        for line in section.lines:
            assert drawn(line.text) in text, line.text


# -- In a real browser ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module."""
    if not CHROMIUM.exists():
        unavailable(f"{CHROMIUM} is not installed (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("playwright is not installed (pip install -e '.[test]')")
        raise
    from tests.frontdoor.browser import launch

    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


def test_review_html_in_chromium_makes_no_request_and_shows_the_review(
        tmp_path: Path, parts: ReviewParts, browser: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``review GAME --html FILE`` written, then opened in Chromium with scripts off: the only
    request is the file itself (any other is recorded and refused), and the page's text is
    the review's, tile by tile."""
    monkeypatch.delenv("COLUMNS", raising=False)
    record = write_game(played(RON_SEED), "practice",
                        Players(east=NAMES[Seat.EAST], west=NAMES[Seat.WEST]), tmp_path)
    page_path = tmp_path / "review.html"
    assert main(["review", str(record), "--html", str(page_path), "--honors", "letters"]) == 0
    context = browser.new_context(viewport={"width": 1000, "height": 900},
                                  java_script_enabled=False)
    requested: list[str] = []
    refused: list[str] = []

    def refuse(route: Any) -> None:
        refused.append(route.request.url)
        route.abort()

    context.route(re.compile(r"^(?!file:).*"), refuse)
    try:
        page = context.new_page()
        page.on("request", lambda request: requested.append(request.url))
        page.goto(page_path.as_uri())
        text = page.inner_text("body")
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "review-page.png"), full_page=True)
        tiles = page.locator(".tile").count()
        tile_box = page.locator(".tile").first.bounding_box()
    finally:
        context.close()
    assert requested == [page_path.as_uri()] and refused == []
    seen = drawn(text)
    assert drawn(parts.heading) in seen
    for discard in parts.discards:
        assert f"{discard.number}{drawn(discard.text)}{drawn(discard.truth)}" in seen
    for section in parts.sections:
        assert drawn(section.title) in seen
        for line in section.lines:
            assert drawn(line.marker) + drawn(line.text) in seen, line.text
    assert "DEALTIN" in seen and "Expectedpointslost:" in seen
    assert tiles > 40 and tile_box is not None and tile_box["height"] > 20  # drawn, not text
