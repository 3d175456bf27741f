"""The SSH front door (``minefield ssh-server``): play with a key, no account.

asyncssh accepts the connection and checks the key (:mod:`.server`); the key's SHA256
fingerprint is the player, whose name, keys and rating live in SQLite (:mod:`.accounts`,
:mod:`.ratings`). What the player typed after the host is checked word by word
(:mod:`.commands`). A session that plays gets a real pseudo-terminal with the ordinary
``minefield`` client in it, forked from a process that has already imported the app
(:mod:`.spawner`); that client talks to the game daemon like any other, with the player's name
given by the front door, which the daemon trusts as its shared account. No Textual runs in the
front door's own process.
"""
