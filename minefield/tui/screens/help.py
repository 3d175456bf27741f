"""Help in two tabs: the guide (the rules in brief, how to play here, the keys) and the full
rule book with its numbers (R1-R35) followed by the club's decisions for matches, all shipped in
``minefield.assets``.

The keys are read from the screens' own ``BINDINGS``: one declaration feeds the footer, the
command palette and this screen.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, TabbedContent, TabPane

from minefield.tui.widgets.footer import KeysFooter


def asset_text(name: str) -> str:
    """The text of a file shipped in ``minefield.assets``."""
    return (files("minefield.assets") / name).read_text(encoding="utf-8")


def keys_markdown(app: App[Any], sections: list[tuple[str, list[BindingType]]]) -> str:
    """A Markdown table of every described binding, section by section: each under its title
    (``Playing``), the title's note in parentheses as a line of its own.

    >>> from textual.app import App
    >>> print(keys_markdown(App(), [("Result (after a game)", [Binding("n", "next", "Next")])]))
    ### Result
    <BLANKLINE>
    After a game.
    <BLANKLINE>
    | key | action |
    |---|---|
    | `n` | Next |
    <BLANKLINE>
    """
    out: list[str] = []
    for title, bindings in sections:
        rows = []
        for binding in bindings:
            if not isinstance(binding, Binding) or not binding.description:
                continue
            keys = " / ".join(app.get_key_display(Binding(key, binding.action))
                              for key in binding.key.split(","))
            rows.append(f"| `{keys}` | {binding.description} |")
        if rows:
            # A heading does not wrap: the note in a title's parentheses goes under it.
            heading, _, note = title.partition(" (")
            out += [f"### {heading}", ""]
            if note:
                note = note.removesuffix(")")
                out += [(note[0].upper() + note[1:] if note.split()[0][1:] else note) + ".", ""]
            out += ["| key | action |", "|---|---|", *rows, ""]
    return "\n".join(out)


class HelpScreen(ModalScreen[None]):
    """The guide (rules in brief, playing here, every key) and the rule book, in two tabs."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,f1,question_mark", "close", "Close help"),
        Binding("g", "show_tab('guide')", "Guide and keys"),
        Binding("r", "show_tab('rulebook')", "Rule book (R1-R35)"),
    ]

    def __init__(self, keys: str) -> None:
        super().__init__()
        self._keys = keys

    def compose(self) -> ComposeResult:
        guide = "\n\n".join([
            "# Rules in brief", asset_text("rules.md"), asset_text("help.md"),
            "## Keys", self._keys,
        ])
        with TabbedContent(id="help-tabs", initial="guide"):
            with TabPane("Guide and keys", id="guide"), VerticalScroll(classes="help-box"):
                yield Markdown(guide, id="help-text")
            with TabPane("Rule book", id="rulebook"), VerticalScroll(classes="help-box"):
                yield Markdown(asset_text("rulebook.md"), id="rulebook-text")
                yield Markdown(asset_text("match_decisions.md"), id="match-decisions-text")
        yield KeysFooter()

    def on_mount(self) -> None:
        self._focus_tab()

    def action_show_tab(self, tab: str) -> None:
        """Show the guide or the rule book, ready to scroll with the arrow keys."""
        self.query_one(TabbedContent).active = tab
        self._focus_tab()

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        event.stop()
        self._focus_tab()

    def _focus_tab(self) -> None:
        active = self.query_one(TabbedContent).active_pane
        if active is not None:
            active.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        """Back to the game."""
        self.dismiss(None)
