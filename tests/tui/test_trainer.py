"""The defense trainer in the game: the danger overlay, feedback after a discard, the review of
a finished game (and of a record), the progress screen. Prepared games keep every test
deterministic; the estimates are fitted for the opponent (the practice bot's level, a person in
hot-seat)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Checkbox, Select, Static

from minefield.bots.base import Level
from minefield.cli.review import load_review
from minefield.defense.estimate import estimate, feedback, percent
from minefield.defense.position import Position
from minefield.paths import progress_path
from minefield.protocol.messages import PlayerInfo
from minefield.records.header import Players
from minefield.records.writer import write_game
from minefield.rules.game import ChooseHand, Discard, Game, PlayerView, Seat
from minefield.rules.names import name_text
from minefield.rules.prepared import game_with_hands
from minefield.rules.tiles import kind_str, parse_tiles
from minefield.session import LocalSession
from minefield.trainer.drill_answers import answer
from minefield.trainer.drills import Drill, make_drill, reader_lines
from minefield.trainer.progress import open_progress
from minefield.trainer.progress_records import DiscardRecord, DrillRecord, GameRecord
from minefield.tui.app import MinefieldApp
from minefield.tui.config import Preferences
from minefield.tui.review_app import ReviewApp
from minefield.tui.screens.dialogs import CurtainScreen
from minefield.tui.screens.drills import DrillsScreen, drill_lines, store_recorder
from minefield.tui.screens.new_game import NewGameScreen
from minefield.tui.screens.play import PlayScreen
from minefield.tui.screens.result import ResultScreen
from minefield.tui.screens.review import ReviewScreen
from minefield.tui.screens.stats import StatsScreen, summary_renderable
from minefield.tui.widgets.danger import DANGER_CLASSES, DangerPanel, tile_percent
from minefield.tui.widgets.log import GameLog
from minefield.tui.widgets.tiles import TileRow
from tests.records.conftest import played
from tests.tui.conftest import StandInBot, on_top, screen_text, settle

# East waits on 1m 4m 7m; West on 2z alone, a tanki worth mangan on any discard (riichi, West's
# own wind 3z as yakuhai and as three dora: the indicator is 2z, R4, R14).
EAST_HAND, WEST_HAND = "23m456m345p678s55s", "123m456p789s3332z"


def prepared(east_pool: str = "1z2z2p6p9p1s3s9s", west_pool: str = "") -> Game:
    """Both hands chosen, East to discard (pools filled with tiles neither hand waits on)."""
    return game_with_hands(EAST_HAND, WEST_HAND, east_pool=east_pool, west_pool=west_pool,
                           dora="2z")


def practice(game: Game, human: Seat = Seat.EAST) -> LocalSession:
    players = {human: PlayerInfo(name="You"),
               human.other: PlayerInfo(name="Bot (easy)", kind="bot")}
    return LocalSession(game, "practice", (human,), players, StandInBot(), think_seconds=0)


def hotseat(game: Game, aids: bool) -> LocalSession:
    players = {seat: PlayerInfo(name=seat.value.title()) for seat in Seat}
    session = LocalSession(game, "hotseat", (Seat.EAST, Seat.WEST), players)
    session.trainer_aids = aids
    return session


def fast_app(preferences: Preferences | None = None) -> MinefieldApp:
    """An app at the menu."""
    return MinefieldApp(think_seconds=0, preferences=preferences or Preferences(hint="off"),
                        catch_errors=False)


def text_of(app: MinefieldApp, selector: str) -> str:
    """The plain text of one Static (a narrow panel wraps on screen; this does not)."""
    return str(app.screen.query_one(selector, Static).render())


def shades(row: TileRow) -> list[str | None]:
    return [next((c for c in DANGER_CLASSES if place.has_class(c)), None)
            for place in row.places[:len(row.tiles)]]


async def at_the_prepared_table(app: MinefieldApp, pilot: Pilot[Any]) -> PlayScreen:
    """Practice on :func:`prepared`: the player's table, East to discard."""
    await app.play(practice(prepared()))
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, PlayScreen) and screen.view.my_turn
    return screen


