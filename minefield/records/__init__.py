"""Minefield: records."""
