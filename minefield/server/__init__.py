"""The game daemon (``minefield serve``) and its wire protocol (ARCHITECTURE: server).

The daemon holds every network game: rooms and their codes, seats bound to Unix users, the
authoritative engine, per-seat messages (R26), clocks (R25), bots in worker processes, matches
(R30-R35: a game after another, scores kept) and a record per game that lets it restart without
losing a move. Clients reach it over a Unix
socket with :class:`~minefield.session.remote.RemoteSession`; ``assets/protocol.md`` is the
protocol for clients written in other languages.
"""