# -- the overlay ------------------------------------------------------------------------------


async def test_overlay_shades_the_pool_and_explains_the_highlighted_tile() -> None:
    app = fast_app()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await at_the_prepared_table(app, pilot)
        pool = screen.query_one("#pool", TileRow)
        assert shades(pool) == [None] * len(pool.tiles)  # off by default
        assert not screen.query_one(DangerPanel).display

        await pilot.press("d")
        await pilot.pause()
        assert app.trainer.opponent == "easy"  # practice passes the bot's level
        report = estimate(Position.from_view(screen.view), "easy")
        assert screen.has_class("-danger") and screen.query_one(DangerPanel).display
        expected = [DANGER_CLASSES[0] if report.of(kind_str(t.kind)).danger <= 0 else "shaded"
                    for t in pool.tiles]
        found = [s if s == DANGER_CLASSES[0] else ("shaded" if s else None)
                 for s in shades(pool)]
        assert found == expected and None not in found
        first = report.of(kind_str(pool.tiles[0].kind))
        panel = text_of(app, "#danger-text")
        assert f"{first.tile} {percent(first.danger)}" in panel
        assert first.reasons[0] in panel and "Safest:" in panel

        await pilot.press("right")  # the panel follows the highlighted tile
        await pilot.pause()
        second = report.of(kind_str(pool.tiles[1].kind))
        assert f"{second.tile} {percent(second.danger)}" in text_of(app, "#danger-text")

        await pilot.press("d")
        await pilot.pause()
        assert not screen.has_class("-danger") and set(shades(pool)) == {None}


async def test_hotseat_offers_no_overlay_without_both_agreeing() -> None:
    app = fast_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await app.play(hotseat(prepared(), aids=False))
        await settle(pilot)
        assert isinstance(app.screen, CurtainScreen)
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        assert "Danger" not in screen_text(app).splitlines()[-1]  # not in the footer
        await pilot.press("d")
        await pilot.pause()
        assert not screen.has_class("-danger") and not app.trainer.overlay
        assert set(shades(screen.query_one("#pool", TileRow))) == {None}


async def test_hotseat_overlay_when_both_agreed_shows_only_the_seats_own_view() -> None:
    app = fast_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await app.play(hotseat(prepared(), aids=True))
        await settle(pilot)
        await pilot.press("enter")  # East at the keyboard
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen) and screen.seat is Seat.EAST
        await pilot.press("d")
        await pilot.pause()
        assert screen.has_class("-danger")
        assert app.trainer.opponent == "person"  # hot-seat: a person across the table
        assert "Danger" in text_of(app, "#danger-text")
        await pilot.press("enter")  # discard, then pass the keyboard: the curtain hides all
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, CurtainScreen)
        assert not any(isinstance(s, PlayScreen) for s in app.screen_stack)
        assert not any(panel.display for s in app.screen_stack for panel in s.query(DangerPanel))
        await pilot.press("enter")  # West at the keyboard: the overlay is on, for West's view
        await settle(pilot)
        screen = on_top(app)
        assert isinstance(screen, PlayScreen) and screen.seat is Seat.WEST
        assert screen.has_class("-danger")
        west = estimate(Position.from_view(screen.view), "person")  # hot-seat
        first = west.of(kind_str(screen.query_one("#pool", TileRow).tiles[0].kind))
        assert f"{first.tile} {percent(first.danger)}" in text_of(app, "#danger-text")


# -- feedback ---------------------------------------------------------------------------------


async def test_feedback_after_a_discard_names_the_danger_and_the_safest_tile() -> None:
    app = fast_app(Preferences(hint="off", discard_feedback=True))
    async with app.run_test(size=(100, 32)) as pilot:
        await app.play(practice(prepared()))
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        report = estimate(Position.from_view(screen.view), "easy")  # the bot
        chosen = screen.query_one("#pool", TileRow).tiles[0]
        expected = feedback(report, kind_str(chosen.kind))
        await pilot.press("enter")  # discard the first pool tile; the bot answers
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen) and app.screen.view.my_turn
        log = text_of(app, "#log-text")
        # Honors by name, as the default setting calls them (the trainer writes mpsz).
        assert name_text(expected, "letters") in log
        assert name_text(f"{kind_str(chosen.kind)}: "
                         f"{percent(report.of(kind_str(chosen.kind)).danger)}", "letters") in log
        assert ("safest was" in expected) or ("that was the safest tile" in expected)


