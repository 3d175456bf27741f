"""Minefield: bots."""
