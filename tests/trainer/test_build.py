"""The build: the seat's 13 against the strong bot's choice from the same
34 (R7): waits, live copies, what each pays and whether it reaches mangan (R14), the tiles
kept back (R10), and what each hand did against the opponent's discards (R13, R15b-R18)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from minefield.bots.hands import DealtTiles, choose_best, expected_value
from minefield.rules.game import NEVER_DISCARDED, Discard, Game, Seat, ron_context
from minefield.rules.hand import Hand, waits
from minefield.rules.score import score_counts
from minefield.rules.tiles import Tile, kind_from_str, parse_tiles
from minefield.trainer.build import Build, build_of, build_part, build_section
from minefield.trainer.defense_review import GameReview, review_of_game
from tests.trainer.test_regrets import careless_game


@pytest.fixture(scope="module")
def careless() -> tuple[Game, GameReview, Build]:
    game = careless_game(1)
    review = review_of_game(game, Seat.WEST)
    return game, review, build_of(review)


def _deal(game: Game, seat: Seat) -> DealtTiles:
    view = game.view(seat)
    return DealtTiles.from_tiles(parse_tiles(view.own_tiles),
                                 Tile.parse(view.dora_indicator).kind, seat, game.settings)


def test_your_hand_against_the_strong_bots_from_the_same_34(
        careless: tuple[Game, GameReview, Build]) -> None:
    game, review, built = careless
    deal = _deal(game, Seat.WEST)
    best = choose_best(deal)
    assert Hand.parse(built.yours.hand).counts == Hand.parse(
        review.end.hands[Seat.WEST] or "").counts
    assert Hand.parse(built.bot.hand).counts == best.hand
    assert built.bot.value == pytest.approx(best.value)  # the measure the search maximizes
    assert built.bot.value >= built.yours.value
    assert built.yours.value == pytest.approx(expected_value(deal, Hand.parse(
        built.yours.hand).counts))
    for hand in (built.yours, built.bot):
        counts = Hand.parse(hand.hand).counts
        assert [kind_from_str(w.tile) for w in hand.waits] == list(waits(counts))
        for wait in hand.waits:
            kind = kind_from_str(wait.tile)
            assert wait.live == max(0, deal.unseen(kind))
            value = score_counts(counts, kind, deal.context, deal.settings)
            assert value is not None and wait.eligible == value.eligible
            assert wait.points == value.paid.points
        assert hand.mangan == any(w.eligible and w.live for w in hand.waits)
        assert hand.live == sum(w.live for w in hand.waits if w.eligible)


def test_the_tiles_kept_back(careless: tuple[Game, GameReview, Build]) -> None:
    game, review, built = careless
    pool = parse_tiles(review.end.pools[Seat.WEST])
    kinds = sorted(t.kind for t in pool)
    for tile in review.discards[Seat.WEST]:
        kinds.remove(Tile.parse(tile).kind)
    assert sorted(t.kind for t in parse_tiles(built.yours.kept_back)) == kinds
    if review.end.discard_number == 34:
        assert len(kinds) == NEVER_DISCARDED  # four pool tiles are never discarded (R10)
    bot_kept = [t.kind for t in parse_tiles(built.bot.kept_back)]
    bot_hand = Hand.parse(built.bot.hand).counts
    deal = _deal(game, Seat.WEST)
    bot_pool = [a - b for a, b in zip(deal.counts, bot_hand, strict=True)]
    assert 0 < len(bot_kept) <= NEVER_DISCARDED
    assert all(bot_kept.count(k) <= bot_pool[k] for k in set(bot_kept))
    own = [k for k in waits(bot_hand) if bot_pool[k]]
    if sum(bot_pool[k] for k in own) <= NEVER_DISCARDED:
        assert all(k in bot_kept for k in own)  # its own waits first (R15a)


def test_the_bots_hand_replayed_against_the_same_discards(
        careless: tuple[Game, GameReview, Build]) -> None:
    """The first of the opponent's discards that is a wait of the bot's hand wins when
    eligible (R13, R14, R18 with the real ura) and freezes the hand when not (R15b)."""
    _, review, built = careless
    bot_hand = Hand.parse(built.bot.hand).counts
    bot_waits = set(waits(bot_hand))
    theirs = [(2 * i + 1, Tile.parse(t).kind) for i, t in enumerate(review.discards[Seat.EAST])]
    hits = [(n, k) for n, k in theirs if k in bot_waits]
    if not hits:
        assert built.bot.won is None and built.bot.passed is None and built.bot.earned == 0
        return
    number, kind = hits[0]
    ctx = ron_context(Seat.WEST, number, Tile.parse(review.dora_indicator).kind,
                      Tile.parse(review.end.ura_indicator).kind)
    value = score_counts(bot_hand, kind, ctx, review.settings)
    assert value is not None
    if value.eligible:
        assert (built.bot.won, built.bot.earned) == (number, value.paid.points)
    else:
        assert (built.bot.won, built.bot.passed) == (None, number)


def test_your_hand_did_what_the_game_says() -> None:
    """The prepared game: West throws East's wait 4m on discard 2 and East wins (R13, R16)."""
    from minefield.rules.prepared import game_with_hands

    game = game_with_hands("23m456m345p678s55s", "123m456p789s3332z", east_pool="1z",
                           west_pool="4m", dora="2m")
    game.apply(Seat.EAST, Discard(tile="1z"))
    game.apply(Seat.WEST, Discard(tile="4m"))
    end = game.result
    assert end is not None and end.value is not None
    built = build_of(review_of_game(game, Seat.EAST))
    assert (built.yours.won, built.yours.earned) == (2, end.value.points)
    texts = [line.text for line in build_section(built, game.settings).lines]
    assert f"What it did: won {end.value.points} on discard 2" in texts
    assert texts[1] == f"Yours: {built.yours.hand}"
    assert any(t.startswith("The strong bot") for t in texts)


def test_a_build_that_cannot_be_worked_out_is_one_line(
        careless: tuple[Game, GameReview, Build]) -> None:
    """The other parts still show: the build says why in one line, never raises."""
    _, review, built = careless
    assert "<tiles hidden>" in repr(built) and built.yours.hand not in repr(built)
    section = build_part(replace(review, dora_indicator="9x"))
    (line,) = section.lines
    assert section.title == "The build" and line.text.startswith("It cannot be worked out: ")
    assert build_part(review) == build_section(built, review.settings)