async def test_feedback_is_off_until_asked_and_f_turns_it_on() -> None:
    app = fast_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await app.play(practice(prepared()))
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert "%" not in text_of(app, "#log-text")
        await pilot.press("f")
        await pilot.pause()
        assert app.preferences.discard_feedback
        assert "%" in text_of(app, "#log-text")


# -- progress ---------------------------------------------------------------------------------


async def test_a_practice_game_is_recorded_with_the_danger_of_each_discard() -> None:
    app = fast_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await app.play(practice(prepared()))
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        report = estimate(Position.from_view(screen.view), "easy")  # the bot
        await pilot.press("2", "z", "enter")  # West's only wait: a deal-in (R13)
        await settle(pilot)
        assert isinstance(app.screen, ResultScreen)
    store, problem = open_progress()
    assert problem is None
    summary = store.summary()
    assert summary.games == 1 and summary.deal_ins == 1
    assert summary.overall.danger_taken == report.of("2z").danger
    assert summary.overall.least_danger == report.safest().danger
    store.close()


async def test_a_broken_progress_file_is_told_once_and_the_game_goes_on(tmp_path: Path
                                                                         ) -> None:
    path = progress_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"not a database" * 100)
    app = fast_app()
    async with app.run_test(size=(100, 32), notifications=True) as pilot:
        await app.play(practice(prepared()))
        await settle(pilot)
        await pilot.press("2", "z", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ResultScreen)
        told = [n for n in app._notifications if "progress is not saved" in n.message]
        assert len(told) == 1
        await app.trainer_doors.stats()  # the store is not opened again, nor told again
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        assert len([n for n in app._notifications if "progress is not saved" in n.message]) == 1


async def test_the_progress_screen_shows_games_deal_ins_and_drills() -> None:
    store, _ = open_progress()
    store.record_game(GameRecord(mode="practice", seat="east", result="lost", points=-8000),
                      [DiscardRecord(number=1, tile="5p", danger=0.2, least_danger=0.05,
                                     dealt_in=True)])
    store.record_game(GameRecord(mode="practice", seat="west", result="draw"),
                      [DiscardRecord(number=2, tile="1z", danger=0.0, least_danger=0.0)])
    store.record_drill(DrillRecord("read_wait", "beginner", "read_wait:beginner:*:1", True,
                                   1.0, "no_chance_own"))
    store.close()
    app = fast_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("t")  # from the menu
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        text = screen_text(app)
        assert "Games 2" in text and "dealt in 1" in text
        # what happened (safety) and agreement with the estimate, each said
        assert "Safety: deal-in rate 50% · points lost per game 4000 (what happened)" in text
        assert "Agreement with the estimate: 7.5% danger beyond its safest tile per " \
            "discard" in text and "that is not the same as safe" in text
        assert "taken 10.0%" in text and "least  2.5%" in text  # per discard
        console = Console(width=78, record=True, file=io.StringIO())
        console.print(summary_renderable(app.screen.summary))
        body = console.export_text()  # the whole page, scrolled or not
        assert "Read the wait" in body and "read_wait" not in body
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, StatsScreen)


# -- review -----------------------------------------------------------------------------------


async def _to_the_result_after_a_deal_in(app: MinefieldApp, pilot: Pilot[Any]) -> None:
    await app.play(practice(prepared()))
    await settle(pilot)
    await pilot.press("1", "z", "enter")  # safe
    await settle(pilot)
    await pilot.press("2", "z", "enter")  # West's wait: the deal-in ends the game
    await settle(pilot)


