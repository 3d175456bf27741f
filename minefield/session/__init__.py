"""Minefield: session."""
