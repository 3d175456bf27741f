"""Local games: what ``minefield practice`` / ``hotseat`` or the menu's form asked for, and the
session that plays it (no Textual here; the app shows the session with a
:class:`~minefield.tui.table_controller.TableController`)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

from minefield.bots.base import Bot, Level
from minefield.rules.seats import Seat

if TYPE_CHECKING:  # the rules, the session and the bots load with the first game, not the menu
    from minefield.rules.game import ChooseHand, Discard, PlayerView
    from minefield.session import Session
    from minefield.session.base import SeatFailed
    from minefield.tui.config import Preferences

#: The bot whose hand the builder's hint shows.
HINT_LEVEL: Level = "strong"

BotFactory = Callable[[str, int], Bot]


class HintSource(Protocol):
    """The hand builder's hint: what a bot would do in the seat's view."""

    def __call__(self, view: PlayerView, /) -> ChooseHand | Discard:
        """The command the hint suggests in ``view``."""
        ...


GameMode = Literal["practice", "hotseat"]


@dataclass(frozen=True)
class GameRequest:
    """A game to start: what ``minefield practice`` / ``hotseat`` or the menu asked for.
    None fields fall back to the saved preferences (a random seed for ``seed``)."""

    mode: GameMode
    seed: int | str | None = None
    level: Level | None = None
    seat: Seat | None = None
    rules: str | None = None
    aids: bool = False  # hot-seat: both players agreed to the defense trainer's aids
    match: bool = False  # a whole match (R30), by default under the match preset
    rule: tuple[str, ...] = ()  # NAME=VALUE settings over the preset (``--rule``, ``--clock``)
    player: str | None = None  # practice: the player's name (None: "You")
    players: tuple[str, str] | None = None  # hot-seat: East's and West's names (a match: the
    # two players, seated by the seed); None: the seats' names (a match: Player 1 and 2)


def default_bot_factory(level: str, seed: int) -> Bot:
    """:func:`minefield.bots.make_bot`, imported with the first game."""
    from minefield.bots import make_bot

    return make_bot(level, seed)


def open_session(request: GameRequest, preferences: Preferences, *, bot_factory: BotFactory,
                 think_seconds: float | None, record_to: Path | None,
                 on_failure: Callable[[SeatFailed], None]) -> tuple[Session, str | None]:
    """The session of ``request`` (``preferences`` fill its gaps; ``think_seconds`` None: the
    bot's usual pause), and a problem to tell the player (an unknown rules preset: the
    standard rules are played instead)."""
    from minefield.rules.seed import derive_int, parse_seed, random_seed
    from minefield.rules.settings import RuleSettings, SettingsError
    from minefield.session import LocalSession
    from minefield.session.local import DEFAULT_THINK_SECONDS

    seed = parse_seed(request.seed) if request.seed is not None else random_seed()
    problem = None
    preset = request.rules or ("match" if request.match else preferences.rules)
    try:
        settings = RuleSettings.chosen(preset, request.rule)
    except SettingsError as error:
        problem, settings, preset = str(error), RuleSettings(), "standard"
    if request.mode == "practice":
        level = request.level or preferences.bot_level
        session: Session = LocalSession.practice(
            # The bot's seed follows from the game's but does not reveal it (R2).
            seed, bot_factory(level, derive_int(seed, "practice bot")),
            human=request.seat, settings=settings,
            think_seconds=DEFAULT_THINK_SECONDS if think_seconds is None else think_seconds,
            record_to=record_to, on_failure=on_failure, match=request.match,
            name=request.player or "You", preset=preset)
    else:
        names = (dict(zip(Seat, request.players, strict=True)) if request.players is not None
                 else None)
        session = LocalSession.hotseat(seed, settings, names=names, record_to=record_to,
                                       trainer_aids=request.aids, match=request.match,
                                       preset=preset)
    return session, problem


def hint_source(preferences: Preferences, session: Session,
                bot_factory: BotFactory) -> HintSource | None:
    """The hand builder's hint for ``session`` as the preferences ask (None: no hint; never
    in a network game, and in practice only when the session allows hints)."""
    hint, traits = preferences.hint, session.traits
    if traits.mode == "network" or hint == "off" or (
            hint == "practice" and not traits.hints_allowed):
        return None
    seed = secrets.randbelow(2**31)
    return lambda view: bot_factory(HINT_LEVEL, seed).act(view)


__all__ = ["BotFactory", "GameMode", "GameRequest", "HintSource", "default_bot_factory",
           "hint_source", "open_session"]