async def test_review_after_a_practice_game_steps_through_the_discards() -> None:
    app = fast_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await _to_the_result_after_a_deal_in(app, pilot)
        assert isinstance(app.screen, ResultScreen)
        end = app.screen.end
        await pilot.press("v")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        steps = screen.review.steps
        assert app.table is not None
        assert [s.tile for s in steps][:1] == ["1z"] and len(steps) == len(
            app.table.tables[Seat.EAST].view.discards[Seat.EAST])
        hand = screen.query_one("#review-their-hand", TileRow)
        assert hand.tiles == parse_tiles(end.hands[Seat.WEST] or "")  # revealed at the end
        info = text_of(app, "#review-info")
        taken = sum(a.taken for a in screen.assessed[Seat.EAST])
        least = sum(a.least for a in screen.assessed[Seat.EAST])
        assert f"Danger taken in total {taken:.2f}" in info and f"possible {least:.2f}" in info
        assert "their waits: S" in info  # 2z, by name
        assert "E" in text_of(app, "#review-detail") and "was safe" in text_of(
            app, "#review-detail")
        await pilot.press("end")
        await pilot.pause()
        assert end.winner is Seat.WEST
        assert "S dealt in here" in text_of(app, "#review-detail")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ResultScreen)


async def test_review_of_a_hotseat_game_covers_both_seats() -> None:
    app = fast_app()
    game = prepared()
    game.apply(Seat.EAST, Discard(tile="2z"))  # West wins at once (ippatsu)
    async with app.run_test(size=(100, 32)) as pilot:
        await app.play(hotseat(game, aids=False))
        await settle(pilot)
        assert isinstance(app.screen, ResultScreen)
        await pilot.press("v")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.seat is Seat.EAST
        assert "S dealt in here" in text_of(app, "#review-detail")
        await pilot.press("w")
        await pilot.pause()
        review = on_top(app)  # the same review, turned to West's side
        assert review is screen and isinstance(review, ReviewScreen) and review.seat is Seat.WEST
        assert "West made no discard: the game ended on discard 1" in text_of(
            app, "#review-detail")


class DealsIn:
    """A practice bot (East) whose first discard is 2z, West's mangan wait."""

    level: Level = "easy"

    def act(self, view: PlayerView) -> ChooseHand | Discard:
        return Discard(tile="2z")


