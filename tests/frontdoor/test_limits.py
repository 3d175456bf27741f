"""The front door's counts: connections per address, authentications per minute, sessions."""

from __future__ import annotations

from minefield.frontdoor.limits import Gate, Limits


def test_pending_connections_per_address_are_capped_and_freed() -> None:
    gate = Gate(Limits(pending_per_address=2, auth_per_minute=100))
    assert gate.connect("a", 0.0) is None and gate.connect("a", 0.0) is None
    assert "at once" in (gate.connect("a", 0.0) or "")
    assert gate.connect("b", 0.0) is None  # another address is not held back
    gate.logged_in_or_gone("a")
    assert gate.connect("a", 0.0) is None


def test_connections_per_minute_refill_over_time() -> None:
    gate = Gate(Limits(pending_per_address=100, auth_per_minute=3))
    for _ in range(3):
        assert gate.connect("a", 0.0) is None
    refusal = gate.connect("a", 0.0)
    assert refusal == "too many connections from a in the last minute: try again in 20 s"
    assert gate.connect("a", 20.0) is None


def test_sessions_per_key_per_address_and_in_all() -> None:
    gate = Gate(Limits(max_sessions=3, sessions_per_key=2, sessions_per_address=2))
    assert gate.open_session("a", "k1") is None and gate.open_session("a", "k1") is None
    assert "this key already has 2 sessions" in (gate.open_session("b", "k1") or "")
    assert "a already has 2 sessions" in (gate.open_session("a", "k2") or "")
    assert gate.open_session("b", "k2") is None
    assert "the server is full (3 sessions)" in (gate.open_session("c", "k3") or "")
    gate.close_session("a", "k1")
    assert gate.open_session("c", "k3") is None
    assert gate.sessions == 3
