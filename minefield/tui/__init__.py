"""Minefield: tui."""