async def test_review_of_a_seat_that_won_on_discard_one_does_not_wait() -> None:
    """The practice player (West) won on East's first discard and made none; the
    review said "Estimating the danger... 0/0" for ever over 21 empty pool boxes. It says there
    is nothing to estimate and shows the pool West kept."""
    app = fast_app()
    game = prepared()
    players = {Seat.WEST: PlayerInfo(name="You"),
               Seat.EAST: PlayerInfo(name="Bot (easy)", kind="bot")}
    session = LocalSession(game, "practice", (Seat.WEST,), players, DealsIn(),
                           think_seconds=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.play(session)
        await settle(pilot)
        assert game.result is not None and game.result.winner is Seat.WEST
        assert isinstance(app.screen, ResultScreen)
        await pilot.press("v")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and list(screen.reviews) == [Seat.WEST]
        info, detail = text_of(app, "#review-info"), text_of(app, "#review-detail")
        assert "Estimating" not in info and "Nothing to estimate: no discards" in info
        assert "You made no discard: the game ended on discard 1" in detail
        pool = screen.query_one("#review-pool", TileRow)
        assert pool.tiles == parse_tiles(game.result.pools[Seat.WEST])
        assert len(pool.tiles) == 21 and screen.done


def _record(folder: Path) -> Path:
    """A seeded bot game's record (seed 0: West deals in on discard 4), West named as the
    player of a practice game."""
    return write_game(played(0), "practice", Players(east="Bot (normal)", west="You"), folder)


async def test_review_of_a_record_file(tmp_path: Path) -> None:
    review, names = load_review(_record(tmp_path), None)
    assert review.seat is Seat.WEST and names[Seat.WEST] == "You"  # the player, not the bot
    app = ReviewApp(review, names, "normal", preferences=Preferences(hint="off"))
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        for worker in list(screen.workers):
            await worker.wait()
        await pilot.pause()
        steps = review.steps
        assert [s.number for s in steps] == [2, 4] and steps[-1].dealt_in
        hand = screen.query_one("#review-their-hand", TileRow)
        assert hand.tiles == parse_tiles(review.opponent_hand or "")
        detail = str(screen.query_one("#review-detail", Static).render())
        assert steps[0].tile in detail and "dealt in here" not in detail
        await pilot.press("right")
        await pilot.pause()
        assert screen.index == 1
        detail = str(screen.query_one("#review-detail", Static).render())
        assert f"{steps[1].tile} dealt in here" in detail
        info = str(screen.query_one("#review-info", Static).render())
        taken = sum(a.taken for a in screen.assessed[Seat.WEST])
        assert f"Danger taken in total {taken:.2f}" in info
        await pilot.press("escape")
        await pilot.pause()
    assert app.return_code in (0, None)


# -- drills -----------------------------------------------------------------------------------


async def _drill_ready(pilot: Pilot[Any], screen: DrillsScreen) -> None:
    for worker in list(screen.workers):
        await worker.wait()
    await pilot.pause()


async def test_a_drill_is_answered_by_keyboard_explained_and_saved() -> None:
    store, _ = open_progress()
    app = fast_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = DrillsScreen(store_recorder(store.record_drill), store.drill_history, seed=1)
        await app.push_screen(screen)
        await _drill_ready(pilot, screen)
        assert "Due (spaced repetition)" in screen_text(app)
        screen.query_one("#drill-kind", Select).value = "is_mangan"  # applies at once
        await pilot.pause()
        await _drill_ready(pilot, screen)
        drill = screen.drill
        assert isinstance(drill, Drill) and drill.kind == "is_mangan"
        assert "Mangan or not" in screen_text(app) and "is_mangan" not in screen_text(app)
        question = text_of(app, "#drill-question")
        assert name_text(drill.prompt[0], "letters") in question and "R14" in question
        expected = answer(drill, True)
        await pilot.press("y", "enter")
        await pilot.pause()
        shown = text_of(app, "#drill-answer")
        assert ("Right" if expected.correct else "Not right") in shown
        assert name_text(expected.explanation[0], "letters") in shown and "The truth" in shown
        history = store.drill_history()
        assert [(r.kind, r.correct) for r in history] == [("is_mangan", expected.correct)]
        await pilot.press("enter")  # the next drill
        await _drill_ready(pilot, screen)
        assert screen.result is None and screen.drill is not None and screen.drill != drill
    store.close()


def test_a_read_the_wait_drill_shows_what_a_reader_has() -> None:
    """The discards in order, the dora and the copies seen, the kind in words."""
    drill = make_drill("read_wait", 3, "beginner")
    assert drill.position is not None
    lines = drill_lines(drill)
    assert lines[0] == "[dim]Read the wait · beginner[/]"
    for line in reader_lines(drill.position):
        assert line in lines


async def test_drills_and_progress_from_the_menu() -> None:
    app = fast_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Defense drills" in screen_text(app) and "Defense progress" in screen_text(app)
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, DrillsScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, DrillsScreen)


# -- snapshots (80x24; regenerate with --snapshot-update only after looking at the SVGs) -------


def test_overlay_snapshot_80x24(snap_compare: Any) -> None:
    async def overlay_on(pilot: Pilot[Any]) -> None:
        assert isinstance(pilot.app, MinefieldApp)
        await pilot.app.play(practice(prepared()))
        await settle(pilot)
        await pilot.press("d", "right", "right")
        await pilot.pause()

    assert snap_compare(fast_app(), terminal_size=(80, 24), run_before=overlay_on)


def test_review_snapshot_80x24(snap_compare: Any) -> None:
    async def review(pilot: Pilot[Any]) -> None:
        assert isinstance(pilot.app, MinefieldApp)
        await _to_the_result_after_a_deal_in(pilot.app, pilot)
        await pilot.press("v")
        await settle(pilot)
        await pilot.press("end")
        await pilot.pause()

    assert snap_compare(fast_app(), terminal_size=(80, 24), run_before=review)


