"""The engine in this process: hot-seat, and practice against a bot.

>>> import asyncio
>>> from minefield.rules.auto import auto_command
>>> class Stand_in:
...     level = "easy"
...     def act(self, view): return auto_command(view)
>>> session = LocalSession.practice(seed=1, bot=Stand_in(), human=Seat.EAST, think_seconds=0)
>>> session.needs_others(), session.mode
(True, 'practice')
>>> asyncio.run(session.wait_for_others())
>>> session.view(Seat.EAST).opponent_ready
True
>>> session
LocalSession(mode=practice, phase=choosing, discards=0, <tiles hidden>)
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Iterator
from typing import Any

from minefield.bots.base import Bot
from minefield.rules.game import ChooseHand, Discard, Game, IllegalCommand, PlayerView, Seat
from minefield.rules.settings import RuleSettings
from minefield.session.base import SessionMode

#: The pause before a bot's discard, so that a player can follow the game.
DEFAULT_THINK_SECONDS = 0.7


class SeatFailed(Exception):
    """The other seat (the bot; later a remote peer) failed.

    It keeps the failure's type and where it was raised (file, line, function), never its
    message, traceback or locals: those may hold that seat's hidden tiles, and this error is
    written to the error log and to the terminal.
    """

    def __init__(self, seat: Seat, kind: str, where: tuple[str, ...] = ()) -> None:
        self.seat = seat
        self.kind = kind
        self.where = where
        lines = [f"the {seat.value} seat failed with {kind}"]
        if where:
            lines += ["raised at (innermost last):", *(f"  {place}" for place in where)]
        super().__init__("\n".join(lines))

    @classmethod
    def of(cls, seat: Seat, error: BaseException) -> SeatFailed:
        """``error`` of ``seat`` reduced to its type name and the places it went through."""
        frames = traceback.extract_tb(error.__traceback__)
        return cls(seat, type(error).__qualname__,
                   tuple(f"{frame.filename}:{frame.lineno} in {frame.name}" for frame in frames))


class LocalSession:
    """A :class:`~minefield.session.base.Session` over a :class:`Game` held in this process.

    Build one with :meth:`practice` or :meth:`hotseat`. ``think_seconds`` is the pause before
    each of the bot's discards (0 in tests). The bot computes in a thread, never on the event
    loop, and its command is applied on the loop, so the game has one writer.
    """

    def __init__(self, game: Game, mode: SessionMode, local_seats: tuple[Seat, ...],
                 bot: Bot | None = None, think_seconds: float = DEFAULT_THINK_SECONDS) -> None:
        if mode == "practice" and (bot is None or len(local_seats) != 1):
            raise ValueError("practice needs a bot and exactly one local seat")
        if mode == "hotseat" and (bot is not None or len(local_seats) != 2):
            raise ValueError("hot-seat has two local seats and no bot")
        self._game = game
        self._mode: SessionMode = mode
        self._local_seats = tuple(sorted(local_seats, key=lambda s: s is not Seat.EAST))
        self._bot = bot
        self.think_seconds = think_seconds

    @classmethod
    def practice(cls, seed: int | str, bot: Bot, human: Seat | None = None,
                 settings: RuleSettings | None = None,
                 think_seconds: float = DEFAULT_THINK_SECONDS) -> LocalSession:
        """A game against ``bot``. The human's seat is drawn from the seed unless given (R6)."""
        game = Game(seed, settings)
        if human is None:
            human = Seat.EAST if game.deal.east_player == 0 else Seat.WEST
        return cls(game, "practice", (human,), bot, think_seconds)

    @classmethod
    def hotseat(cls, seed: int | str, settings: RuleSettings | None = None) -> LocalSession:
        """A game for two players at one terminal."""
        return cls(Game(seed, settings), "hotseat", (Seat.EAST, Seat.WEST))

    # -- the Session protocol --------------------------------------------------------------------

    @property
    def mode(self) -> SessionMode:
        """``practice`` or ``hotseat``."""
        return self._mode

    @property
    def local_seats(self) -> tuple[Seat, ...]:
        """The seats played at this terminal, East first."""
        return self._local_seats

    @property
    def settings(self) -> RuleSettings:
        """The rules of this game."""
        return self._game.settings

    @property
    def bot_seat(self) -> Seat | None:
        """The bot's seat in practice, else None."""
        return self._local_seats[0].other if self._bot is not None else None

    def seat_name(self, seat: Seat) -> str:
        """``"You"`` and ``"Bot (normal)"`` in practice, the seat wind in hot-seat."""
        if self._bot is not None:
            return "You" if seat in self._local_seats else f"Bot ({self._bot.level})"
        return seat.value.title()

    def view(self, seat: Seat) -> PlayerView:
        """What a local ``seat`` may see now (R26)."""
        if seat not in self._local_seats and self._game.phase != "ended":
            raise IllegalCommand(f"{seat} is not played at this terminal")
        return self._game.view(seat)

    async def send(self, seat: Seat, command: ChooseHand | Discard) -> None:
        """Apply a local seat's command; ``IllegalCommand`` leaves the game unchanged."""
        if seat not in self._local_seats:
            raise IllegalCommand(f"{seat} is not played at this terminal")
        self._game.apply(seat, command)

    def needs_others(self) -> bool:
        """True when the bot must choose its hand or discard."""
        seat = self.bot_seat
        if seat is None:
            return False
        if self._game.phase == "choosing":
            return self._game.hand_of(seat) is None
        return self._game.phase == "discarding" and self._game.turn is seat

    async def wait_for_others(self) -> None:
        """Let the bot make its move: it thinks in a thread, then pauses before a discard.

        Any failure of the bot (an error, an illegal command) raises :class:`SeatFailed`, which
        keeps no text of the original: it may name the bot's tiles.
        """
        seat = self.bot_seat
        if seat is None or self._bot is None or not self.needs_others():
            return
        bot = self._bot
        view = self._game.view(seat)
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            command = await asyncio.to_thread(bot.act, view)
            if view.phase == "discarding":
                await asyncio.sleep(max(0.0, self.think_seconds - (loop.time() - started)))
            if self._game.view(seat) != view:
                return  # the game moved on meanwhile (it never should); the bot will act again
            self._game.apply(seat, command)  # a bot's illegal command names its tiles too
            return
        except Exception as error:
            failure = SeatFailed.of(seat, error)
        # Raised outside the except block: the original (its text, its frames' locals) is
        # neither chained nor kept.
        raise failure from None

    # -- hidden information stays hidden (ARCHITECTURE 3) ---------------------------------------

    def __repr__(self) -> str:
        return (f"LocalSession(mode={self._mode}, phase={self._game.phase}, "
                f"discards={self._game.discard_count}, <tiles hidden>)")

    def __rich_repr__(self) -> Iterator[Any]:
        yield "mode", self._mode
        yield "phase", self._game.phase
        yield "tiles", "<hidden>"
