"""A game hosted: :class:`~minefield.table.game_table.GameTable` (one game, its players,
clocks and the messages each seat gets), :class:`~minefield.table.series.Series` (what one
table plays, game after game) and :class:`~minefield.table.match_table.MatchTable` (a match at
one table). No I/O and no asyncio: the local session and the daemon's rooms both hold one."""
