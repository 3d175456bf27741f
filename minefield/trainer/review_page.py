"""The game review as one self-contained HTML page: ``review --html FILE`` and the browser
door's ``/game/GAME/review``.

The page says what ``review --text`` says (:func:`~minefield.trainer.review_parts.review_parts`:
the heading, each discard with its danger and the truth, the totals, your regrets, luck and
skill, how readable your wait was, the build), with every tile drawn as a small tile face in
styled text. It needs nothing from anywhere: one inline stylesheet, no scripts, no images, no
fonts, no links, so that it opens the same from a file, an e-mail or behind a strict
Content-Security-Policy (:data:`STYLE_HASH` is its stylesheet's hash for that policy).

>>> from minefield.trainer.review_parts import ReviewParts
>>> from minefield.trainer.sections import Line, Section
>>> parts = ReviewParts("Review of Ann (east) against Bob: their hand 123m, waits 4z", None,
...                     (), None, (Section("Your regrets", (Line("None."),)),))
>>> text = review_page(parts, "letters")
>>> text.startswith("<!DOCTYPE html>") and '<span class="tile z" title="N">N</span>' in text
True
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from minefield.rules.names import HonorNames, tile_name
from minefield.rules.tiles import Tile, TileError, parse_tiles
from minefield.trainer.sections import Line, Section

if TYPE_CHECKING:  # the page itself needs no bots nor estimate: the browser door loads it
    from minefield.trainer.review_parts import DiscardLine, ReviewParts

__all__ = ["STYLE", "STYLE_HASH", "review_page", "tiles_html"]

#: Tile groups in a sentence (mpsz: ``5m``, ``112266m1155p344s``, ``1235677z``), never inside a
#: longer word or figure (``1st``, ``R15a``, ``x5z`` are left alone).
_GROUP = re.compile(r"(?<![0-9A-Za-z])(?:[0-9]+[mpsz])+(?![0-9A-Za-z])")
#: The dragons' colors (white, green, red), as the game's screen draws them.
_DRAGON_CLASS = {31: "wh", 32: "gr", 33: "rd"}

STYLE = """
:root { color-scheme: light dark; --ink: #1d1d1f; --paper: #fbfaf7; --muted: #5f6368;
  --rule: #d8d4c8; --band: #f1eee6; --bad: #b3261e; --good: #1e6b34; --face: #fffdf6;
  --edge: #b9ae8f; --back: #d2b56f; --man: #b3261e; --pin: #1b4fa0; --sou: #1e6b34; }
@media (prefers-color-scheme: dark) {
  :root { --ink: #e8e6e1; --paper: #1c1d20; --muted: #a4a7ad; --rule: #3a3c42;
    --band: #26282d; --bad: #ff8a80; --good: #8fd19e; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--paper); color: var(--ink);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
main { max-width: 62rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; padding-bottom: .25rem;
  border-bottom: 2px solid var(--rule); }
p { margin: .4rem 0; }
.heading { font-size: 1.05rem; }
.muted, footer { color: var(--muted); }
footer { margin-top: 2.5rem; font-size: .85rem; }
table { width: 100%; border-collapse: collapse; margin: .5rem 0; }
th, td { text-align: left; vertical-align: top; padding: .35rem .5rem;
  border-bottom: 1px solid var(--rule); }
th { font-size: .85rem; color: var(--muted); font-weight: 600; }
td.number { text-align: right; width: 3rem; font-variant-numeric: tabular-nums; }
td.truth { width: 14rem; }
tr.dealt-in { background: var(--band); }
tr.dealt-in td.truth { color: var(--bad); font-weight: 700; }
.totals { font-weight: 600; }
ul.lines { list-style: none; margin: .25rem 0 .5rem; padding: 0; }
ul.lines li { display: flex; align-items: baseline; gap: .4rem; margin: .25rem 0; }
ul.lines li.depth-1 { padding-left: 1rem; }
ul.lines li.depth-2 { padding-left: 2.6rem; font-size: .95rem; }
.marker { flex: none; min-width: 1.2rem; color: var(--muted); }
.tiles { white-space: nowrap; }
.tile { display: inline-block; min-width: 1.45em; margin: 0 .06em; padding: .05em .2em 0;
  border: 1px solid var(--edge); border-radius: .3em; background: var(--face);
  box-shadow: 0 .16em 0 var(--back); text-align: center; font-weight: 700;
  line-height: 1.25; color: #222; vertical-align: .08em; }
.tile small { display: block; font-size: .62em; line-height: 1; padding-bottom: .12em;
  font-weight: 600; }
.tile.m { color: var(--man); } .tile.p { color: var(--pin); } .tile.s { color: var(--sou); }
.tile.z { color: #222; padding-top: .36em; padding-bottom: .4em; }
.tile.wh { color: #4a5a7a; } .tile.gr { color: var(--sou); } .tile.rd { color: var(--man); }
.tile.red { color: #e0221b; text-decoration: underline; }
@media print { body { background: #fff; } tr.dealt-in { background: #eee; } }
"""
#: The stylesheet's hash, for a Content-Security-Policy that allows this style and nothing else.
STYLE_HASH = "sha256-" + base64.b64encode(hashlib.sha256(STYLE.encode()).digest()).decode()


def _tile_html(tile: Tile, honors: HonorNames) -> str:
    if tile.kind >= 27:
        extra = f" {_DRAGON_CLASS[tile.kind]}" if tile.kind in _DRAGON_CLASS else ""
        name = tile_name(tile, honors)
        return (f'<span class="tile z{extra}" title="{html.escape(name)}">'
                f"{html.escape(name)}</span>")
    text = str(tile)
    suit = text[-1]
    red = " red" if tile.red else ""
    return (f'<span class="tile {suit}{red}" title="{text}'
            f'{" (red five)" if tile.red else ""}">{text[0]}<small>{suit}</small></span>')


def tiles_html(text: str, honors: HonorNames = "letters") -> str:
    """``text`` (a sentence in mpsz) escaped, with each group of tiles drawn as tile faces
    (honors named by ``honors``).

    >>> tiles_html("5m & 7z")
    '<span class="tiles"><span class="tile m" title="5m">5<small>m</small></span></span> &amp; \
<span class="tiles"><span class="tile z rd" title="Rd">Rd</span></span>'
    """
    out: list[str] = []
    last = 0
    for found in _GROUP.finditer(text):
        try:
            tiles = parse_tiles(found.group())
        except TileError:
            continue  # not tiles after all (a count of copies, say): left as written
        out.append(html.escape(text[last:found.start()]))
        out.append('<span class="tiles">' + "".join(_tile_html(t, honors) for t in tiles)
                   + "</span>")
        last = found.end()
    out.append(html.escape(text[last:]))
    return "".join(out)


def _discards_html(lines: tuple[DiscardLine, ...], honors: HonorNames) -> Iterator[str]:
    yield ('<table class="discards">\n<thead><tr><th>Discard</th><th>The danger then, and the '
           "safest tile</th><th>What was true</th></tr></thead>\n<tbody>")
    for line in lines:
        row = ' class="dealt-in"' if line.dealt_in else ""
        yield (f'<tr{row}><td class="number">{line.number}</td>'
               f"<td>{tiles_html(line.text, honors)}</td>"
               f'<td class="truth">{tiles_html(line.truth, honors)}</td></tr>')
    yield "</tbody>\n</table>"


def _section_html(section: Section, honors: HonorNames) -> Iterator[str]:
    """A part: its title, its paragraphs, and its bullets as lists that keep their markers
    (``1.``, ``•``) and depth, as the text and the review screen show them."""
    slug = re.sub(r"[^a-z]+", "-", section.title.lower()).strip("-")
    yield f'<section id="{slug}">\n<h2>{html.escape(section.title)}</h2>'
    bullets: list[Line] = []

    def flush() -> Iterator[str]:
        if bullets:
            yield '<ul class="lines">'
            for line in bullets:
                yield (f'<li class="depth-{line.depth}"><span class="marker">'
                       f"{html.escape(line.marker)}</span><span>{tiles_html(line.text, honors)}"
                       "</span></li>")
            yield "</ul>"
            bullets.clear()

    for line in section.lines:
        if line.depth:
            bullets.append(line)
            continue
        yield from flush()
        yield f"<p>{tiles_html(line.text, honors)}</p>"
    yield from flush()
    yield "</section>"


def review_page(parts: ReviewParts, honors: HonorNames = "letters", *,
                title: str = "Defense review", source: str = "") -> str:
    """The review as one HTML page (``source``: where it came from, said at its foot)."""
    body = [f"<h1>{html.escape(title)}</h1>",
            f'<p class="heading">{tiles_html(parts.heading, honors)}</p>',
            '<section id="discards">\n<h2>Your discards</h2>']
    if parts.note is not None:
        body.append(f"<p>{tiles_html(parts.note, honors)}</p>")
    if parts.discards:
        body.extend(_discards_html(parts.discards, honors))
    if parts.totals is not None:
        body.append(f'<p class="totals">{tiles_html(parts.totals, honors)}</p>')
    body.append("</section>")
    for section in parts.sections:
        body.extend(_section_html(section, honors))
    made = "Made by Minefield" + (f" from {source}" if source else "") + "."
    body.append(f"<footer>{html.escape(made)}</footer>")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>Minefield: {html.escape(title.lower())}</title>\n"
            f"<style>{STYLE}</style>\n</head>\n<body>\n<main>\n" + "\n".join(body)
            + "\n</main>\n</body>\n</html>\n")
