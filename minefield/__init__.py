"""Minefield mahjong: the two-player riichi variant from Kaiji, in the terminal."""

__version__ = "0.1.0"
