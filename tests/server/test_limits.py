"""The connection caps, counted as the daemon counts them (before and after the hello)."""

from __future__ import annotations

from minefield.server.limits import ConnectionCaps


def test_the_shared_account_is_capped_per_player_after_the_hello() -> None:
    caps = ConnectionCaps(total=100, unnamed_per_account=3, per_person=2, shared="games")
    for _ in range(3):
        assert caps.refuse_new("games") is None
        caps.add("games")
    assert "waiting to say hello (3)" in (caps.refuse_new("games") or "")
    # The hellos name two people: alice may hold 2, the third of hers is refused.
    caps.name("games", "alice@games")
    caps.name("games", "alice@games")
    assert "too many connections for one player (2)" in (
        caps.refuse_named("games", "alice@games") or "")
    assert caps.refuse_named("games", "bob@games") is None
    caps.name("games", "bob@games")
    assert caps.refuse_new("games") is None  # nobody waits for a hello any more
    caps.remove("games", "alice@games")
    assert caps.refuse_named("games", "alice@games") is None
    assert caps.count == 2


def test_a_personal_account_counts_its_waiting_connections_as_the_person() -> None:
    caps = ConnectionCaps(total=100, unnamed_per_account=50, per_person=2, shared="games")
    caps.add("ann")
    caps.name("ann", "ann")
    caps.add("ann")  # waiting for its hello: ann's second
    assert "too many connections for one player (2)" in (caps.refuse_new("ann") or "")
    assert caps.refuse_named("ann", "ann") is None  # its own hello does not count it twice
    caps.remove("ann", None)
    assert caps.refuse_new("ann") is None


def test_the_total_is_counted_over_everyone() -> None:
    caps = ConnectionCaps(total=2, unnamed_per_account=5, per_person=5, shared=None)
    caps.add("ann")
    caps.add("bob")
    assert "the server is full (2 connections)" in (caps.refuse_new("cat") or "")
    caps.remove("ann", None)
    assert caps.refuse_new("cat") is None
