"""Minefield: tui/widgets."""
