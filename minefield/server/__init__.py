"""The game daemon (``minefield serve``): every network game, kept whole across restarts.

A map, by job:

- :mod:`~minefield.server.daemon`: the daemon's life (start, restore, stop), its connections
  and their hello; :mod:`~minefield.server.front_desk`: which room and seat a ``host``,
  ``join`` or ``resume`` gets (codes, open-game limits), and the lobby's pairings.
- :mod:`~minefield.server.connection`: the connection layer: the socket, one client's
  stream, its lines validated (:mod:`minefield.protocol.wire`) and rate limited
  (:mod:`~minefield.server.limits`) before they reach a room; idle connections closed.
- :mod:`~minefield.server.room`: a room: its seats and the series of games they play
  (:mod:`minefield.table.series`), and **the one start path,
  :meth:`Room.begin <minefield.server.room.Room.begin>`: where every game starts** (the
  first, a match's next game, a rematch: a new series linked to the old by id).
- :mod:`~minefield.server.play`: the game in play at a room (which a room holds): moves
  applied, recorded and paced, the clocks' alarm (R25), the bot's turns, the series' records.
- :mod:`~minefield.server.plan`: what a waiting room will play;
  :mod:`~minefield.server.between_games`: a rematch and a match's next game asked for.
- :mod:`~minefield.server.seats`: who sits where: seat holders, presence and grace (R25b).
- :mod:`~minefield.server.durable` and :mod:`~minefield.server.restore`: durability: each
  game's record written and fsynced before anyone hears of a command, and the one restore
  the daemon runs at start.
- :mod:`~minefield.server.bots`: bot seats in worker processes;
  :mod:`~minefield.server.identity`: who a peer is; :mod:`~minefield.server.config`: settings;
  :mod:`~minefield.server.serve_command`: the ``serve`` subcommand.

The wire messages are not here: they are the protocol's (:mod:`minefield.protocol`), shared
with the clients, so that a client never imports the server and the server never imports a
client; the table a game is played at is :mod:`minefield.table`'s. ``assets/protocol.md`` is
the protocol for clients written in other languages.
"""
