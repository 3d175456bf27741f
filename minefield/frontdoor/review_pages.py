"""The browser door's game reviews: ``/game/GAME/review`` is the page ``review --html`` writes
(:mod:`minefield.trainer.review_page`), made from the kept game's record.

A review takes a moment of CPU (every discard estimated from both seats, the strong bot's
build), so it is made in a worker thread, one at a time, and the last few pages are kept: a
finished game's record never changes, so a page made once is the page. The page's
Content-Security-Policy (:data:`REVIEW_POLICY`) allows its own stylesheet and nothing else.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from pathlib import Path

from minefield.rules.seats import Seat
from minefield.trainer.review_page import STYLE_HASH

log = logging.getLogger("minefield.frontdoor")

#: The review page's Content-Security-Policy: its inline stylesheet, by hash, and nothing else
#: (no script, image, font, connection, frame or form).
REVIEW_POLICY = (f"default-src 'none'; style-src '{STYLE_HASH}'; base-uri 'none'; "
                 "form-action 'none'; frame-ancestors 'none'")
#: Review pages kept (by game and seat).
KEPT_PAGES = 32


def make_review_page(path: Path, seat: Seat, game: str) -> str:
    """The review page of the record at ``path`` from ``seat``; ``ReviewError`` when the
    record cannot be reviewed."""
    from minefield.trainer.review_page import review_page
    from minefield.trainer.review_parts import review_of_record, review_parts

    review, names = review_of_record(path, seat)
    title = (f"Defense review of {names[seat]} ({seat.value}) against "
             f"{names[seat.other]}")
    return review_page(review_parts(review, names), "letters", title=title,
                       source=f"game {game}")


class ReviewPages:
    """The review pages made so far (the last :data:`KEPT_PAGES`), made one at a time."""

    def __init__(self, kept: int = KEPT_PAGES) -> None:
        self._pages: OrderedDict[tuple[str, Seat], str] = OrderedDict()
        self._kept = kept
        self._one_at_a_time = asyncio.Lock()
        #: Pages made (not taken from those kept; tests read this).
        self.made = 0

    async def page(self, game: str, path: Path, seat: Seat) -> str | None:
        """The review page of ``game`` (its record at ``path``) from ``seat``; None, logged,
        when the record cannot be reviewed."""
        from minefield.trainer.defense_review import ReviewError

        key = (game, seat)
        async with self._one_at_a_time:
            text = self._pages.get(key)
            if text is None:
                try:
                    text = await asyncio.to_thread(make_review_page, path, seat, game)
                except (ReviewError, OSError) as error:
                    log.warning("the review of game %s cannot be made: %s", game, error)
                    return None
                self.made += 1
            self._pages[key] = text
            self._pages.move_to_end(key)
            while len(self._pages) > self._kept:
                self._pages.popitem(last=False)
        return text


__all__ = ["KEPT_PAGES", "REVIEW_POLICY", "ReviewPages", "make_review_page"]
