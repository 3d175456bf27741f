"""The order the suite's tests are handed out in (tests/conftest.py): under ``pytest -n``
the tests marked ``long`` start first, each at the head of a different worker's first chunk,
so that no worker runs two of them one after the other while the others finish early."""

from __future__ import annotations

from tests.conftest import first_chunk, long_first


def chunks(order: list[str], workers: int, chunk: int) -> list[list[str]]:
    """What xdist's ``load`` scheduling sends each worker first: consecutive chunks."""
    return [order[worker * chunk:(worker + 1) * chunk] for worker in range(workers)]


def test_each_worker_starts_with_a_long_test_of_its_own() -> None:
    tests = [f"t{number}" for number in range(200)]
    long = [test in ("t3", "t50", "t51", "t150", "t199") for test in tests]
    chunk = first_chunk(len(tests), 4, None)
    order = long_first(tests, long, 4, chunk)
    assert sorted(order) == sorted(tests)  # every test, once
    firsts = chunks(order, 4, chunk)
    assert [first[0] for first in firsts] == ["t3", "t50", "t51", "t150"]
    assert firsts[0][:2] == ["t3", "t199"]  # a fifth goes round to the first worker again
    assert [test for test in order if test not in ("t3", "t50", "t51", "t150", "t199")] == [
        test for test in tests if test not in ("t3", "t50", "t51", "t150", "t199")]


def test_the_first_chunk_is_the_one_xdist_sends() -> None:
    assert first_chunk(1540, 4, None) == 96  # a quarter of each worker's share
    assert first_chunk(1540, 4, 10) == 10  # --maxschedchunk
    assert first_chunk(8, 4, None) == 2
    assert first_chunk(7, 4, None) == 0  # sent one by one


def test_without_workers_the_long_tests_are_simply_first() -> None:
    assert long_first(["a", "b", "c"], [False, True, False], 1, 0) == ["b", "a", "c"]
