"""Every ``minefield`` subcommand and the module of :mod:`minefield.cli` that implements it.

Read before anything else is imported, so it imports nothing.
"""

#: Every subcommand, in the order ``--help`` lists them: the module of this package that adds
#: its parser (``add_parser`` or ``add_parsers``) and runs it (``run``), and its one-line help
#: as that module gives it (a test keeps the two the same). Only the module of the command
#: being run is imported, so ``--version``, ``--help`` and each command load only what they use.
COMMANDS: dict[str, tuple[str, str]] = {
    "practice": ("game", "play against a bot"),
    "hotseat": ("game", "two players at one terminal"),
    "analyze": ("analyze", "waits of a 13-tile hand and what each ron pays"),
    "danger": ("danger", "the danger of each pool tile, with reasons in words"),
    "bot-hand": ("bots", "the hand a bot would build from 34 tiles"),
    "simulate": ("bots", "bot-vs-bot games or matches with statistics"),
    "history": ("records", "list saved games, newest first"),
    "replay": ("records", "watch a saved game again, discard by discard"),
    "lobby": ("lobby", "the game server's lobby: who is on, open tables"),
    "watch": ("watch", "watch a game on the game server (no seat, hands hidden)"),
    "serve": ("network", "run the game server for play over SSH"),
    "host": ("network", "host a network game and get a room code to share"),
    "join": ("network", "join a network game with its room code"),
    "resume": ("network", "go back to your unfinished network game"),
    "ssh-entry": ("ssh_entry",
                  "the forced command of SSH logins (set by the server's administrator)"),
    "ssh-server": ("ssh_server", "let friends play over SSH with just their key (no accounts)"),
    "stats": ("stats", "your defense and drill progress"),
    "review": ("review", "review your defense in a finished game"),
}
MENU_MODULE = "game"  # no command: the menu
