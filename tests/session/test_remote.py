"""The network client stands apart from the daemon: the wire messages live in
:mod:`minefield.protocol.wire`, and a client never loads :mod:`minefield.server`."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


@pytest.mark.parametrize("module", ["minefield.session.remote", "minefield.session.remote_start",
                                    "minefield.protocol.wire",
                                    "minefield.protocol.address", "minefield.protocol.codes"])
def test_the_client_side_does_not_import_the_server(module: str) -> None:
    """Importing a client module in a fresh interpreter loads no module of the server."""
    code = (f"import sys, json, {module}; "
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('minefield'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=60)
    loaded = json.loads(done.stdout)
    assert module in loaded
    assert [name for name in loaded if name.split(".")[:2] == ["minefield", "server"]] == []
