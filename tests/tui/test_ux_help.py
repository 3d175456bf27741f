"""The rule book ships with the game and shows in the help, numbers and all; the help says
which settings are not used yet."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest
from textual.widgets import Markdown, TabbedContent
from textual.widgets._markdown import MarkdownHeader

from minefield.rules.settings import rule_names
from minefield.tui.screens.help import HelpScreen, asset_text
from tests.tui.conftest import make_app, screen_text
from tests.tui.test_trainer import fast_app

REPOSITORY = Path(__file__).resolve().parents[2]
SHARED_RULES = REPOSITORY.parent / "shared" / "RULES.md"


@pytest.mark.skipif(not SHARED_RULES.exists(), reason="no ../shared/RULES.md beside the repository")
def test_the_shipped_rule_book_is_the_rule_book() -> None:
    assert asset_text("rulebook.md") == SHARED_RULES.read_text(encoding="utf-8")


def test_every_markdown_asset_ships_in_the_wheel() -> None:
    """The wheel's package data for ``minefield.assets`` covers every ``assets/*.md``."""
    config = tomllib.loads((REPOSITORY / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["minefield.assets"]
    for path in (REPOSITORY / "assets").glob("*.md"):
        assert any(fnmatch(path.name, pattern) for pattern in patterns), path.name


async def test_the_help_has_the_rule_book_with_its_numbers() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        assert screen.query_one(TabbedContent).active == "guide"
        await pilot.press("r")
        await pilot.pause()
        assert screen.query_one(TabbedContent).active == "rulebook"
        rule_book = screen.query_one("#rulebook-text", Markdown)
        assert rule_book.source == asset_text("rulebook.md")
        assert "the rules this project plays" in screen_text(app)
        await pilot.press("pagedown")  # the tab scrolls with the keys
        await pilot.pause()
        assert "R1. 136 tiles" in screen_text(app)  # numbered
        await pilot.press("end")
        await pilot.pause()
        # the club's decisions for matches follow the rule book
        assert "Paarenchan is exactly one yakuman" in screen_text(app)
        await pilot.press("g")
        await pilot.pause()
        assert screen.query_one(TabbedContent).active == "guide"


async def test_the_help_explains_matches_and_the_presets() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        guide = app.screen.query_one("#help-text", Markdown).source
        assert "every wait wins, riichi being a yaku" in guide
        assert "## Matches" in guide and "dealer_bonus" in guide and "Washizu" in guide


async def test_the_help_explains_the_club_preset_rule_and_clock() -> None:
    """RULES.md presets and R25: the guide names the club preset, ``--rule NAME=VALUE`` with
    every setting, and ``--clock``."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        guide = app.screen.query_one("#help-text", Markdown).source
        assert "**club**" in guide and "--rule NAME=VALUE" in guide and "--clock 60+10" in guide
        for name in rule_names():
            assert f"`{name}`" in guide, name


def test_the_guide_says_words_where_a_template_left_a_setting_name() -> None:
    """"It is hands hands (default 4)": a setting's name stands beside its words, never for
    them (R30)."""
    text = " ".join(asset_text("help.md").split())
    assert "hands hands" not in text and "It is `hands`" not in text
    assert "It is 4 hands (the setting `hands` changes it)" in text


async def test_every_key_tables_heading_fits_80_columns() -> None:
    """A Markdown heading does not wrap: the keys' section titles are short, their notes on a
    line of their own."""
    app = fast_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        guide = app.screen.query_one("#help-text", Markdown)
        headings = [block for block in guide.query(MarkdownHeader)]
        assert any(str(block._content) == "Playing" for block in headings)
        for block in headings:
            assert block._content.cell_length <= block.content_region.width, str(block._content)
