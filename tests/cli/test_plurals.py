"""Counts with their nouns in the right number: never "1 runs" nor "run(s)"."""

from __future__ import annotations

import pytest

from slopmark.plurals import count, plural


@pytest.mark.parametrize(
    "noun,many",
    [("run", "runs"), ("repository", "repositories"), ("day", "days"), ("pass", "passes"),
     ("match", "matches"), ("box", "boxes"), ("expected failure", "expected failures")],
)  # fmt: skip
def test_plural(noun: str, many: str) -> None:
    assert plural(noun) == many


def test_count_is_singular_only_for_one() -> None:
    assert count(1, "run") == "1 run"
    assert [count(n, "run") for n in (0, 2, 10)] == ["0 runs", "2 runs", "10 runs"]
    assert count(1, "repository") == "1 repository" and count(3, "repository") == "3 repositories"
    assert count(2, "datum", "data") == "2 data" and count(1, "datum", "data") == "1 datum"
