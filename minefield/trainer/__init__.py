"""The defense trainer: drills, the progress store and the review of finished games.

Above :mod:`minefield.bots` and :mod:`minefield.defense` (it uses both; neither imports it):
drills are built with the bots' hand search and marked with the danger estimate, the review
puts the estimate beside each discard of a record, and the progress store keeps the player's
results. No Textual here; the screens are in :mod:`minefield.tui.screens`.
"""
