"""Run-time assets of Minefield (help text, stylesheet), read with importlib.resources."""
