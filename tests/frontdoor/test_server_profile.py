"""The lobby's profile screen over ``minefield ssh-server`` with the real OpenSSH client in
tmux: ``p`` and a name shows the figures ``stats --json`` gives for that player, their games
that the player looking may see (a private room's game of two others is not listed), Enter
replays one, Escape goes back to the profile and then to the lobby; a name nobody has is one
line."""

from __future__ import annotations

from pathlib import Path

from minefield.records.reader import read_record
from minefield.server.kept_games import kept_from_record
from tests.e2e.harness import wait_for
from tests.frontdoor.conftest import FrontDoorProcess, SizedTerminals
from tests.frontdoor.test_server_kept import club_records


def test_the_profile_screen_over_ssh_server(folder: Path, keys: dict[str, Path],
                                            terminals: SizedTerminals) -> None:
    ann, bob, cat = keys["ann"], keys["bob"], keys["cat"]
    records = club_records(folder / "door")  # g1 Ann-Bob public, g2 Ann-Bob private,
    # g3 Bob-Cat an invitation's (private), g4 Cat-Ann quick
    ended = {game: kept.ended[:16].replace("T", " ") for game, path in records.items()
             if (kept := kept_from_record(game, read_record(path))) is not None}
    door = FrontDoorProcess(folder, "--open")
    try:
        for key, name in ((ann, "Ann"), (bob, "Bob"), (cat, "Cat")):
            assert door.run(key, "name", name).returncode == 0
        wait_for("the games rated",
                 lambda: len(door.json(ann, "stats", "Bob", "--json")["rating_history"]) == 2,
                 door.report)
        stats = door.json(ann, "stats", "Bob", "--json")
        terminals.open("ann", door.ssh(ann, tty=True))

        def screen() -> str:
            return terminals.screen("ann")

        wait_for("Ann's lobby", lambda: "Online (1)" in screen(), lambda: screen() + door.report())
        terminals.keys("ann", "p")
        wait_for("whose profile", lambda: "Whose profile?" in screen(), screen)
        terminals.keys("ann", "B", "o", "b", "Enter")
        casual = stats["games"] - stats["rated_games"]
        figures = [f"Rating {stats['rating']} ± {stats['deviation']}",
                   f"Games {stats['games']} ({stats['rated_games']} rated, {casual} casual)",
                   f"Won {stats['wins']}, lost {stats['losses']}, drawn {stats['draws']}",
                   f"Win rate {stats['win_rate']:.0%}",
                   f"Deal-ins {stats['deal_ins']} ({stats['deal_in_rate']:.0%})",
                   f"Furiten games {stats['furiten_games']}",
                   f"Average win {stats['average_win']}",
                   f"Average loss {stats['average_loss']}",
                   f"Longest streak {stats['longest_game_streak']}"]
        wait_for("Bob's profile", lambda: all(f in screen() for f in figures),
                 lambda: f"{figures}\n{screen()}\n{door.report()}")
        shown = screen()
        # Bob's games Ann may see, newest first: g2 (hers, private) and g1; not g3 (Bob and
        # Cat's invitation).
        assert shown.index(ended["g2"]) < shown.index(ended["g1"])
        assert ended["g3"] not in shown
        assert "Rating after each of the last 2 rated games" in shown
        terminals.keys("ann", "Enter")  # the newest: g2, replayed
        wait_for("the replay", lambda: "step 0/34" in screen() and "q Profile" in screen(),
                 lambda: screen() + door.report())
        terminals.keys("ann", "Escape")
        wait_for("the profile again", lambda: figures[0] in screen(), screen)
        terminals.keys("ann", "Escape")
        wait_for("the lobby again", lambda: "Online (1)" in screen(), screen)
        # A name nobody has: one line.
        terminals.keys("ann", "p")
        wait_for("whose profile", lambda: "Whose profile?" in screen(), screen)
        terminals.keys("ann", "Z", "e", "d", "Enter")
        wait_for("one line", lambda: "no player is called 'Zed' here" in screen(), screen)
        assert "Traceback" not in screen()
        terminals.keys("ann", "Escape")
        wait_for("the lobby", lambda: "Online (1)" in screen(), screen)
        terminals.keys("ann", "q")
        wait_for("ssh ends with the lobby", lambda: terminals.ended("ann"), screen)
    finally:
        door.stop()
