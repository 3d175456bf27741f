"""The SSH front door (``minefield ssh-server``): play with a key, no account.

asyncssh accepts the connection and checks the key (:mod:`.server` starts it all,
:mod:`.ssh_connection` authenticates and limits each connection); the key's SHA256
fingerprint is the player, whose name, keys and rating live in SQLite (:mod:`.accounts`,
:mod:`.ratings`). What the player typed after the host is checked word by word
(:mod:`.commands`) and handed to its route (:mod:`.routes`, one table from command to handler;
the text commands' words in :mod:`.reports`) by the session (:mod:`.ssh_session`). A session
that plays gets a real pseudo-terminal with the ordinary ``minefield`` client in it, forked
from a process that has already imported the app (:mod:`.spawner`), its bytes pumped unread
(:mod:`.pty_pump`); that client talks to the game daemon like any other, with the player's name
given by the front door, which the daemon trusts as its shared account. The daemon runs in a
thread of this process unless one is named (:mod:`.embedded_daemon`); the door's settings and
files are :mod:`.door_config`. No Textual runs in the front door's own process.
"""
