"""A real headless Chromium (Debian's ``chromium`` package, driven by Playwright; never a
browser downloaded by a tool) for the browser door's tests and benchmark.

The client draws its text on canvases (xterm.js), so a page's screen is read from the
terminal's buffer: an init script catches the ``Terminal`` object as textual.js creates it
(``this.terminal = new Terminal(...)``) and keeps it as ``window.__xterm``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

CHROMIUM = Path(os.environ.get("MINEFIELD_CHROMIUM", "/usr/bin/chromium"))
#: Catches textual.js's terminal (a one-shot setter of ``terminal`` on every object).
HOOK = """Object.defineProperty(Object.prototype, 'terminal', {configurable: true, set(v) {
  delete Object.prototype.terminal;
  Object.defineProperty(this, 'terminal', {value: v, writable: true, configurable: true,
                                           enumerable: true});
  window.__xterm = v; }});"""
#: The terminal's rows as text.
SCREEN = """() => { const t = window.__xterm; if (!t) return ''; const b = t.buffer.active;
  const rows = []; for (let y = 0; y < t.rows; y++) { const l = b.getLine(b.viewportY + y);
  rows.push(l ? l.translateToString(true) : ''); } return rows.join('\\n'); }"""
#: tmux's key names (the SSH players' tests) as Playwright's.
KEYS = {"Space": "Space", "Right": "ArrowRight", "Left": "ArrowLeft", "Up": "ArrowUp",
        "Down": "ArrowDown", "Enter": "Enter", "Escape": "Escape", "BSpace": "Backspace",
        "Tab": "Tab", "C-a": "Control+a", "C-k": "Control+k"}
T = TypeVar("T")


def launch(playwright: Any) -> Any:
    """Debian's Chromium, headless."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True)


def new_context(browser: Any, **options: Any) -> Any:
    """A fresh browser profile (its own cookies) whose pages expose their terminal."""
    context = browser.new_context(viewport={"width": 1000, "height": 640}, **options)
    context.add_init_script(HOOK)
    return context


class BrowserPlayer:
    """A player at a browser page of the client: what the page shows, keys typed into it."""

    def __init__(self, page: Any, name: str,
                 wait: Callable[[str, Callable[[], Any], Callable[[], str]], Any]) -> None:
        self.page = page
        self.name = name
        self._wait = wait
        self.pressed_at: int | None = None
        self.pressed_when = 0.0

    def screen(self) -> str:
        """The terminal's text ('' before the client has drawn)."""
        text: str = self.page.evaluate(SCREEN)
        return text

    def keys(self, *keys: str) -> None:
        """Type ``keys`` (tmux's names, or single characters)."""
        self.page.focus(".xterm-helper-textarea")
        for key in keys:
            self.page.keyboard.press(KEYS.get(key, key))

    def report(self) -> str:
        """The screen, for a failure message."""
        return f"{self.name}'s browser screen:\n{self.screen()}"

    def wait(self, what: str, check: Callable[[str], T | None]) -> T:
        """Poll the screen until ``check`` gives a true value."""
        result: T = self._wait(f"{self.name}: {what}", lambda: check(self.screen()),
                               self.report)
        return result

    def ended(self) -> bool:
        """The session has ended (textual.js marks the page closed)."""
        return bool(self.page.evaluate("() => document.body.classList.contains('-closed')"))
