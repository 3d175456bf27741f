"""Minefield: tui/screens."""
