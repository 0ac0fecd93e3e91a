"""Bounded schemathesis run against a real ``slopmark serve`` on a seeded store: every
operation, with and without the token: no 5xx, no failed check (schema, status code,
content type, headers, auth). The long run (≥ 200 examples per operation) is
``fuzz/run.py``; its counts are in ``fuzz/REPORT.md``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from fuzz.apifuzz import TOKEN, ApiCounts, fuzz_api, seed_store, serve

pytestmark = pytest.mark.slow  # starts python

EXAMPLES = 8


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db_url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'runs.db'}"
    assert seed_store(db_url) > 40
    with serve(db_url, TOKEN) as url:
        yield url


def _operations(url: str) -> set[str]:
    spec = httpx.get(url + "/openapi.json", timeout=30).json()
    return {f"{method.upper()} {path}" for path, item in spec["paths"].items() for method in item}


@pytest.mark.parametrize("token", [TOKEN, None], ids=["with token", "without token"])
def test_every_operation_answers_without_5xx_or_a_schema_violation(
    server: str, token: str | None, tmp_path: Path
) -> None:
    counts: ApiCounts = fuzz_api(
        server, token, "bounded", tmp_path / "report.json", EXAMPLES, "coverage,fuzzing"
    )
    assert counts.errors == [], counts.errors
    assert counts.failures == [], counts.failures
    assert counts.server_errors == 0, counts.statuses
    assert counts.exit_code == 0
    assert set(counts.requests) == _operations(server)
    assert all(n >= EXAMPLES for n in counts.requests.values()), counts.requests
    if token is None:
        writes = [counts.statuses[op] for op in counts.statuses if op.startswith("POST")]
        assert all(200 not in codes and 201 not in codes and 202 not in codes for codes in writes)
