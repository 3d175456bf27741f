"""The wire between a client and the game daemon: the session messages
(:mod:`~minefield.protocol.messages`), their JSON-lines framing and handshake
(:mod:`~minefield.protocol.wire`), room codes (:mod:`~minefield.protocol.codes`), where the
daemon's socket is (:mod:`~minefield.protocol.address`) and the watcher's public table
(:mod:`~minefield.protocol.watching`). Models only: the clients are in
:mod:`minefield.session`, the daemon in :mod:`minefield.server`."""