async def test_the_hotseat_form_asks_whether_both_players_agree_to_the_aids() -> None:
    for agree in (False, True):
        app = fast_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("h")
            await pilot.pause()
            form = app.screen
            assert isinstance(form, NewGameScreen)
            box = form.query_one("#aids", Checkbox)
            assert not box.value and "both agree" in str(box.label)
            if agree:
                box.focus()
                await pilot.press("space")
                await pilot.pause()
            await pilot.press("ctrl+s")  # from any field
            await settle(pilot)
            assert app.session is not None
            assert app.session.traits.trainer_aids is agree and app.trainer.aids is agree


async def test_overlay_writes_each_tiles_chance_on_it_and_keeps_the_log_beside_the_pool() -> None:
    """Each pool tile carries its chance as a number (``5p`` over ``12``); at 80x24 the
    reasons have their own scroll keys and the game log stays on screen beside the pool."""
    app = fast_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_the_prepared_table(app, pilot)
        pool = screen.query_one("#pool", TileRow)
        assert {place.note for place in pool.places} == {""}  # off: no numbers
        await pilot.press("d")
        await pilot.pause()
        report = app.trainer.report_for(screen.view)
        assert report is not None
        notes = [place.note for place in pool.places[:len(pool.tiles)]]
        assert notes == [tile_percent(report.of(kind_str(t.kind)).danger) for t in pool.tiles]
        assert all(0 < len(note) <= 2 for note in notes)
        assert screen.query_one(GameLog).display and screen.query_one(DangerPanel).display
        assert "No discards yet." in screen_text(app)  # the log is on screen with the reasons
        await pilot.press("d")
        await pilot.pause()
        assert {place.note for place in pool.places} == {""}


async def test_the_reasons_scroll_with_their_own_keys_and_the_log_stays() -> None:
    """At 80x24 the reasons of the tile with the most of them are longer than the panel: ``}``
    scrolls them down (a reason hidden before comes into view), ``{`` back up; the log and the
    pool keep their place."""
    app = fast_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_the_prepared_table(app, pilot)
        await pilot.press("d")
        await pilot.pause()
        report = app.trainer.report_for(screen.view)
        assert report is not None
        pool = screen.query_one("#pool", TileRow)
        tile = max(pool.tiles, key=lambda t: len(report.of(kind_str(t.kind)).reasons))
        await pilot.press(*str(tile))  # highlight it
        await pilot.pause()
        panel, log = screen.query_one(DangerPanel), screen.query_one(GameLog)
        assert pool.cursor == pool.tiles.index(tile)
        assert panel.max_scroll_y > 0, "the reasons must be longer than the panel"
        last_reason = name_text(report.of(kind_str(tile.kind)).reasons[-1], "letters")
        assert last_reason[:20] not in screen_text(app)
        for _ in range(1 + int(panel.max_scroll_y) // 3):
            await pilot.press("right_curly_bracket")
            await pilot.pause()
            assert panel.scroll_y > 0
        assert panel.scroll_y == panel.max_scroll_y
        assert last_reason[:20] in screen_text(app)
        assert log.scroll_y == 0 and pool.cursor == pool.tiles.index(tile)
        await pilot.press("left_curly_bracket")
        await pilot.pause()
        assert 0 <= panel.scroll_y < panel.max_scroll_y
        for _ in range(int(panel.max_scroll_y) // 3):
            await pilot.press("left_curly_bracket")
            await pilot.pause()
        assert panel.scroll_y == 0 and pool.cursor == pool.tiles.index(tile)


async def test_the_feedback_lines_are_kept_in_the_results_log() -> None:
    app = fast_app(Preferences(hint="off", discard_feedback=True))
    async with app.run_test(size=(100, 32)) as pilot:
        await _to_the_result_after_a_deal_in(app, pilot)
        assert isinstance(app.screen, ResultScreen)
        log = text_of(app, "#result-log")
        assert "1 You" in log and "safest was" in log, log
        assert log.count("safest was") + log.count("that was the safest tile") == 2
