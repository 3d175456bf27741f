"""``python -m minefield.server [serve options]``: the daemon without the ``minefield`` CLI."""

from __future__ import annotations

import argparse
import sys

from minefield.server.serve_command import add_serve_arguments, run


def main() -> int:
    """Parse the serve options and run the daemon."""
    parser = argparse.ArgumentParser(prog="python -m minefield.server",
                                     description="the Minefield game server")
    add_serve_arguments(parser)
    args = parser.parse_args()
    args.command = "serve"
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
